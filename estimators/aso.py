"""Almost stochastic order (ASO) of A's scores over B's, with its measured size.

Over R repetitions each model gets a score per repetition (its chunk F1). A *stochastically
dominates* B when A's quantile function lies above B's everywhere; ASO (del Barrio, Cuesta-
Albertos and Matran 2018; Dror, Shlomov and Reichart 2019, "Deep Dominance - How to Properly
Compare Deep Neural Models", ACL) measures how far that order is violated. With F and G the
distributions of A's and B's scores, F^-1 and G^-1 their quantile functions, the squared
Wasserstein-2 distance and the violation set are

    W_2(F, G)^2 = integral_0^1 (F^-1(t) - G^-1(t))^2 dt,
    V = {t in (0, 1) : F^-1(t) < G^-1(t)}            (where A's quantile is below B's),

and the violation ratio is

    eps_W2(F, G) = integral_V (F^-1(t) - G^-1(t))^2 dt / W_2(F, G)^2,

0 when A dominates B, 1 when B dominates A, 1/2 on average for equal distributions. On the
empirical distributions F_n, G_m of n and m scores, del Barrio et al. (2018) give the asymptotic
normality of sqrt(nm / (n + m)) (eps_W2(F_n, G_m) - eps_W2(F, G)) with a variance sigma^2 that
Dror et al. (2019) estimate by the bootstrap, and the smallest eps for which "A is
eps-almost stochastically larger than B" is not rejected at confidence 1 - alpha:

    eps_min = eps_W2(F_n, G_m) - sqrt((n + m) / (nm)) * sigma_hat * Phi^-1(alpha),

clipped to [0, 1] (Phi^-1(alpha) < 0, so eps_min lies above the point ratio). eps_min < 0.5
is read as "A is better than B" (Dror et al. 2019; Ulmer, Hardmeier and Frellsen 2022,
"deep-significance", who also suggest the stricter eps_min < 0.2).

:func:`almost_stochastic_order` computes it exactly as ``deepsig.aso`` (version 1.2.8, Ulmer et
al. 2022) does, so that a seed gives deepsig's number to rounding: the integrals are sums over
the grid t = dt, 2 dt, ... < 1 (dt = 0.005); the empirical quantile is F_n^-1(t) = x_(ceil(n t))
(sorted scores, clipped to the first and last); the violation sum skips the first grid point, as
deepsig's does; a zero W_2 gives a ratio of 1/2; each bootstrap iteration i = 1..K draws n and m
uniforms from ``RandomState(seed + i)`` and maps them through F_n^-1 and G_m^-1 (a resample with
replacement); sigma_hat is the standard deviation (ddof 0) of sqrt(nm / (n + m)) (eps*_i - eps);
with k > 1 comparisons the confidence becomes c + (1 - c) / k (deepsig's Bonferroni step).
Vectorized over the bootstrap, it takes milliseconds where deepsig's loop takes seconds.

Its size (the rate of eps_min < 0.5 when A and B have one distribution) is measured by
``benchmarks/bench_aso.py`` and kept in :data:`MEASURED_SIZE` beside docs/statistics.md, which
a test checks; :func:`calibration_note` says it beside ASO's rows of the claims table. It is
17-22% at every R from 5 to 1000: under equal laws the violation ratio keeps its spread over
(0, 1) however large R grows, so eps_min < 0.5 is liberal; eps_min < 0.2 holds it to 1.5-6%.
deepsig's iteration i draws from ``seed + i``, so nearby seeds share almost every bootstrap draw:
the workflow derives its seeds (far apart) rather than counting them.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

#: eps_min below this is read as "A is better than B" (Dror et al. 2019)
THRESHOLD = 0.5
#: deepsig's defaults
CONFIDENCE = 0.95
N_BOOTSTRAP = 1000
DT = 0.005


class ASOResult(NamedTuple):
    """Almost stochastic order of A over B: ``eps_min`` at ``confidence_level``."""

    eps_min: float
    violation_ratio: float
    sigma: float  # the bootstrap sd of sqrt(nm / (n + m)) (eps* - eps)
    confidence_level: float
    n_bootstrap: int

    def a_better(self, threshold: float = THRESHOLD) -> bool:
        """"A is almost stochastically larger than B": eps_min < ``threshold``."""
        return self.eps_min < threshold


def _grid(dt: float) -> np.ndarray:
    # deepsig's grid, to the last float (np.arange accumulates dt exactly as it does there)
    return np.arange(dt, 1, dt)


def _quantile_index(n: int, p: np.ndarray) -> np.ndarray:
    """Indices into n sorted scores of the empirical quantiles at ``p``: ceil(n p) - 1."""
    return np.clip(np.ceil(n * p).astype(np.int64) - 1, 0, n - 1)


def violation_ratio(sorted_a: np.ndarray, sorted_b: np.ndarray, dt: float = DT) -> np.ndarray:
    """eps_W2 of the empirical distributions of each row of ``sorted_a`` against ``sorted_b``.

    Rows are sorted scores (one row, or one per bootstrap draw); returns one ratio per row.

    Parameters
    ----------
    sorted_a, sorted_b : numpy.ndarray
        Sorted scores of A and B: one row, or one per bootstrap draw.
    dt : float, default DT
        Step of the quantile grid.

    Returns
    -------
    numpy.ndarray
        eps_W2, one per row.
    """
    t = _grid(dt)
    f = sorted_a[..., _quantile_index(sorted_a.shape[-1], t)]
    g = sorted_b[..., _quantile_index(sorted_b.shape[-1], t)]
    diff = g - f
    distance = np.sum(diff ** 2 * dt, axis=-1)
    violated = np.where(f < g, diff, 0.0)[..., 1:]  # deepsig leaves out t = dt here
    violation = np.sum(violated ** 2 * dt, axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(distance == 0, 0.5, violation / np.where(distance == 0, 1, distance))


def _scores(values, name: str) -> np.ndarray:
    array = np.asarray(values, dtype=float)
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array of scores, got shape "
                         f"{array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} holds a non-finite score")
    return array


def almost_stochastic_order(scores_a, scores_b, *, confidence_level: float = CONFIDENCE,
                            num_comparisons: int = 1, n_bootstrap: int = N_BOOTSTRAP,
                            dt: float = DT, random_state: int = 0) -> ASOResult:
    """eps_min of "A is almost stochastically larger than B" (higher scores are better).

    Parameters
    ----------
    scores_a, scores_b : array-like, 1-D
        A's and B's scores, one per run (here: per repetition); the lengths may differ.
    confidence_level : float, default 0.95
        The confidence 1 - alpha of the upper bound eps_min.
    num_comparisons : int, default 1
        Comparisons made at once; the confidence is Bonferroni-raised as deepsig does.
    n_bootstrap : int, default 1000
        Bootstrap iterations for sigma_hat.
    dt : float, default 0.005
        Step of the integration grid over (0, 1).
    random_state : int, default 0
        Seed: iteration i uses ``RandomState(random_state + i)``, as deepsig's ``seed``, so the
        result is deterministic and equals ``deepsig.aso(..., seed=random_state)``.

    Returns
    -------
    ASOResult
        ``eps_min`` (read "A better" when below 0.5), the point ``violation_ratio``, ``sigma``,
        the ``confidence_level`` used (after Bonferroni) and ``n_bootstrap``.

    Examples
    --------
    >>> result = almost_stochastic_order([0.90, 0.91, 0.92, 0.93], [0.80, 0.81, 0.82, 0.83])
    >>> result.eps_min, result.a_better()
    (0.0, True)
    """
    a, b = _scores(scores_a, "scores_a"), _scores(scores_b, "scores_b")
    if not 0 < confidence_level < 1:
        raise ValueError(f"confidence_level must lie in (0, 1), got {confidence_level!r}")
    if isinstance(num_comparisons, bool) or int(num_comparisons) != num_comparisons \
            or num_comparisons < 1:
        raise ValueError(f"num_comparisons must be a positive integer, got {num_comparisons!r}")
    if isinstance(n_bootstrap, bool) or int(n_bootstrap) != n_bootstrap or n_bootstrap < 1:
        raise ValueError(f"n_bootstrap must be a positive integer, got {n_bootstrap!r}")
    if not 0 < dt < 1:
        raise ValueError(f"dt must lie in (0, 1), got {dt!r}")
    n_bootstrap = int(n_bootstrap)
    if isinstance(random_state, bool) or not isinstance(random_state, (int, np.integer)) \
            or not 0 <= random_state <= 2**32 - 1 - n_bootstrap:
        raise ValueError(f"random_state must be an integer in [0, 2**32 - 1 - n_bootstrap], "
                         f"got {random_state!r}")
    # deepsig's Bonferroni step, taken only for several comparisons (with one it would give 1)
    confidence = confidence_level if num_comparisons == 1 else \
        confidence_level + (1 - confidence_level) / int(num_comparisons)
    sorted_a, sorted_b = np.sort(a), np.sort(b)
    n, m = a.size, b.size
    ratio = float(violation_ratio(sorted_a, sorted_b, dt))
    # Iteration i draws n uniforms for A, then m for B, from RandomState(random_state + i + 1),
    # as deepsig does. uniform(0, 1, k) is random_sample(k) to the bit, and the legacy stream
    # is sequential, so one random_sample(n + m) per seed is both draws: the loop holds only
    # the reseeds (a reseed costs 1 us, a new RandomState 90), the rest is vectorized.
    uniforms = np.empty((n_bootstrap, n + m))
    state = np.random.RandomState()
    for i in range(n_bootstrap):
        state.seed(int(random_state) + i + 1)
        uniforms[i] = state.random_sample(n + m)
    draws_a = sorted_a[_quantile_index(n, uniforms[:, :n])]
    draws_b = sorted_b[_quantile_index(m, uniforms[:, n:])]
    samples = violation_ratio(np.sort(draws_a, axis=1), np.sort(draws_b, axis=1), dt)
    const = math.sqrt(n * m / (n + m))
    sigma = float(np.std(const * (samples - ratio)))
    # local: the tables job imports this module for calibration_note only, and scipy.stats
    # is 0.7 CPU s of every job's start (benchmarks/bench_job_cpu.py)
    from scipy import stats

    eps_min = float(np.clip(ratio - sigma / const * stats.norm.ppf(1 - confidence), 0, 1))
    return ASOResult(eps_min, ratio, sigma, float(confidence), n_bootstrap)


class MeasuredSize(NamedTuple):
    """The rate of eps_min < 0.5 (and < 0.2) when A's and B's R scores come from one law."""

    repetitions: int
    normal: float
    skewed: float
    normal_strict: float  # eps_min < 0.2
    skewed_strict: float


#: Measured by ``benchmarks/bench_aso.py --write`` (seeded; confidence 0.95, 1000 bootstrap
#: iterations, deepsig's defaults) and copied from its table in docs/statistics.md, which
#: tests/test_aso.py checks this against. Normal: N(0, 1) scores for both models; skewed: a
#: standardized Gamma(2) for both.
MEASURED_SIZE = {
    5: MeasuredSize(5, 0.211, 0.205, 0.057, 0.060),
    10: MeasuredSize(10, 0.172, 0.192, 0.027, 0.039),
    20: MeasuredSize(20, 0.167, 0.170, 0.022, 0.025),
    50: MeasuredSize(50, 0.216, 0.169, 0.027, 0.023),
    200: MeasuredSize(200, 0.212, 0.181, 0.019, 0.020),
    1000: MeasuredSize(1000, 0.176, 0.178, 0.019, 0.015),
}


def calibration_note(repetitions: int) -> str:
    """What the size benchmark says of ASO at ``repetitions`` runs per model, for the claims
    table: the measured rate of eps_min < 0.5 under equal distributions at the nearest measured
    R at or below ``repetitions`` (the size falls with R), or '' when none was measured.

    Parameters
    ----------
    repetitions : int
        Runs per model.

    Returns
    -------
    str
        The note, or ''.
    """
    measured = [r for r in MEASURED_SIZE if r <= repetitions]
    if not measured:
        return ""
    size = MEASURED_SIZE[max(measured)]
    worst = max(size.normal, size.skewed)
    reading = "liberal" if worst > 0.064 else "conservative" if worst < 0.025 else "near 5%"
    return (f"{reading}: with A and B of one distribution, eps_min < 0.5 in "
            f"{100 * size.normal:.1f}% (normal) and {100 * size.skewed:.1f}% (skewed) of "
            f"studies at R = {size.repetitions}, confidence 0.95 (eps_min < 0.2: "
            f"{100 * max(size.normal_strict, size.skewed_strict):.1f}% at most)")
