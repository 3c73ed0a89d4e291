"""The SNR confidence sequence (estimators.sequential), checked against independent computations.

Oracles: adaptive quadrature (scipy.integrate.quad) of the moment integral; Wang & Ramdas'
closed form (Theorem 4.9) at SNR 0; brute-force quadrature over the alternative of the ratio of
scipy's noncentral t densities, the definition of the mixture e-value; the integral of the
e-value against the null density of T (a martingale's mean is 1); and a seeded simulation of
optional stopping (Ville's inequality), beside which a fixed-R interval checked at every R fails.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy import integrate, stats

from reprocompare.estimators.reproducibility import TooFewRepetitions, snr_exact_interval
from reprocompare.estimators.sequential import (PRIOR, log_e_value, log_moment,
                                                sequence_from_t, snr_confidence_sequence,
                                                snr_e_value, snr_interval, t_statistic)

BOUND = math.log(20)  # log(1/alpha) at 95%


def moment_by_quad(z: float, n: int) -> float:
    """log int_0^inf u^(n-1) exp(-u^2/2 + z u) du by adaptive quadrature on s = log u."""
    root = math.sqrt(z * z + 4 * n)
    mode = (z + root) / 2 if z >= 0 else 2 * n / (root - z)
    centre, sd = math.log(mode), 1 / math.sqrt(mode * root)
    peak = n * centre - mode * mode / 2 + z * mode

    def f(s):
        e = math.exp(s)
        v = n * s - e * e / 2 + z * e - peak
        return math.exp(v) if v > -700 else 0.0

    edges = [centre - 40 * sd - 80 / n] + [centre + k * sd for k in (-20, -8, -3, -1, 0, 1, 3, 8)] \
        + [centre + 40 * sd]
    edges = sorted(edges)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", integrate.IntegrationWarning)
        total = sum(integrate.quad(f, a, b, epsabs=0, epsrel=1e-13, limit=200)[0]
                    for a, b in zip(edges[:-1], edges[1:]))
    return peak + math.log(total)


def wang_ramdas(t: float, n: int, scale: float) -> float:
    """Wang & Ramdas (2023), Theorem 4.9: log G_n^(c) with c^2 = 1/scale^2, S = sum, V = sum sq."""
    r2 = t * t * n / (n - 1 + t * t)  # S^2 / V
    c2 = 1 / scale**2
    return 0.5 * math.log(c2 / (n + c2)) + n / 2 * math.log((n + c2) / (n + c2 - r2))


def mixture_by_brute_force(t: float, n: int, theta0: float, scale: float) -> float:
    """log of int f(T; n-1, sqrt(n) th) / f(T; n-1, sqrt(n) theta0) N(th; theta0, scale^2) dth."""
    null = stats.nct.logpdf(t, n - 1, math.sqrt(n) * theta0)
    f = lambda th: math.exp(stats.nct.logpdf(t, n - 1, math.sqrt(n) * th) - null) \
        * stats.norm.pdf(th, theta0, scale)
    value, _ = integrate.quad(f, theta0 - 12 * scale, theta0 + 12 * scale, epsabs=0,
                              epsrel=1e-11, limit=300, points=[theta0, t / math.sqrt(n)])
    return math.log(value)


@pytest.mark.parametrize("n", [1, 2, 3, 10, 200, 5000])
@pytest.mark.parametrize("z", [-1e4, -300.0, -5.0, -0.3, 0.0, 1.5, 30.0, 1e4])
def test_log_moment_agrees_with_adaptive_quadrature(n, z):
    expected = moment_by_quad(z, n)
    assert float(log_moment(z, n)) == pytest.approx(expected, abs=1e-7, rel=1e-12)


def test_log_moment_closed_forms():
    # n = 1: int exp(-u^2/2 + z u) du = exp(z^2/2) sqrt(2 pi) Phi(z); n = 2, z = 0: 1
    for z in (-3.0, 0.0, 2.0, 30.0):
        assert float(log_moment(z, 1)) == pytest.approx(
            z * z / 2 + math.log(math.sqrt(2 * math.pi) * stats.norm.cdf(z)), abs=1e-9)
    assert float(log_moment(0.0, 2)) == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("n", [2, 3, 10, 50, 1000])
@pytest.mark.parametrize("t", [-40.0, -2.0, 0.0, 0.3, 2.5, 15.0])
@pytest.mark.parametrize("scale", [0.3, 0.5, 1.0, 2.0, 3.0])
def test_e_value_at_snr_zero_is_wang_ramdas_theorem_4_9(n, t, scale):
    assert float(log_e_value(t, n, 0.0, prior=scale)) == pytest.approx(
        wang_ramdas(t, n, scale), abs=1e-8)


#: a mixture of normal priors, tuned to a maximum of 200 repetitions (docs/sequential.md,
#: "A sharper sequence?"): the module supports it so that the benchmark can measure it
MIXTURE = ((0.4, 3.0), (0.3, 0.8), (0.3, 0.3))


def mixed(log_values, prior=MIXTURE):
    """log of the prior's weighted sum of its components' e-values (given as logs, in order)."""
    return math.log(sum(weight * math.exp(value)
                        for (weight, _), value in zip(prior, log_values, strict=True)))


@pytest.mark.parametrize("n", [2, 10, 1000])
@pytest.mark.parametrize("t", [-40.0, 0.0, 2.5, 15.0])
def test_a_mixture_prior_is_its_components_mixed_by_their_weights(n, t):
    # a mixture of normal priors mixes the components' e-values (each Wang & Ramdas' at SNR 0)
    assert float(log_e_value(t, n, 0.0, prior=MIXTURE)) == pytest.approx(
        mixed([wang_ramdas(t, n, scale) for _, scale in MIXTURE]), abs=1e-8)


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 10])
@pytest.mark.parametrize("t", [-4.0, 0.3, 2.5, 6.0])
@pytest.mark.parametrize("theta0", [-1.0, 0.0, 0.5, 2.0])
def test_e_value_is_the_mixture_of_noncentral_t_density_ratios(n, t, theta0):
    # the definition, by brute force: at R = 2 and R = 10, with scipy's noncentral t densities
    assert float(log_e_value(t, n, theta0)) == pytest.approx(
        mixture_by_brute_force(t, n, theta0, PRIOR), abs=1e-7)
    assert float(log_e_value(t, n, theta0, prior=MIXTURE)) == pytest.approx(
        mixed([mixture_by_brute_force(t, n, theta0, scale) for _, scale in MIXTURE]), abs=1e-7)


@pytest.mark.parametrize("n, theta0", [(2, 0.0), (2, 1.0), (10, 0.5), (10, -2.0)])
def test_e_value_has_mean_one_under_its_null(n, theta0):
    # E[M_R(theta0)] under theta0 = int M(T) f(T; R-1, sqrt(R) theta0) dT = 1: a martingale
    delta = math.sqrt(n) * theta0
    f = lambda t: math.exp(float(log_e_value(t, n, theta0))
                           + stats.nct.logpdf(t, n - 1, delta))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", integrate.IntegrationWarning)
        mean = sum(integrate.quad(f, a, b, limit=400, epsabs=1e-10)[0]
                   for a, b in ((-np.inf, delta - 5), (delta - 5, delta + 5), (delta + 5, np.inf)))
    assert mean == pytest.approx(1.0, abs=2e-4)


@pytest.mark.slow
@pytest.mark.parametrize("prior", [PRIOR, MIXTURE], ids=["scale", "mixture"])
@pytest.mark.parametrize("n", [2, 3, 5, 30, 1000])
@pytest.mark.parametrize("t", [-np.inf, -30.0, -1.0, 0.0, 0.7, 12.0, np.inf])
def test_log_e_value_is_quasi_convex_so_the_sequence_is_an_interval(n, t, prior):
    theta = np.linspace(-30, 30, 6001)
    values = log_e_value(t, n, theta, prior=prior)
    assert np.all(np.isfinite(values))
    steps = np.diff(values)
    signs = np.sign(steps[np.abs(steps) > 1e-9])  # rounding where log M is flat near 0
    assert np.sum(signs[1:] != signs[:-1]) <= 1
    if signs.size:
        assert signs[0] < 0 or t == -np.inf  # falls, then (at most once) rises


def test_ends_are_where_the_e_value_reaches_one_over_alpha():
    values = [0.3, 1.2, -0.4, 0.8, 0.5, 1.1, 0.2, 0.9, 0.7, 0.1]
    low, high = snr_confidence_sequence(values)
    t = t_statistic(values)
    assert float(log_e_value(t, 10, low)) == pytest.approx(BOUND, abs=1e-8)
    assert float(log_e_value(t, 10, high)) == pytest.approx(BOUND, abs=1e-8)
    assert float(log_e_value(t, 10, (low + high) / 2)) < BOUND
    # the time-uniform interval is the wider one
    fixed_low, fixed_high = snr_exact_interval(values)
    assert low < fixed_low < fixed_high < high


@pytest.mark.parametrize("n", [2, 5, 30, 1000])
@pytest.mark.parametrize("theta", [-3.0, 0.0, 0.4, 2.0, 20.0])
def test_sequence_contains_the_fixed_interval(n, theta):
    t = math.sqrt(n) * theta
    low, high = sequence_from_t(t, n)
    values = _with_t(t, n)
    assert t_statistic(values) == pytest.approx(t, rel=1e-9, abs=1e-12)
    fixed = snr_exact_interval(values)
    assert low <= fixed[0] and high >= fixed[1]


def _with_t(t: float, n: int) -> np.ndarray:
    """n values whose t statistic is exactly t (mean t/sqrt(n), sd 1)."""
    base = np.arange(n, dtype=np.float64)
    base = (base - base.mean()) / base.std(ddof=1)
    return base + t / math.sqrt(n)


def test_monotone_in_t_in_confidence_and_in_repetitions():
    ends = np.array([sequence_from_t(t, 12) for t in np.linspace(-8, 8, 17)])
    assert np.all(np.diff(ends[:, 0]) > 0) and np.all(np.diff(ends[:, 1]) > 0)
    narrow, wide = sequence_from_t(2.0, 12, confidence=0.8), sequence_from_t(2.0, 12,
                                                                             confidence=0.99)
    assert wide[0] < narrow[0] < narrow[1] < wide[1]
    # the same SNR seen over more repetitions: a nested, narrower interval
    for theta in (0.0, 0.5, 3.0):
        widths = [np.subtract(*sequence_from_t(math.sqrt(n) * theta, n)[::-1])
                  for n in (2, 5, 20, 100, 1000)]
        assert np.all(np.diff(widths) < 0)


def test_exact_values():
    # T = 0 at R = 1000: symmetric, 0.1195 where the fixed interval gives 1.96 / sqrt(1000)
    low, high = sequence_from_t(0.0, 1000)
    assert low == pytest.approx(-high, abs=1e-10)
    assert high == pytest.approx(0.1195380, abs=1e-6)
    values = [0.9, 1.1, 1.0, 1.2, 0.8, 1.05, 0.95, 1.0]
    assert snr_confidence_sequence(values) == pytest.approx(
        (2.158167406853618, 18.639804996459706), abs=1e-8)
    # a mixture's ends are where the definition's e-value (scipy's noncentral t densities,
    # mixed over each component by quadrature) reaches 1/alpha
    t = t_statistic(values)
    for end in snr_confidence_sequence(values, prior=MIXTURE):
        assert mixed([mixture_by_brute_force(t, 8, end, scale) for _, scale in MIXTURE]) \
            == pytest.approx(BOUND, abs=1e-6)


def test_constant_and_zero_estimates():
    low, high = snr_confidence_sequence([1.0, 1.0, 1.0])
    assert high == math.inf and math.isfinite(low)
    assert float(log_e_value(np.inf, 3, low)) == pytest.approx(BOUND, abs=1e-8)
    assert snr_confidence_sequence([-2.0, -2.0, -2.0]) == (-math.inf, pytest.approx(-low))
    assert snr_confidence_sequence([0.0, 0.0, 0.0, 0.0]) == (0.0, 0.0)
    # within the tolerance of estimators.reproducibility counts as constant
    assert snr_confidence_sequence([1.0, 1.0 + 1e-13, 1.0]) == (low, math.inf)
    # perfectly consistent estimates need R = 5 to exclude Phi^-1(0.8) with the default scale
    assert sequence_from_t(np.inf, 4)[0] < stats.norm.ppf(0.8) < sequence_from_t(np.inf, 5)[0]
    assert snr_e_value([0.0, 0.0]) == 1.0


def test_conclusion_flips_the_interval():
    values = [0.3, 1.2, -0.4, 0.8, 0.5]
    low, high = snr_confidence_sequence(values)
    assert snr_confidence_sequence(values, "B>A") == pytest.approx((-high, -low), abs=1e-9)


def test_interval_choice():
    values = [0.3, 1.2, -0.4, 0.8, 0.5]
    assert snr_interval(values, time_uniform=False) == snr_exact_interval(values)
    assert snr_interval(values) == snr_confidence_sequence(values)
    assert snr_interval(values, confidence=0.9) == snr_confidence_sequence(values,
                                                                           confidence=0.9)


def test_e_value():
    values = [0.3, 1.2, -0.4, 0.8, 0.5, 1.1, 0.2, 0.9, 0.7, 0.1]
    low, high = snr_confidence_sequence(values)
    assert snr_e_value(values, low) == pytest.approx(20.0, rel=1e-7)
    assert snr_e_value(values, 0.0) == pytest.approx(math.exp(wang_ramdas(
        t_statistic(values), 10, PRIOR)), rel=1e-8)


def test_errors():
    with pytest.raises(ValueError, match="confidence"):
        snr_confidence_sequence([1.0, 2.0], confidence=1.0)
    for prior in (0.0, -1.0, math.inf, ((0.5, 1.0), (0.4, 2.0)), ((1.5, 1.0), (-0.5, 2.0)),
                  ((1.0, 0.0),), (), "wide"):
        with pytest.raises(ValueError, match="prior"):
            log_e_value(1.0, 3, 0.0, prior=prior)
    with pytest.raises(TooFewRepetitions):
        snr_confidence_sequence([1.0])
    with pytest.raises(TooFewRepetitions):
        log_e_value(1.0, 1, 0.0)
    with pytest.raises(ValueError, match="conclusion"):
        snr_confidence_sequence([1.0, 2.0], "A<B")


def _running_t(x: np.ndarray) -> np.ndarray:
    """t statistics of every prefix (R = 2..) of each row."""
    n = np.arange(1, x.shape[1] + 1)
    total, squares = np.cumsum(x, axis=1), np.cumsum(x * x, axis=1)
    mean = total / n
    sd = np.sqrt(np.maximum(squares - n * mean * mean, 0)[:, 1:] / (n[1:] - 1))
    return np.sqrt(n[1:]) * mean[:, 1:] / sd


@pytest.mark.slow
@pytest.mark.parametrize("theta", [0.0, 1.0])
def test_coverage_under_optional_stopping(theta):
    # Ville: the chance that the sequence ever misses the true SNR over R = 2..100 is <= 5%, so
    # no stopping rule can push the miss rate above it. 600 seeded studies: binomial sd 0.9
    # points; the fixed-R interval checked at every R misses far more often.
    rng = np.random.default_rng(22)
    x = theta + rng.standard_normal((600, 100))
    t = _running_t(x)
    n = np.arange(2, 101)
    ever_missed = np.zeros(len(x), dtype=bool)
    fixed_missed = np.zeros(len(x), dtype=bool)
    for j, r in enumerate(n):
        ever_missed |= log_e_value(t[:, j], r, theta) >= BOUND
        cdf = stats.nct.cdf(t[:, j], r - 1, math.sqrt(r) * theta)
        fixed_missed |= (cdf < 0.025) | (cdf > 0.975)
    assert ever_missed.mean() <= 0.05
    assert fixed_missed.mean() > 0.2
