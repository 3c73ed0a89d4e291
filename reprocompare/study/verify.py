"""A repetition's records checked against themselves: the one check every reader of a compare
job's directory makes before it takes a number from it.

A compare job (:func:`reprocompare.study.compare.write_comparison`) writes records that imply
one another. The sentence-level counts (counts.tsv.gz: gold, predicted and correct chunks of
every validation sentence of every fold, and of a BCV's vote) give each fold's chunk F1 of A and
B, ``2 c / (g + p)`` summed over the fold's sentences, and the vote F1s; scores.json repeats the
fold F1s (with precision, recall and the fold sizes); split.json says which sentences each fold
validated; and estimates.json is a function of them all (Xue et al., section 3):

- holdout: ST = F1_A - F1_B of the one fold;
- repeated-holdout: the fold differences and their mean (RS);
- bcv: the fold differences, Avg = their mean, Vote = vote F1_A - vote F1_B, and Mixture, Eq. 8
  for "A > B" (Vote when Vote > Avg, else Avg), with the case it chose;
- per model: the same figures of A and of B.

So an in-range edit (estimates.json's avg set to 0.9 while its counts say -0.066), counts out of
their bounds (correct chunks above the gold or predicted ones: :func:`reprocompare.base.run_records.counts_rows`
refuses them), or files of two different runs side by side are found by recomputing, not by
trusting. :func:`run_problem` says why a directory cannot be trusted (``resume`` removes its
estimates.json, so that Snakemake trains it again); :func:`check_run` raises the same finding as
a UserError naming the file (the summaries' reader, :func:`reprocompare.study.summary.
load_estimates`). A record that checks out is exactly what the job computed: the estimates are
recomputed in float64 as the job computed them, and agree to :data:`TOLERANCE`.

What is checked is what is there: a directory of estimates.json and split.json alone (a
hand-made one, or one whose job kept no counts) is checked against itself (RS's mean and BCV's
Avg against the fold differences, the mixture against Eq. 8, ST against the per-model F1s);
``complete=True`` (what ``resume`` asks of a finished job) requires every output. A committed
study holds no split.json (its seed gives it back: ``resume`` restores it before anything reads
it); a reader that derived it gives it as ``split``.
"""

from __future__ import annotations

import itertools
import json
import math
import operator
from pathlib import Path

from reprocompare.base.errors import UserError
from reprocompare.base.paths import (COUNTS_FILE as COUNTS, ESTIMATES_FILE as ESTIMATES,
                                     SCORES_FILE as SCORES, SPLIT_FILE as SPLIT)
from reprocompare.base.run_records import (OUTPUTS, RUNTIME, SETTINGS, UnreadableCounts,
                                           read_counts, read_split)
from reprocompare.base.run_records import SCORES as SCORES_RECORD
from reprocompare.strategies import ESTIMATES as ESTIMATES_RECORD
from reprocompare.strategies import NAMES, Checker, UnfitEstimates, strategy

#: the reader of each JSON record, by its file's name
_READERS = {SPLIT: read_split, SETTINGS.name: SETTINGS.read, SCORES: SCORES_RECORD.read,
            RUNTIME.name: RUNTIME.read, ESTIMATES: ESTIMATES_RECORD.read}
#: how far a recorded figure may lie from the one recomputed: the job and this check sum the
#: same integers and divide once, so they agree to the last bits; the rest is np.mean's
#: pairwise summation against ours (a few ulps), far below any edit that changes a table
TOLERANCE = 1e-9
PAIR = ("A", "B")


class Untrusted(Exception):
    """A record that disagrees with itself: ``file`` (a name in the run directory) and why.

    Parameters
    ----------
    file : str
        The record's name in the run directory.
    message : str
        Why it cannot be trusted.
    line : int, optional
        The line of the file, 1-based.
    joined : str, default ' '
        What joins the file's name and the message.
    """

    def __init__(self, file: str, message: str, line: int | None = None, joined: str = " "):
        self.file, self.message, self.line = file, message, line
        where = file if line is None else f"{file}:{line}"
        # "counts.tsv.gz has no rows", "settings.json:3: not valid JSON"
        super().__init__(f"{where}{': ' if line is not None else joined}{message}")


def _f1(gold: int, pred: int, correct: int) -> float:
    """Chunk F1 of summed counts, as corpora.scoring computes it (0 when nothing is there)."""
    return 2.0 * correct / (gold + pred) if gold + pred else 0.0


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) \
        and math.isfinite(value)


def _close(recorded, implied: float) -> bool:
    return _number(recorded) and abs(recorded - implied) <= TOLERANCE



