"""SNR and reproducibility of an estimator over many repetitions, and per-model intervals.

Xue et al., section 2 and 4: over R independent repetitions of a splitting strategy an estimator
of A - B takes R values. Its reproducibility (Eq. 1) is P(estimate > 0) for the conclusion A > B,
estimated by the share of positive values; its signal-to-noise ratio (Eq. 4) is E/sqrt(Var),
estimated by the sample mean over the sample standard deviation (ddof=1); the one-sided Chebyshev
inequality bounds the first by the second: P >= SNR^2 / (1 + SNR^2) (Eq. 3, for SNR > 0).

The paper gives point values only; with R = 1000 that is fine, with the R = 5 of a laptop run it
is not, so every figure here comes with a 95% interval: Clopper-Pearson for the reproducibility (a
binomial share) and, for the SNR, the exact interval that inverts the noncentral t distribution
(finite and deterministic at every R >= 2). A percentile bootstrap over repetitions is kept as an
option for estimates far from normal; docs/statistics.md holds the measured coverage of both
(the bootstrap covers the true SNR in only 67-78% of studies at R = 5).

Corner cases have one documented answer each (see :func:`snr`): estimates whose spread is below
``RELATIVE_TOLERANCE`` times their largest magnitude count as constant; R < 2 is an error.
"""

from __future__ import annotations

import math
import sys
import warnings
from dataclasses import asdict, dataclass

import numpy as np

# SciPy is imported inside the functions that use it: the report jobs import this module for
# its constants and snr_bias_factor, and scipy.stats costs every fresh job process 0.7 CPU s
# (benchmarks/bench_job_cpu.py)

CONCLUSIONS = ("A>B", "B>A")
SNR_METHODS = ("exact", "bootstrap")

#: Estimates whose standard deviation is at most this times their largest magnitude are treated
#: as constant. F1 differences are computed from integer chunk counts: two genuinely different
#: values differ by far more than 1e-9 of their size, while one value reached through different
#: sums differs only by rounding (~1e-16 relative), which would otherwise give an SNR of 1e15.
RELATIVE_TOLERANCE = 1e-9

#: Half-widths that "repetitions needed" aims at (issue 16): +-0.05 on the reproducibility,
#: +-0.25 on the SNR, both for 95% intervals.
REPRODUCIBILITY_HALF_WIDTH = 0.05
SNR_HALF_WIDTH = 0.25

#: "Repetitions needed" for an interval's width is searched up to this many; beyond it the
#: answer is None (never). A search bound, not a study's: that is the verdict's MAX_REPETITIONS.
SEARCH_LIMIT = 1_000_000
#: Above this many repetitions "repetitions needed for the SNR" uses the normal approximation.
EXACT_SEARCH_UP_TO = 1000


class TooFewRepetitions(ValueError):
    """Fewer than 2 repetitions: no spread, hence no SNR and no interval."""


def _values(values, conclusion: str) -> np.ndarray:
    """The estimates, signed for the conclusion and scaled by a power of two (for the SNR)."""
    return _scaled(_checked(values, conclusion))


def _checked(values, conclusion: str) -> np.ndarray:
    """The estimates as a checked 1-d array, signed so that the conclusion is "> 0"; in their
    own unit (estimators.null centres them)."""
    if conclusion not in CONCLUSIONS:
        raise ValueError(f"unknown conclusion {conclusion!r}; expected one of "
                         f"{', '.join(CONCLUSIONS)}")
    values = np.asarray(values, dtype=np.float64)
    if values.ndim != 1:
        raise ValueError(f"estimates must be one-dimensional, got shape {values.shape}")
    if len(values) < 2:
        raise TooFewRepetitions(
            f"need at least 2 repetitions to measure a spread, got {values.size}; run 2 or "
            "more repetitions (5 for a first look, see 'repetitions needed' for more)")
    if not np.all(np.isfinite(values)):
        bad = int(np.flatnonzero(~np.isfinite(values))[0])
        raise ValueError(f"estimates must be finite, got {float(values[bad])!r} at index {bad}")
    # The conclusion under test is "A > B"; testing "B > A" is the same on -(A - B).
    return values if conclusion == "A>B" else -values


