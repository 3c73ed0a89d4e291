r"""Budgeting a study before it runs: the sequential rule simulated as the workflow runs it.

Issue 39, item 3. A sequential study (``reprocompare sequential``) adds ``wave`` repetitions at a
time, up to ``max_repetitions``, and stops at the first look where every deciding estimator's
:func:`~reprocompare.estimators.verdict.verdict` is decided. How many repetitions that takes is
a random variable: this module draws it.

- :func:`run_rule` is the rule on one study's values, look by look, exactly as the workflow's
  summaries compute it (:func:`reprocompare.study.summary.verdicts`): the looks
  ``max(2, wave), 2 wave, ...`` (:func:`~reprocompare.estimators.sequential.looks`), confidence
  sequences intersected over the looks, the normal path or the distribution-free one as
  :func:`~reprocompare.estimators.verdict.verdict` decides, the confidence Bonferroni-adjusted
  over the deciding verdicts (:func:`~reprocompare.estimators.verdict.family_confidence`), and
  the mixture read against its closed-form null offset (``snr_normal`` of
  :func:`~reprocompare.estimators.null.mixture_null_offset`) from the repetitions up to the look
  (a summary knows no later repetition). A ``futility`` callable may stop a study without a
  verdict: the hook for futility stopping (issue 39, item 1). ``design="planned"`` runs the
  planned (group-sequential) design instead (``stopping.design``): every verdict reads the
  repeated confidence intervals of ``verdict(..., time_uniform=False, planned=True)``, and
  futility the forecasts of that design (:func:`futility_rule`).
- :func:`normal_source` draws a single-difference estimator's values as :math:`x \sim
  N(\mathrm{SNR}, 1)` (the SNR is scale-free, Eq. 4); :func:`bootstrap_source` resamples a pilot
  study's repetitions with replacement, whole repetitions at a time, so that Vote, Avg and the
  mixture keep their correlation; :func:`continuation_source` continues a study that has run
  (what a futility rule asks: can it still decide by the maximum?).
- :func:`simulate` runs many seeded studies (study ``i`` draws from
  ``numpy.random.default_rng([seed, i])``: the first K studies are the same whatever K) and
  returns a :class:`Plan`: the R at the stop (mean, median, 10th and 90th percentiles), the share
  decided, stopped for futility, and decided wrong against :func:`truth_of_snr` (or a pilot's
  own point verdicts, :func:`truth_of_values`).
- :func:`wall_times` turns stops into core-hours and wall time from measured job seconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

import numpy as np

from reprocompare import schemas
from reprocompare.estimators.designs import DESIGNS, design_named
from reprocompare.estimators.futility import DRAWS, decided_probability, judge
from reprocompare.estimators.group_sequential import MAX_LOOKS, look_confidences, planned_looks
from reprocompare.estimators.null import SINGLE, mixture_null_offset
from reprocompare.strategies import ESTIMATORS, MIXED
from reprocompare.estimators.reproducibility import snr
from reprocompare.estimators.sequential import PRIOR, looks
from reprocompare.estimators.simulated_rule import DEGENERATE, first_decisions
from reprocompare.estimators.verdict import (CONFIDENCE, THRESHOLD, UNDECIDED, Verdict,
                                             _decision_name, decide, family_confidence, verdict)

#: the most studies one simulation runs: each look of each study is a verdict (5-30 ms), so
#: 10,000 studies of 40 looks are already hours
MAX_STUDIES = 10_000
#: the decisions that are a verdict on the direction (a wrong one counts against the rule)
VERDICTS = ("A>B", "B>A", "none")
#: the schema's default design
DEFAULT_DESIGN = schemas.default("stopping.design")

#: draws one study's values, every estimator's, for ``n`` repetitions: ``source(rng, n)``
Source = Callable[[np.random.Generator, int], dict]
#: the futility hook: ``futility(r, verdicts, observed)`` is True to stop at look ``r`` without
#: a verdict (``observed``: every estimator's first ``r`` values)
Futility = Callable[[int, Mapping[str, Verdict], Mapping[str, np.ndarray]], bool]


@dataclass(frozen=True)
class SimulatedStudy:
    """Where one study stopped and why.

    ``stopped_at`` is the R of its last look; ``decided`` whether every deciding estimator had a
    verdict there; ``futile`` whether the futility hook stopped it first; ``looks`` the R of
    every look taken; ``verdicts`` each deciding estimator's verdict at the stop.
    """

    stopped_at: int
    decided: bool
    futile: bool
    looks: tuple[int, ...]
    verdicts: dict = field(repr=False)

    @property
    def decisions(self) -> dict[str, str]:
        """Each deciding estimator's decision at the stop ("A>B", "undecided", ...)."""
        return {name: v.decision for name, v in self.verdicts.items()}


