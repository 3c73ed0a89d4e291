"""Chunk precision, recall and F1 as conlleval computes them, from per-sentence sufficient statistics.

For every sentence we count gold chunks, predicted chunks and correct chunks (a predicted chunk is
correct when a gold chunk has the same start, end and type), per chunk type, plus tokens and
correctly tagged tokens. Chunk F1 of any set of sentences is then a sum of rows followed by one
division: the estimators (vote), the sentence-level bootstrap and the randomization test rescore
subsets or reweightings of sentences without re-reading predictions. Micro-averaged F1 over chunks
is *not* the mean of sentence F1s, which is why the counts, not scores, are the unit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np

from reprocompare.corpora.schemes import chunks, is_chunk_tag

GOLD, PRED, CORRECT = 0, 1, 2


@dataclass(frozen=True)
class ChunkScore:
    """Scores of a set of sentences; fractions in [0, 1] (conlleval prints them times 100)."""

    precision: float
    recall: float
    f1: float
    gold_chunks: int
    pred_chunks: int
    correct_chunks: int
    tokens: int
    correct_tags: int
    per_type: dict[str, dict[str, float | int]] = field(default_factory=dict)

    @property
    def accuracy(self) -> float:
        return self.correct_tags / self.tokens if self.tokens else 0.0

    def as_dict(self) -> dict:
        return {"precision": self.precision, "recall": self.recall, "f1": self.f1,
                "gold_chunks": self.gold_chunks, "pred_chunks": self.pred_chunks,
                "correct_chunks": self.correct_chunks, "per_type": self.per_type}


def prf(gold: int, pred: int, correct: int) -> tuple[float, float, float]:
    """Precision, recall, F1 with conlleval's conventions: 0 where a denominator is 0.

    Parameters
    ----------
    gold, pred, correct : int
        Gold, predicted and correct chunks.

    Returns
    -------
    (float, float, float)
        Precision, recall and F1, in [0, 1].
    """
    precision = correct / pred if pred else 0.0
    recall = correct / gold if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def f1_from_counts(counts: np.ndarray) -> np.ndarray:
    """Chunk F1 from summed ``(..., 3)`` arrays of (gold, pred, correct), vectorized.

    ``2 c / (g + p)`` equals conlleval's ``2 P R / (P + R)`` (0 when nothing is gold or predicted).

    Parameters
    ----------
    counts : numpy.ndarray, shape (..., 3)
        Summed (gold, pred, correct) counts.

    Returns
    -------
    numpy.ndarray
        F1, of shape ``counts.shape[:-1]``.
    """
    counts = np.asarray(counts, dtype=np.float64)
    denominator = counts[..., GOLD] + counts[..., PRED]
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = 2.0 * counts[..., CORRECT] / denominator
    return np.where(denominator > 0, f1, 0.0)


@dataclass(frozen=True)
class ChunkCounts:
    """Per-sentence sufficient statistics for chunk scoring.

    ``by_type[s, t]`` holds (gold, pred, correct) of chunk type ``types[t]`` in sentence ``s``;
    ``tokens[s]`` holds (tokens, correctly tagged tokens).
    """

    types: tuple[str, ...]
    by_type: np.ndarray  # (n_sentences, n_types, 3) int64
    tokens: np.ndarray  # (n_sentences, 2) int64

    def __len__(self) -> int:
        return self.by_type.shape[0]

    @property
    def totals(self) -> np.ndarray:
        """(n_sentences, 3): gold, pred, correct over all types, per sentence."""
        return self.by_type.sum(axis=1)

    def subset(self, index: Sequence[int] | np.ndarray) -> "ChunkCounts":
        index = np.asarray(index, dtype=np.int64)
        return ChunkCounts(self.types, self.by_type[index], self.tokens[index])

    def score(self, index: Sequence[int] | np.ndarray | None = None) -> ChunkScore:
        """conlleval's figures for the sentences in ``index`` (all sentences by default)."""
        counts = self if index is None else self.subset(index)
        by_type = counts.by_type.sum(axis=0)
        gold, pred, correct = (int(x) for x in by_type.sum(axis=0))
        precision, recall, f1 = prf(gold, pred, correct)
        per_type = {}
        for t, name in enumerate(self.types):
            g, p, c = (int(x) for x in by_type[t])
            if g or p:  # conlleval lists the types that occur in gold or predictions
                tp, tr, tf = prf(g, p, c)
                per_type[name] = {"precision": tp, "recall": tr, "f1": tf,
                                  "gold_chunks": g, "pred_chunks": p, "correct_chunks": c}
        tokens, correct_tags = (int(x) for x in counts.tokens.sum(axis=0))
        return ChunkScore(precision, recall, f1, gold, pred, correct, tokens, correct_tags,
                          per_type)

    def f1(self, index: Sequence[int] | np.ndarray | None = None) -> float:
        totals = self.totals if index is None else self.totals[np.asarray(index, dtype=np.int64)]
        return float(f1_from_counts(totals.sum(axis=0)))


