r"""The verdict on "A > B" for one estimator, and the predictive reproducibility it rests on.

Issue 22: the user asks "does A > B reproduce, and when can I stop paying for repetitions?".
Xue et al. define reproducibility as P(estimate of A - B > 0) over random splits (Eq. 1) and
read it, with the SNR (Eq. 4), off R estimates. Under normality the two are one quantity:

.. math:: P(x > 0) = \Phi(\mu / \sigma) = \Phi(\mathrm{SNR}),

so an interval for the SNR maps to one for the reproducibility, the *predictive
reproducibility* :math:`p = \Phi(\theta - \theta_0)`, where :math:`\theta_0` (``snr0``) is the
estimator's null SNR offset: 0 for a single difference (ST, RS, Avg, Vote), the mixture's
from :mod:`reprocompare.estimators.null`, which leans towards the conclusion under test when
A and B do not differ.

The verdict (:func:`verdict`, rule in :func:`rule`) compares that interval with a threshold
tau on the reproducibility (``threshold``, default :data:`THRESHOLD`): the conclusion
reproduces when all of its interval lies at or above tau, the opposite one when all of it lies
at or below 1 - tau, neither when all of it lies strictly between, and otherwise more
repetitions are needed, about as many as :func:`repetitions_to_decide` projects. The interval is
the time-uniform confidence sequence of :mod:`reprocompare.estimators.sequential` (valid
whatever the stopping rule; what a sequential study that may grow must use), the repeated
confidence intervals of a planned design (:mod:`reprocompare.estimators.group_sequential`: valid
at the looks planned before the study ran, and narrower), or the fixed-R exact interval (valid
when R was fixed in advance), as the caller says.

:func:`replay` feeds a study's repetitions in order, one wave at a time, to this stopping rule
and says where it stops and with which verdict.
"""

from __future__ import annotations

import functools
import math
import warnings
from dataclasses import asdict, dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

import numpy as np
from scipy import stats

from reprocompare import schemas
from reprocompare.estimators.designs import DEFAULT_SPENDING, PLANNED_KIND, SPENDING_NAMES
from reprocompare.estimators.group_sequential import look_confidences, planned_looks
from reprocompare.estimators.normality import SHAPIRO_FROM, normal_model
from reprocompare.estimators.reproducibility import (CONCLUSIONS, _checked, _is_constant,
                                                     _scaled, _values, clopper_pearson, snr,
                                                     snr_exact_interval)
from reprocompare.estimators.sequential import (PRIOR, _check_confidence, log_e_value,
                                                looks, mean_confidence_sequence,
                                                running_intersection,
                                                share_confidence_sequence, snr_interval)


#: Default threshold tau on the (predictive) reproducibility (the schema's verdict.threshold):
#: "A > B reproduces" when the whole interval of Phi(SNR - snr0) is at least 0.8, i.e. four of
#: five fresh repetitions would agree with it.
THRESHOLD = schemas.default("verdict.threshold")
#: Confidence of the interval behind every verdict (the schema's verdict.confidence).
CONFIDENCE = schemas.default("verdict.confidence")
#: "Repetitions to decide" is searched up to this many in all: the most a study may run (the
#: schema's maximum of stopping.max_repetitions).
MAX_REPETITIONS = schemas.bound("stopping.max_repetitions")

#: Decision codes relative to the conclusion under test, as :func:`decisions` returns them.
SUPPORTED, OPPOSED, NO_DIFFERENCE, UNDECIDED = 1, -1, 0, 2

_OTHER = {"A>B": "B>A", "B>A": "A>B"}


def _check_threshold(threshold: float) -> float:
    if not 0.5 < threshold < 1:
        raise ValueError(f"threshold must lie in (0.5, 1), got {threshold!r}")
    return float(threshold)


def _check_conclusion(conclusion: str) -> str:
    if conclusion not in CONCLUSIONS:
        raise ValueError(f"conclusion must be one of {', '.join(CONCLUSIONS)}, got "
                         f"{conclusion!r}")
    return conclusion


def _check_values(values) -> np.ndarray:
    values = np.asarray(values, dtype=np.float64)
    if values.ndim != 1 or values.size < 2:
        raise ValueError(f"values must hold at least 2 repetitions, got {values.size}")
    return values


def _check_snr0(snr0: float) -> float:
    if not math.isfinite(snr0):
        raise ValueError(f"snr0 must be a finite number, got {snr0!r}")
    return float(snr0)


def _text(conclusion: str) -> str:
    return conclusion.replace(">", " > ") + " reproduces"


def decision_bounds(threshold: float = THRESHOLD, snr0: float = 0.0) -> tuple[float, float]:
    """The SNRs where the predictive reproducibility Phi(SNR - snr0) is 1 - tau and tau.

    Parameters
    ----------
    threshold : float, default THRESHOLD
        tau, in (0.5, 1).
    snr0 : float, default 0.0
        The estimator's null SNR offset (0 for single differences).

    Returns
    -------
    (float, float)
        The SNRs below which the opposite conclusion and above which the conclusion reproduces.
    """
    z = float(stats.norm.ppf(_check_threshold(threshold)))
    return snr0 - z, snr0 + z


def decide(low: float, high: float, *, threshold: float = THRESHOLD, snr0: float = 0.0) -> int:
    """The decision code of an SNR interval ``[low, high]`` under the rule of :func:`rule`.

    :data:`SUPPORTED` if Phi(low - snr0) >= tau, :data:`OPPOSED` if Phi(high - snr0) <= 1 - tau,
    :data:`NO_DIFFERENCE` if both lie strictly between, else :data:`UNDECIDED` (compared on the
    SNR scale, where Phi is monotone: low >= snr0 + Phi^-1(tau), and so on).

    Parameters
    ----------
    low, high : float
        The SNR interval's ends.
    threshold : float, default THRESHOLD
        tau, in (0.5, 1).
    snr0 : float, default 0.0
        The estimator's null SNR offset (0 for single differences).

    Returns
    -------
    int
        :data:`SUPPORTED`, :data:`OPPOSED`, :data:`NO_DIFFERENCE` or :data:`UNDECIDED`.
    """
    below, above = decision_bounds(threshold, snr0)
    if low >= above:
        return SUPPORTED
    if high <= below:
        return OPPOSED
    if low > below and high < above:
        return NO_DIFFERENCE
    return UNDECIDED


def _nct_cdf(t, df, delta) -> np.ndarray:
    """Vectorized P(T <= t) of a noncentral t, with estimators.reproducibility's tail rescue."""
    shape = np.broadcast(t, df, delta).shape
    t, df, delta = (np.atleast_1d(x).astype(np.float64)
                    for x in np.broadcast_arrays(t, df, delta))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        value = np.array(stats.nct.cdf(t, df, delta), dtype=np.float64)
        lost = np.isnan(value)
        if lost.any():
            value[lost] = 1.0 - stats.nct.sf(t[lost], df[lost], delta[lost])
    lost = np.isnan(value)
    value[lost] = (delta[lost] < t[lost]).astype(np.float64)
    return value.reshape(shape)