def _check_estimators(estimators: Sequence[str]) -> tuple[str, ...]:
    known = ESTIMATORS
    estimators = tuple(estimators)
    if not estimators or any(name not in known for name in estimators):
        raise ValueError(f"estimators must be some of {', '.join(known)}, got {estimators!r}")
    if len(set(estimators)) != len(estimators):
        raise ValueError(f"estimators must not repeat, got {estimators!r}")
    return estimators


def _check_design(wave: int, max_repetitions: int,
                  design: str = DEFAULT_DESIGN) -> tuple[int, int, str]:
    if int(wave) != wave or wave < 1:
        raise ValueError(f"wave must be a whole number >= 1, got {wave!r}")
    if int(max_repetitions) != max_repetitions or max_repetitions < 2:
        raise ValueError(f"max_repetitions must be a whole number >= 2, got {max_repetitions!r}")
    if max_repetitions < wave:
        raise ValueError(f"max_repetitions ({max_repetitions}) must be at least one wave "
                         f"({wave})")
    if design not in DESIGNS:
        raise ValueError(f"design must be one of {', '.join(DESIGNS)}, got {design!r}")
    taken = len(planned_looks(wave, max_repetitions)) if design_named(design).planned else 0
    if taken > MAX_LOOKS:
        raise ValueError(f"a planned design spends its error over at most {MAX_LOOKS} looks; "
                         f"waves of {wave} up to {max_repetitions} make {taken}")
    return int(wave), int(max_repetitions), design


def look_verdicts(values: Mapping[str, np.ndarray], repetitions: int,
                  estimators: Sequence[str], *, wave: int, max_repetitions: int,
                  conclusion: str = "A>B", threshold: float = THRESHOLD,
                  confidence: float = CONFIDENCE, comparisons: int = 1,
                  forecast: bool = True, prior=PRIOR,
                  design: str = DEFAULT_DESIGN) -> dict[str, Verdict]:
    """The deciding estimators' verdicts at one look, as the workflow's summaries give them.

    The confidence of each verdict is the family's, Bonferroni-adjusted over ``comparisons x
    len(estimators)`` verdicts; the mixture's null offset is the closed form for normal Vote
    and Avg (``snr_normal``) from the first ``repetitions`` of Vote and Avg; the single
    differences' is 0. ``forecast=False`` skips an undecided verdict's "N more" (the search is
    most of a look's time, and no decision reads it): the verdicts then carry
    ``max_repetitions = repetitions`` and no forecast, their decisions unchanged. A planned
    design's verdicts keep ``max_repetitions`` (it fixes the looks and their levels) and so
    their "N more", a search over the planned looks alone.

    Parameters
    ----------
    values : mapping of str to numpy.ndarray
        Each estimator's values of A - B in repetition order (Vote and Avg too for the mixture).
    repetitions : int
        R of the look: the first R values are read.
    estimators : sequence of str
        The deciding estimators.
    wave : int
        Repetitions per wave (the looks the confidence sequences are intersected over).
    max_repetitions : int
        The study's maximum (the verdicts' "N more" counts up to it).
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test.
    threshold : float, default THRESHOLD
        tau, in (0.5, 1).
    confidence : float, default CONFIDENCE
        The family's confidence, in (0, 1).
    comparisons : int, default 1
        How many comparisons the study decides (the family grows with them).
    forecast : bool, default True
        Search "N more" for an undecided verdict, as the workflow does.
    prior : float or sequence of (float, float), default PRIOR
        The confidence sequences' mixing prior (:data:`.sequential.PRIOR`; another only to
        measure the rule against it).
    design : {'planned', 'fixed', 'anytime'}, default DEFAULT_DESIGN
        Confidence sequences, or the planned design of looks every ``wave`` up to
        ``max_repetitions`` (``verdict(..., time_uniform=False, planned=True)``).

    Returns
    -------
    dict of str to Verdict
        Each deciding estimator's verdict.
    """
    design = _check_design(wave, max_repetitions, design)[2]
    planned, plan_wave = _looked(design, wave, max_repetitions)
    each = family_confidence(confidence, int(comparisons) * len(estimators))
    # verdict's "N more" searches from R + 1 up to its maximum: none above R, no search (a
    # planned design's maximum is its last look: kept)
    limit = max_repetitions if (forecast or planned) else repetitions
    out = {}
    for name in estimators:
        # a mixture's verdict reads its null offset, from the two it mixes (Vote, Avg)
        snr0 = (mixture_null_offset(*(values[part][:repetitions] for part in MIXED[name]),
                                    conclusion).snr_normal if name in MIXED else 0.0)
        out[name] = verdict(values[name][:repetitions], conclusion, threshold=threshold,
                            confidence=each, snr0=snr0, time_uniform=not planned,
                            max_repetitions=limit, wave=plan_wave, prior=prior,
                            planned=planned)
    return out


