"""Tang et al.'s bias finding, by simulation: MeanMax underestimates the expected maximum.

Draw many random searches of N trials from a known score distribution, compute both estimators of
:mod:`.expected_max` on each, and compare their means with the exact expected maximum
(:func:`true_expected_max`): MeanMax (Dodge et al. 2019) falls short, most at budgets near N,
the U-statistic does not (Tang et al. 2020, Thm. 1; seed 002). The command line's
``expected-max-bias`` prints :func:`simulate_bias`'s table.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import integrate, stats

from reprocompare.estimators.expected_max import meanmax_weights, unbiased_weights

__all__ = ["DISTRIBUTIONS", "MAX_SIMULATED_SCORES", "true_expected_max", "simulate_bias"]

#: Scores a simulation of the bias may hold (searches x trials, 8 bytes each: 400 MB).
MAX_SIMULATED_SCORES = 50_000_000

#: Known score distributions on [0, 1] for :func:`simulate_bias`: a frozen scipy distribution,
#: clipped to [0, 1] when its support is wider (as validation accuracies are).
DISTRIBUTIONS = {
    "normal": stats.norm(loc=0.8, scale=0.05),
    "beta": stats.beta(16.0, 4.0),  # mean 0.8, sd 0.087, left-skewed like accuracies
}


def true_expected_max(distribution: str, n: int) -> float:
    r"""Exact :math:`E[\max(V_1..V_n)]` for n i.i.d. draws from a named score distribution.

    For a variable on [0, 1] (the normal is clipped to [0, 1], i.e. :math:`V = \min(1, \max(0,
    X))`), :math:`E[M] = \int_0^1 P(M > x)\,dx = \int_0^1 \left(1 - F(x)^n\right) dx` with
    :math:`F` the CDF of the unclipped variable on (0, 1), which is the clipped variable's CDF
    there; the clipping's atoms at 0 and 1 are accounted for by the limits. Computed by adaptive
    quadrature (``scipy.integrate.quad``) to ~1e-12.

    Parameters
    ----------
    distribution : {'normal', 'beta'}
        A name of ``DISTRIBUTIONS``.
    n : int
        The number of draws, at least 1.

    Returns
    -------
    float
        The expected maximum.
    """
    dist = _distribution(distribution)
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    # Split at the mean: for large n the integrand switches from 1 to 0 in a narrow band above
    # it, and a break point there keeps quad from stepping over the band.
    mid = float(np.clip(dist.mean(), 0.0, 1.0))
    f = lambda x: -math.expm1(n * dist.logcdf(x)) if x > 0 else 1.0  # 1 - F^n, accurately
    value = 0.0
    for lo, hi in ((0.0, mid), (mid, 1.0)):
        part, _ = integrate.quad(f, lo, hi, epsabs=1e-13, epsrel=1e-12, limit=200)
        value += part
    return value


def _distribution(name: str):
    try:
        return DISTRIBUTIONS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown distribution {name!r}; choose one of "
                         f"{', '.join(map(repr, DISTRIBUTIONS))}") from None


def simulate_bias(*, distribution: str = "normal", n_trials: int = 50, budgets=None,
                  n_simulations: int = 2000, random_state=0) -> pd.DataFrame:
    r"""Monte Carlo bias of both expected-max estimators (reproduces Tang et al. 2020, Thm. 1).

    Repeat ``n_simulations`` times: draw ``n_trials`` = N scores i.i.d. from a known
    distribution (see ``DISTRIBUTIONS``), compute both estimators at each budget n; the bias is
    the mean estimate minus the true :math:`E[\max \text{ of } n]` from
    :func:`true_expected_max`, and its Monte Carlo standard error is the standard deviation of
    the estimates over :math:`\sqrt{\text{n\_simulations}}` (the truth is exact, so it adds no
    error). Expected outcome: MeanMax's bias is negative and grows as n approaches N, the
    unbiased estimator's is zero within Monte Carlo error.

    Parameters
    ----------
    distribution : {"normal", "beta"}
        Normal(0.8, 0.05) clipped to [0, 1], or Beta(16, 4).
    n_trials : int
        N, the number of trials per simulated random search.
    budgets : sequence of int, optional
        Budgets n in 1..N; default 1, N/4, N/2, 3N/4 and N (deduplicated).
    n_simulations : int
        Number of simulated searches, at least 2; with ``n_trials`` at most
        ``MAX_SIMULATED_SCORES`` scores in all (the whole sample is held in memory).
    random_state : None, int or numpy.random.Generator
        Seed.

    Returns
    -------
    pandas.DataFrame
        Columns ``estimator`` ("meanmax" / "unbiased"), ``n``, ``bias``, ``mc_se``.
    """
    dist = _distribution(distribution)
    if isinstance(n_trials, bool) or not isinstance(n_trials, (int, np.integer)) or n_trials < 1:
        raise ValueError(f"n_trials must be a positive integer, got {n_trials!r}")
    if isinstance(n_simulations, bool) or not isinstance(n_simulations, (int, np.integer)) \
            or n_simulations < 2:
        raise ValueError(f"n_simulations must be an integer of at least 2 (for a standard "
                         f"error), got {n_simulations!r}")
    if n_trials * n_simulations > MAX_SIMULATED_SCORES:
        raise ValueError(f"n_trials x n_simulations = {n_trials * n_simulations:,} scores would "
                         f"not fit in memory; at most {MAX_SIMULATED_SCORES:,} (fewer "
                         "--simulations or --trials)")
    if budgets is None:
        budgets = sorted({1, max(1, n_trials // 4), max(1, n_trials // 2),
                          max(1, 3 * n_trials // 4), n_trials})
    ns = np.asarray(budgets, dtype=np.int64)
    if ns.ndim != 1 or ns.size == 0 or np.any((ns < 1) | (ns > n_trials)):
        raise ValueError(f"budgets must be integers in 1..{n_trials}, got {budgets!r}")
    rng = np.random.default_rng(random_state)
    samples = np.clip(dist.rvs(size=(n_simulations, n_trials), random_state=rng), 0.0, 1.0)
    samples.sort(axis=1)
    truth = np.array([true_expected_max(distribution, int(n)) for n in ns])
    rows = []
    for name, weights in (("meanmax", meanmax_weights), ("unbiased", unbiased_weights)):
        estimates = samples @ weights(n_trials, ns).T  # (n_simulations, len(ns))
        bias = estimates.mean(axis=0) - truth
        se = estimates.std(axis=0, ddof=1) / math.sqrt(n_simulations)
        rows += [{"estimator": name, "n": int(n), "bias": float(b), "mc_se": float(s)}
                 for n, b, s in zip(ns, bias, se)]
    return pd.DataFrame(rows, columns=["estimator", "n", "bias", "mc_se"])
