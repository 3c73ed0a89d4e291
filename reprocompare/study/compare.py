"""One repetition of one splitting strategy for one pair of models: split, train, predict, estimate.

This is the unit of work of the study: ``reprocompare compare`` runs it from the command line and
every training job of the Snakemake workflow calls :func:`run_comparison` and
:func:`write_comparison`, so a job's results can be reproduced by hand with one command.

Features are computed once per process and shared by both models and every fold (a fold selects
rows). Models A and B of a fold are trained with the same seed (common random numbers), so the
fold's difference reflects the setting under comparison, not two different initialisations.
"""

from __future__ import annotations

import gzip
import io
import sys
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from reprocompare.base.errors import UserError
from reprocompare.base.files import write_text_atomic
from reprocompare.base.run_records import (COUNTS_COLUMNS, RUNTIME, SCORES, finished,
                                           read_counts, read_split, write_counts, write_split)
from reprocompare.base.seeds import FOLD_TRAINING, derive_seed
from reprocompare.corpora.conll import Corpus
from reprocompare.corpora.scoring import ChunkCounts, count_chunks
from reprocompare.estimators.difference import vote_predictions
from reprocompare.models.base import clone
from reprocompare.models.engine import Features, train_fold
from reprocompare.splitters import dumps
from reprocompare.strategies import Estimates, strategy as strategy_of, write_estimates

PAIR = ("A", "B")


def model_seed(split: dict, fold: int) -> int:
    """The training seed of fold ``fold``: derived from the split's seed, strategy, repetition.

    Models A and B of a fold get the same seed (common random numbers).

    Parameters
    ----------
    split : dict
        The split document.
    fold : int
        The fold's index.

    Returns
    -------
    int
        The seed.
    """
    return derive_seed(split["seed"], strategy_of(split["strategy"]).code, int(split["repetition"]),
                       fold, FOLD_TRAINING)


@dataclass
class FoldResult:
    """One fold as trained: its rows, and each model's predictions, chunk counts and seconds."""
    train: np.ndarray
    validation: np.ndarray
    predictions: dict[str, list[list[str]]]  # model -> predicted tags of the validation sentences
    counts: dict[str, ChunkCounts]
    seconds: dict[str, float]


@dataclass
class ComparisonRun:
    """Everything one repetition produced; :func:`write_comparison` puts it on disk."""

    split: dict
    specs: dict[str, str]
    folds: list[FoldResult]
    estimates: Estimates | None
    vote: dict[str, tuple[list[list[str]], ChunkCounts]] = field(default_factory=dict)


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def run_comparison(corpus: Corpus, split: dict, models: dict, specs: dict[str, str] | None = None,
                   *, typed: bool = True, voting: str = "chunk",
                   progress: Callable[[str], None] | None = _stderr,
                   kept: dict[int, FoldResult] | None = None,
                   train_typed: bool | None = None) -> ComparisonRun:
    """Train models "A" and "B" on every fold of ``split`` and compute the strategy's estimates.

    Parameters
    ----------
    corpus : Corpus
        The corpus the split was made for (its size and checksum are checked).
    split : dict
        A split document (:func:`splitters.split_document`).
    models : dict
        ``{"A": model, "B": model}``: unfitted taggers with the models' interface; they are
        cloned per fold with the fold's seed.
    specs : dict, optional
        ``{"A": spec string, "B": ...}`` recorded in the outputs.
    typed : bool
        Score typed chunks (False: boundaries only, the paper's NER setting).
    voting : {"chunk", "token"}
        How the vote estimator combines the m basis predictions of a sentence (bcv only).
    train_typed : bool, optional
        Recorded with an untyped task: whether the taggers trained on typed tags (True) or on
        boundaries (False, :func:`reprocompare.corpora.conll.task_corpus`); the caller passes
        the corpus accordingly.
    kept : dict, optional
        Folds already trained (fold index -> its result, read back by :func:`read_kept_folds`):
        they are taken as they are, and only the other folds train.
    progress : callable, optional
        Called with a line per fold and model; default to stderr.

    Returns
    -------
    ComparisonRun
        The folds, the estimates and the settings of the repetition.
    """
    if split["n_sentences"] != len(corpus):
        raise ValueError(f"the split is for {split['n_sentences']} sentences, the corpus has "
                         f"{len(corpus)}")
    if split.get("corpus_sha256") and split["corpus_sha256"] != corpus.sha256:
        raise ValueError("the split was made for another corpus (sha256 differs)")
    say = progress or (lambda message: None)
    kept = kept or {}
    n_folds = len(split["folds"])
    # once per distinct feature template, shared by both models if equal
    features = Features(corpus.sentences, say)
    if len(kept) < n_folds:
        for name in PAIR:
            features.of(models[name], name)

    folds = []
    for f, fold in enumerate(split["folds"]):
        if f in kept:
            folds.append(kept[f])
            say(f"fold {f + 1}/{n_folds}: kept from the previous run (F1 A "
                f"{kept[f].counts['A'].f1():.4f}, B {kept[f].counts['B'].f1():.4f})")
            continue
        train = np.asarray(fold["train"], dtype=np.int64)
        validation = np.asarray(fold["validation"], dtype=np.int64)
        predictions, counts, seconds = {}, {}, {}
        for name in PAIR:
            model = clone(models[name]).set_params(random_state=model_seed(split, f)) \
                if "random_state" in models[name].get_params() else clone(models[name])
            trained = train_fold(
                model, features.of(models[name], name), train, validation, corpus.tags,
                scheme=corpus.scheme, typed=typed,
                where=f"fold {f + 1}/{n_folds}, model {name} ({(specs or {}).get(name, '?')})")
            predictions[name], counts[name] = trained.predictions, trained.counts
            seconds[name] = trained.seconds
            say(f"fold {f + 1}/{n_folds}: {name} trained on {len(train)}, F1 "
                f"{counts[name].f1():.4f} on {len(validation)} ({seconds[name]:.1f} s)")
        folds.append(FoldResult(train, validation, predictions, counts, seconds))

    run = ComparisonRun(split=split, specs=dict(specs or {}), folds=folds, estimates=None)
    run.estimates = _estimates(run, corpus, typed=typed, voting=voting, train_typed=train_typed)
    return run


