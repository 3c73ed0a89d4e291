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
whatever the stopping rule; what a sequential study must use) or the fixed-R exact interval
(valid when R was fixed in advance), as the caller says.

:func:`replay` feeds a study's repetitions in order, one wave at a time, to this stopping rule
and says where it stops and with which verdict.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import asdict, dataclass

import numpy as np
from scipy import stats

from reprocompare.estimators.reproducibility import (CONCLUSIONS, _values, snr,
                                                     snr_exact_interval)
from reprocompare.estimators.sequential import (PRIOR_SCALE, _check_confidence, log_e_value,
                                                snr_interval)

#: Default threshold tau on the (predictive) reproducibility: "A > B reproduces" when the
#: whole interval of Phi(SNR - snr0) is at least 0.8, i.e. four of five fresh repetitions
#: would agree with it.
THRESHOLD = 0.8
#: Confidence of the interval behind every verdict.
CONFIDENCE = 0.95
#: "Repetitions to decide" is searched up to this many in all (the config schema's maximum R).
MAX_REPETITIONS = 5000

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
    """The SNRs where the predictive reproducibility Phi(SNR - snr0) is 1 - tau and tau."""
    z = float(stats.norm.ppf(_check_threshold(threshold)))
    return snr0 - z, snr0 + z


def decide(low: float, high: float, *, threshold: float = THRESHOLD, snr0: float = 0.0) -> int:
    """The decision code of an SNR interval ``[low, high]`` under the rule of :func:`rule`.

    :data:`SUPPORTED` if Phi(low - snr0) >= tau, :data:`OPPOSED` if Phi(high - snr0) <= 1 - tau,
    :data:`NO_DIFFERENCE` if both lie strictly between, else :data:`UNDECIDED` (compared on the
    SNR scale, where Phi is monotone: low >= snr0 + Phi^-1(tau), and so on).
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
              prior_scale: float = PRIOR_SCALE) -> np.ndarray:
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
            here = log_e_value(t, n, c, prior_scale=prior_scale)
            right = log_e_value(t, n, c + 1e-6 * max(1.0, abs(c)), prior_scale=prior_scale)
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
                          prior_scale: float = PRIOR_SCALE) -> int | None:
    """How many more repetitions the verdict needs if the SNR stays at ``snr_value``.

    The smallest R' > R whose interval around the current SNR (t statistic sqrt(R') * SNR)
    reaches a decision, searched up to ``max_repetitions`` in all; ``R' - R`` is returned, or
    None when no R' up to the maximum decides (an SNR on a threshold never does). A coarse
    geometric grid finds the first deciding R', then every R' below it is checked.

    >>> repetitions_to_decide(0.0, 5)  # equal models: the sequence must fit inside +-0.84
    10
    """
    n_max = int(max_repetitions)
    r = int(repetitions)
    if n_max <= r:
        return None

    def decided(candidates):
        t = np.sqrt(candidates) * snr_value if snr_value != 0 else np.zeros(len(candidates))
        return decisions(t, candidates, threshold=threshold, confidence=confidence, snr0=snr0,
                         time_uniform=time_uniform, prior_scale=prior_scale) != UNDECIDED

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


def rule(threshold: float = THRESHOLD, confidence: float = CONFIDENCE, *,
         time_uniform: bool = True, snr0: float = 0.0, conclusion: str = "A>B") -> str:
    """The verdict's rule in one paragraph, with its numbers: print it beside every verdict."""
    tau = _check_threshold(threshold)
    _check_confidence(confidence)
    other = _OTHER[_check_conclusion(conclusion)]
    kind = ("confidence sequence (valid however the study stops)" if time_uniform
            else "exact interval for a fixed R")
    offset = (f"Phi(SNR - {snr0:.3f}), {snr0:.3f} being the estimator's SNR when A and B do not "
              "differ" if snr0 else "Phi(SNR)")
    return (f"Verdict rule: the predictive reproducibility is {offset} (P(estimate > 0) for "
            f"normal estimates); [low, high] is its interval, mapped from the {confidence:.0%} "
            f"{kind} of the SNR of {conclusion.replace('>', ' - ')}. "
            f"\"{_text(conclusion)}\" when low >= {tau:g}, \"{_text(other)}\" when "
            f"high <= {1 - tau:g}, \"no reproducible difference\" when {1 - tau:g} < low and "
            f"high < {tau:g}, else undecided.")