def _g(value: float) -> str:
    return f"{value:.6g}"


def _json(run: Path, name: str) -> dict:
    """The record ``name`` of ``run``, read and checked by its reader (the estimates: the
    strategy known, its differences F1 differences in [-1, 1])."""
    try:
        return _READERS[name](run)
    except UnfitEstimates as error:  # as the file spells it
        if error.key == "strategy":
            raise Untrusted(name, f"has strategy {error.value!r}, not one of "
                            f"{', '.join(NAMES)}") from None
        raise Untrusted(name, f"has {error.key} {json.dumps(error.value)}, not F1 "
                        "differences in [-1, 1]") from None
    except UserError as error:  # said of the file alone: the caller names the run
        raise Untrusted(name, error.message, error.line, joined=": ") from None


def _counts(run: Path) -> list[tuple[str, str, int, int, int, int]]:
    try:
        return read_counts(run)
    except UnreadableCounts as error:  # not a gzip, a row cut off, a count out of its bounds
        raise Untrusted(COUNTS, error.message) from None


#: the counts rows' columns, each read as a function of a row
_COLUMNS = tuple(map(operator.itemgetter, range(6)))


def _from_counts(rows, split: dict) -> tuple[dict, dict | None, dict]:
    """Every fold's F1 of A and B, and the vote F1s (bcv), from the counts, whose sentences must
    be those split.json's folds validated (the vote's: every sentence once); and the summed
    (gold, pred, correct) of each (fold, model), which scores.json's precision and recall read."""
    sentences: dict[tuple[str, str], list[int]] = {}
    totals: dict[tuple[str, str], list[int]] = {}
    # a job writes each (fold, model)'s rows together: taken a run at a time, not row by row,
    # grouped by the fold, then the model, and read by column (a key of one string, and no
    # zip(*run), make no object per row for the garbage collector to count)
    for fold, same_fold in itertools.groupby(rows, _COLUMNS[0]):
        for model, run in itertools.groupby(same_fold, _COLUMNS[1]):
            run = list(run)
            sentences.setdefault((fold, model), []).extend(map(_COLUMNS[2], run))
            total = totals.setdefault((fold, model), [0, 0, 0])
            for i, column in enumerate(_COLUMNS[3:]):
                total[i] += sum(map(column, run))
    folds = split["folds"]
    expected = {(str(f), name): fold.get("validation") if isinstance(fold, dict) else None
                for f, fold in enumerate(folds) for name in PAIR}
    votes = _votes(split)
    if votes:
        n = split.get("n_sentences")
        expected.update({("vote", name): list(range(n)) if isinstance(n, int) else None
                         for name in PAIR})
    for key in sorted(set(sentences) | set(expected)):
        if sentences.get(key) != expected.get(key):
            fold, model = key
            what = "the vote" if fold == "vote" else f"fold {fold}"
            raise Untrusted(COUNTS, f"the sentences of {what}, model {model}, are not "
                            f"those {SPLIT} says it validated (counts of another split?)")
    f1 = {name: [_f1(*totals[(str(f), name)]) for f in range(len(folds))] for name in PAIR}
    vote = {name: _f1(*totals[("vote", name)]) for name in PAIR} if votes else None
    return f1, vote, totals


def _check_scores(scores: dict, split: dict, f1: dict | None, totals: dict | None) -> dict:
    """scores.json against the split and the counts; the fold F1s it gives when there are no
    counts to give them."""
    folds = scores.get("folds")
    if not isinstance(folds, list) or len(folds) != len(split["folds"]):
        raise Untrusted(SCORES, f"has {len(folds) if isinstance(folds, list) else 'no'} "
                        f"folds, {SPLIT} {len(split['folds'])}")
    out = {name: [] for name in PAIR}
    for f, (entry, fold) in enumerate(zip(folds, split["folds"])):
        if not isinstance(entry, dict):
            raise Untrusted(SCORES, f"fold {f} is not a record of scores")
        for size, part in (("n_train", "train"), ("n_validation", "validation")):
            if entry.get(size) != len(fold[part]):
                raise Untrusted(SCORES, f"fold {f} has {size} {entry.get(size)!r}, "
                                f"{SPLIT} {len(fold[part])} sentences")
        for name in PAIR:
            score = entry.get(name)
            if not isinstance(score, dict) or not _number(score.get("f1")):
                raise Untrusted(SCORES, f"fold {f} has no F1 of model {name}")
            if f1 is not None:
                gold, pred, correct = totals[(str(f), name)]
                implied = {"f1": f1[name][f], "precision": correct / pred if pred else 0.0,
                           "recall": correct / gold if gold else 0.0}
                for key, value in implied.items():
                    if key in score and not _close(score[key], value):
                        raise Untrusted(SCORES, f"fold {f} gives model {name} {key} "
                                        f"{_g(score[key])}, its counts ({COUNTS}) "
                                        f"{_g(value)}")
            out[name].append(float(score["f1"]))
    return out