def _looked(design: str, wave: int, max_repetitions: int) -> tuple[bool, int]:
    """(planned, the wave of its plan) of a design (:meth:`.designs.Design.looked`)."""
    return design_named(design).looked(wave, max_repetitions)[1:]


def run_rule(values: Mapping[str, np.ndarray], estimators: Sequence[str], *, wave: int,
             max_repetitions: int, conclusion: str = "A>B", threshold: float = THRESHOLD,
             confidence: float = CONFIDENCE, comparisons: int = 1,
             futility: Futility | None = None, prior=PRIOR,
             design: str = DEFAULT_DESIGN) -> SimulatedStudy:
    """The stopping rule on one study: waves until every deciding estimator is decided.

    Looks at R = max(2, wave), 2 wave, ... up to ``min(max_repetitions, len(values))`` (a last,
    partial wave still gets its look), as ``reprocompare sequential`` runs its waves; at each
    look the verdicts of :func:`look_verdicts`; stops at the first look where none is
    "undecided", or where ``futility(R, verdicts, observed)`` says so, or at the last look.

    Parameters
    ----------
    values : mapping of str to numpy.ndarray
        Each estimator's values of A - B in repetition order.
    estimators : sequence of str
        The deciding estimators (the config's ``stopping.estimators``).
    wave : int
        Repetitions per wave.
    max_repetitions : int
        The most repetitions the study may run.
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test.
    threshold : float, default THRESHOLD
        tau, in (0.5, 1).
    confidence : float, default CONFIDENCE
        The family's confidence, in (0, 1).
    comparisons : int, default 1
        How many comparisons the study decides.
    futility : callable, optional
        ``futility(R, verdicts, observed) -> bool``, asked at every look before the last that
        is not decided, with every estimator's first R values: True stops the study there
        without a verdict (it claims nothing). The verdicts it gets carry no "N more"
        (``look_verdicts(..., forecast=False)``); a rule that simulates the rest of the study
        runs :func:`simulate` on :func:`continuation_source` of ``observed``.
    prior : float or sequence of (float, float), default PRIOR
        The confidence sequences' mixing prior (:data:`.sequential.PRIOR`; another only to
        measure the rule against it).
    design : {'planned', 'fixed', 'anytime'}, default DEFAULT_DESIGN
        The verdicts' design (:func:`look_verdicts`); a planned one's futility hook should be
        ``futility_rule(..., design="planned")``.

    Returns
    -------
    SimulatedStudy
        Where it stopped, whether decided or futile, and the verdicts there.
    """
    estimators = _check_estimators(estimators)
    wave, max_repetitions, design = _check_design(wave, max_repetitions, design)
    available = min(max_repetitions, min(len(values[name]) for name in
                                         (*estimators, *(part for name in estimators
                                                         for part in MIXED.get(name, ())))))
    taken: list[int] = []
    futile = decided = False
    settings = dict(wave=wave, max_repetitions=max_repetitions, conclusion=conclusion,
                    threshold=threshold, confidence=confidence, comparisons=comparisons,
                    prior=prior, design=design)
    for r in looks(available, wave):
        taken.append(r)
        # the looks on the way decide without "N more" (5x faster); the stop gets it below
        found = look_verdicts(values, r, estimators, forecast=False, **settings)
        decided = all(v.decision != "undecided" for v in found.values())
        if decided:
            break
        if futility is not None and r < max_repetitions and \
                futility(r, found, {name: v[:r] for name, v in values.items()}):
            futile = True
            break
    # the verdicts at the stop as the workflow writes them, "N more" included
    found = look_verdicts(values, taken[-1], estimators, **settings)
    return SimulatedStudy(stopped_at=taken[-1], decided=decided, futile=futile,
                          looks=tuple(taken), verdicts=found)