def _scaled(values: np.ndarray) -> np.ndarray:
    """``values`` times the power of two that brings the largest magnitude into [0.5, 1).

    Every statistic here (the SNR, its intervals, the share of positive values) is unchanged by
    scaling, and a power of two scales exactly: results are bit for bit those of the unscaled
    values, except near 1e300, where the squares of the standard deviation overflowed (an SNR of
    0), and near 1e-300, where they underflowed (an SNR of inf).
    """
    largest = float(np.abs(values).max())
    if largest == 0:
        return values
    return np.ldexp(values, -math.frexp(largest)[1])


def _is_constant(values: np.ndarray) -> bool:
    """True when the spread is at most RELATIVE_TOLERANCE of the largest magnitude (or all 0)."""
    return bool(values.std(ddof=1) <= RELATIVE_TOLERANCE * np.abs(values).max())


def _constant_snr(mean: float) -> float:
    # All estimates equal: the SNR is +-inf (a signal without noise) or, when they are all
    # zero, 0 (no signal: A and B never differ, so "A > B" is never supported).
    return float(np.sign(mean) * np.inf) if mean != 0 else 0.0


def snr(values, conclusion: str = "A>B") -> float:
    """Eq. 4: mean / standard deviation (ddof=1), relative to the conclusion under test.

    Constant estimates (standard deviation at most ``RELATIVE_TOLERANCE`` times the largest
    magnitude) give +inf or -inf by the sign of their value, and 0 when they are all zero.

    The sample SNR is biased away from 0 at small R: under normality its expectation is
    ``snr_bias_factor(R)`` times the true SNR (1.25 at R = 5, 1.04 at R = 20); the tables keep
    Eq. 4's value to compare with the paper and give the exact interval beside it.

    Parameters
    ----------
    values : array_like of float, shape (R,)
        The estimates of A - B, one per repetition.
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test: the estimates are read with its sign.

    Returns
    -------
    float
        The SNR; +-inf or 0 for constant estimates.

    Examples
    --------
    >>> round(snr([0.1, 0.2, 0.3, -0.2]), 4)
    0.4629
    >>> snr([0.1, 0.1, 0.1]), snr([0.0, 0.0])
    (inf, 0.0)
    """
    values = _values(values, conclusion)
    if _is_constant(values):
        return _constant_snr(float(np.median(values)))
    return float(values.mean() / values.std(ddof=1))


def snr_bias_factor(repetitions: int) -> float:
    """E[sample SNR] / true SNR for normal estimates: sqrt((R-1)/2) Gamma((R-2)/2) / Gamma((R-1)/2).

    It is E[sigma / s] (s and the mean are independent under normality), finite for R >= 3;
    for R = 2 the expectation does not exist and inf is returned.

    Parameters
    ----------
    repetitions : int
        R, at least 2.

    Returns
    -------
    float
        The factor (inf at R = 2).
    """
    r = int(repetitions)
    if r < 2:
        raise TooFewRepetitions(f"need at least 2 repetitions, got {r}")
    if r == 2:
        return math.inf
    # math's lgamma, not scipy.special's gammaln (they differ in the last bits, and only the
    # tables' caution prints the factor, to 2 decimals): the front page job prints that caution
    # and imports no SciPy
    return float(math.sqrt((r - 1) / 2) * math.exp(math.lgamma((r - 2) / 2)
                                                   - math.lgamma((r - 1) / 2)))


def reproducibility(values, conclusion: str = "A>B") -> float:
    """Eq. 1: the share of repetitions whose estimate supports the conclusion (is > 0).

    Parameters
    ----------
    values : array_like of float, shape (R,)
        The estimates of A - B, one per repetition.
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test: the estimates are read with its sign.

    Returns
    -------
    float
        The share of repetitions, in [0, 1].
    """
    return float(np.mean(_values(values, conclusion) > 0))