def decisions(t_statistics, repetitions, *, threshold: float = THRESHOLD,
              confidence: float = CONFIDENCE, snr0: float = 0.0, time_uniform: bool = True,
              prior=PRIOR) -> np.ndarray:
    """Decision codes for many studies at once, from their t statistics (vectorized).

    The same rule as :func:`decide` on the interval of :func:`snr_interval`, without computing
    the interval: an SNR c lies below the whole interval exactly when it is excluded and the
    interval lies above it.

    - time-uniform: c is excluded when the e-value :math:`M_R(c) \\ge 1/\\alpha`
      (:func:`~reprocompare.estimators.sequential.log_e_value`), and the interval lies above
      c when :math:`\\log M_R` falls to the right of c (it is quasi-convex);
    - fixed R: ``low >= c`` exactly when :math:`F_{nct}(T; R-1, \\sqrt R c) \\ge 1 - \\alpha/2`
      and ``high <= c`` when it is at most :math:`\\alpha/2` (the cdf falls as c grows).

    ``t_statistics`` may hold ``inf``/``-inf`` (constant estimates); all-zero estimates, whose
    interval is (0, 0) by convention, must go through :func:`decide`.

    Parameters
    ----------
    t_statistics : array_like of float
        sqrt(R) times each study's SNR.
    repetitions : array_like of int
        Each study's R (broadcast against ``t_statistics``).
    threshold : float, default THRESHOLD
        tau, in (0.5, 1).
    confidence : float, default CONFIDENCE
        Confidence of the intervals, in (0, 1).
    snr0 : float, default 0.0
        The estimator's null SNR offset (0 for single differences).
    time_uniform : bool, default True
        Confidence sequences (True) or fixed-R intervals (False).
    prior : float or sequence of (float, float), default PRIOR
        The confidence sequence's mixing prior (:data:`.sequential.PRIOR`).

    Returns
    -------
    numpy.ndarray of int
        One decision code per study, as :func:`decide` gives.
    """
    _check_threshold(threshold)
    confidence = _check_confidence(confidence)
    below, above = decision_bounds(threshold, _check_snr0(snr0))
    t, n = np.broadcast_arrays(np.asarray(t_statistics, dtype=np.float64),
                               np.asarray(repetitions, dtype=np.float64))
    alpha = 1 - confidence
    if time_uniform:
        bound = math.log(1 / alpha)

        def excluded_and_above(c):
            here = log_e_value(t, n, c, prior=prior)
            right = log_e_value(t, n, c + 1e-6 * max(1.0, abs(c)), prior=prior)
            return here >= bound, right < here

        out_above, lies_above = excluded_and_above(above)
        out_below, lies_above_below = excluded_and_above(below)
        supported = out_above & lies_above
        opposed = out_below & ~lies_above_below
        between = out_above & ~lies_above & out_below & lies_above_below
    else:
        cdf_above = _nct_cdf(t, n - 1, np.sqrt(n) * above)
        cdf_below = _nct_cdf(t, n - 1, np.sqrt(n) * below)
        supported = cdf_above >= 1 - alpha / 2
        opposed = cdf_below <= alpha / 2
        between = (cdf_below > 1 - alpha / 2) & (cdf_above < alpha / 2)
    codes = np.full(t.shape, UNDECIDED)
    codes[between] = NO_DIFFERENCE
    codes[opposed] = OPPOSED
    codes[supported] = SUPPORTED
    return codes


def repetitions_to_decide(snr_value: float, repetitions: int, *, threshold: float = THRESHOLD,
                          confidence: float = CONFIDENCE, snr0: float = 0.0,
                          time_uniform: bool = True,
                          max_repetitions: int = MAX_REPETITIONS,
                          prior=PRIOR, wave: int | None = None,
                          planned: bool = False) -> int | None:
    """How many more repetitions the verdict needs if the SNR stays at ``snr_value``.

    The smallest R' > R whose interval around the current SNR (t statistic sqrt(R') * SNR)
    reaches a decision, searched up to ``max_repetitions`` in all; ``R' - R`` is returned, or
    None when no R' up to the maximum decides (an SNR on a threshold never does). A coarse
    geometric grid finds the first deciding R', then every R' below it is checked.

    Parameters
    ----------
    snr_value : float
        The SNR, assumed to stay where it is.
    repetitions : int
        R, the repetitions run so far.
    threshold : float, default THRESHOLD
        tau, in (0.5, 1).
    confidence : float, default CONFIDENCE
        Confidence of the intervals, in (0, 1).
    snr0 : float, default 0.0
        The estimator's null SNR offset (0 for single differences).
    time_uniform : bool, default True
        Confidence sequences (True) or fixed-R intervals (False).
    max_repetitions : int, default MAX_REPETITIONS
        Upper end of the search, in repetitions all told.
    prior : float or sequence of (float, float), default PRIOR
        The confidence sequence's mixing prior (:data:`.sequential.PRIOR`).
    wave : int, optional
        Repetitions per look (a planned design's).
    planned : bool, default False
        A planned design of looks every ``wave`` up to ``max_repetitions``: only its looks are
        searched, each at its own confidence (:func:`.group_sequential.look_confidences`).

    Returns
    -------
    int or None
        R' - R, or None when no R' up to ``max_repetitions`` decides.

    Examples
    --------
    >>> repetitions_to_decide(0.0, 5)  # equal models: the sequence must fit inside +-0.84
    10
    """
    n_max = int(max_repetitions)
    r = int(repetitions)
    if n_max <= r:
        return None
    if planned:
        for n, each in look_confidences(wave, n_max, confidence).items():
            if n > r and each < 1 and decisions(
                    math.sqrt(n) * snr_value, n, threshold=threshold, confidence=each,
                    snr0=snr0, time_uniform=False) != UNDECIDED:
                return n - r
        return None

    def decided(candidates):
        t = np.sqrt(candidates) * snr_value if snr_value != 0 else np.zeros(len(candidates))
        return decisions(t, candidates, threshold=threshold, confidence=confidence, snr0=snr0,
                         time_uniform=time_uniform, prior=prior) != UNDECIDED

    grid = np.unique(np.round(np.geomspace(r + 1, n_max, 60)).astype(int))
    hits = np.flatnonzero(decided(grid))
    if hits.size == 0:
        return None
    start = r + 1 if hits[0] == 0 else int(grid[hits[0] - 1]) + 1
    candidates = np.arange(start, int(grid[hits[0]]) + 1)
    return int(candidates[np.flatnonzero(decided(candidates))[0]]) - r


