r"""A planned (group-sequential) design: the error spent over looks fixed before the study runs.

A sequential study looks after every wave, at ``wave, 2 wave, ..., max_repetitions``. The
confidence sequences of :mod:`reprocompare.estimators.sequential` cover at *every* R, also past
the maximum and between waves, and pay for it in width. When the looks are fixed in advance, a
group-sequential design spends the error :math:`\alpha` over those looks alone and gives
narrower intervals: the *repeated confidence intervals* (RCIs) of Jennison and Turnbull (1989;
2000, ch. 9), which cover the true value at every planned look at once, with probability
:math:`1 - \alpha`, so at whichever planned look the study stops. They are the fixed-R
intervals of each look (the exact noncentral t interval of the SNR, Student's t for the mean,
Clopper-Pearson for Eq. 1's share) at a per-look confidence :math:`1 - \alpha_k` below the
nominal one.

The per-look levels :math:`\alpha_k` come from an error-spending function (Lan and DeMets 1983):
by the k-th look, the chance that some interval has missed is at most :math:`\alpha(R_k)`. The
default, :func:`early_then_late_spending`, is chosen to be never much worse than the plain
alternative, one look at the maximum with the whole :math:`\alpha`
(``benchmarks/bench_designs.py``; docs/sequential.md, "Choosing a design"): it allots small
fixed shares of :math:`\alpha` to the first looks (R = 5 and 10, and 15 past a maximum of 20),
where a clear difference can already be decided whatever the maximum, and spends the rest by
Kim and DeMets' (1987) power family of the information fraction :math:`t = R_k / R_\max`,
which keeps most of it for the last looks, where a difference near the threshold is decided:
:math:`\alpha t^4` up to a maximum of 20, a steeper :math:`t^{12}` (with a tenth on
:math:`t^2` for the middle looks) beyond. Lan and DeMets' Pocock type,
:math:`\alpha \log(1 + (e - 1) t)`, decides clear differences sooner at a large maximum but
gives up verdicts near the threshold (a third of the fixed look's at a maximum of 200), and the
O'Brien-Fleming type cannot stop a clear difference early at a large maximum; both are kept to
measure against.

How :math:`\alpha_k` is found (:func:`look_levels`). The textbook boundaries assume the looks'
statistics are jointly normal with independent increments (the "canonical" law, Jennison and
Turnbull 2000, ch. 3; tabulated by recursive numerical integration, Armitage, McPherson and Rowe
1969). Our statistics are t statistics whose looks share a variance estimate of few degrees of
freedom; with the canonical boundaries, the RCIs of the SNR covered 93.7-95.2% instead of 95%
(``benchmarks/bench_planned.py``: 10,000 simulated studies per cell, maxima 5-1000, waves
1-10). So the levels are calibrated on
the t statistics' own joint law: under :math:`\theta = 0` the two-sided p-values
:math:`p_k = 2 P(t_{R_k - 1} > |T_k|)` have a law free of the scale, simulated here on
:data:`PATHS` seeded paths; :math:`\alpha_k` is the level at which the paths that first fall
below it at look k are :math:`\alpha(t_k) - \alpha(t_{k-1})` of all paths. With known variance
(z statistics) the same code reproduces the published canonical boundaries (the tests check
Lan-DeMets' 4.877, 3.357, 2.680, 2.290, 2.031 and 2.438, ..., 2.386 at five equal looks), and
its coverage away from :math:`\theta = 0` is measured, not assumed (docs/sequential.md,
"A planned design").

What the design does not cover: a look that was not planned (R between waves, or past the
maximum: no error is left there) and a plan changed after its results were seen, for instance a
maximum raised. ``reprocompare sequential`` refuses both for a planned study; a study that may
need to grow uses the confidence sequences (``stopping.design: anytime``).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy import stats

from reprocompare.estimators.designs import DEFAULT_SPENDING, SPENDING_NAMES  # noqa: F401
# the looks and their most are the design's (estimators.designs: no numerical dependency, so
# that a config's check of them imports no scipy); kept importable from here
from reprocompare.estimators.designs import MAX_LOOKS, looks, planned_looks  # noqa: F401

#: seeded simulated paths that calibrate the per-look levels: the Monte Carlo standard error of
#: the error spent by the last look is about sqrt(alpha / PATHS), 0.0005 at alpha = 0.05
PATHS = 200_000
#: the seed of those paths (a plan's levels are the same in every run and on every machine)
SEED = 20_231_001


def pocock_spending(t, alpha: float):
    r"""Lan and DeMets' (1983) Pocock-type spending function,
    :math:`\alpha(t) = \alpha \log(1 + (e - 1) t)`: the error spent by information fraction t.

    Parameters
    ----------
    t : array_like of float
        Information fractions in [0, 1].
    alpha : float
        The error of the whole design.

    Returns
    -------
    numpy.ndarray
        The error spent by each t.
    """
    return alpha * np.log1p((math.e - 1) * np.asarray(t, dtype=np.float64))


def obrien_fleming_spending(t, alpha: float):
    r"""Lan and DeMets' (1983) O'Brien-Fleming-type spending function (two-sided),
    :math:`\alpha(t) = 4 - 4\Phi(z_{\alpha/4} / \sqrt t)`: almost nothing early, nearly all of
    :math:`\alpha` at the end. Kept to measure the Pocock type against and to test the
    calibration against published boundaries.

    Parameters
    ----------
    t : array_like of float
        Information fractions in (0, 1].
    alpha : float
        The error of the whole design.

    Returns
    -------
    numpy.ndarray
        The error spent by each t.
    """
    t = np.asarray(t, dtype=np.float64)
    return 4 * stats.norm.sf(stats.norm.isf(alpha / 4) / np.sqrt(t))


#: the largest maximum (the last look's R) of a short plan: with waves of 5, at most four looks
SHORT_MAXIMUM = 20
#: the early allotment of :func:`early_then_late_spending` for a short plan: the share of alpha
#: each look at or after these R (the first such look only, and never the last look) spends on
#: top of the rest
EARLY = {5: 0.16, 10: 0.08}
#: the exponent of the power family that spends the rest of a short plan (Kim and DeMets 1987)
LATE_POWER = 4
#: the early allotment of a longer plan (a maximum above :data:`SHORT_MAXIMUM`)
EARLY_LONG = {5: 0.16, 10: 0.03, 15: 0.01}
#: how a longer plan spends the rest: (weight, power) pairs of the power family, weights adding
#: up to 1; the steep term keeps the error for the last looks, the flat one spends a sliver on
#: the middle looks (where a difference of SNR 1.5-3 is decided at a maximum of 200)
LATE_LONG = ((0.9, 12), (0.1, 2))


def early_then_late_spending(looks, alpha: float):
    r"""The default spending: small shares of :math:`\alpha` at the first looks, where a clear
    difference is decided, and the rest kept for the last looks, where a difference near the
    threshold is.

    An error-spending function in Lan and DeMets' (1983) sense, fixed before the study: by the
    look at R, at most :math:`\alpha(R)` of the error is spent. Two schedules, by the maximum
    :math:`R_\max` (the last look), with :math:`t = R / R_\max`:

    - a short plan (:math:`R_\max \le` :data:`SHORT_MAXIMUM`, the two to four looks a CPU
      budget affords): :data:`EARLY`'s 16% of :math:`\alpha` at the first look at or after
      R = 5 and 8% at R = 10, the rest as Kim and DeMets' (1987) power family
      :math:`\alpha t^4`;
    - a longer plan: :data:`EARLY_LONG`'s 16% at R = 5, 3% at R = 10 and 1% at R = 15, the rest
      as :data:`LATE_LONG`'s :math:`\alpha (0.9 t^{12} + 0.1 t^2)`.

    No share falls on the last look, which spends what is left anyway.

    Why. The benchmark a user can always choose is one look at the maximum with the whole
    :math:`\alpha` (``stopping.design: fixed``): the rule must decide about as often as that
    look, and stop clear differences much sooner. Near the threshold the fixed look is the most
    powerful test there is, and any error spent before the maximum costs power there; the
    group-sequential remedy is to keep nearly all of it for the end, as O'Brien and Fleming's
    (1979) boundaries and their Lan-DeMets spending form
    :math:`4 - 4\Phi(z_{\alpha/4}/\sqrt t)` do, which lose only a few percent of power against
    the fixed design (Jennison and Turnbull 2000, ch. 2 and 7). But O'Brien-Fleming-type
    spending allots nearly nothing to R = 5 and 10, so at a large maximum it cannot stop a
    clear difference early; the early shares, fixed levels at fixed R in the manner of
    Haybittle (1971) and Peto et al. (1976), do that at any maximum. What they cost is error
    no longer spent at the end. At a short maximum the power family does the rest well. At a
    long one, :math:`t^4` has spent three quarters of :math:`\alpha` by R = 180 of 200 and
    93% by R = 195, over dozens of highly correlated looks where spread-out error buys less
    than it would at the last: the last look's level falls to 0.026, against the fixed look's
    0.05. The longer plan keeps the rest steeper (:math:`t^{12}`: 47% spent by R = 180, the last
    look's level 0.036) and spends the early shares sparingly: R = 5 stops about a third of the
    clear differences (SNR 4), a 3% share at R = 10 most of the rest, and a 1% share at R = 15
    the stragglers, which without it would wait for the late looks; the tenth of the rest
    on :math:`t^2` decides SNR 1.5-3 at about the R where :math:`t^4` did.

    Measured (``benchmarks/bench_designs.py``, its close cells: normal estimates, waves of 5,
    threshold 0.8, 95%, seeds 47-50 x 4,000 studies, +- one Monte Carlo standard error): at a
    maximum of 200 the longer plan decides SNR 1 in 40.8 +- 0.4% of studies (one fixed look at
    R = 200: 43.6 +- 0.4%, 2.8 +- 0.2 points more on the same studies; the short schedule at that
    maximum: 38.8 +- 0.4%, 2.1 +- 0.2 points fewer) and stops SNR 4 at a mean R of
    8.84 +- 0.03 (the short schedule: 8.8); wrong verdicts at the threshold (SNR 0.84) are
    2.6 +- 0.1% (the short schedule's 2.7%, the fixed look's 2.5%). Maxima of 10 and 20 keep the
    short schedule: at 10 it decides SNR 2 in 56.2 +- 0.4% (the fixed look 59.2 +- 0.4%) and
    SNR 3 in 96.6 +- 0.1%, and stops SNR 4 at a mean R of 8.0. The two aims pull against each
    other at a maximum of 200: each 1% of alpha moved from the early shares to the end gains
    about 0.15 points at SNR 1 and costs about 0.1 in mean R at SNR 4.

    References: K. K. G. Lan and D. L. DeMets (1983), Discrete sequential boundaries for
    clinical trials, Biometrika 70, 659-663; K. Kim and D. L. DeMets (1987), Design and
    analysis of group sequential tests based on the type I error spending rate function,
    Biometrika 74, 149-154; P. C. O'Brien and T. R. Fleming (1979), A multiple testing
    procedure for clinical trials, Biometrics 35, 549-556; J. L. Haybittle (1971), Repeated
    assessment of results in clinical trials of cancer treatment, British Journal of Radiology
    44, 793-797; R. Peto et al. (1976), British Journal of Cancer 34, 585-612; C. Jennison and
    B. W. Turnbull (2000), Group Sequential Methods with Applications to Clinical Trials.

    Parameters
    ----------
    looks : array_like of int
        The planned looks, ascending.
    alpha : float
        The error of the whole design.

    Returns
    -------
    numpy.ndarray
        The error spent by each look, cumulative (the last is alpha).

    Examples
    --------
    >>> [round(float(a), 4) for a in early_then_late_spending([5, 10], 0.05)]  # short: 16% + t^4
    [0.0106, 0.05]
    >>> spent = early_then_late_spending(range(5, 205, 5), 0.05)  # long: 16%, 3%, 1%, then t^12
    >>> [round(float(a), 4) for a in spent[:3]], round(float(spent[-2]), 4)
    ([0.008, 0.0095, 0.01], 0.0404)
    """
    looks = np.asarray(looks, dtype=np.float64)
    short = looks[-1] <= SHORT_MAXIMUM
    allotted = np.zeros(len(looks))
    for start, share in (EARLY if short else EARLY_LONG).items():
        first = np.flatnonzero(looks >= start)
        if first.size and first[0] < len(looks) - 1:
            allotted[first[0]:] += share * alpha
    if short:
        spent = allotted + (alpha - allotted[-1]) * (looks / looks[-1]) ** LATE_POWER
    else:
        t = looks / looks[-1]
        spent = allotted + (alpha - allotted[-1]) * sum(w * t ** power
                                                        for w, power in LATE_LONG)
    spent[-1] = alpha
    return spent


#: the spending functions by name: each maps the planned looks (R) and alpha to the error spent
#: by each look, cumulative
SPENDING = {"early-then-late": early_then_late_spending,
            "pocock": lambda looks, alpha: pocock_spending(
                np.asarray(looks) / looks[-1], alpha),
            "obrien-fleming": lambda looks, alpha: obrien_fleming_spending(
                np.asarray(looks) / looks[-1], alpha)}



def _first_crossings(looks: tuple[int, ...], spent: np.ndarray, paths: int,
                     seed: int, known_variance: bool) -> np.ndarray:
    """Per look, the two-sided level whose first crossings spend ``spent``'s increments."""
    rng = np.random.default_rng(seed)
    total = np.zeros(paths)       # running sum of the values
    squares = np.zeros(paths)     # running sum of squared deviations (Welford, by waves)
    alive = np.ones(paths, dtype=bool)
    levels = np.empty(len(looks))
    done, previous, charged = 0, 0.0, 0.0
    for k, r in enumerate(looks):
        n = r - done
        # a wave's sum and within-wave sum of squares: N(0, n) and chi^2(n - 1)
        wave_sum = rng.standard_normal(paths) * math.sqrt(n)
        wave_squares = rng.chisquare(n - 1, paths) if n > 1 else np.zeros(paths)
        if done:
            delta = wave_sum / n - total / done
            squares += wave_squares + delta ** 2 * done * n / r
        else:
            squares += wave_squares
        total += wave_sum
        done = r
        # |T| (or |z|) orders the paths as their two-sided p-values do, so the level is found
        # from an order statistic of |T| and converted once
        if known_variance:
            size = np.abs(total) / math.sqrt(r)
        else:
            size = np.abs(total / r) * math.sqrt(r) / np.sqrt(squares / (r - 1))
        target = (spent[k] - previous) * paths  # paths that may first cross here
        survivors = size[alive]
        if target <= 0:
            level, cut = 0.0, math.inf
        elif target < 1 or not survivors.size:
            # under one path's worth of error (an O'Brien-Fleming type's first looks): spend it
            # by Bonferroni, a look at its own increment, which misses at most that often
            level = spent[k] - previous
            cut = float(stats.norm.isf(level / 2) if known_variance
                        else stats.t.isf(level / 2, r - 1))
            charged += level
        else:
            m = min(int(target), survivors.size)
            # the m-th largest surviving |T|: exactly m paths cross at or above it
            cut = float(np.partition(survivors, survivors.size - m)[survivors.size - m])
            level = float(2 * (stats.norm.sf(cut) if known_variance
                               else stats.t.sf(cut, r - 1)))
        alive &= ~(size >= cut)
        levels[k] = level
        # what was really spent: the paths that crossed, and what Bonferroni charged
        previous = float(np.sum(~alive)) / paths + charged
    return levels


@lru_cache(maxsize=256)
def look_levels(looks: tuple[int, ...], alpha: float, spending: str = DEFAULT_SPENDING, *,
                paths: int = PATHS, seed: int = SEED,
                known_variance: bool = False) -> tuple[float, ...]:
    r"""The two-sided error :math:`\alpha_k` of each planned look's interval.

    Each look's interval is its fixed-R interval at confidence :math:`1 - \alpha_k`; over the
    planned looks, the chance that one of them misses is ``alpha`` (module docstring), spent by
    ``spending`` over the information fractions :math:`R_k / R_\max`.

    Parameters
    ----------
    looks : tuple of int
        The planned looks R_1 < ... < R_K (R_1 >= 2; :func:`planned_looks`).
    alpha : float
        The design's error, in (0, 1): 1 minus the (family-adjusted) confidence.
    spending : {"early-then-late", "pocock", "obrien-fleming"}, default DEFAULT_SPENDING
        The error-spending function (:data:`SPENDING`).
    paths : int, default PATHS
        Simulated paths.
    seed : int, default SEED
        Their seed.
    known_variance : bool, default False
        Calibrate z statistics (the canonical law, to check against published boundaries)
        instead of t statistics.

    Returns
    -------
    tuple of float
        :math:`\alpha_k`, one per look.

    Raises
    ------
    ValueError
        For looks that are not increasing whole numbers >= 2, more than :data:`MAX_LOOKS`
        looks, an alpha outside (0, 1) or an unknown spending function.

    Examples
    --------
    >>> [round(float(stats.norm.isf(a / 2)), 1)  # Pocock's 2.4 at each of five looks
    ...  for a in look_levels((20, 40, 60, 80, 100), 0.05, "pocock", known_variance=True)]
    [2.4, 2.4, 2.4, 2.4, 2.4]
    """
    looks = tuple(int(r) for r in looks)
    if not looks or looks[0] < 2 or any(b <= a for a, b in zip(looks, looks[1:])):
        raise ValueError(f"planned looks must be increasing whole numbers >= 2, got {looks!r}")
    if len(looks) > MAX_LOOKS:
        raise ValueError(f"a planned design spends its error over at most {MAX_LOOKS} looks, "
                         f"got {len(looks)}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha!r}")
    if spending not in SPENDING:
        raise ValueError(f"spending must be one of {sorted(SPENDING)}, got {spending!r}")
    if len(looks) == 1:  # one look: a fixed R, its whole error (no simulation's rounding)
        return (float(alpha),)
    spent = np.asarray(SPENDING[spending](looks, alpha))
    return tuple(float(a) for a in _first_crossings(looks, spent, paths, seed,
                                                    known_variance))


def look_confidences(wave: int, max_repetitions: int, confidence: float,
                     spending: str = DEFAULT_SPENDING) -> dict[int, float]:
    """Each planned look's confidence, :math:`1 - \\alpha_k`, for a design of ``confidence``.

    Parameters
    ----------
    wave : int
        Repetitions per look.
    max_repetitions : int
        The planned maximum (the last look).
    confidence : float
        The design's confidence (family-adjusted), in (0, 1).
    spending : str, default DEFAULT_SPENDING
        The error-spending function.

    Returns
    -------
    dict
        Planned look R -> its interval's confidence.
    """
    taken = planned_looks(wave, max_repetitions)
    levels = look_levels(taken, round(1 - float(confidence), 12), spending)
    return {r: 1 - a for r, a in zip(taken, levels)}