def chebyshev_bound(snr_value: float) -> float:
    """Eq. 3: the one-sided Chebyshev lower bound SNR^2 / (1 + SNR^2) on reproducibility.

    The bound holds for a positive SNR; for SNR <= 0 it says nothing and 0 is returned. An
    infinite SNR (constant estimates) gives 1; NaN is a ValueError (no SNR was measured).

    Parameters
    ----------
    snr_value : float
        The SNR (Eq. 4).

    Returns
    -------
    float
        The bound, in [0, 1].
    """
    if isinstance(snr_value, bool) or not isinstance(snr_value, (int, float, np.number)) \
            or math.isnan(snr_value):
        raise ValueError(f"snr_value must be a number, got {snr_value!r}")
    if snr_value <= 0:
        return 0.0
    if np.isinf(snr_value) or snr_value > 1e150:  # SNR^2 would overflow; the bound is 1 there
        return 1.0
    return float(snr_value**2 / (1 + snr_value**2))


def _check_confidence(confidence) -> None:
    # "not 0 < x < 1" is also true of NaN
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float, np.number)) \
            or not 0 < confidence < 1:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence!r}")


def clopper_pearson(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """Exact binomial (Clopper-Pearson 1934) interval for a share.

    Bit for bit ``scipy.stats.binomtest(successes, trials).proportion_ci(confidence, "exact")``,
    computed as it computes it (each end the root, by Brent's method on [0, 1], of the
    binomial's sf or cdf minus the tail's share) from the ufuncs that ``scipy.stats.binom``'s
    sf and cdf call, without importing scipy.stats: the tables job paid 0.5 of its 1.0 CPU s
    for that import (benchmarks/bench_job_cpu.py); tests/test_estimators.py checks the
    equality over a grid of counts and levels.

    Parameters
    ----------
    successes : int
        Repetitions that support the conclusion.
    trials : int
        All repetitions, R.
    confidence : float, default 0.95
        Confidence level, in (0, 1).

    Returns
    -------
    (float, float)
        The interval's low and high ends.
    """
    k, n = int(successes), int(trials)
    if n < 1 or not 0 <= k <= n:
        raise ValueError(f"need 0 <= successes <= trials and trials >= 1, got {k} of {n}")
    if not 0 <= confidence <= 1:
        raise ValueError(f"confidence must lie in [0, 1], got {confidence!r}")
    try:
        # private names, but the very functions binom.sf and binom.cdf end in (there since
        # SciPy 1.14)
        from scipy.special._ufuncs import _binom_cdf, _binom_sf
    except ImportError:  # a SciPy that keeps them elsewhere: ask binomtest itself
        from scipy import stats

        interval = stats.binomtest(k, n).proportion_ci(confidence, "exact")
        return float(interval.low), float(interval.high)
    # scipy.stats._binomtest._binom_exact_conf_int, two-sided: rv_discrete clips the sf and
    # the cdf to [0, 1]
    alpha = (1 - confidence) / 2
    low = 0.0 if k == 0 else _brentq(
        lambda p: min(max(float(_binom_sf(k - 1.0, float(n), p)), 0.0), 1.0) - alpha, 0, 1)
    high = 1.0 if k == n else _brentq(
        lambda p: min(max(float(_binom_cdf(float(k), float(n), p)), 0.0), 1.0) - alpha, 0, 1)
    return low, high


def _brentq(f, a: float, b: float, xtol: float = 2e-12, rtol: float = 4 * sys.float_info.epsilon,
            maxiter: int = 100) -> float:
    """``scipy.optimize.brentq(f, a, b, xtol, rtol, maxiter)`` (its defaults), step for step.

    A transcription of SciPy's C routine (scipy/optimize/Zeros/brentq.c, Charles Harris's
    Brent 1973): the same arithmetic in the same order, so the same iterates and the same root
    to the last bit (tests/test_estimators.py checks it against SciPy's), without importing
    scipy.optimize (0.2 CPU s of every job that computes an interval). The errors are
    brentq's: a ValueError when f(a) and f(b) have the same sign or f is NaN, a RuntimeError
    when ``maxiter`` iterations do not converge.
    """

    def value(x: float) -> float:
        fx = float(f(x))
        if math.isnan(fx):
            raise ValueError(f"The function value at x={x:f} is NaN; solver cannot continue.")
        return fx

    xpre, xcur = float(a), float(b)
    xblk = fblk = spre = scur = 0.0
    fpre, fcur = value(xpre), value(xcur)
    if fpre * fcur > 0:
        raise ValueError("f(a) and f(b) must have different signs")
    if fpre == 0:
        return xpre
    if fcur == 0:
        return xcur
    for _ in range(maxiter):
        if fpre * fcur < 0:
            xblk, fblk = xpre, fpre
            spre = scur = xcur - xpre
        if abs(fblk) < abs(fcur):
            xpre, xcur, xblk = xcur, xblk, xcur
            fpre, fcur, fblk = fcur, fblk, fcur
        delta = (xtol + rtol * abs(xcur)) / 2
        sbis = (xblk - xcur) / 2
        if fcur == 0 or abs(sbis) < delta:
            return xcur
        if abs(spre) > delta and abs(fcur) < abs(fpre):
            if xpre == xblk:  # interpolate
                stry = -fcur * (xcur - xpre) / (fcur - fpre)
            else:  # extrapolate
                dpre = (fpre - fcur) / (xpre - xcur)
                dblk = (fblk - fcur) / (xblk - xcur)
                stry = -fcur * (fblk * dblk - fpre * dpre) / (dblk * dpre * (fblk - fpre))
            # C's MIN(a, b): b when they are equal
            bound = abs(spre) if abs(spre) < 3 * abs(sbis) - delta else 3 * abs(sbis) - delta
            if 2 * abs(stry) < bound:  # a good short step
                spre, scur = scur, stry
            else:  # bisect
                spre = scur = sbis
        else:  # bisect
            spre = scur = sbis
        xpre, fpre = xcur, fcur
        if abs(scur) > delta:
            xcur += scur
        else:
            xcur += delta if sbis > 0 else -delta
        fcur = value(xcur)
    raise RuntimeError(f"Failed to converge after {maxiter} iterations, value is {xcur}.")


def _nct_cdf(t: float, df: int, delta: float) -> float:
    """P(T <= t) for a noncentral t; scipy returns NaN far in a tail, where the answer is 0 or 1."""
    from scipy import stats  # local: see the module's imports

    with warnings.catch_warnings():
        # boost's series may not converge far in a tail; the value there only steers the
        # bracket search, the roots lie where the cdf is 0.025 or 0.975 and is accurate
        warnings.simplefilter("ignore", RuntimeWarning)
        # the distribution's own _cdf (rv_continuous's method for subclasses), which nct.cdf
        # calls for a finite t, df >= 1 and a finite delta, the only arguments it gets here:
        # the same bits without cdf's argument checks, 5 times faster; the summary job calls
        # it about 4,000 times (0.1 of its 1.5 CPU s, benchmarks/bench_job_cpu.py)
        value = float(stats.nct._cdf(t, df, delta))
        if math.isnan(value):
            value = 1.0 - float(stats.nct.sf(t, df, delta))
    if math.isnan(value):
        # far in a tail: T concentrates around delta, so t far above it means 1, below it 0
        value = 1.0 if delta < t else 0.0
    return value


def _noncentrality(t: float, df: int, q: float) -> float:
    """The noncentrality delta with P(T <= t | df, delta) = q (the cdf falls as delta grows)."""
    from scipy import optimize  # local: see the module's imports

    f = lambda delta: _nct_cdf(t, df, delta) - q
    width = max(1.0, abs(t))
    low, high = t - width, t + width
    # Expand the bracket until the root is inside; the cdf tends to 1 (0) as delta -> -inf (+inf)
    # for every df >= 1, so this ends, also at R = 2 where the tails are heaviest.
    while f(low) < 0:
        low -= width
        width *= 2
    width = max(1.0, abs(t))
    while f(high) > 0:
        high += width
        width *= 2
    return float(optimize.brentq(f, low, high, xtol=1e-12, rtol=1e-12, maxiter=500))


def snr_exact_interval(values, conclusion: str = "A>B", *,
                       confidence: float = 0.95) -> tuple[float, float]:
    r"""Exact confidence interval of the SNR under normality, by inverting the noncentral t.

    For R normal estimates with SNR :math:`\theta = \mu/\sigma`, :math:`T = \sqrt R\,\bar x / s`
    follows a noncentral t distribution with R - 1 degrees of freedom and noncentrality
    :math:`\sqrt R\,\theta`. The interval holds the :math:`\theta` whose noncentral t puts the
    observed T inside its central ``confidence`` range (the classic inversion for a
    standardized mean, e.g. Lecoutre 2007; Steiger & Fouladi 1997). The cdf of T falls
    monotonically as the noncentrality grows, so each end is one root (``scipy.optimize.brentq``
    on ``scipy.stats.nct.cdf``): deterministic, finite at every R >= 2, and with exactly the
    nominal coverage when the estimates are normal (measured in docs/statistics.md).

    Constant estimates (see :func:`snr`) give the point value at both ends: ``(inf, inf)`` for
    equal non-zero estimates, ``(0, 0)`` for all zeros.

    Parameters
    ----------
    values : array_like of float, shape (R,)
        The estimates of A - B, one per repetition.
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test: the estimates are read with its sign.
    confidence : float, default 0.95
        Confidence level, in (0, 1).

    Returns
    -------
    (float, float)
        The interval's low and high ends.

    Examples
    --------
    >>> tuple(round(x, 3) for x in snr_exact_interval([0.01, 0.02]))  # R = 2: wide, finite
    (-0.654, 5.012)
    """
    values = _values(values, conclusion)
    _check_confidence(confidence)
    if _is_constant(values):
        point = _constant_snr(float(np.median(values)))
        return point, point
    r = len(values)
    t = math.sqrt(r) * values.mean() / values.std(ddof=1)
    alpha = 1 - confidence
    low = _noncentrality(t, r - 1, 1 - alpha / 2)
    high = _noncentrality(t, r - 1, alpha / 2)
    return low / math.sqrt(r), high / math.sqrt(r)


def snr_bootstrap_interval(values, conclusion: str = "A>B", *, n_resamples: int = 2000,
                           confidence: float = 0.95, random_state: int = 0) -> tuple[float, float]:
    """Percentile bootstrap interval of the SNR, resampling repetitions (seeded, deterministic).

    An option for estimates far from normal. It under-covers at small R (67-78% at R = 5,
    88-92% at R = 20 for a nominal 95%; docs/statistics.md), so the
    exact interval is the default. A resample with no spread gets the SNR that :func:`snr`
    gives constant estimates (never NaN).

    Parameters
    ----------
    values : array_like of float, shape (R,)
        The estimates of A - B, one per repetition.
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test: the estimates are read with its sign.
    n_resamples : int, default 2000
        Bootstrap resamples.
    confidence : float, default 0.95
        Confidence level, in (0, 1).
    random_state : int, default 0
        Seed of the resampling.

    Returns
    -------
    (float, float)
        The percentile interval's low and high ends.
    """
    values = _values(values, conclusion)
    rng = np.random.default_rng(random_state)
    samples = values[rng.integers(0, len(values), size=(n_resamples, len(values)))]
    means, sds = samples.mean(axis=1), samples.std(axis=1, ddof=1)
    constant = sds <= RELATIVE_TOLERANCE * np.abs(samples).max(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = np.where(constant, np.sign(np.median(samples, axis=1)) * np.inf, means / sds)
    ratios = np.where(constant & (np.abs(samples).max(axis=1) == 0), 0.0, ratios)
    alpha = (1 - confidence) / 2
    low, high = np.quantile(ratios, [alpha, 1 - alpha], method="inverted_cdf")
    return float(low), float(high)


def repetitions_for_reproducibility(share: float, half_width: float = REPRODUCIBILITY_HALF_WIDTH,
                                    confidence: float = 0.95) -> int | None:
    """The smallest R whose Clopper-Pearson interval around ``share`` is at most +-``half_width``.

    "How far to grow a study" (issue 16): the observed share is assumed to stay where it is
    (R * share successes, rounded), and the interval's half-width is (high - low) / 2. About
    35 repetitions suffice at a share of 0 or 1, about 390 at 0.5.

    Parameters
    ----------
    share : float
        The observed reproducibility, in [0, 1].
    half_width : float, default REPRODUCIBILITY_HALF_WIDTH
        The interval's largest half-width.
    confidence : float, default 0.95
        Confidence level, in (0, 1).

    Returns
    -------
    int or None
        R, or None when no R up to the search's end reaches the width.
    """
    if not 0 <= share <= 1:
        raise ValueError(f"share must lie in [0, 1], got {share!r}")
    alpha = 1 - confidence
    # A normal approximation fixes the search range; the exact widths are computed on all of it.
    from scipy import stats  # local: see the module's imports

    guess = stats.norm.ppf(1 - alpha / 2) ** 2 * max(share * (1 - share), 0.01) / half_width**2
    r = np.arange(2, int(4 * guess) + 200)
    k = np.round(share * r)
    low = np.where(k > 0, stats.beta.ppf(alpha / 2, k, r - k + 1), 0.0)
    high = np.where(k < r, stats.beta.ppf(1 - alpha / 2, k + 1, r - k), 1.0)
    ok = np.flatnonzero((high - low) / 2 <= half_width)
    return int(r[ok[0]]) if ok.size else None


def _snr_half_width(theta: float, r: int, confidence: float) -> float:
    t = math.sqrt(r) * theta
    alpha = 1 - confidence
    return (_noncentrality(t, r - 1, alpha / 2) - _noncentrality(t, r - 1, 1 - alpha / 2)) \
        / (2 * math.sqrt(r))


def repetitions_for_snr(snr_value: float, half_width: float = SNR_HALF_WIDTH,
                        confidence: float = 0.95) -> int | None:
    """The smallest R whose exact SNR interval (at the observed SNR) is at most +-``half_width``.

    Assumes the observed SNR stays where it is; the exact interval's half-width shrinks like
    z * sqrt((1 + SNR^2/2) / R), so about 62 repetitions at SNR 0 and 92 at SNR 1 reach +-0.25.
    An infinite SNR (constant estimates) gives None: no number of repetitions narrows it; a NaN
    (no SNR at all) is a ValueError, as are a half-width that is not positive and a confidence
    outside (0, 1).
    Beyond ``EXACT_SEARCH_UP_TO`` repetitions that normal approximation itself is returned: the
    exact search costs seconds there and agrees with it within 2 repetitions (831 against 830 at
    SNR 5, 3136 against 3135 at SNR 10).

    Parameters
    ----------
    snr_value : float
        The observed SNR.
    half_width : float, default SNR_HALF_WIDTH
        The interval's largest half-width.
    confidence : float, default 0.95
        Confidence level, in (0, 1).

    Returns
    -------
    int or None
        R, or None for an infinite SNR or beyond the search limit.
    """
    if not isinstance(snr_value, (int, float, np.floating, np.integer)) or math.isnan(snr_value):
        raise ValueError(f"snr_value must be a number or an infinity, got {snr_value!r}")
    if not (isinstance(half_width, (int, float, np.floating)) and 0 < half_width < math.inf):
        raise ValueError(f"half_width must be a positive number, got {half_width!r}")
    if not (isinstance(confidence, (int, float, np.floating)) and 0 < confidence < 1):
        raise ValueError(f"confidence must lie in (0, 1), got {confidence!r}")
    if not math.isfinite(snr_value):
        return None
    from scipy import stats  # local: see the module's imports

    z = stats.norm.ppf(0.5 + confidence / 2)
    approximate = math.ceil(z**2 * (1 + snr_value**2 / 2) / half_width**2)
    if approximate > EXACT_SEARCH_UP_TO:
        return approximate if approximate <= SEARCH_LIMIT else None
    if _snr_half_width(snr_value, 2, confidence) <= half_width:
        return 2
    # The half-width falls monotonically with R: bisection between a too-small and a big-enough R.
    low, high = 2, 4
    while _snr_half_width(snr_value, high, confidence) > half_width:
        low, high = high, high * 2
        if high > SEARCH_LIMIT:
            return None
    while high - low > 1:
        middle = (low + high) // 2
        if _snr_half_width(snr_value, middle, confidence) > half_width:
            low = middle
        else:
            high = middle
    return high


@dataclass(frozen=True)
class EstimatorSummary:
    """One row of Table 4, with the intervals the paper does not give.

    ``snr`` is Eq. 4's point value; ``snr_low``/``snr_high`` the 95% interval by ``snr_method``
    ("exact": noncentral t; "bootstrap": percentile over repetitions). The two
    ``repetitions_for_*`` fields say how many repetitions would bring the 95% intervals to
    +-0.05 (reproducibility) and +-0.25 (SNR) if the estimates stayed as they are (None for the
    SNR of constant estimates, whose interval is a point that more repetitions do not narrow).
    """

    repetitions: int
    mean: float
    sd: float
    snr: float
    snr_low: float
    snr_high: float
    reproducibility: float
    reproducibility_low: float
    reproducibility_high: float
    chebyshev_bound: float
    snr_method: str = "exact"
    repetitions_for_reproducibility: int | None = None
    repetitions_for_snr: int | None = None

    def as_dict(self) -> dict:
        return asdict(self)


def summarize(values, conclusion: str = "A>B", *, snr_method: str = "exact",
              random_state: int = 0) -> EstimatorSummary:
    """Mean, sd, SNR (Eq. 4), reproducibility (Eq. 1), their 95% intervals and the Eq. 3 bound.

    ``mean`` is of A - B as estimated (not flipped by the conclusion); SNR and reproducibility are
    relative to the conclusion under test. ``random_state`` seeds the bootstrap only.

    Raises :class:`TooFewRepetitions` (a ValueError) for fewer than 2 values.

    Parameters
    ----------
    values : array_like of float, shape (R,)
        The estimates of A - B, one per repetition (at least 2).
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test: the estimates are read with its sign.
    snr_method : {'exact', 'bootstrap'}, default 'exact'
        How the SNR's interval is computed: :func:`snr_exact_interval` or
        :func:`snr_bootstrap_interval`.
    random_state : int, default 0
        Seed of the bootstrap interval.

    Returns
    -------
    EstimatorSummary
        The estimator's row of Table 4.
    """
    if snr_method not in SNR_METHODS:
        raise ValueError(f"unknown snr_method {snr_method!r}; expected one of "
                         f"{', '.join(SNR_METHODS)}")
    raw = np.asarray(values, dtype=np.float64)
    signed = _values(raw, conclusion)
    ratio = snr(raw, conclusion)
    if snr_method == "exact":
        low, high = snr_exact_interval(raw, conclusion)
    else:
        low, high = snr_bootstrap_interval(raw, conclusion, random_state=random_state)
    successes = int(np.sum(signed > 0))
    r_low, r_high = clopper_pearson(successes, len(signed))
    share = successes / len(signed)
    return EstimatorSummary(
        repetitions=len(raw), mean=float(raw.mean()), sd=float(raw.std(ddof=1)), snr=ratio,
        snr_low=low, snr_high=high, reproducibility=share,
        reproducibility_low=r_low, reproducibility_high=r_high,
        chebyshev_bound=chebyshev_bound(ratio), snr_method=snr_method,
        repetitions_for_reproducibility=repetitions_for_reproducibility(share),
        repetitions_for_snr=None if low == high else repetitions_for_snr(ratio))


@dataclass(frozen=True)
class ModelInterval:
    """One cell group of Table 3: a model's F1 over R random splits."""

    repetitions: int
    mean: float
    standard_error: float
    low: float
    high: float

    def as_dict(self) -> dict:
        return asdict(self)


def model_interval(f1_values, confidence: float = 0.95) -> ModelInterval:
    """Table 3: sample mean, standard error (sd / sqrt(R)) and the Student t interval.

    Exact for normal F1s; constant F1s (for instance 0 everywhere) give a zero-width interval.

    Parameters
    ----------
    f1_values : array_like of float, shape (R,)
        One model's F1 in each repetition (at least 2).
    confidence : float, default 0.95
        Confidence level, in (0, 1).

    Returns
    -------
    ModelInterval
        R, the mean, its standard error and the interval's ends.
    """
    _check_confidence(confidence)
    values = np.asarray(f1_values, dtype=np.float64)
    if values.ndim != 1 or len(values) < 2:
        raise TooFewRepetitions(f"need at least 2 repetitions, got {values.size}")
    if not np.all(np.isfinite(values)):
        bad = int(np.flatnonzero(~np.isfinite(values))[0])
        raise ValueError(f"F1 values must be finite, got {float(values[bad])!r} at index {bad}")
    mean = float(values.mean())
    se = float(values.std(ddof=1) / np.sqrt(len(values)))
    # stdtrit is what scipy.stats.t.ppf returns (times a scale of 1, plus a location of 0: the
    # same bits) without importing scipy.stats, which the tables job need not pay for
    from scipy import special  # local: see the module's imports

    half = float(special.stdtrit(len(values) - 1, 0.5 + confidence / 2) * se)
    return ModelInterval(len(values), mean, se, mean - half, mean + half)