@dataclass(frozen=True)
class PredictiveReproducibility:
    """Phi(SNR - snr0) and its interval, mapped from an SNR interval (Phi is monotone)."""

    value: float
    low: float
    high: float

    def as_dict(self) -> dict:
        return asdict(self)


def predictive_reproducibility(values, conclusion: str = "A>B", *,
                               confidence: float = CONFIDENCE, snr0: float = 0.0,
                               time_uniform: bool = False) -> PredictiveReproducibility:
    """Predictive reproducibility Phi(SNR - snr0) with the interval mapped from the SNR's.

    Under normality P(estimate > 0) = Phi(SNR) (Xue et al., Eq. 1 and 4 combined), so the exact
    SNR interval (:func:`~reprocompare.estimators.reproducibility.snr_exact_interval`, or the
    confidence sequence with ``time_uniform=True``) maps to one for the reproducibility. It uses
    the size of every estimate, where Eq. 1's share counts signs only, so it needs fewer
    repetitions for the same width (``docs/sequential.md``), at the price of assuming
    normality. ``snr0`` is the estimator's null SNR offset (0 for single differences).

    Parameters
    ----------
    values : array_like of float
        The estimator's values of A - B, one per repetition, in repetition order.
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test.
    confidence : float, default CONFIDENCE
        Confidence of the intervals, in (0, 1).
    snr0 : float, default 0.0
        The estimator's null SNR offset (0 for single differences).
    time_uniform : bool, default False
        Map the confidence sequence (True) or the fixed-R exact interval (False).

    Returns
    -------
    PredictiveReproducibility
        The value and its interval's ends.

    Examples
    --------
    >>> p = predictive_reproducibility([0.5, 1.5, 1.0, 0.2, 1.3])
    >>> round(p.value, 3), round(p.low, 3), round(p.high, 3)
    (0.951, 0.586, 0.999)
    """
    _check_values(values)
    snr0 = _check_snr0(snr0)
    ratio = snr(values, conclusion)
    low, high = snr_interval(values, conclusion, confidence=confidence, time_uniform=time_uniform)
    phi = lambda x: float(stats.norm.cdf(x - snr0))
    return PredictiveReproducibility(phi(ratio), phi(low), phi(high))


#: The decision codes beyond the four of :func:`decide`, as :class:`Verdict` names them.
EQUIVALENT, DEGENERATE = "equivalent", "degenerate"
#: What the noisy verdict means, said so that it never reads as equivalence (issue 33).
NEITHER = "neither direction reproduces with this estimator"


def _rope_text(rope: float) -> str:
    return f"{100 * rope:g} F1 points"


def share_bounds(threshold: float = THRESHOLD, snr0: float = 0.0) -> tuple[float, float]:
    """The thresholds of the distribution-free path on P(x > 0) and P(x < 0).

    The normal path's rule Phi(SNR - snr0) >= tau reads, for normal estimates, P(x > 0) >=
    Phi(Phi^-1(tau) + snr0); for a single difference (snr0 = 0) that is tau itself. The
    opposite conclusion needs P(x < 0) >= Phi(Phi^-1(tau) - snr0).

    Parameters
    ----------
    threshold : float, default THRESHOLD
        tau, in (0.5, 1).
    snr0 : float, default 0.0
        The estimator's null SNR offset (0 for single differences).

    Returns
    -------
    (float, float)
        The thresholds on P(x > 0) and on P(x < 0).
    """
    z = float(stats.norm.ppf(_check_threshold(threshold)))
    return float(stats.norm.cdf(z + snr0)), float(stats.norm.cdf(z - snr0))


def family_confidence(confidence: float = CONFIDENCE, verdicts: int = 1) -> float:
    """Bonferroni: each of ``verdicts`` claims at 1 - (1 - confidence) / verdicts, so that all
    of them hold together with ``confidence`` (valid for confidence sequences too, which Holm's
    step-down over p-values fixed in advance is not without more care).

    Parameters
    ----------
    confidence : float, default CONFIDENCE
        The family's confidence, in (0, 1).
    verdicts : int, default 1
        How many verdicts the family holds.

    Returns
    -------
    float
        The confidence of each verdict.
    """
    _check_confidence(confidence)
    if int(verdicts) != verdicts or verdicts < 1:
        raise ValueError(f"verdicts must be a whole number >= 1, got {verdicts!r}")
    return 1 - (1 - confidence) / int(verdicts)