@dataclass(frozen=True)
class Verdict:
    """One estimator's verdict: the decision, its sentence, and the numbers it rests on.

    ``decision`` is "A>B", "B>A" (that direction reproduces), "none" (no reproducible
    difference) or "undecided"; ``text`` the sentence to print. ``snr``, ``snr_low`` and
    ``snr_high`` are Eq. 4's SNR and its interval for the conclusion under test;
    ``reproducibility`` and its ends are the predictive reproducibility Phi(SNR - snr0) mapped
    from them. ``more`` is about how many more repetitions would decide (None when decided, or
    when none up to ``max_repetitions`` would).
    """

    decision: str
    text: str
    repetitions: int
    conclusion: str
    snr: float
    snr_low: float
    snr_high: float
    reproducibility: float
    reproducibility_low: float
    reproducibility_high: float
    more: int | None
    threshold: float
    confidence: float
    snr0: float
    time_uniform: bool
    max_repetitions: int

    def as_dict(self) -> dict:
        return asdict(self)


def _decision_name(code: int, conclusion: str) -> str:
    return {SUPPORTED: conclusion, OPPOSED: _OTHER[conclusion], NO_DIFFERENCE: "none",
            UNDECIDED: "undecided"}[code]


def _sentence(code: int, conclusion: str, repetitions: int, more: int | None,
              max_repetitions: int) -> str:
    if code == SUPPORTED:
        return _text(conclusion)
    if code == OPPOSED:
        return _text(_OTHER[conclusion])
    if code == NO_DIFFERENCE:
        return "no reproducible difference"
    if more is None:
        return (f"undecided after {repetitions} repetitions: more than the maximum of "
                f"{max_repetitions} repetitions to decide")
    return f"undecided after {repetitions} repetitions: about {more} more to decide"


def _check_common(conclusion, threshold, confidence, snr0, max_repetitions):
    _check_conclusion(conclusion)
    _check_threshold(threshold)
    _check_confidence(confidence)
    _check_snr0(snr0)
    if int(max_repetitions) < 2:
        raise ValueError(f"max_repetitions must be at least 2, got {max_repetitions!r}")


