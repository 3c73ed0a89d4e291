"""The splitting strategies: one module each, one object that does its own work.

Xue et al. compare three ways to split a corpus (section 3.3, Table 4): the standard split
(:mod:`.holdout`, ST), random splits (:mod:`.repeated_holdout`, RS) and the blocked m x 2
cross-validation (:mod:`.bcv`, BCV); their future work, the block-regularized BCV, is
:mod:`.regularized_bcv`. Each module defines one :class:`~.strategy.Strategy`,
``STRATEGY``: its names (the config's ``repeated_holdout``, the ``repeated-holdout`` of split
documents, run directories and seed paths), its frozen seed code, how it draws its folds, what
its repetition records and how that record is checked, which of Table 4's estimators and which
significance tests it feeds, and how a report labels it. This registry finds every module of the
package that defines ``STRATEGY``, so that a new strategy is one new module here (plus its
tests); everything else asks :func:`strategy`, :data:`STRATEGIES` or :func:`of_estimator`.

Both spellings are accepted at the edges (a config key, a command-line flag, a record read back);
inside, a strategy is its :attr:`~.strategy.Strategy.name`.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from pathlib import Path
from typing import Mapping

from reprocompare.base import paths, run_records
from reprocompare.strategies.strategy import (Checker, Estimates, Strategy, UnfitEstimates,
                                              chose_vote_key)
from reprocompare.strategies.repeated_holdout import TABLE4_K

__all__ = ["CHOSE_VOTE", "ESTIMATES", "ESTIMATORS", "MIXED", "NAMES", "SINGLE", "RECOMMENDED",
           "STRATEGIES", "TABULATED_RECORDS", "TESTS", "Checker", "Estimates", "Strategy",
           "UnfitEstimates", "kind_of_test", "labels", "of_estimator", "of_test",
           "read_estimates", "repetition_rho", "repetition_tests", "splitter_arguments",
           "strategy", "write_estimates"]


def _found() -> tuple[Strategy, ...]:
    """Every ``STRATEGY`` of this package's modules, in the order of their frozen codes (the
    order of Table 4: ST, RS, BCV, then any added later)."""
    found = []
    for module in pkgutil.iter_modules(__path__):
        loaded = importlib.import_module(f"{__name__}.{module.name}")
        if isinstance(getattr(loaded, "STRATEGY", None), Strategy):
            found.append(loaded.STRATEGY)
    found.sort(key=lambda s: s.code)
    for attribute in ("name", "key", "code", "short"):
        values = [getattr(s, attribute) for s in found]
        if len(set(values)) != len(values):
            raise RuntimeError(f"two strategies share a {attribute}: {values}")
    for attribute in ("estimators", "tests"):  # a study's values and claims are keyed by them
        values = [e for s in found for e in getattr(s, attribute)]
        if len(set(values)) != len(values):
            raise RuntimeError(f"two strategies give {attribute} of one name: {values}")
    return tuple(found)


#: every strategy, in Table 4's order
STRATEGIES: tuple[Strategy, ...] = _found()
#: their names (split documents, run directories), in that order
NAMES: tuple[str, ...] = tuple(s.name for s in STRATEGIES)
#: Table 4's estimators of A - B, in order
ESTIMATORS: tuple[str, ...] = tuple(e for s in STRATEGIES for e in s.estimators)
#: each estimator that mixes two others (Eq. 8) -> (vote, avg), the two it mixes
MIXED: dict[str, tuple[str, str]] = {mixture: (vote, avg) for s in STRATEGIES
                                     for mixture, vote, avg in s.mixtures}
#: each mixture -> where its values and summary keep how often it took its Vote (Eq. 8, Case I)
CHOSE_VOTE: dict[str, str] = {mixture: chose_vote_key(mixture) for mixture in MIXED}
#: the estimators that are one difference each (every other mixes two of them)
SINGLE: tuple[str, ...] = tuple(e for e in ESTIMATORS if e not in MIXED)
#: the paper's recommendation (Xue et al., section 5: the 3 x 2 BCV)
RECOMMENDED: Strategy = next(s for s in STRATEGIES if s.recommended)
#: the significance tests of one repetition, each once, in the strategies' order
TESTS: tuple[str, ...] = tuple(t for s in STRATEGIES for t in s.tests)

_SPELLINGS = {spelling: s for s in STRATEGIES for spelling in (s.name, s.key)}


def strategy(spelling: str | Strategy) -> Strategy:
    """The strategy of a name or a config key (both spellings, at the edges).

    Parameters
    ----------
    spelling : str or Strategy
        ``"repeated-holdout"``, ``"repeated_holdout"``, ...

    Returns
    -------
    Strategy

    Raises
    ------
    KeyError
        For any other spelling; its message lists the names.

    Examples
    --------
    >>> strategy("repeated_holdout") is strategy("repeated-holdout")
    True
    """
    if isinstance(spelling, Strategy):
        return spelling
    try:
        return _SPELLINGS[spelling]
    except (KeyError, TypeError):
        raise KeyError(f"unknown splitting strategy {spelling!r}; expected one of "
                       f"{', '.join(NAMES)}") from None


#: each estimator's and each test's strategy (names are unique across strategies: _found)
_BY_ESTIMATOR = {e: s for s in STRATEGIES for e in s.estimators}
_BY_TEST = {t: s for s in STRATEGIES for t in s.tests}


def _owner(owners: dict, name: str, what: str) -> Strategy:
    try:
        return owners[name]
    except (KeyError, TypeError):
        raise KeyError(f"unknown {what} {name!r}; expected one of "
                       f"{', '.join(owners)}") from None


def of_estimator(estimator: str) -> Strategy:
    """The strategy an estimator of Table 4 is computed from (``"Vote"`` -> BCV).

    Parameters
    ----------
    estimator : str
        One of :data:`ESTIMATORS`.

    Returns
    -------
    Strategy
    """
    return _owner(_BY_ESTIMATOR, estimator, "estimator")


def repetition_rho(estimator: str, settings: Mapping | None = None,
                   table4_k: int | None = None) -> float:
    """The correlation across corpora of a Table 4 estimator's per-repetition values, as its
    strategy says it (:meth:`~.strategy.Strategy.repetition_rho`): the rho of the correlated
    Bayesian t-test (:mod:`reprocompare.estimators.bayesian`).

    Parameters
    ----------
    estimator : str
        One of :data:`ESTIMATORS`.
    settings : mapping, optional
        Its strategy's settings as a summary records them (ratio, k, m); each one not given is
        its split's default.
    table4_k : int, optional
        The k of Table 4's RS (the schema's default, 6, when not given).

    Returns
    -------
    float

    Examples
    --------
    >>> [round(repetition_rho(name), 4) for name in ("ST", "RS", "Avg", "Mixture")]
    [0.1111, 0.4286, 0.8571, 0.8571]
    >>> round(repetition_rho("RS", {"ratio": "8:1"}, table4_k=3), 4)
    0.2727
    """
    return of_estimator(estimator).repetition_rho(
        settings or {}, TABLE4_K if table4_k is None else table4_k)[estimator]


def of_test(test: str) -> Strategy:
    """The strategy a significance test of one repetition belongs to.

    Parameters
    ----------
    test : str
        One of :data:`TESTS`.

    Returns
    -------
    Strategy
    """
    return _owner(_BY_TEST, test, "test")


def kind_of_test(test: str) -> str:
    """The test a name of :data:`TESTS` runs, as reports name and calibrate it
    (:meth:`~.strategy.Strategy.test_kind`: a variant's own name of a shared test -> the test).

    Parameters
    ----------
    test : str
        One of :data:`TESTS`.

    Returns
    -------
    str
    """
    return of_test(test).test_kind(test)


def splitter_arguments(config: Mapping, spelling: str) -> dict:
    """A strategy's splitter arguments from a checked config: the one reader of its settings.

    Parameters
    ----------
    config : mapping
        A config with ``strategies:`` (keyed by the config's spelling).
    spelling : str
        The strategy's name or config key.

    Returns
    -------
    dict
        Its settings: ratio, k = max(k) hold-outs, or m.

    Examples
    --------
    >>> splitter_arguments({"strategies": {"repeated_holdout": {"k": [3, 10], "ratio": "8:1",
    ...                                    "table4_k": 6}}}, "repeated-holdout")
    {'k': 10, 'ratio': '8:1'}
    """
    found = strategy(spelling)
    return found.splitter_arguments(config["strategies"][found.key])


def labels(settings: Mapping | None, table4_k=None) -> dict[str, str]:
    """Each estimator's splitting strategy as the run ran it ("4:1 hold-out", "6 x 8:1
    hold-outs", "5x2 BCV"): a setting the run does not record is said so, never guessed.

    Parameters
    ----------
    settings : mapping or None
        Strategy (either spelling) -> its settings (ratio, k, m), as a summary records them.
    table4_k : int, optional
        The k of Table 4's RS.

    Returns
    -------
    dict
        Estimator -> label, for every estimator of :data:`ESTIMATORS`.
    """
    by_name = {_SPELLINGS[key].name: value or {} for key, value in (settings or {}).items()
               if key in _SPELLINGS}  # a record's unknown strategy labels nothing
    return {e: s.label(by_name.get(s.name, {}), table4_k) for s in STRATEGIES for e in s.estimators}


def repetition_tests(folds, spelling: str, *, n_train: int | None = None,
                     n_resamples: int = 10_000, random_state: int = 0) -> dict:
    """The significance tests that fit a strategy, on one repetition's per-fold counts
    (:meth:`~.strategy.Strategy.repetition_tests`).

    Parameters
    ----------
    folds : sequence of {"A": array (n, 3), "B": array (n, 3)}
        Per-sentence (gold, pred, correct) chunk counts of each fold's validation set, as
        :func:`reprocompare.estimators.claims.read_counts` returns them.
    spelling : str
        The strategy.
    n_train : int, optional
        Training sentences of one fold; needed by the corrected resampled t (RS).
    n_resamples : int
        Resamples of the bootstrap and the randomization test (ST).
    random_state : int
        Seed of the resampling tests; the result is deterministic given it.

    Returns
    -------
    dict of str to reprocompare.estimators.claims.Claim
        Each test's result, by the test's name.
    """
    if spelling not in _SPELLINGS:
        raise ValueError(f"unknown strategy {spelling!r}; expected one of {', '.join(NAMES)}")
    found = strategy(spelling)
    if not folds:
        raise ValueError("no folds: the repetition has no counts")
    return found.repetition_tests(folds, n_train=n_train, n_resamples=n_resamples,
                                  random_state=random_state)


def _fit(estimates: dict, path: Path) -> None:
    """The strategy known, and the differences it records numbers in [-1, 1]
    (:meth:`~.strategy.Strategy.fit`)."""
    name = estimates["strategy"]
    if name not in NAMES:
        raise UnfitEstimates("strategy", name, f"strategy {name!r} is not one of "
                             f"{', '.join(NAMES)}", path)
    alone = not any((path.parent / other).is_file()
                    for other in (paths.COUNTS_FILE, paths.SCORES_FILE))
    strategy(name).fit(estimates, path, alone)


#: a repetition's estimates.json, as its strategy must have it: read and written through this
#: record alone
ESTIMATES = dataclasses.replace(run_records.ESTIMATES, check=_fit)


#: the records a line of a strategy's records.jsonl holds, each checked as its reader checks its
#: file (:func:`reprocompare.base.run_records.read_tabulated`)
TABULATED_RECORDS = {**run_records.TABULATED_RECORDS, ESTIMATES.name: ESTIMATES}


def read_estimates(directory: str | Path) -> Estimates:
    """A repetition's ``estimates.json``, checked (:data:`ESTIMATES`), as its strategy's typed
    record (:attr:`~.strategy.Strategy.record`).

    Parameters
    ----------
    directory : str or os.PathLike
        The repetition's directory.

    Returns
    -------
    Estimates
    """
    data = ESTIMATES.read(directory)
    return strategy(data["strategy"]).read(data)


def write_estimates(directory: str | Path, estimates: Estimates) -> Path:
    """Write a repetition's typed record as its ``estimates.json``, atomically and checked.

    Parameters
    ----------
    directory : str or os.PathLike
        The repetition's directory.
    estimates : Estimates
        Its record.

    Returns
    -------
    pathlib.Path
        The file written.
    """
    return ESTIMATES.write(directory, estimates.as_json())