def rule(threshold: float = THRESHOLD, confidence: float = CONFIDENCE, *,
         time_uniform: bool = True, snr0: float | dict = 0.0, conclusion: str = "A>B",
         wave: int | None = None, rope: float | None = None,
         deciding: tuple[str, ...] | list[str] = (), comparisons: int = 1,
         planned: bool = False, max_repetitions: int = MAX_REPETITIONS) -> str:
    """The verdicts' rule with its numbers, exactly as :func:`verdict` applies it.

    ``snr0`` is one offset or a mapping estimator -> offset (each estimator's criterion is
    printed); ``confidence`` is the family's, ``deciding`` and ``comparisons`` make the family
    (Bonferroni over ``comparisons x len(deciding)`` verdicts).

    Parameters
    ----------
    threshold : float, default THRESHOLD
        tau, in (0.5, 1).
    confidence : float, default CONFIDENCE
        The family's confidence.
    time_uniform : bool, default True
        Confidence sequences (True) or fixed-R intervals (False).
    snr0 : float or dict
        One null SNR offset, or one per estimator name.
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test.
    wave : int, optional
        Repetitions per look, printed with the looks.
    rope : float, optional
        The equivalence margin (a share of F1), if any.
    deciding : sequence of str, default ()
        The estimators whose verdicts decide.
    comparisons : int, default 1
        How many comparisons the study makes.
    planned : bool, default False
        A planned design (looks every ``wave`` up to ``max_repetitions``).
    max_repetitions : int, default MAX_REPETITIONS
        A planned design's last look.

    Returns
    -------
    str
        The rule as prose, with its numbers.
    """
    tau = _check_threshold(threshold)
    _check_confidence(confidence)
    other = _OTHER[_check_conclusion(conclusion)]
    offsets = snr0 if isinstance(snr0, dict) else {"every estimator": snr0}
    family = max(1, int(comparisons) * max(1, len(deciding)))
    each = family_confidence(confidence, family)
    sign = conclusion.replace(">", " - ")
    criteria = []
    # estimators with the same offset share one criterion (the single differences: 0)
    by_offset: dict[float, list[str]] = {}
    for name, offset in offsets.items():
        by_offset.setdefault(round(float(offset), 3), []).append(name)
    for offset, names in by_offset.items():
        up, down = share_bounds(tau, offset)
        phi = f"Phi(SNR - {offset:.3f})" if offset else "Phi(SNR)"
        criteria.append(f"{', '.join(names)}: {phi} >= {tau:g} (share path: P(x > 0) >= "
                        f"{up:.3f}), <= {1 - tau:g} for \"{_text(other)}\" (P(x < 0) >= "
                        f"{down:.3f})")
    if planned and planned_looks(wave, max_repetitions) == (int(max_repetitions),):
        kind = (f"{each:.4g} exact intervals at R = {max_repetitions} only (a fixed design: "
                "one look, at the maximum)")
    elif planned:
        levels = sorted(look_confidences(wave, max_repetitions, each).values())
        taken = planned_looks(wave, max_repetitions)
        shown = ", ".join(map(str, taken)) if len(taken) <= 4 else \
            f"{taken[0]}, {taken[1]}, ..., {taken[-1]}"
        kind = (f"{each:.4g} repeated confidence intervals of a planned design, looks at R = "
                f"{shown}, each look's exact interval at its own level "
                f"({levels[0]:.4g}-{levels[-1]:.4g}; {SPENDING_NAMES[DEFAULT_SPENDING]}), intersected "
                "over the looks")
    else:
        kind = (f"{each:.4g} confidence sequences, intersected over the looks"
                + (f" (R = {wave}, {2 * wave}, ...)" if wave else "")
                if time_uniform else f"{each:.4g} intervals for a fixed R")
    family_text = (f"{family} verdicts ({int(comparisons)} comparison(s) x deciding "
                   f"{', '.join(deciding)}) at {confidence:.0%} together, each at {each:.4g} "
                   "(Bonferroni)" if family > 1 else
                   f"one deciding verdict ({', '.join(deciding) or 'each estimator alone'}) at "
                   f"{confidence:.0%}")
    at_each = " at each look" if planned else ""
    mean_test = "t confidence sequence" if time_uniform else "TOST (two one-sided t tests)" + at_each
    share_intervals = ("beta-binomial confidence sequences" if time_uniform
                       else "Clopper-Pearson intervals" + at_each)
    equivalence = (f" \"No practical difference\" when the {mean_test} "
                   f"puts the mean of A - B within +-{_rope_text(rope)} (verdict.rope)."
                   if rope else "")
    return (f"Verdict rule: {family_text}, chosen before the run; the others are shown at the "
            f"same level for comparison. Predictive reproducibility: normal path {sign} via its "
            f"SNR ({kind}); {'; '.join(criteria)}. The normal path decides at a look unless ties "
            f"or Shapiro-Wilk p < 0.05 (from R = {SHAPIRO_FROM}; below it the model is "
            f"unchecked) reject the normal model there; "
            f"then the distribution-free path decides, Eq. 1's shares P(x > 0) and P(x < 0) "
            f"with {share_intervals}"
            f" (each at half the error). \"{_text(conclusion)}\" when the whole interval is at "
            f"or above the criterion, \"{_text(other)}\" likewise for the opposite, "
            f"\"{NEITHER}\" when both are excluded, else undecided. A verdict decided at a "
            f"look stays decided at every later look.{equivalence}")


@dataclass(frozen=True)
class Verdict:
    """One estimator's verdict: the decision, its sentence, and the numbers it rests on.

    ``decision`` is "A>B", "B>A" (that direction reproduces), "none" (neither direction
    reproduces with this estimator: too noisy, which is not equivalence), "equivalent" (no
    practical difference: the mean of A - B within +-``rope``), "degenerate" (no spread: no
    verdict) or "undecided"; ``text`` the sentence to print. ``snr``, ``snr_low`` and
    ``snr_high`` are Eq. 4's SNR and its interval for the conclusion under test (normal model);
    ``reproducibility`` and its ends the interval the verdict read: Phi(SNR - snr0) on the
    normal ``path``, Eq. 1's share on the distribution-free one (``path_reason`` says why).
    ``more`` is about how many more repetitions would decide (None when decided, or when none
    up to ``max_repetitions`` would), and ``reaches`` the decision they would reach ("A>B",
    "B>A" or "none"; None without ``more``). ``mean_low``/``mean_high`` bound the mean of
    A - B (the equivalence test's interval) when a ``rope`` is set.

    A decision is the first decided look's and stays at every later look: ``decided_at`` is
    that look's R, and ``reproducibility`` with its ends, ``path``, ``path_reason`` and
    ``interval`` are what was read there; ``claim`` says that interval in words, for the
    direction the verdict names ("Phi(SNR) >= 0.87 at R = 20, normal model"; below R = 15,
    where only ties were checked, "..., normal model (unchecked below R = 15)"), so that a
    "reproduces" is never printed beside an interval that does not clear the threshold.
    ``snr_low``/``snr_high`` are the SNR's interval at R (intersected over the looks).
    """

    decision: str
    text: str
    repetitions: int
    conclusion: str
    snr: float
    snr_low: float | None
    snr_high: float | None
    reproducibility: float
    reproducibility_low: float | None
    reproducibility_high: float | None
    more: int | None
    threshold: float
    confidence: float
    snr0: float
    time_uniform: bool
    max_repetitions: int
    path: str = "normal"
    path_reason: str = ""
    interval: str = ""
    looks: tuple[int, ...] = ()
    rope: float | None = None
    mean_low: float | None = None
    mean_high: float | None = None
    planned: bool = False
    decided_at: int | None = None
    claim: str = ""
    reaches: str | None = None

    def as_dict(self) -> dict:
        return asdict(self)


def _decision_name(code: int, conclusion: str) -> str:
    return {SUPPORTED: conclusion, OPPOSED: _OTHER[conclusion], NO_DIFFERENCE: "none",
            UNDECIDED: "undecided"}[code]


def _sentence(code: int, conclusion: str, repetitions: int, more: int | None,
              max_repetitions: int, reaches: int = UNDECIDED) -> str:
    if code == SUPPORTED:
        return _text(conclusion)
    if code == OPPOSED:
        return _text(_OTHER[conclusion])
    if code == NO_DIFFERENCE:
        return NEITHER
    if more is None:
        return (f"undecided after {repetitions} repetitions: more than the maximum of "
                f"{max_repetitions} repetitions to decide")
    return (f"undecided after {repetitions} repetitions: about {more} more to reach "
            f"'{_sentence(reaches, conclusion, repetitions, None, max_repetitions)}'")


def _check_common(conclusion, threshold, confidence, snr0, max_repetitions):
    _check_conclusion(conclusion)
    _check_threshold(threshold)
    _check_confidence(confidence)
    _check_snr0(snr0)
    if int(max_repetitions) < 2:
        raise ValueError(f"max_repetitions must be at least 2, got {max_repetitions!r}")