def _disagrees(key: str, recorded, implied: float, source: str) -> Untrusted:
    return Untrusted(ESTIMATES, f"has {key} {json.dumps(recorded)}, but {source} give "
                     f"{_g(implied)}: a record that disagrees with itself (edited, or of "
                     "another run) is not data")


def _votes(split: dict) -> bool:
    """Whether the split's strategy votes (its counts then hold the vote's rows)."""
    name = split.get("strategy")
    return isinstance(name, str) and name in NAMES and strategy(name).votes


def _check_estimates(estimates: dict, f1: dict | None, vote: dict | None, source: str) -> None:
    """estimates.json against itself, and against the fold and vote F1s where known: its
    strategy's own check (:meth:`reprocompare.strategies.strategy.Strategy.check`)."""
    own = strategy(estimates["strategy"])
    checker = Checker(own.read(estimates), _close, _disagrees,
                      lambda message: Untrusted(ESTIMATES, message), source)
    own.check(checker, f1, vote)


def _problem(run: Path, complete: bool, split: dict | None = None) -> None:
    if complete:
        outputs = [name for name in OUTPUTS if split is None or name != SPLIT]
        for name in outputs:
            if not (run / name).is_file():
                raise Untrusted(name, "is missing")
        for name in outputs:
            if name in _READERS and name != ESTIMATES:
                _json(run, name)
    counted, scored = (run / COUNTS).is_file(), (run / SCORES).is_file()
    estimates = _json(run, ESTIMATES)
    split = _json(run, SPLIT) if split is None else split
    if split.get("strategy", estimates["strategy"]) != estimates["strategy"]:
        raise Untrusted(ESTIMATES, f"is of strategy {estimates['strategy']}, {SPLIT} "
                        f"of {split.get('strategy')}")
    folds = split.get("folds")
    whole = isinstance(folds, list) and folds and all(
        isinstance(fold, dict) and isinstance(fold.get("train"), list)
        and isinstance(fold.get("validation"), list) for fold in folds)
    if (complete or counted or scored) and not whole:  # what the counts and scores are read by
        raise Untrusted(SPLIT, "has no folds of train and validation sentences")
    f1 = vote = totals = None
    source = ""
    if counted:
        f1, vote, totals = _from_counts(_counts(run), split)
        source = f"its counts ({COUNTS})"
    if scored:
        scores = _json(run, SCORES)
        if "models" in scores and scores.get("models") != estimates.get("models"):
            raise Untrusted(SCORES, f"names other models than {ESTIMATES} (records "
                            "of two runs?)")
        scored = _check_scores(scores, split, f1, totals)
        if f1 is None:
            f1, source = scored, f"its fold F1s ({SCORES})"
    _check_estimates(estimates, f1, vote, source)


def run_problem(run: str | Path, *, complete: bool = True,
                split: dict | None = None) -> str | None:
    """Why the records of the repetition in ``run`` cannot be trusted, said of the file (``"
    counts.tsv.gz is broken: ..."``), or None; ``complete``: every output of a finished job
    must be there (what ``resume`` asks of a repetition whose estimates.json exists);
    ``split``: its split document, in place of a split.json the directory does not hold.

    Parameters
    ----------
    run : str or os.PathLike
        The repetition's directory.
    complete : bool, default True
        Whether every output of a finished job must be there.
    split : dict, optional
        The repetition's split document, when the directory holds no split.json.

    Returns
    -------
    str or None
        The problem, or None.
    """
    try:
        _problem(Path(run), complete, split)
    except Untrusted as found:
        return str(found)
    return None


def check_run(run: str | Path, *, complete: bool = False) -> None:
    """:func:`run_problem` as a UserError naming the file (and line) that cannot be trusted.

    Parameters
    ----------
    run : str or os.PathLike
        The repetition's directory.
    complete : bool, default False
        As :func:`run_problem` takes it.
    """
    try:
        _problem(Path(run), complete)
    except Untrusted as found:
        raise UserError(f"{found.message} (delete the directory and rerun; `reprocompare resume` "
                        "does so for a study)", path=Path(run) / found.file,
                        line=found.line) from None