def check_predictions(gold: Sequence[Sequence[str]], predicted) -> None:
    """A tagger's predictions are one tag sequence per gold sentence, token for token, each tag
    ``O`` or a chunk prefix (B, I, E, S) with an optional hyphen and type.

    Raises ValueError saying what is wrong and where (sentence and token, 0-based): what a
    command tagger's output is checked for, asked of every tagger before it is scored.

    Parameters
    ----------
    gold : sequence of sequence of str
        The gold tag sequences.
    predicted : sequence of sequence of str
        The tagger's predictions.
    """
    if isinstance(predicted, (str, bytes)) or not hasattr(predicted, "__len__"):
        raise ValueError(f"predict returned {type(predicted).__name__}, not a list of tag "
                         "sequences (one per sentence)")
    if len(predicted) != len(gold):
        raise ValueError(f"predict returned {len(predicted)} sentences for {len(gold)}")
    for s, (g_tags, p_tags) in enumerate(zip(gold, predicted)):
        if isinstance(p_tags, (str, bytes)) or not hasattr(p_tags, "__len__"):
            raise ValueError(f"sentence {s}: {type(p_tags).__name__}, not a sequence of tags")
        if len(p_tags) != len(g_tags):
            raise ValueError(f"sentence {s}: {len(p_tags)} tags for {len(g_tags)} tokens")
        for t, tag in enumerate(p_tags):
            if not isinstance(tag, str) or not is_chunk_tag(tag):
                raise ValueError(f"sentence {s}, token {t}: {tag!r} is not a chunk tag (O, or "
                                 "B, I, E or S with a hyphen and a type)")


def count_chunks(gold: Iterable[Sequence[str]], pred: Iterable[Sequence[str]], *,
                 typed: bool = True) -> ChunkCounts:
    """Per-sentence chunk counts of predictions against gold tag sequences.

    Parameters
    ----------
    gold, pred : iterables of tag sequences
        Aligned sentence by sentence and token by token (a mismatch is a ValueError).
    typed : bool
        False scores chunk boundaries only: types are dropped before chunks are read.

    Returns
    -------
    ChunkCounts
        Per-sentence (gold, pred, correct) counts, overall and per chunk type.
    """
    gold, pred = list(gold), list(pred)
    if len(gold) != len(pred):
        raise ValueError(f"{len(gold)} gold sentences but {len(pred)} predicted sentences")
    rows: list[tuple[dict[str, list[int]], int, int]] = []
    names: set[str] = set()
    for s, (g_tags, p_tags) in enumerate(zip(gold, pred)):
        if len(g_tags) != len(p_tags):
            raise ValueError(f"sentence {s}: {len(g_tags)} gold tags but {len(p_tags)} predicted")
        g_chunks = set(chunks(g_tags, typed=typed))
        p_chunks = set(chunks(p_tags, typed=typed))
        counts: dict[str, list[int]] = {}
        for chunk in g_chunks:
            counts.setdefault(chunk[2], [0, 0, 0])[GOLD] += 1
        for chunk in p_chunks:
            entry = counts.setdefault(chunk[2], [0, 0, 0])
            entry[PRED] += 1
            entry[CORRECT] += chunk in g_chunks
        names.update(counts)
        rows.append((counts, len(g_tags), sum(a == b for a, b in zip(g_tags, p_tags))))
    types = tuple(sorted(names))
    position = {name: t for t, name in enumerate(types)}
    by_type = np.zeros((len(rows), len(types), 3), dtype=np.int64)
    tokens = np.zeros((len(rows), 2), dtype=np.int64)
    for s, (counts, n_tokens, n_correct) in enumerate(rows):
        for name, values in counts.items():
            by_type[s, position[name]] = values
        tokens[s] = n_tokens, n_correct
    return ChunkCounts(types, by_type, tokens)


def conlleval_report(score: ChunkScore) -> str:
    """The report conlleval prints, figure for figure (percentages with two decimals).

    Parameters
    ----------
    score : ChunkScore
        The scores to print.

    Returns
    -------
    str
        The report.
    """
    lines = [f"processed {score.tokens} tokens with {score.gold_chunks} phrases; "
             f"found: {score.pred_chunks} phrases; correct: {score.correct_chunks}.",
             f"accuracy: {100 * score.accuracy:6.2f}%; precision: {100 * score.precision:6.2f}%; "
             f"recall: {100 * score.recall:6.2f}%; FB1: {100 * score.f1:6.2f}"]
    for name, s in score.per_type.items():
        lines.append(f"{name or '(untyped)':>17}: precision: {100 * s['precision']:6.2f}%; "
                     f"recall: {100 * s['recall']:6.2f}%; FB1: {100 * s['f1']:6.2f}  "
                     f"{s['pred_chunks']}")
    return "\n".join(lines) + "\n"