def _check_rope(rope) -> float | None:
    if rope is None:
        return None
    if isinstance(rope, bool) or not isinstance(rope, (int, float)) or not math.isfinite(rope) \
            or not 0 < rope < 1:
        raise ValueError(f"rope must be a share of F1 in (0, 1), got {rope!r}")
    return float(rope)


def _degenerate(values: np.ndarray, conclusion: str, common: dict) -> Verdict:
    """No spread: no interval means anything, so no verdict, and what would resolve it."""
    r = values.size
    value = float(np.median(values))
    if value == 0:
        text = (f"no verdict: all {r} estimates of A - B are 0 (A and B never differ on any "
                "split: are they the same model, or do both predict the same tags? compare "
                "different models, or check their specs)")
    else:
        text = (f"no verdict: all {r} estimates of A - B equal {100 * value:+.3f} F1 points "
                "(no spread: the split changes nothing, which random splits cannot give unless "
                "a model ignores its training data; check both models' training)")
    ratio = snr(values, conclusion)
    share = float(np.mean(_values(values, conclusion) > 0))
    return Verdict(decision=DEGENERATE, text=text, repetitions=r, conclusion=conclusion,
                   snr=ratio, snr_low=None, snr_high=None, reproducibility=share,
                   reproducibility_low=None, reproducibility_high=None, more=None,
                   path=DEGENERATE, path_reason="zero variance", **common)


@functools.lru_cache(maxsize=4096)
def _snr_interval(values: tuple, conclusion: str, confidence: float,
                  time_uniform: bool, prior=PRIOR) -> tuple[float, float]:
    """:func:`snr_interval` of one look, remembered: a replay asks for every look again at
    every later look (the running intersection), which would otherwise cost O(looks^2)."""
    return snr_interval(np.asarray(values), conclusion, confidence=confidence,
                        time_uniform=time_uniform, prior=prior)


@functools.lru_cache(maxsize=4096)
def _share_interval(count: int, trials: int, confidence: float,
                    time_uniform: bool) -> tuple[float, float]:
    return (share_confidence_sequence(count, trials, confidence=confidence) if time_uniform
            else clopper_pearson(count, trials, confidence))


def _share_decision(up: tuple[float, float], down: tuple[float, float],
                    bounds: tuple[float, float]) -> int:
    need_up, need_down = bounds
    if up[0] >= need_up:
        return SUPPORTED
    if down[0] >= need_down:
        return OPPOSED
    if up[1] < need_up and down[1] < need_down:
        return NO_DIFFERENCE
    return UNDECIDED


def share_repetitions_to_decide(share_up: float, share_down: float, repetitions: int, *,
                                threshold: float = THRESHOLD, confidence: float = CONFIDENCE,
                                snr0: float = 0.0, time_uniform: bool = True,
                                max_repetitions: int = MAX_REPETITIONS,
                                wave: int | None = None, planned: bool = False) -> int | None:
    """"N more" on the distribution-free path: the smallest R' > R whose share intervals, at
    the shares seen so far, decide; None when none up to ``max_repetitions`` does.

    Parameters
    ----------
    share_up, share_down : float
        The shares of repetitions with A - B > 0 and < 0 so far.
    repetitions : int
        R, the repetitions run so far.
    threshold : float, default THRESHOLD
        tau, in (0.5, 1).
    confidence : float, default CONFIDENCE
        Confidence of the intervals, in (0, 1).
    snr0 : float, default 0.0
        The estimator's null SNR offset (0 for single differences).
    time_uniform : bool, default True
        Confidence sequences (True) or fixed-R intervals (False).
    max_repetitions : int, default MAX_REPETITIONS
        Upper end of the search, in repetitions all told.
    wave : int, optional
        Repetitions per look (a planned design's).
    planned : bool, default False
        A planned design: only its looks are searched, each at its own confidence.

    Returns
    -------
    int or None
        R' - R, or None.
    """
    bounds = share_bounds(threshold, snr0)
    r, n_max = int(repetitions), int(max_repetitions)

    def decides(n: int, level: float = confidence) -> bool:
        return _share_decision_at(share_up, share_down, n, level, bounds,
                                  time_uniform) != UNDECIDED

    if planned:
        return next((n - r for n, level in look_confidences(wave, n_max, confidence).items()
                     if n > r and level < 1 and decides(n, level)), None)

    # every R' for a few dozen, then a geometric grid: past that it is a forecast, not a count
    counted = range(r + 1, min(n_max, r + 65) + 1)
    grid = (np.unique(np.round(np.geomspace(r + 66, n_max, 40))).astype(int)
            if r + 66 <= n_max else [])
    return next((int(n) - r for n in (*counted, *grid) if decides(int(n))), None)


def _share_decision_at(share_up: float, share_down: float, n: int, level: float,
                       bounds: tuple[float, float], time_uniform: bool) -> int:
    """The distribution-free decision at R' = ``n`` if the shares stay where they are."""
    half = 1 - (1 - level) / 2
    up = _share_interval(round(share_up * n), n, half, time_uniform)
    down = _share_interval(round(share_down * n), n, half, time_uniform)
    return _share_decision(up, down, bounds)


def _reached(more: int, r: int, ratio: float, signed: np.ndarray, *, normal: bool,
             threshold: float, confidence: float, snr0: float, time_uniform: bool,
             max_repetitions: int, prior, wave: int | None, planned: bool) -> int:
    """The decision "about ``more`` more" leads to: the one read at R + ``more`` if the SNR (the
    normal path) or Eq. 1's shares (the distribution-free path) stay where they are, as
    :func:`repetitions_to_decide` and :func:`share_repetitions_to_decide` projected it."""
    n = r + more
    level = look_confidences(wave, max_repetitions, confidence)[n] if planned else confidence
    if normal:
        return int(decisions(math.sqrt(n) * ratio, n, threshold=threshold, confidence=level,
                             snr0=snr0, time_uniform=time_uniform, prior=prior))
    return _share_decision_at(float(np.mean(signed > 0)), float(np.mean(signed < 0)), n, level,
                              share_bounds(threshold, snr0), time_uniform)