def futility_rule(level: float, *, wave: int, max_repetitions: int,
                  draws: int = DRAWS, prior=PRIOR, design: str = DEFAULT_DESIGN) -> Futility:
    """The workflow's futility stopping as a :func:`run_rule` hook (issue 39, item 1).

    At look R the study is futile when :func:`~reprocompare.estimators.futility.judge` says so
    for its undecided deciding estimators, with the paths seeded by R, as the workflow's
    summaries judge it (``stopping.futility``); a planned design's on the forecasts of its own
    verdicts (``decided_probability(..., planned=True)``).

    Parameters
    ----------
    level : float
        ``stopping.futility``, in [0, 1): futile when a verdict by the maximum is less likely.
    wave : int
        Repetitions per wave.
    max_repetitions : int
        The study's maximum R.
    draws : int, default DRAWS
        Predictive paths per judgement.
    prior : float or sequence of (float, float), default PRIOR
        The confidence sequences' mixing prior (:data:`.sequential.PRIOR`; another only to
        measure the rule against it).
    design : {'planned', 'fixed', 'anytime'}, default DEFAULT_DESIGN
        The design of the verdicts forecast (:func:`look_verdicts`).

    Returns
    -------
    callable
        ``futility(R, verdicts, observed) -> bool``.
    """
    wave, max_repetitions, design = _check_design(wave, max_repetitions, design)
    planned, plan_wave = _looked(design, wave, max_repetitions)

    def futile(r: int, verdicts: Mapping[str, Verdict],
               observed: Mapping[str, np.ndarray]) -> bool:
        return judge({name: decided_probability(
            observed[name], v.conclusion, wave=plan_wave, max_repetitions=max_repetitions,
            threshold=v.threshold, confidence=v.confidence, snr0=v.snr0, draws=draws, seed=r,
            prior=prior, planned=planned)
            for name, v in verdicts.items() if v.decision == "undecided"}, level).futile

    return futile


def normal_source(snr_value: float, estimator: str = "Avg") -> Source:
    """Values of one single-difference estimator drawn as x ~ N(``snr_value``, 1).

    The SNR (Eq. 4) is scale-free and the rule reads only it (and, on the distribution-free
    path, signs), so unit variance loses nothing.

    Parameters
    ----------
    snr_value : float
        The true SNR of the conclusion "A>B" (mean of A - B over its standard deviation).
    estimator : str, default 'Avg'
        The name the values go under (ST, RS, Avg or Vote; the mixture needs a pilot).

    Returns
    -------
    callable
        ``source(rng, n)``: a dict with ``n`` values under ``estimator``.
    """
    if not math.isfinite(snr_value):
        raise ValueError(f"snr must be a finite number, got {snr_value!r}")
    if estimator not in SINGLE:
        raise ValueError(f"a true SNR simulates a single difference ({', '.join(SINGLE)}), "
                         f"got {estimator!r}: the mixture needs a pilot study's values")
    return lambda rng, n: {estimator: snr_value + rng.standard_normal(n)}