def verdict(values, conclusion: str = "A>B", *, threshold: float = THRESHOLD,
            confidence: float = CONFIDENCE, snr0: float = 0.0, time_uniform: bool = True,
            max_repetitions: int = MAX_REPETITIONS) -> Verdict:
    r"""Does the conclusion reproduce? The verdict for one estimator's R values of A - B.

    Rule (as implemented; :func:`rule` prints it with its numbers). Let :math:`\theta` be the SNR
    (Eq. 4) of the values signed for ``conclusion`` (A - B for "A>B", B - A for "B>A"),
    :math:`[\ell, h]` its ``confidence`` interval: the time-uniform confidence sequence
    (:func:`~reprocompare.estimators.sequential.snr_confidence_sequence`, valid under any
    stopping rule) when ``time_uniform``, else the fixed-R exact interval
    (:func:`~reprocompare.estimators.reproducibility.snr_exact_interval`), and
    :math:`\theta_0` = ``snr0`` the estimator's null SNR offset. With the predictive
    reproducibility :math:`p = \Phi(\theta - \theta_0)` and :math:`\tau` = ``threshold``:

    - the conclusion reproduces ("A > B reproduces" for "A>B") if :math:`\Phi(\ell - \theta_0)
      \ge \tau`;
    - the opposite one reproduces ("B > A reproduces" for "A>B") if :math:`\Phi(h - \theta_0)
      \le 1 - \tau`;
    - "no reproducible difference" if :math:`1 - \tau < \Phi(\ell - \theta_0)` and
      :math:`\Phi(h - \theta_0) < \tau`;
    - otherwise "undecided after R repetitions: about N more to decide", N from
      :func:`repetitions_to_decide` (the SNR assumed to stay where it is), or "... more than the
      maximum of M repetitions to decide" when no R' up to ``max_repetitions`` decides.

    Parameters
    ----------
    values : array_like
        The estimator's values of A - B, one per repetition, in any sign (at least 2).
    conclusion : {"A>B", "B>A"}
        The conclusion under test; the verdict names whichever direction the data support.
    threshold : float
        :math:`\tau` in (0.5, 1) (default :data:`THRESHOLD`).
    confidence : float
        Confidence of the interval, in (0, 1).
    snr0 : float
        Null SNR offset: 0 for ST, RS, Avg and Vote; for the mixture
        ``reprocompare.estimators.null.mixture_null_offset(vote, avg, conclusion).snr``.
    time_uniform : bool
        True (default) for the confidence sequence, which a study that stops when its verdict
        is clear must use; False for the fixed-R exact interval, narrower, valid only when R
        was fixed in advance.
    max_repetitions : int
        Upper end of the search for "N more".

    Returns
    -------
    Verdict

    Raises
    ------
    ValueError
        For a threshold outside (0.5, 1), a confidence outside (0, 1), fewer than 2 values, an
        unknown conclusion; each message names the argument.

    Examples
    --------
    >>> verdict([1.0, 1.1, 0.9, 1.05, 0.95]).text  # SNR 12.6: clear already at R = 5
    'A > B reproduces'
    >>> verdict([1.0, 1.1, 0.9, 1.05, 0.95], "B>A").decision
    'A>B'
    """
    values = _check_values(values)
    _check_common(conclusion, threshold, confidence, snr0, max_repetitions)
    low, high = snr_interval(values, conclusion, confidence=confidence, time_uniform=time_uniform)
    code = decide(low, high, threshold=threshold, snr0=snr0)
    ratio = snr(values, conclusion)
    r = len(values)
    more = None
    if code == UNDECIDED:
        more = repetitions_to_decide(ratio, r, threshold=threshold, confidence=confidence,
                                     snr0=snr0, time_uniform=time_uniform,
                                     max_repetitions=max_repetitions)
    phi = lambda x: float(stats.norm.cdf(x - snr0))
    return Verdict(
        decision=_decision_name(code, conclusion),
        text=_sentence(code, conclusion, r, more, int(max_repetitions)),
        repetitions=r, conclusion=conclusion, snr=ratio, snr_low=low, snr_high=high,
        reproducibility=phi(ratio), reproducibility_low=phi(low), reproducibility_high=phi(high),
        more=more, threshold=float(threshold), confidence=float(confidence), snr0=float(snr0),
        time_uniform=bool(time_uniform), max_repetitions=int(max_repetitions))


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


def _looks(available: int, wave: int) -> list[int]:
    looks = [r for r in range(wave, available + 1, wave) if r >= 2]
    if not looks or looks[-1] != available:
        looks.append(available)  # a last, partial wave still gets its look
    return looks


def replay(values, wave: int, conclusion: str = "A>B", *, threshold: float = THRESHOLD,
           confidence: float = CONFIDENCE, snr0: float = 0.0, time_uniform: bool = True,
           max_repetitions: int | None = None) -> Replay:
    """Feed a study's values in repetition order to the stopping rule, one wave at a time.

    Looks at R = wave, 2 wave, ... (R >= 2; the last, possibly partial, wave ends at
    ``min(len(values), max_repetitions)``) and stops at the first look whose :func:`verdict`
    is decided. The values must be in the order the repetitions were run (the ``values`` of a
    study's summary are). ``snr0`` is held fixed over the looks (for the mixture, pass the
    offset of the whole study, or 0 to ignore it).

    Returns the look where it stopped and its verdict; an undecided one carries "N more"
    projected from there up to ``max_repetitions`` (default :data:`MAX_REPETITIONS`).
    """
    values = _check_values(values)
    if int(wave) != wave or wave < 1:
        raise ValueError(f"wave must be a whole number of repetitions >= 1, got {wave!r}")
    limit = MAX_REPETITIONS if max_repetitions is None else int(max_repetitions)
    _check_common(conclusion, threshold, confidence, snr0, limit)
    available = min(len(values), limit)
    looks = []
    for r in _looks(available, int(wave)):
        looks.append(r)
        low, high = snr_interval(values[:r], conclusion, confidence=confidence,
                                 time_uniform=time_uniform)
        if decide(low, high, threshold=threshold, snr0=snr0) != UNDECIDED:
            break
    last = verdict(values[:looks[-1]], conclusion, threshold=threshold, confidence=confidence,
                   snr0=snr0, time_uniform=time_uniform, max_repetitions=limit)
    return Replay(stopped_at=looks[-1], decided=last.decision != "undecided", wave=int(wave),
                  looks=tuple(looks), verdict=last)