def mean_interval_for_rope(values: np.ndarray, looks: list[int], confidence,
                           time_uniform: bool) -> tuple[float, float]:
    """The mean of A - B's interval an equivalence verdict reads.

    Time-uniform: the t confidence sequence intersected over the looks. Fixed R: the (1 - 2
    alpha) Student t interval, inside +-rope exactly when TOST (Schuirmann 1987; statsmodels'
    ``ttost_paired`` against zeros) rejects both one-sided nulls at alpha. A planned design
    (``confidence`` one per look): that interval at each look's confidence, intersected.

    Parameters
    ----------
    values : numpy.ndarray
        The values of A - B, in repetition order.
    looks : list of int
        The looks R so far (time-uniform, or a planned design's).
    confidence : float or list of float
        The interval's confidence, or one per look (a planned design).
    time_uniform : bool
        Confidence sequence (True) or fixed-R interval (False).

    Returns
    -------
    (float, float)
        The interval's low and high ends.
    """
    if time_uniform:
        return running_intersection(mean_confidence_sequence(values[:r], confidence=confidence)
                                    for r in looks)
    if isinstance(confidence, (list, tuple)):
        return running_intersection([(-math.inf, math.inf)] + [
            mean_interval_for_rope(values[:r], [r], level, False)
            for r, level in zip(looks, confidence) if level < 1])
    r = values.size
    sd = float(values.std(ddof=1))
    half = float(stats.t.ppf(confidence, df=r - 1)) * sd / math.sqrt(r)
    return float(values.mean()) - half, float(values.mean()) + half


def verdict(values, conclusion: str = "A>B", *, threshold: float = THRESHOLD,
            confidence: float = CONFIDENCE, snr0: float = 0.0, time_uniform: bool = True,
            max_repetitions: int = MAX_REPETITIONS, wave: int | None = None,
            rope: float | None = None, prior=PRIOR, planned: bool = False) -> Verdict:
    r"""Does the conclusion reproduce? The verdict for one estimator's R values of A - B.

    Rule (as implemented; :func:`rule` prints it with its numbers). Let :math:`\theta` be the SNR
    (Eq. 4) of the values signed for ``conclusion`` (A - B for "A>B", B - A for "B>A"),
    :math:`\theta_0` = ``snr0`` the estimator's null SNR offset and :math:`\tau` = ``threshold``.

    - **Degenerate**: values without spread (all equal, all 0) get no verdict, and a text that
      says why and what would resolve it.
    - **Path**: the normal model unless :func:`~reprocompare.estimators.normality.normal_model`
      rejects it at a look (ties, Shapiro-Wilk p < 0.05); once rejected, the
      distribution-free path decides.
    - **Normal path**: :math:`[\ell, h]` is the SNR's ``confidence`` interval: the confidence
      sequence intersected over the looks ``wave, 2 wave, ..., R`` when ``time_uniform`` (so a
      decided verdict stays decided); with ``planned``, the repeated confidence intervals of a
      design planned with looks every ``wave`` up to ``max_repetitions`` (each look's exact
      interval at its confidence from :func:`.group_sequential.look_confidences`, intersected
      over the planned looks up to R; a look that was not planned claims nothing); else the
      fixed-R exact interval. The conclusion reproduces
      if :math:`\Phi(\ell - \theta_0) \ge \tau`, the opposite one if
      :math:`\Phi(h - \theta_0) \le 1 - \tau`, neither (:data:`NEITHER`) if both are excluded.
    - **Distribution-free path**: intervals for :math:`P(x > 0)` and :math:`P(x < 0)` (Eq. 1's
      share for each conclusion; beta-binomial confidence sequences or Clopper-Pearson, each at
      half the error, intersected over the looks) against :func:`share_bounds`.
    - **Equivalence**: with ``rope`` (a share of F1), "no practical difference" when the mean of
      A - B's interval (:func:`mean_interval_for_rope`) lies within +-rope; it replaces
      "neither" and "undecided", and qualifies a direction that reproduces.
    - otherwise "undecided after R repetitions: about N more to reach '<verdict>'", the verdict
      read at R + N if the SNR (or the shares) stay where they are.

    Parameters
    ----------
    values : array_like
        The estimator's values of A - B, one per repetition, in repetition order (at least 2).
    conclusion : {"A>B", "B>A"}
        The conclusion under test; the verdict names whichever direction the data support.
    threshold : float
        :math:`\tau` in (0.5, 1) (default :data:`THRESHOLD`).
    confidence : float
        Confidence of the intervals, in (0, 1) (already adjusted for a family of verdicts:
        :func:`family_confidence`).
    snr0 : float
        Null SNR offset: 0 for ST, RS, Avg and Vote; for the mixture
        ``reprocompare.estimators.null.mixture_null_offset(vote, avg, conclusion).snr``.
    time_uniform : bool
        True (default) for confidence sequences, which a study that stops when its verdict is
        clear must use; False for fixed-R intervals, valid only when R was fixed in advance.
    max_repetitions : int
        Upper end of the search for "N more".
    wave : int, optional
        Repetitions per look of a sequential study (intervals are intersected over its looks);
        None looks once, at R.
    rope : float, optional
        Half-width of the region of practical equivalence, as a share of F1 (0.005 = 0.5 F1
        points).
    prior : float or sequence of (float, float), default PRIOR
        The confidence sequence's mixing prior (:data:`.sequential.PRIOR`; another only to
        measure the rule against it).
    planned : bool, default False
        A planned (group-sequential) design: looks every ``wave`` up to ``max_repetitions``,
        fixed before the study ran (``time_uniform`` must then be False).

    Returns
    -------
    Verdict

    Raises
    ------
    ValueError
        For a threshold outside (0.5, 1), a confidence outside (0, 1), fewer than 2 values, an
        unknown conclusion, a rope outside (0, 1), or a planned design without a wave or with
        ``time_uniform``; each message names the argument.

    Examples
    --------
    >>> verdict([1.0, 1.1, 0.9, 1.05, 0.95]).text  # SNR 12.6: clear already at R = 5
    'A > B reproduces'
    >>> verdict([1.0, 1.1, 0.9, 1.05, 0.95], "B>A").decision
    'A>B'
    >>> verdict([0.01, 0.01, 0.01]).decision
    'degenerate'
    """
    values = _check_values(values)
    _check_common(conclusion, threshold, confidence, snr0, max_repetitions)
    rope = _check_rope(rope)
    r = len(values)
    if planned and (time_uniform or not wave):
        raise ValueError("planned: a planned design needs a wave and time_uniform=False")
    if planned:
        # only the planned looks claim anything (the error was spent over them alone)
        plan = look_confidences(wave, max_repetitions, confidence)
        taken = [n for n in plan if n <= r]
        levels = [plan[n] for n in taken]
    else:
        taken = looks(r, wave) if (time_uniform and wave) else [r]
        levels = [confidence] * len(taken)
    common = dict(threshold=float(threshold), confidence=float(confidence), snr0=float(snr0),
                  time_uniform=bool(time_uniform), max_repetitions=int(max_repetitions),
                  looks=tuple(taken), rope=rope, planned=bool(planned))
    signed = _checked(values, conclusion)
    if _is_constant(_scaled(signed)):
        return _degenerate(values, conclusion, common)
    ratio = snr(values, conclusion)
    # The verdict is the first decided look's, kept at every later look (a decision is never
    # taken back: the design's error is spent on "some look decides wrongly", which the first
    # decision's error is part of). Later looks still narrow the intervals printed beside it.
    first = None
    for now in _readings(values, taken, levels, conclusion=conclusion,
                         threshold=float(threshold), snr0=float(snr0),
                         time_uniform=bool(time_uniform), planned=bool(planned), prior=prior):
        if first is None and now.code != UNDECIDED:
            first = now
    first = first or now
    code = first.code
    more = None
    if code == UNDECIDED:
        if now.path == "normal":
            more = repetitions_to_decide(ratio, r, threshold=threshold, confidence=confidence,
                                         snr0=snr0, time_uniform=time_uniform,
                                         max_repetitions=max_repetitions, prior=prior,
                                         wave=wave, planned=planned)
        else:
            more = share_repetitions_to_decide(
                float(np.mean(signed > 0)), float(np.mean(signed < 0)), r, threshold=threshold,
                confidence=confidence, snr0=snr0, time_uniform=time_uniform,
                max_repetitions=max_repetitions, wave=wave, planned=planned)
    reaches = UNDECIDED if more is None else _reached(
        more, r, ratio, signed, normal=now.path == "normal", threshold=threshold,
        confidence=confidence, snr0=snr0, time_uniform=time_uniform,
        max_repetitions=max_repetitions, prior=prior, wave=wave, planned=planned)
    decision = _decision_name(code, conclusion)
    text = _sentence(code, conclusion, r, more, int(max_repetitions), reaches)
    claim = first.claim(code, conclusion, threshold)
    mean_low = mean_high = None
    if rope is not None:
        mean_low, mean_high = mean_interval_for_rope(
            values, taken, levels if planned else confidence, time_uniform)
        if -rope < mean_low and mean_high < rope:
            within = (f"the mean of A - B lies within +-{_rope_text(rope)} "
                      f"([{100 * mean_low:+.3f}, {100 * mean_high:+.3f}])")
            if code in (SUPPORTED, OPPOSED):
                text += f", by less than {_rope_text(rope)}: no practical difference ({within})"
            else:
                decision, more, reaches = EQUIVALENT, None, UNDECIDED
                text = f"no practical difference: {within}"
                claim = f"mean of A - B in [{100 * mean_low:+.3f}, {100 * mean_high:+.3f}] " \
                        f"F1 points, inside +-{_rope_text(rope)}"
    return Verdict(decision=decision, text=text, repetitions=r, conclusion=conclusion,
                   snr=ratio, snr_low=now.snr_low, snr_high=now.snr_high,
                   reproducibility=first.point, reproducibility_low=first.low,
                   reproducibility_high=first.high, more=more, path=first.path,
                   path_reason=first.reason, interval=first.interval, mean_low=mean_low,
                   mean_high=mean_high, decided_at=first.at if code != UNDECIDED else None,
                   claim=claim, reaches=(None if reaches == UNDECIDED
                                         else _decision_name(reaches, conclusion)), **common)