def bootstrap_source(pilot: Mapping[str, Sequence[float]]) -> Source:
    """Values resampled from a pilot study: whole repetitions drawn with replacement.

    Every estimator of a drawn repetition comes along, so Vote, Avg and the mixture keep their
    joint law (the mixture's null offset reads Vote and Avg).

    Parameters
    ----------
    pilot : mapping of str to sequence of float
        Each estimator's values, one per repetition of the pilot, all of the same length
        (at least 2).

    Returns
    -------
    callable
        ``source(rng, n)``: a dict of ``n`` resampled values per estimator.
    """
    arrays = {name: np.asarray(v, dtype=np.float64) for name, v in pilot.items()}
    sizes = {a.size for a in arrays.values()}
    if len(sizes) != 1 or min(sizes) < 2:
        raise ValueError("a pilot needs every estimator's values for the same repetitions, at "
                         f"least 2, got lengths {sorted(sizes)}")
    size = sizes.pop()

    def draw(rng: np.random.Generator, n: int) -> dict:
        index = rng.integers(0, size, n)
        return {name: a[index] for name, a in arrays.items()}

    return draw


def smoothed_source(pilot: Mapping[str, Sequence[float]]) -> Source:
    """Values drawn from a pilot study by the smoothed bootstrap: what ``reprocompare plan
    --study`` simulates.

    Resampling a pilot's repetitions with replacement (:func:`bootstrap_source`) repeats its
    values, and ties, which a continuous law never gives, reject the normal model at every
    look: the simulated studies then decide on Eq. 1's shares, slowly, and the plan forecasts
    2 to 3.5 times the repetitions a study needs. Here each drawn repetition is moved by a
    Gaussian kernel with the pilot's own covariance (so Vote, Avg and the mixture keep their
    correlation), bandwidth h by Silverman's rule for d estimators, ``(4 / (d + 2))^(1 / (d + 4))
    n^(-1 / (d + 4))``, and shrunk towards the pilot's mean by ``1 / sqrt((n - 1) / n + h^2)``,
    which keeps its mean and covariance (Silverman 1986, section 6.4.1; Silverman and Young 1987): the law
    of the pilot, smoothed, and no tie.

    Parameters
    ----------
    pilot : mapping of str to sequence of float
        Each estimator's values, one per repetition of the pilot, all of the same length (at
        least 2), each with some spread.

    Returns
    -------
    callable
        ``source(rng, n)``: a dict of ``n`` drawn values per estimator.

    Raises
    ------
    ValueError
        For values of different lengths, fewer than 2, or an estimator without spread (named).
    """
    names = list(pilot)
    arrays = [np.asarray(pilot[name], dtype=np.float64) for name in names]
    sizes = {a.size for a in arrays}
    if len(sizes) != 1 or min(sizes) < 2:
        raise ValueError("a pilot needs every estimator's values for the same repetitions, at "
                         f"least 2, got lengths {sorted(sizes)}")
    table = np.column_stack(arrays)
    flat = [name for name, a in zip(names, arrays)
            if np.ptp(a) <= 1e-12 * max(1e-300, float(np.abs(a).max()))]
    if flat:
        raise ValueError(f"the pilot's {', '.join(flat)} has no spread (every repetition gives "
                         "the same value): nothing to resample")
    n, d = table.shape
    mean = table.mean(axis=0)
    covariance = np.atleast_2d(np.cov(table, rowvar=False))
    values, vectors = np.linalg.eigh(covariance)
    root = vectors * np.sqrt(np.clip(values, 0, None))  # a square root of a PSD covariance
    h = (4 / (d + 2)) ** (1 / (d + 4)) * n ** (-1 / (d + 4))
    # a resampled repetition varies as (n - 1) / n of the covariance, the kernel adds h^2 of it
    shrink = 1 / math.sqrt((n - 1) / n + h * h)

    def draw(rng: np.random.Generator, k: int) -> dict:
        index = rng.integers(0, n, k)
        kernel = rng.standard_normal((k, d)) @ root.T
        drawn = mean + (table[index] - mean + h * kernel) * shrink
        return {name: drawn[:, j] for j, name in enumerate(names)}

    return draw