def _estimates(run: ComparisonRun, corpus: Corpus, *, typed: bool, voting: str,
               train_typed: bool | None) -> Estimates:
    """The repetition's record: what its strategy estimates from the fold F1s and, for a voting
    strategy, from each model's vote, with the specs and how it scored and trained."""
    strategy = strategy_of(run.split["strategy"])
    f1 = {name: [fold.counts[name].f1() for fold in run.folds] for name in PAIR}
    vote_f1 = _vote(run, corpus, typed=typed, voting=voting) if strategy.votes else None
    return dataclasses.replace(
        strategy.estimate(f1, vote_f1), models=run.specs, typed=typed,
        # typed runs keep the record they always had
        train_typed=bool(train_typed) if not typed and train_typed is not None else None,
        **({"voting": voting} if strategy.votes else {}))


def _vote(run: ComparisonRun, corpus: Corpus, *, typed: bool, voting: str) -> dict:
    """Each model's vote F1 (Table 2): every sentence is validated by m folds (one per
    repetition of the BCV); its m basis predictions, gathered in fold order, vote, and all n
    vote predictions are scored at once. The votes and their counts are kept in ``run.vote``."""
    vote_f1 = {}
    for name in PAIR:
        basis: list[list] = [[] for _ in range(len(corpus))]
        for fold in run.folds:
            for sentence, tags in zip(fold.validation.tolist(), fold.predictions[name]):
                basis[sentence].append(tags)
        voted = vote_predictions(basis, corpus.scheme, voting)
        counts = count_chunks(corpus.tags, voted, typed=typed)
        run.vote[name] = (voted, counts)
        vote_f1[name] = counts.f1()
    return vote_f1


def _conll(corpus: Corpus, sentences: np.ndarray, predicted: list[list[str]]) -> str:
    out = io.StringIO()
    for index, tags in zip(sentences.tolist(), predicted):
        sentence = corpus.sentences[index]
        for token, gold, guess in zip(sentence.tokens, sentence.tags, tags):
            out.write(f"{token} {gold} {guess}\n")
        out.write("\n")
    return out.getvalue()


def _counts_table(run: ComparisonRun) -> bytes:
    """Per-sentence sufficient statistics of every fold and of the vote, as gzipped TSV."""
    lines = ["\t".join(COUNTS_COLUMNS)]
    for f, fold in enumerate(run.folds):
        for name in PAIR:
            totals = fold.counts[name].totals
            lines.extend(f"{f}\t{name}\t{s}\t{g}\t{p}\t{c}"
                         for s, (g, p, c) in zip(fold.validation.tolist(), totals.tolist()))
    for name, (_, counts) in run.vote.items():
        lines.extend(f"vote\t{name}\t{s}\t{g}\t{p}\t{c}"
                     for s, (g, p, c) in enumerate(counts.totals.tolist()))
    # mtime=0: the same counts give the same bytes (byte-identical reruns)
    return gzip.compress(("\n".join(lines) + "\n").encode(), mtime=0)