@dataclass(frozen=True)
class _Reading:
    """What the rule reads at one look: the decision code, the path and why, and the interval
    of the quantity decided on (Phi(SNR - snr0) on the normal path, Eq. 1's share off it)."""

    at: int
    code: int
    path: str
    reason: str
    point: float
    low: float
    high: float
    other_low: float  # the low end of the opposite direction's quantity
    interval: str
    snr_low: float
    snr_high: float
    snr0: float

    def claim(self, code: int, conclusion: str, threshold: float) -> str:
        """The interval the verdict read, named and turned to the direction it names: for
        "B > A reproduces" the quantity is P(B - A > 0), whose interval is 1 - the other's."""
        other = _OTHER[conclusion]
        if self.path == "normal":
            name = f"Phi(SNR - {self.snr0:.3f})" if self.snr0 else "Phi(SNR)"
            flipped = f"Phi(-SNR + {self.snr0:.3f})" if self.snr0 else "Phi(-SNR)"
            # below SHAPIRO_FROM nothing but ties was checked: the reader must see that
            model = ", normal model" + (f" (unchecked below R = {SHAPIRO_FROM})"
                                        if self.at < SHAPIRO_FROM else "")
        else:
            sign = conclusion.replace(">", " - ")
            name = f"share P({sign} > 0)"
            flipped = f"share P({other.replace('>', ' - ')} > 0)"
            model = ""
        where = f" at R = {self.at}"
        # the criteria the reading was decided against: tau on Phi(SNR - snr0); off the normal
        # model, the shares' own (share_bounds: above tau for the mixture's A > B)
        need_up, need_down = ((threshold, threshold) if self.path == "normal"
                              else share_bounds(threshold, self.snr0))

        def shown(low=None, high=None, clears=lambda lo, hi: True) -> tuple:
            """The ends at the fewest decimals (2 to 6) at which they stand where the reading
            found them against its criteria."""
            for digits in range(2, 7):
                lo = None if low is None else _outward(low, digits, up=False)
                hi = None if high is None else _outward(high, digits, up=True)
                if clears(lo and float(lo), hi and float(hi)):
                    break
            return lo, hi

        if code == SUPPORTED:
            low, _ = shown(self.low, clears=lambda lo, hi: lo >= need_up)
            return f"{name} >= {low}{where}{model}"
        if code == OPPOSED:
            # on the normal path P(B - A > 0) = 1 - P(A - B > 0); off it, the share of the
            # other sign has its own interval (ties count in neither share)
            low, _ = shown(self.other_low, clears=lambda lo, hi: lo >= need_down)
            return f"{flipped} >= {low}{where}{model}"
        if code == NO_DIFFERENCE:
            # both directions excluded: the printed ends stay strictly inside
            below = 1 - need_down if self.path == "normal" else -math.inf
            low, high = shown(self.low, self.high,
                              clears=lambda lo, hi: below < lo and hi < need_up)
        else:
            low, high = shown(self.low, self.high)
        return f"{name} in [{low}, {high}]{where}{model}"


def _outward(x: float, digits: int, *, up: bool) -> str:
    """``x`` to ``digits`` decimals, rounded away from the interval's inside: a lower end down,
    an upper end up. A bound of 0.9967 rounded to the nearest would print ">= 1.00", a claim
    the data do not make; rounded down it prints ">= 0.99" (repr: 0.29 stays 0.29, not
    0.28999...). The claim takes as many decimals as it needs to stand where the reading found
    it against its criterion: ">= 0.996" for a share that cleared 0.9957, not ">= 0.99"."""
    step = Decimal(1).scaleb(-digits)
    return str(Decimal(repr(float(x))).quantize(step, ROUND_CEILING if up else ROUND_FLOOR))