def continuation_source(observed: Mapping[str, Sequence[float]], source: Source) -> Source:
    """A study that has run: its observed repetitions first, then ``source``'s draws.

    What futility stopping (issue 39, item 1) needs at look R: the chance that the study, as it
    stands, reaches a verdict by ``max_repetitions`` is the ``decided_share`` of
    :func:`simulate` over this source, with ``source`` the current estimate (for instance
    :func:`normal_source` at the SNR so far, or :func:`bootstrap_source` of the values so far).
    The observed looks are replayed as they were (the same values give the same verdicts).

    Parameters
    ----------
    observed : mapping of str to sequence of float
        Each estimator's values so far, all of the same length R.
    source : callable
        Draws the repetitions after R (every estimator of ``observed``).

    Returns
    -------
    callable
        ``source(rng, n)``: the R observed values followed by n - R drawn ones.

    Examples
    --------
    >>> draw = continuation_source({"Avg": [0.1, 0.2]}, normal_source(0.0))
    >>> draw(np.random.default_rng(0), 4)["Avg"][:2].tolist()
    [0.1, 0.2]
    """
    head = {name: np.asarray(v, dtype=np.float64) for name, v in observed.items()}
    sizes = {a.size for a in head.values()}
    if len(sizes) != 1:
        raise ValueError(f"the observed values differ in length: {sorted(sizes)}")
    size = sizes.pop()

    def draw(rng: np.random.Generator, n: int) -> dict:
        tail = source(rng, max(n - size, 0))
        return {name: np.concatenate([a, tail[name]])[:n] for name, a in head.items()}

    return draw


def truth_of_snr(snr_value: float, threshold: float = THRESHOLD,
                 conclusion: str = "A>B") -> str:
    """The right verdict for a true SNR: the rule's own target, Phi(SNR) against tau.

    "A>B" if Phi(SNR) >= tau, "B>A" if Phi(SNR) <= 1 - tau, else "none" (the verdict's
    decision names, through :func:`~reprocompare.estimators.verdict.decide` on the point).

    Parameters
    ----------
    snr_value : float
        The true SNR of A - B.
    threshold : float, default THRESHOLD
        tau, in (0.5, 1).
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test (the SNR is of A - B either way).

    Returns
    -------
    str
        "A>B", "B>A" or "none".

    Examples
    --------
    >>> truth_of_snr(1.0), truth_of_snr(0.5), truth_of_snr(-0.9)
    ('A>B', 'none', 'B>A')
    """
    signed = snr_value if conclusion == "A>B" else -snr_value
    return _decision_name(decide(signed, signed, threshold=threshold), conclusion)


def truth_of_values(values: Mapping[str, Sequence[float]], estimators: Sequence[str],
                    conclusion: str = "A>B", threshold: float = THRESHOLD) -> dict[str, str]:
    """A pilot's own point verdicts: what its bootstrap treats as the truth.

    Each estimator's SNR over all of the pilot's repetitions against tau, the mixture's read
    against its null offset from the whole pilot.

    Parameters
    ----------
    values : mapping of str to sequence of float
        The pilot's values per estimator.
    estimators : sequence of str
        The estimators to judge.
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test.
    threshold : float, default THRESHOLD
        tau, in (0.5, 1).

    Returns
    -------
    dict of str to str
        "A>B", "B>A" or "none" per estimator.
    """
    out = {}
    for name in _check_estimators(estimators):
        snr0 = (mixture_null_offset(*(values[part] for part in MIXED[name]),
                                    conclusion).snr_normal if name in MIXED else 0.0)
        point = snr(np.asarray(values[name], dtype=np.float64), conclusion)
        out[name] = _decision_name(decide(point, point, threshold=threshold, snr0=snr0),
                                   conclusion)
    return out


