"""The splitting strategies: one object each, the one place a strategy is spelled out.

Xue et al. compare three ways to split a corpus (section 3.3, Table 4): the standard split (ST,
one 8:1 hold-out), random splits (RS, k repeated 8:1 hold-outs) and the blocked m x 2
cross-validation (BCV, section 3.1, Table 1). Everything the project knows of a strategy lives
here: its names (the config's ``repeated_holdout``, the ``repeated-holdout`` of split documents,
run directories and seed paths), its frozen seed code, the splitter that draws it and the
settings that splitter takes, the differences its ``estimates.json`` records, the estimators of
Table 4 and the significance tests it feeds, and how a report labels it. Every other module asks
this one (:func:`strategy`, :data:`STRATEGIES`, :func:`of_estimator`), so adding a strategy is
adding an object here (and the code that computes its estimates).

Both spellings are accepted at the edges (a config key, a command-line flag, a record read back);
inside, a strategy is its :attr:`Strategy.name`.

This module sits on the ground floor: it imports nothing from the project.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping


@dataclass(frozen=True)
class Strategy:
    """One splitting strategy.

    Parameters
    ----------
    name : str
        The name in split documents, run directories, seed paths and summaries.
    key : str
        The config's key under ``strategies:`` (a Python identifier).
    code : int
        Frozen code in seed paths (:mod:`reprocompare.base.seeds`): never a position, so that
        adding a strategy changes no existing seed.
    short : str
        The paper's abbreviation (ST, RS, BCV).
    splitter : str
        The class of :mod:`reprocompare.splitters` that draws it.
    settings : tuple of str
        The settings its splitter takes, in the order its split documents record them.
    estimates : tuple of str
        The differences its ``estimates.json`` records: what that record must hold
        (:mod:`reprocompare.base.run_records`).
    estimators : tuple of str
        Table 4's estimators of A - B it gives (section 3.2).
    tests : tuple of str
        The significance tests of a repetition (:mod:`reprocompare.estimators.claims`).
    votes : bool
        Whether a repetition also votes over the whole corpus (BCV's Vote, Table 2).
    label : callable
        ``label(settings, table4_k)``: how a report names the strategy behind an estimator,
        from the run's settings (``None`` for a setting the run does not record).
    describe : callable
        ``describe(config_settings)``: one line for the experimental-results checklist, from
        a checked config's settings (the schema's defaults filled in).
    model_f1 : str
        What Table 3 takes as a model's F1 in one repetition (the score Table 4's estimators
        see: :mod:`reprocompare.pipeline.significance_jobs` computes it from the counts).
    """

    name: str
    key: str
    code: int
    short: str
    splitter: str
    settings: tuple[str, ...]
    estimates: tuple[str, ...]
    estimators: tuple[str, ...]
    tests: tuple[str, ...]
    votes: bool
    label: Callable[[Mapping, object], str]
    describe: Callable[[Mapping], str]
    model_f1: str = ""

    def splitter_arguments(self, settings: Mapping) -> dict:
        """The arguments of its splitter from its config settings (RS trains max(k) hold-outs;
        a smaller k uses the first ones).

        Parameters
        ----------
        settings : mapping
            ``config["strategies"][key]``.

        Returns
        -------
        dict
            Keyed by :attr:`settings`.
        """
        return {name: max(settings[name]) if name == "k" else settings[name]
                for name in self.settings}


HOLDOUT = Strategy(
    name="holdout", key="holdout", code=1, short="ST", splitter="HoldOut",
    settings=("ratio",), estimates=("holdout",), estimators=("ST",),
    tests=("paired_bootstrap", "approximate_randomization", "mcnemar"), votes=False,
    label=lambda s, k: (f"{s['ratio']} hold-out" if s.get("ratio")
                        else "hold-out (ratio not recorded)"),
    describe=lambda s: f"one random hold-out at {s['ratio']}",
    model_f1="its one hold-out's F1")
REPEATED_HOLDOUT = Strategy(
    name="repeated-holdout", key="repeated_holdout", code=2, short="RS",
    splitter="RepeatedHoldOut", settings=("k", "ratio"), estimates=("mean", "fold_differences"),
    estimators=("RS",), tests=("corrected_resampled_t",), votes=False,
    label=lambda s, k: (f"{'k' if k is None else k} x {s['ratio']} hold-outs" if s.get("ratio")
                        else f"{'k' if k is None else k} hold-outs (ratio not recorded)"),
    describe=lambda s: (f"max(k) = {max(s['k'])} random hold-outs at {s['ratio']}; "
                        f"k = {', '.join(map(str, s['k']))} reported"),
    model_f1="the mean F1 of its first k hold-outs (Table 4's k)")
BCV = Strategy(
    name="bcv", key="bcv", code=3, short="BCV", splitter="BlockedMx2CV", settings=("m",),
    estimates=("avg", "vote", "mixture", "fold_differences"),
    estimators=("Avg", "Vote", "Mixture"),
    tests=("paired_t_mx2", "combined_f_mx2", "blocked_3x2_t"), votes=True,
    label=lambda s, k: f"{s['m']}x2 BCV" if s.get("m") else "m x 2 BCV (m not recorded)",
    describe=lambda s: f"blocked {s['m']} x 2 cross-validation",
    model_f1="the mean F1 of its 2m folds")

#: every strategy, in Table 4's order
STRATEGIES: tuple[Strategy, ...] = (HOLDOUT, REPEATED_HOLDOUT, BCV)
#: their names (split documents, run directories), in that order
NAMES: tuple[str, ...] = tuple(s.name for s in STRATEGIES)
#: Table 4's estimators of A - B, in order
ESTIMATORS: tuple[str, ...] = tuple(e for s in STRATEGIES for e in s.estimators)

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
    for s in STRATEGIES:
        if estimator in s.estimators:
            return s
    raise KeyError(f"unknown estimator {estimator!r}; expected one of {', '.join(ESTIMATORS)}")


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