def _readings(values: np.ndarray, taken: list[int], levels: list[float], *, conclusion: str,
              threshold: float, snr0: float, time_uniform: bool, planned: bool, prior):
    """The rule at each look of ``taken`` in turn (the values up to it; intervals intersected
    over the looks so far, each at its own level from ``levels``), in one pass. With no look
    (a planned design before its first), one reading at all of ``values`` that claims nothing.
    """
    signed_all = _checked(values, conclusion)
    ends, positive, negative = [(-math.inf, math.inf)], [(0.0, 1.0)], [(0.0, 1.0)]
    for j, n in enumerate(taken or [len(values)]):
        level = levels[j] if taken else 1.0
        head, signed = values[:n], signed_all[:n]
        if n >= 2 and level < 1:
            ends.append(_snr_interval(tuple(head), conclusion, level, time_uniform, prior))
            half = 1 - (1 - level) / 2  # each share at half the error
            positive.append(_share_interval(int(np.sum(signed > 0)), n, half, time_uniform))
            negative.append(_share_interval(int(np.sum(signed < 0)), n, half, time_uniform))
        # the normal model, checked at each look on that look's data (estimators.normality)
        model = normal_model(head)
        yield _read_look(values[:n], signed, running_intersection(ends),
                         running_intersection(positive), running_intersection(negative),
                         model, conclusion=conclusion, threshold=threshold,
                         snr0=snr0, time_uniform=time_uniform, planned=planned)


def _read_look(values, signed, snr_ends, up, down, model, *, conclusion, threshold, snr0,
               time_uniform, planned) -> _Reading:
    """One look's decision from its intervals (the SNR's and both shares', intersected over
    the looks so far) and the normal model's state there."""
    low, high = snr_ends
    path, reason = "normal", model.reason
    if model.rejected:
        path = "distribution-free"
        reason = model.reason + (f" at R = {model.at}" if model.at else "")
    elif low > high:  # the sequence missed: its model is contradicted by the data
        path, reason = "distribution-free", "the normal model's sequence is empty over the looks"
    phi = lambda x: float(stats.norm.cdf(x - snr0))
    if path == "normal":
        code = decide(low, high, threshold=threshold, snr0=snr0)
        point, p_low, p_high = phi(snr(values, conclusion)), phi(low), phi(high)
        # With no estimate on one side of 0 the data cannot place P(x > 0) short of 1 (or
        # above 0): only the normal model's tails would, the assumption that fails first
        # (bounded F1, failed trainings). The interval keeps that end open, and "neither",
        # which would claim P(x > 0) < tau, waits (bench_intervals: coverage where P = 1).
        if np.all(signed > 0) or np.all(signed < 0):
            p_high = 1.0 if np.all(signed > 0) else p_high
            p_low = 0.0 if np.all(signed < 0) else p_low
            code = UNDECIDED if code == NO_DIFFERENCE else code
        other_low = 1 - p_high
        interval = ("SNR confidence sequence, intersected over looks" if time_uniform
                    else PLANNED_KIND.format("SNR exact interval") if planned
                    else "SNR exact interval (fixed R)")
    else:
        code = _share_decision(up, down, share_bounds(threshold, snr0))
        point, p_low, p_high = float(np.mean(signed > 0)), up[0], up[1]
        other_low = down[0]
        interval = ("Eq. 1 share, beta-binomial confidence sequence" if time_uniform
                    else PLANNED_KIND.format("Eq. 1 share, Clopper-Pearson") if planned
                    else "Eq. 1 share, Clopper-Pearson (fixed R)")
    return _Reading(at=len(values), code=code, path=path, reason=reason, point=point,
                    low=p_low, high=p_high, other_low=other_low, interval=interval,
                    snr_low=low, snr_high=high, snr0=snr0)


@dataclass(frozen=True)
class Replay:
    """Where the stopping rule stopped a study, and with which verdict.

    ``stopped_at`` is the R of the first look whose verdict is decided, or the last look
    (``min(len(values), max_repetitions)``) when none was; ``looks`` the R of every look
    taken, in order.
    """

    stopped_at: int
    decided: bool
    wave: int
    looks: tuple[int, ...]
    verdict: Verdict

    def as_dict(self) -> dict:
        return asdict(self)


def replay(values, wave: int, conclusion: str = "A>B", *, threshold: float = THRESHOLD,
           confidence: float = CONFIDENCE, snr0: float = 0.0, time_uniform: bool = True,
           max_repetitions: int | None = None, rope: float | None = None,
           planned: bool = False) -> Replay:
    """Feed a study's values in repetition order to the stopping rule, one wave at a time.

    Looks at R = wave, 2 wave, ... (R >= 2; the last, possibly partial, wave ends at
    ``min(len(values), max_repetitions)``) and stops at the first look whose :func:`verdict`
    (intersected over the looks so far) is decided. The values must be in the order the
    repetitions were run (the ``values`` of a study's summary are). ``snr0`` is held fixed over
    the looks (for the mixture, pass the offset of the whole study, or 0 to ignore it).

    Returns the look where it stopped and its verdict; an undecided one carries "N more"
    projected from there up to ``max_repetitions`` (default :data:`MAX_REPETITIONS`).

    Parameters
    ----------
    values : array_like of float
        The estimator's values of A - B, one per repetition, in repetition order.
    wave : int
        Repetitions per look.
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test.
    threshold : float, default THRESHOLD
        tau, in (0.5, 1).
    confidence : float, default CONFIDENCE
        Confidence of the intervals, in (0, 1).
    snr0 : float, default 0.0
        The estimator's null SNR offset (0 for single differences).
    time_uniform : bool, default True
        Confidence sequences (True) or fixed-R intervals (False).
    max_repetitions : int, optional
        The most repetitions looked at; default :data:`MAX_REPETITIONS`.
    rope : float, optional
        The equivalence margin, a share of F1.
    planned : bool, default False
        A planned design of looks every ``wave`` up to ``max_repetitions`` (with
        ``time_uniform=False``).

    Returns
    -------
    Replay
        The look where it stopped, the looks taken and the verdict there.
    """
    values = _check_values(values)
    limit = MAX_REPETITIONS if max_repetitions is None else int(max_repetitions)
    _check_common(conclusion, threshold, confidence, snr0, limit)
    available = min(len(values), limit)
    taken = []
    for r in looks(available, wave):
        taken.append(r)
        last = verdict(values[:r], conclusion, threshold=threshold, confidence=confidence,
                       snr0=snr0, time_uniform=time_uniform, max_repetitions=limit,
                       wave=wave if (time_uniform or planned) else None, rope=rope,
                       planned=planned)
        if last.decision != "undecided":
            break
    return Replay(stopped_at=taken[-1], decided=last.decision != "undecided", wave=int(wave),
                  looks=tuple(taken), verdict=last)