def write_comparison(run: ComparisonRun, corpus: Corpus, out_dir: str | Path, *,
                     keep_predictions: bool = True) -> Path:
    """Write split.json, scores.json, counts.tsv.gz, runtime.json, estimates.json, predictions.

    Each file is written atomically; estimates.json comes last, so its presence means the
    directory is complete.

    Parameters
    ----------
    run : ComparisonRun
        What :func:`run_comparison` returned.
    corpus : Corpus
        The corpus it ran on.
    out_dir : str or os.PathLike
        The repetition's directory.
    keep_predictions : bool, default True
        Whether the predictions are written too.

    Returns
    -------
    pathlib.Path
        The directory.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    write_split(out, dumps(run.split))
    if keep_predictions:
        for f, fold in enumerate(run.folds):
            for name in PAIR:
                write_text_atomic(out / f"fold{f}" / f"{name}.conll",
                                  _conll(corpus, fold.validation, fold.predictions[name]))
    folds = []
    for fold in run.folds:
        entry = {"n_train": len(fold.train), "n_validation": len(fold.validation)}
        for name in PAIR:
            score = fold.counts[name].score()
            entry[name] = {"f1": score.f1, "precision": score.precision, "recall": score.recall}
        folds.append(entry)
    scores = {"models": run.specs, "folds": folds}
    SCORES.write(out, scores)
    write_counts(out, _counts_table(run))
    # wall times vary from run to run: kept apart so every other output is byte-identical
    RUNTIME.write(out, {"folds": [
        {name: round(fold.seconds[name], 3) for name in PAIR} for fold in run.folds]})
    write_estimates(out, run.estimates)
    return out


def read_kept_folds(out_dir: str | Path, split: dict, corpus: Corpus, *,
                    typed: bool = True) -> tuple[dict[int, FoldResult], str]:
    """The folds of ``split`` that a complete earlier run in ``out_dir`` already trained.

    A fold is kept when the earlier run split the same corpus (sha256) and drew exactly the same
    train and validation sentences for it: how a random-splits repetition grows from k to k' > k
    hold-outs without training its first k again (hold-out i does not depend on k). Only what
    :func:`write_comparison` wrote is read: the per-sentence counts, the fold's training time and,
    where they were kept, the predictions (which then give the full counts back). The caller
    checks that the models and settings are the same (:mod:`reprocompare.pipeline.jobs`).

    Returns the kept folds and, when none could be kept from a run that exists, why.

    Parameters
    ----------
    out_dir : str or os.PathLike
        The repetition's directory.
    split : dict
        The split about to run.
    corpus : Corpus
        The corpus.
    typed : bool, default True
        Whether the scores count typed chunks.

    Returns
    -------
    (dict of int to FoldResult, str)
        The kept folds, and why none was kept ('' otherwise).
    """
    out = Path(out_dir)
    if not finished(out):  # estimates.json, written last: no estimates, no complete run
        return {}, ""
    try:
        previous = read_split(out)
        seconds = RUNTIME.read(out)["folds"]
        rows = read_counts(out)
    except (UserError, OSError, ValueError, KeyError, TypeError) as error:
        return {}, f"the earlier outputs cannot be read ({error})"
    if previous.get("corpus_sha256") != corpus.sha256:
        return {}, "the earlier run split another corpus"
    totals: dict[tuple[str, str], list] = {}
    for fold, model, *values in rows:
        totals.setdefault((fold, model), []).append(values)
    kept = {}
    for f, (old, new) in enumerate(zip(previous.get("folds", []), split["folds"])):
        if old != new:
            break
        validation = np.asarray(new["validation"], dtype=np.int64)
        counts, predictions = {}, {}
        for name in PAIR:
            table = np.asarray(totals.get((str(f), name), []), dtype=np.int64).reshape(-1, 4)
            if not np.array_equal(table[:, 0], validation):
                return {}, f"the earlier counts of fold {f} do not match its split"
            path = out / f"fold{f}" / f"{name}.conll"
            if path.is_file():  # predictions kept: recount them in full
                predictions[name] = [[line.split()[-1] for line in block.splitlines()]
                                     for block in path.read_text(encoding="utf-8").split("\n\n")
                                     if block.strip()]
                counts[name] = count_chunks([corpus.sentences[i].tags for i in validation],
                                            predictions[name], typed=typed)
                if not np.array_equal(counts[name].totals, table[:, 1:]):
                    return {}, f"the earlier predictions of fold {f} do not match its counts"
            else:  # only the totals were kept: all that the estimates and scores.json use
                counts[name] = ChunkCounts(("",), table[:, None, 1:],
                                           np.zeros((len(table), 2), dtype=np.int64))
        kept[f] = FoldResult(np.asarray(new["train"], dtype=np.int64), validation, predictions,
                             counts, {name: float(seconds[f][name]) for name in PAIR})
    return kept, ""