@dataclass(frozen=True)
class Plan:
    """Many simulated studies of one design, and what they cost in repetitions.

    ``studies`` holds each :class:`SimulatedStudy`; ``truth`` the right decision per deciding
    estimator (None: not known, no wrong share); ``settings`` the design simulated (its
    ``design``, "anytime" or "planned", among them).
    """

    studies: tuple[SimulatedStudy, ...]
    truth: dict | None
    settings: dict

    @property
    def repetitions(self) -> np.ndarray:
        """R at the stop of every study."""
        return np.array([s.stopped_at for s in self.studies])

    def wrong(self) -> np.ndarray:
        """Per study: some deciding estimator gave a verdict other than the truth's."""
        if self.truth is None:
            return np.zeros(len(self.studies), dtype=bool)
        return np.array([any(d in VERDICTS and d != self.truth[name]
                             for name, d in s.decisions.items()) for s in self.studies])

    def summary(self) -> dict:
        """The figures ``reprocompare plan`` prints (JSON keys).

        Percentiles are of the R at the stop, each an R some study stopped at (``higher``).

        Returns
        -------
        dict
            ``studies``, ``mean_repetitions``, ``median_repetitions``, ``p10_repetitions``,
            ``p90_repetitions``, ``decided_share``, ``futility_share``, ``wrong_share``,
            ``truth`` and the settings (``design`` among them).
        """
        r = self.repetitions
        quantile = lambda q: int(np.quantile(r, q, method="higher"))  # noqa: E731
        return {"studies": len(self.studies), "mean_repetitions": float(r.mean()),
                "median_repetitions": quantile(0.5), "p10_repetitions": quantile(0.1),
                "p90_repetitions": quantile(0.9),
                "decided_share": float(np.mean([s.decided for s in self.studies])),
                "futility_share": float(np.mean([s.futile for s in self.studies])),
                "wrong_share": float(self.wrong().mean()) if self.truth is not None else None,
                "truth": self.truth, **self.settings}


def simulate(source: Source, estimators: Sequence[str], *, studies: int, seed: int = 0,
             wave: int, max_repetitions: int, conclusion: str = "A>B",
             threshold: float = THRESHOLD, confidence: float = CONFIDENCE,
             comparisons: int = 1, truth: Mapping[str, str] | None = None,
             futility: Futility | None = None, prior=PRIOR, design: str = DEFAULT_DESIGN) -> Plan:
    """Run the stopping rule on ``studies`` seeded studies drawn from ``source``.

    Study ``i`` draws its ``max_repetitions`` values from
    ``numpy.random.default_rng([seed, i])`` and goes through :func:`run_rule`: the same seed
    gives the same studies, and a larger ``studies`` only adds to them.

    Parameters
    ----------
    source : callable
        ``source(rng, n)``: one study's values (:func:`normal_source`,
        :func:`bootstrap_source`).
    estimators : sequence of str
        The deciding estimators.
    studies : int
        How many studies, 1 to :data:`MAX_STUDIES`.
    seed : int, default 0
        The simulation's seed.
    wave : int
        Repetitions per wave.
    max_repetitions : int
        The most repetitions a study may run.
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test.
    threshold : float, default THRESHOLD
        tau, in (0.5, 1).
    confidence : float, default CONFIDENCE
        The family's confidence, in (0, 1).
    comparisons : int, default 1
        How many comparisons the study decides.
    truth : mapping of str to str, optional
        The right decision per deciding estimator (:func:`truth_of_snr`,
        :func:`truth_of_values`); without it no wrong share.
    futility : callable, optional
        The futility hook of :func:`run_rule`.
    prior : float or sequence of (float, float), default PRIOR
        The confidence sequences' mixing prior (:data:`.sequential.PRIOR`; another only to
        measure the rule against it).
    design : {'planned', 'fixed', 'anytime'}, default DEFAULT_DESIGN
        Confidence sequences, or a planned group-sequential design (:func:`run_rule`).

    Returns
    -------
    Plan
        The studies and their summary.

    Examples
    --------
    >>> plan = simulate(normal_source(4.0), ["Avg"], studies=20, wave=5, max_repetitions=20,
    ...                 truth={"Avg": truth_of_snr(4.0)})
    >>> s = plan.summary()
    >>> s["median_repetitions"], s["decided_share"], s["wrong_share"]
    (10, 1.0, 0.0)
    """
    if int(studies) != studies or not 1 <= studies <= MAX_STUDIES:
        raise ValueError(f"studies must be a whole number in 1..{MAX_STUDIES}, got {studies!r}")
    estimators = _check_estimators(estimators)
    wave, max_repetitions, design = _check_design(wave, max_repetitions, design)
    drawn = [source(np.random.default_rng([int(seed), i]), max_repetitions)
             for i in range(int(studies))]
    if not design_named(design).time_uniform and futility is None \
            and not any(name in MIXED for name in estimators):
        # the same rule over all studies at once (estimators.simulated_rule): seconds
        done = _all_at_once(drawn, estimators, wave=wave, max_repetitions=max_repetitions,
                            conclusion=conclusion, threshold=threshold, confidence=confidence,
                            comparisons=comparisons, design=design)
    else:
        done = [run_rule(values, estimators, wave=wave, max_repetitions=max_repetitions,
                         conclusion=conclusion, threshold=threshold, confidence=confidence,
                         comparisons=comparisons, futility=futility, prior=prior,
                         design=design) for values in drawn]
    settings = {"estimators": list(estimators), "design": design, "wave": wave,
                "max_repetitions": max_repetitions, "threshold": float(threshold),
                "confidence": float(confidence), "conclusion": conclusion,
                "comparisons": int(comparisons), "seed": int(seed)}
    return Plan(studies=tuple(done), truth=None if truth is None else dict(truth),
                settings=settings)


