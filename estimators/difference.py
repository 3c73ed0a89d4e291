"""Estimators of the performance difference A - B from one repetition of a splitting strategy.

Xue et al., "We Need to Talk About Reproducibility in NLP Model Comparison", section 3:

- ``holdout``: F1_A - F1_B on one 8:1 validation set (standard split, ST; section 3.3).
- ``repeated_holdout``: the mean of k hold-out differences (random splits, RS; section 3.3).
- ``avg``: the mean of the 2m hold-out differences of an m x 2 BCV (section 3.2, Case II).
- ``vote``: every sentence is validated by m basis models of A (Table 2); their predictions are
  majority-voted into one prediction per sentence, the vote predictions of all n sentences are
  scored against gold (vote F1 of A), likewise for B, and the estimate is the difference (Case I).
- ``mixture``: vote when vote > avg, else avg (Eq. 8, for the conclusion "A > B"; for "B > A"
  the larger of the two in that direction).

F1 values are fractions in [0, 1].
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from reprocompare.corpora.schemes import chunks, chunks_to_tags, convert

VOTING = ("chunk", "token")


def _finite(values: np.ndarray, name: str, what: str = "F1 scores") -> np.ndarray:
    """``values`` when every one is a finite number: a NaN or inf (a failed fold) would
    otherwise pass through every estimate silently."""
    bad = np.flatnonzero(~np.isfinite(values))
    if bad.size:
        where = "" if values.ndim == 0 else f"[{int(bad[0])}]"
        raise ValueError(f"{name}{where} is {float(values.flat[bad[0]])!r}: {what} must be "
                         "finite numbers")
    return values


def _f1(values: np.ndarray, name: str) -> np.ndarray:
    """``values`` when every one is an F1 score: finite, in [0, 1] (a fraction; F1 points, or
    a difference given for a score, would make every estimate a hundred times too large, or
    meaningless)."""
    values = _finite(values, name)
    bad = np.flatnonzero((values < 0) | (values > 1))
    if bad.size:
        where = "" if values.ndim == 0 else f"[{int(bad[0])}]"
        raise ValueError(f"{name}{where} is {float(values.flat[bad[0]])!r}: an F1 score lies in "
                         "[0, 1] (a fraction, not F1 points)")
    return values


def holdout(f1_a: float, f1_b: float) -> float:
    """The standard-split estimate: F1_A - F1_B on the single validation set.

    Parameters
    ----------
    f1_a, f1_b : float
        A's and B's F1 on the validation set.

    Returns
    -------
    float
        The estimate of A - B.
    """
    return float(_f1(np.float64(f1_a), "f1_a")) - float(_f1(np.float64(f1_b), "f1_b"))


def fold_differences(f1_a: Sequence[float], f1_b: Sequence[float]) -> np.ndarray:
    """The per-fold differences F1_A - F1_B of paired fold scores.

    Parameters
    ----------
    f1_a, f1_b : sequence of float
        A's and B's F1 on each fold, paired.

    Returns
    -------
    numpy.ndarray
        One difference per fold.
    """
    f1_a, f1_b = np.asarray(f1_a, dtype=np.float64), np.asarray(f1_b, dtype=np.float64)
    if f1_a.shape != f1_b.shape or f1_a.ndim != 1 or not len(f1_a):
        raise ValueError(f"need two equal-length, non-empty lists of fold scores, got "
                         f"{f1_a.shape} and {f1_b.shape}")
    return _f1(f1_a, "f1_a") - _f1(f1_b, "f1_b")


def repeated_holdout(f1_a: Sequence[float], f1_b: Sequence[float]) -> float:
    """The random-splits estimate: the mean of the k hold-out differences (Gorman & Bedrick).

    Parameters
    ----------
    f1_a, f1_b : sequence of float
        A's and B's F1 on each of the k hold-outs, paired.

    Returns
    -------
    float
        The estimate of A - B.
    """
    return float(fold_differences(f1_a, f1_b).mean())


def avg(f1_a: Sequence[float], f1_b: Sequence[float]) -> float:
    """The averaged m x 2 BCV estimate: the mean of the 2m fold differences (section 3.2).

    Parameters
    ----------
    f1_a, f1_b : sequence of float
        A's and B's F1 on each of the 2m folds, paired.

    Returns
    -------
    float
        The estimate of A - B.
    """
    return float(fold_differences(f1_a, f1_b).mean())


def mixture(vote: float, avg: float, conclusion: str = "A>B") -> tuple[float, str]:
    """Eq. 8: Delta * vote + (1 - Delta) * avg, Delta = 1 iff vote is the larger in the
    direction of the conclusion under test.

    The paper writes Eq. 8 for the published conclusion "A > B" (Delta = 1 iff vote > avg): the
    mixture keeps the estimate that says more for that conclusion. For "B > A" the same rule
    reads on B - A, so it keeps the smaller A - B (Delta = 1 iff vote < avg). Both estimates stay
    A - B; only the choice depends on the direction.

    Returns the estimate of A - B and which case was chosen ("vote": Case I, the difference
    grows with the training size; "avg": Case II).

    Parameters
    ----------
    vote : float
        Vote's estimate of A - B.
    avg : float
        Avg's estimate of A - B.
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test.

    Returns
    -------
    (float, str)
        The estimate of A - B, and ``'vote'`` or ``'avg'``.

    Examples
    --------
    >>> mixture(0.02, 0.01), mixture(0.02, 0.01, "B>A")
    ((0.02, 'vote'), (0.01, 'avg'))
    """
    if conclusion not in ("A>B", "B>A"):
        raise ValueError(f"unknown conclusion {conclusion!r}; expected A>B or B>A")
    # a NaN compares false with everything: the choice would be silently avg
    vote, avg = (float(_finite(np.float64(value), name, "estimates"))
                 for value, name in ((vote, "vote"), (avg, "avg")))
    larger = vote > avg if conclusion == "A>B" else vote < avg
    return (float(vote), "vote") if larger else (float(avg), "avg")


def vote_chunks(basis: Sequence[Sequence[str]], scheme: str) -> list[str]:
    """Chunk-level majority vote of m basis predictions of one sentence (default).

    A chunk (start, end, type) is in the vote when more than m/2 basis predictions contain exactly
    that chunk. The chunks of one prediction never overlap, so two overlapping chunks could each
    have a strict majority only if some prediction held both (their votes add up to more than m):
    the voted chunks never overlap, for any m, and the vote is always a valid labeling, written
    in ``scheme``.

    Parameters
    ----------
    basis : sequence of sequence of str
        The m basis predictions of one sentence.
    scheme : str
        The tag scheme the vote is written in.

    Returns
    -------
    list of str
        The voted tags.
    """
    m = len(basis)
    if not m:
        raise ValueError("no basis predictions to vote on")
    length = len(basis[0])
    votes = Counter(chunk for tags in basis for chunk in set(chunks(tags)))
    return chunks_to_tags([c for c, n in votes.items() if 2 * n > m], length, scheme)


def vote_tokens(basis: Sequence[Sequence[str]], scheme: str) -> list[str]:
    """Token-level majority vote: the most frequent tag at each position, then made valid.

    Ties go to the tag that comes first in sorted order, so the vote never depends on the order
    of the basis models. Per-token majorities can form an ill-formed sequence (``O I-NP``); it is
    repaired by reading its chunks as conlleval does and writing them in ``scheme``.

    Parameters
    ----------
    basis : sequence of sequence of str
        The m basis predictions of one sentence.
    scheme : str
        The tag scheme the vote is written in.

    Returns
    -------
    list of str
        The voted tags.
    """
    if not basis:
        raise ValueError("no basis predictions to vote on")
    voted = []
    for column in zip(*basis):
        counts = Counter(column)
        best = max(counts.values())
        voted.append(min(tag for tag, n in counts.items() if n == best))
    return convert(voted, scheme)


def vote_labels(basis: Sequence[str]) -> str:
    """Plain label vote for corpora of single-label items; ties to the first in sorted order.

    Parameters
    ----------
    basis : sequence of str
        The m basis labels of one item.

    Returns
    -------
    str
        The voted label.
    """
    counts = Counter(basis)
    best = max(counts.values())
    return min(label for label, n in counts.items() if n == best)


def vote_predictions(basis_by_sentence: Sequence[Sequence[Sequence[str]]], scheme: str,
                     method: str = "chunk") -> list[list[str]]:
    """Vote predictions for every sentence from its m basis predictions (Table 2).

    Parameters
    ----------
    basis_by_sentence : sequence of sequence of sequence of str
        Per sentence, its m basis predictions.
    scheme : str
        The tag scheme the vote is written in.
    method : {'chunk', 'token'}, default 'chunk'
        Chunk-level (:func:`vote_chunks`) or token-level (:func:`vote_tokens`) vote.

    Returns
    -------
    list of list of str
        One voted tag sequence per sentence.
    """
    if method not in VOTING:
        raise ValueError(f"unknown voting method {method!r}; expected one of {', '.join(VOTING)}")
    vote = vote_chunks if method == "chunk" else vote_tokens
    return [vote(basis, scheme) for basis in basis_by_sentence]


@dataclass(frozen=True)
class BCVEstimates:
    """All the estimates of one m x 2 BCV repetition for a pair (A, B)."""

    avg: float
    vote: float
    mixture: float
    mixture_chose: str
    fold_differences: tuple[float, ...]
    per_model: dict[str, dict[str, float]]

    def as_dict(self) -> dict:
        return {"avg": self.avg, "vote": self.vote, "mixture": self.mixture,
                "mixture_chose": self.mixture_chose,
                "fold_differences": list(self.fold_differences), "per_model": self.per_model}


def bcv_estimates(fold_f1: dict[str, Sequence[float]], vote_f1: dict[str, float]) -> BCVEstimates:
    """avg, vote and mixture of one BCV repetition from fold F1s and vote F1s of "A" and "B".

    Parameters
    ----------
    fold_f1 : dict of str to sequence of float
        The 2m fold F1s of ``"A"`` and ``"B"``.
    vote_f1 : dict of str to float
        The F1 of each one's vote.

    Returns
    -------
    BCVEstimates
        avg, vote, mixture and the case the mixture chose.
    """
    differences = fold_differences(fold_f1["A"], fold_f1["B"])
    average = float(differences.mean())
    voted = holdout(vote_f1["A"], vote_f1["B"])  # each vote's F1 checked as a fold's
    mixed, chose = mixture(voted, average)
    per_model = {name: {"avg": float(np.mean(fold_f1[name])), "vote": float(vote_f1[name])}
                 for name in ("A", "B")}
    return BCVEstimates(average, voted, mixed, chose, tuple(float(d) for d in differences),
                        per_model)