@dataclass(frozen=True)
class _Decided:
    """A simulated verdict of which only the decision is kept (the vectorized rule's)."""

    decision: str


def _all_at_once(drawn: list[dict], estimators: tuple[str, ...], *, wave: int,
                 max_repetitions: int, conclusion: str, threshold: float, confidence: float,
                 comparisons: int, design: str) -> list[SimulatedStudy]:
    """:func:`run_rule` on every study at once, for single differences under a planned or
    fixed design without futility (:func:`~reprocompare.estimators.simulated_rule
    .first_decisions`, each estimator's first decided look; the study stops when all are)."""
    available = min(max_repetitions, min(len(d[name]) for d in drawn for name in estimators))
    _, plan_wave = _looked(design, wave, max_repetitions)
    each = family_confidence(confidence, int(comparisons) * len(estimators))
    levels = {n: c for n, c in look_confidences(plan_wave, max_repetitions, each).items()
              if n <= available}
    codes, ats = {}, {}
    for name in estimators:
        values = np.stack([d[name][:available] for d in drawn])
        codes[name], ats[name] = first_decisions(values, levels, threshold=threshold,
                                                 conclusion=conclusion)
    taken = looks(available, wave)
    done = []
    for i in range(len(drawn)):
        decided = all(codes[name][i] != UNDECIDED for name in estimators)
        stop = max(ats[name][i] for name in estimators) if decided else taken[-1]
        stop = next(r for r in taken if r >= stop)
        names = {name: _Decided("degenerate" if codes[name][i] == DEGENERATE
                                else _decision_name(int(codes[name][i]), conclusion))
                 for name in estimators}
        done.append(SimulatedStudy(stopped_at=stop, decided=decided, futile=False,
                                   looks=tuple(r for r in taken if r <= stop), verdicts=names))
    return done


def wall_times(stops, wave: int, job_seconds: Mapping[str, float], slots: int) -> np.ndarray:
    """Wall-clock seconds of studies that stopped at ``stops``, on ``slots`` parallel jobs.

    Each repetition runs one single-threaded job per strategy (the workflow's compare rule has
    ``threads: 1``), of the measured mean seconds ``job_seconds[strategy]``; the waves run one
    after the other, and a wave of n repetitions takes max(n x sum(job_seconds) / slots,
    max(job_seconds)): perfect packing, a lower bound that is close when a wave has many more
    jobs than slots or much fewer. Snakemake's start-up and per-job overhead are not counted.

    Parameters
    ----------
    stops : array_like of int
        R at the stop of each study.
    wave : int
        Repetitions per wave.
    job_seconds : mapping of str to float
        Mean seconds of one repetition's job, per strategy.
    slots : int
        Jobs that run at once (cores on one machine, or a cluster's job limit).

    Returns
    -------
    numpy.ndarray of float
        Seconds per study.

    Examples
    --------
    >>> wall_times([10], 5, {"bcv": 60.0, "holdout": 10.0}, slots=7).tolist()
    [120.0]
    """
    if int(slots) != slots or slots < 1:
        raise ValueError(f"slots must be a whole number >= 1, got {slots!r}")
    per_repetition = float(sum(job_seconds.values()))
    longest = float(max(job_seconds.values(), default=0.0))
    out = []
    for stop in np.asarray(stops, dtype=int):
        taken = looks(int(stop), wave)
        sizes = np.diff([0, *taken])
        out.append(float(sum(max(n * per_repetition / slots, longest) for n in sizes)))
    return np.array(out)
