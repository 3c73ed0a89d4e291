r"""A confidence sequence for the SNR: intervals that stay valid however a study decides to stop.

Xue et al. read "A > B reproduces" off the SNR (Eq. 4) of R estimates of A - B. A study that
adds repetitions in waves and stops as soon as the answer is clear looks at its interval after
every wave; a fixed-R interval (:func:`~reprocompare.estimators.reproducibility.snr_exact_interval`)
checked that way covers less than its nominal 95% (``docs/sequential.md`` measures how much). A
*confidence sequence* (CS) covers at every R at once, hence at any stopping time (Howard et al.
2021, Lemma 3): a study may stop whenever its verdict is clear, or never.

Construction (the sequential t-test of Rushton 1950 and Cox 1952, mixed as in the safe t-test of
Grunwald et al. and Wang & Ramdas 2023, then inverted):

1. For R i.i.d. normal estimates with SNR :math:`\theta = \mu/\sigma` the scale is a nuisance.
   The estimates up to a common positive factor (the maximal invariant under scaling) carry all
   the information about :math:`\theta`, and their likelihood ratio between two SNRs is the
   ratio of the densities of the t statistic :math:`T_R = \sqrt R\,\bar x/s`, a noncentral t
   with R - 1 degrees of freedom and noncentrality :math:`\sqrt R\,\theta` (Cox 1952;
   Perez-Ortiz, Lardy, de Heide & Grunwald 2024, via Wijsman's representation):

   .. math::

      L_R(\theta_1, \theta_0) = f_{R-1, \sqrt R\theta_1}(T_R) / f_{R-1, \sqrt R\theta_0}(T_R).

   As R grows these are likelihood ratios of a growing family of sigma-fields, so under
   :math:`\theta_0` the sequence is a nonnegative martingale with mean 1.
2. Mixing :math:`\theta_1` over a normal prior centred at :math:`\theta_0` with standard
   deviation ``prior`` (:data:`PRIOR`) keeps it one (as does a mixture of such normals,
   ``prior`` as (weight, scale) pairs: a weighted mean of e-values is one):
   :math:`M_R(\theta_0) = \int L_R(\theta_1, \theta_0)\,\mathcal N(\theta_1; \theta_0,
   \mathrm{scale}^2)\,d\theta_1`, the e-value of :func:`snr_e_value`. At
   :math:`\theta_0 = 0` it is Wang & Ramdas' closed form (their Theorem 4.9, precision
   :math:`c^2 = 1/\mathrm{scale}^2`), which the tests check.
3. Ville's inequality, :math:`P_{\theta_0}(\sup_R M_R(\theta_0) \ge 1/\alpha) \le \alpha`, makes
   :math:`\{\theta_0 : M_R(\theta_0) < 1/\alpha\}` a :math:`1 - \alpha` confidence sequence. It
   bounds the whole path, so coverage holds at any random time, also one chosen by looking at
   the raw values (Howard et al. 2021, Lemma 3), although the martingale lives on the smaller
   scale-invariant filtration ("a test martingale in a reduced filtration", Wang & Ramdas).

Computation. With the prior normal, the integral over :math:`\theta_1` is done in closed form
on the maximal invariant's density (Wijsman's integral over the scale), leaving for both the
numerator and the denominator one integral of the form
:math:`J_R(z) = \log\int_0^\infty u^{R-1} e^{-u^2/2 + z u}\,du` (a parabolic cylinder function).
It is computed in log space by the trapezoidal rule on ``log u`` around its mode (spectrally
accurate for this smooth, fast-decaying integrand; agrees with adaptive quadrature to 1e-8
over R = 1..5000 and |z| up to 1e4), so far tails never underflow and no noncentral t density
is evaluated where boost's series loses accuracy. The set is an interval (``log M`` is
quasi-convex in :math:`\theta_0`, checked on a grid by the tests); its ends are found by
``scipy.optimize.brentq`` outward from a point inside.

Why ``PRIOR = 2``: the prior spreads the evidence over the alternatives; a wide one
decides large SNRs early and costs a little width at large R. A mixture of normals tuned to a
maximum of 200 repetitions (mass on scales 0.8 and 0.3 beside 3) decides more often near the
threshold at R in the hundreds, but later at the R = 5-20 our studies run, and with futility
stopping it does not shorten the studies near the threshold (``benchmarks/bench_prior.py``,
docs/sequential.md, "A sharper sequence?"); a prior chosen from a study's maximum would also
stop being valid when a study grows past it after its results were seen, so one scale, fixed
in advance, stays. With scale 2, estimates whose
SNR is large enough (about 10 or more, as a tagger 25 F1 points behind another gives) exclude
an SNR of Phi^-1(0.8) = 0.84 already at R = 5; with scale 1.5 even perfectly consistent
estimates do not (lower end 0.78), with 1 not before R = 7. The half-width at SNR 0 and R = 1000
is 0.120 (scale 2) against 0.114 (scale 1) and 0.062 for the fixed-R exact interval.

Corner cases as in :mod:`reprocompare.estimators.reproducibility`: constant non-zero estimates
have :math:`T = \pm\infty`; their maximal invariant is still a point of the sphere with a finite
likelihood, so the CS is ``(low, inf)`` (or ``(-inf, high)``) with a finite end, unlike the fixed
interval's ``(inf, inf)``: no finite R proves an infinite SNR. All zeros give ``(0, 0)``. R < 2
is an error.

Normality is assumed, as for the exact interval; ``docs/sequential.md`` measures the coverage
under a skewed law too.

References
----------
- Rushton, S. (1950). On a sequential t-test. Biometrika 37(3/4).
- Cox, D. R. (1952). Sequential tests for composite hypotheses. Proc. Cambridge Philos. Soc. 48.
- Ville, J. (1939). Etude critique de la notion de collectif. Gauthier-Villars.
- Lai, T. L. (1976). On confidence sequences. Ann. Statist. 4(2).
- Howard, S. R., Ramdas, A., McAuliffe, J., Sekhon, J. (2021). Time-uniform, nonparametric,
  nonasymptotic confidence sequences. Ann. Statist. 49(2).
- Grunwald, P., de Heide, R., Koolen, W. (2024). Safe testing. JRSS B 86(5); the R package
  safestats (github.com/AlexanderLyNL/safestats, ``safeTTestStat``: e-values as ratios of t
  densities).
- Perez-Ortiz, M. F., Lardy, T., de Heide, R., Grunwald, P. D. (2024). E-statistics, group
  invariance and anytime-valid testing. Ann. Statist. 52(4).
- Wang, H., Ramdas, A. (2023). Anytime-valid t-tests and confidence sequences for Gaussian
  means with unknown variance. arXiv:2310.03722.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize, special

from reprocompare.estimators.designs import looks  # noqa: F401  (the looks are the design's)
from reprocompare.estimators.reproducibility import (TooFewRepetitions, _is_constant, _values,
                                                     snr_exact_interval)

#: The mixing prior over the alternative SNR, centred at the SNR tested: one normal's standard
#: deviation (see the module docstring for why 2, and why not a mixture of normals).
PRIOR = 2.0

#: Nodes of the trapezoidal rule for :func:`log_moment` (193 already agree to 1e-8).
_NODES = 201
#: How far the trapezoidal grid reaches, in standard deviations of the integrand's Laplace
#: approximation: to the right, where it falls faster than a normal; to the left, where it
#: may fall only like exp(R log u) (few repetitions), up to 40 more.
_RIGHT, _LEFT, _LEFT_TAIL = 10.0, 10.0, 40.0


def _check_confidence(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence!r}")
    return float(confidence)


def _check_prior(prior) -> tuple[tuple[float, float], ...]:
    """The prior as (weight, scale) pairs; a number is one normal of that scale."""
    pairs = ((1.0, prior),) if isinstance(prior, (int, float)) else prior
    try:
        components = tuple((float(weight), float(scale)) for weight, scale in pairs)
    except (TypeError, ValueError):
        raise ValueError(f"prior must be a positive scale or (weight, scale) pairs, got {prior!r}")
    if not components or not all(math.isfinite(scale) and scale > 0 for _, scale in components):
        raise ValueError(f"prior scales must be positive numbers, got {prior!r}")
    if not all(weight > 0 for weight, _ in components) \
            or abs(sum(weight for weight, _ in components) - 1) > 1e-9:
        raise ValueError(f"prior weights must be positive and sum to 1, got {prior!r}")
    return components


def log_moment(z, repetitions):
    r""":math:`J_R(z) = \log\int_0^\infty u^{R-1} \exp(-u^2/2 + z u)\,du`, vectorized.

    The integral of Wijsman's representation of the maximal invariant's density (it equals
    :math:`\log\Gamma(R) + z^2/4 + \log D_{-R}(-z)` with :math:`D` the parabolic cylinder
    function). Substituting :math:`u = e^s` gives a smooth unimodal integrand on the real line,
    integrated by the trapezoidal rule on a grid scaled to its Laplace approximation around the
    mode :math:`u^* = (z + \sqrt{z^2 + 4R})/2`, all in log space.

    Parameters
    ----------
    z : array_like of float
        The argument.
    repetitions : array_like of int
        R (broadcast against ``z``).

    Returns
    -------
    numpy.ndarray
        :math:`J_R(z)`, of the broadcast shape.

    Examples
    --------
    >>> abs(float(log_moment(0.0, 2))) < 1e-12  # int u exp(-u^2/2) du = 1
    True
    """
    z, n = np.broadcast_arrays(np.asarray(z, dtype=np.float64),
                               np.asarray(repetitions, dtype=np.float64))
    root = np.sqrt(z * z + 4 * n)
    # the mode in u, written without cancellation for either sign of z
    with np.errstate(divide="ignore", invalid="ignore"):
        mode = np.where(z >= 0, (z + root) / 2, 2 * n / (root - z))
    centre = np.log(mode)
    sd = 1 / np.sqrt(mode * root)  # 1 / sqrt(-h''(s*)) of h(s) = R s - e^(2s)/2 + z e^s
    left = _LEFT + np.minimum(_LEFT_TAIL, _LEFT_TAIL / (n * sd))
    span = left + _RIGHT
    steps = np.linspace(0.0, 1.0, _NODES)
    s = centre[..., None] + sd[..., None] * (span[..., None] * steps - left[..., None])
    peak = n * centre - 0.5 * mode * mode + z * mode
    e = np.exp(s)
    h = n[..., None] * s - 0.5 * e * e + z[..., None] * e - peak[..., None]
    width = sd * span / (_NODES - 1)
    return peak + np.log(np.sum(np.exp(h), axis=-1) * width)


def _invariant(t_statistic, n):
    """r = S / sqrt(V) (sum over root sum of squares) from T, and n - r^2 without cancellation."""
    t = np.asarray(t_statistic, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        inverse = np.where(np.isinf(t), 0.0, (n - 1) / (t * t))
        r = np.where(t == 0, 0.0, np.sign(t) * np.sqrt(n / (1 + inverse)))
        # n - r^2 = n (n - 1) / (n - 1 + T^2)
        rest = np.where(np.isinf(t), 0.0, n * (n - 1) / (n - 1 + t * t))
    return r, rest


def log_e_value(t_statistic, repetitions, snr, *, prior=PRIOR):
    r""":math:`\log M_R(\theta_0)`: the mixture e-value against "the SNR is ``snr``", vectorized.

    Parameters
    ----------
    t_statistic : array_like
        :math:`T_R = \sqrt R\,\bar x / s` (``inf``/``-inf`` for constant estimates).
    repetitions : array_like of int
        R >= 2, the number of estimates behind ``t_statistic``.
    snr : array_like
        :math:`\theta_0`, the SNR under test.
    prior : float or sequence of (float, float), default PRIOR
        The mixing prior over the alternative, centred at ``snr``: one normal's standard
        deviation, or (weight, standard deviation) pairs of normals whose weights sum to 1.

    Returns
    -------
    ndarray
        The log of the ratio of the mixed to the null density of the maximal invariant (module
        docstring, steps 1-2). With one normal :math:`\mathcal N(\theta_0, g^2)`, :math:`P = R +
        1/g^2`, :math:`r = S/\sqrt V` and :math:`a = 1 - r^2/P`:
        :math:`\log M = -\tfrac12\log(g^2 P) - \tfrac R2 \log a + \tfrac{R^2\theta_0^2}{2P}
        + J_R\!\left(\tfrac{r\theta_0}{g^2 P\sqrt a}\right) - J_R(r\theta_0)`, with
        :math:`J_R` from :func:`log_moment`; a mixture of normals mixes these by its weights
        (in log space).

    Examples
    --------
    At SNR 0 and one normal of scale 2 it is Wang & Ramdas' Theorem 4.9; for T = 3 at R = 10:

    >>> round(float(log_e_value(3.0, 10, 0.0)), 6)
    1.488462
    """
    components = _check_prior(prior)
    n = np.asarray(repetitions, dtype=np.float64)
    if np.any(n < 2):
        raise TooFewRepetitions(f"need at least 2 repetitions, got {np.min(n):g}")
    theta = np.asarray(snr, dtype=np.float64)
    r, rest = _invariant(t_statistic, n)
    mixed = []  # each component's log of its weight times its mixed density
    for weight, scale in components:
        precision = n + 1 / scale**2
        a = (rest + 1 / scale**2) / precision
        shifted = r * theta / (scale**2 * precision * np.sqrt(a))
        mixed.append(math.log(weight) - 0.5 * np.log(scale**2 * precision) - 0.5 * n * np.log(a)
                     + 0.5 * n * n * theta * theta / precision + log_moment(shifted, n))
    return np.logaddexp.reduce(np.broadcast_arrays(*mixed), axis=0) - log_moment(r * theta, n)


def t_statistic(values, conclusion: str = "A>B") -> float:
    """:math:`T_R = \\sqrt R \\cdot` Eq. 4's SNR, relative to the conclusion under test.

    Constant estimates (see :func:`~reprocompare.estimators.reproducibility.snr`) give
    ``inf``/``-inf`` by their sign and 0 when all are zero.

    Parameters
    ----------
    values : array_like of float, shape (R,)
        The estimates of A - B, one per repetition.
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test: the estimates are read with its sign.

    Returns
    -------
    float
        :math:`T_R`.
    """
    signed = _values(values, conclusion)
    if _is_constant(signed):
        middle = float(np.median(signed))
        return float(np.sign(middle) * np.inf) if middle != 0 else 0.0
    return float(math.sqrt(len(signed)) * signed.mean() / signed.std(ddof=1))


def snr_e_value(values, snr: float = 0.0, conclusion: str = "A>B", *,
                prior=PRIOR) -> float:
    """The anytime-valid e-value :math:`M_R` against "the SNR is ``snr``" (module docstring).

    Under that SNR and normality, the chance that it ever reaches 1/alpha, at any R, is at most
    alpha (Ville); ``min(1, 1 / e)`` is an anytime-valid p-value. All-zero estimates give 1 (no
    evidence either way).

    Parameters
    ----------
    values : array_like of float, shape (R,)
        The estimates of A - B, one per repetition.
    snr : float, default 0.0
        The SNR of the null hypothesis.
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test: the estimates are read with its sign.
    prior : float or sequence of (float, float), default PRIOR
        The mixing prior on the SNR: one normal's scale, or (weight, scale) pairs of normals
        (module docstring).

    Returns
    -------
    float
        The e-value :math:`M_R`.
    """
    signed = _values(values, conclusion)
    if _is_constant(signed) and not np.any(signed):
        return 1.0
    t = t_statistic(signed)
    return float(np.exp(log_e_value(t, len(signed), snr, prior=prior)))


def _inside(f, t: float, n: int) -> float:
    """A SNR inside the sequence: the point estimate, else the minimizer of log M."""
    if math.isinf(t):
        # constant estimates: log M falls towards 0 as the SNR tested goes to +-inf
        point = math.copysign(1.0, t)
        while f(point) >= 0:
            point *= 2
        return point
    point = t / math.sqrt(n)
    if f(point) < 0:
        return point
    found = optimize.minimize_scalar(f, bracket=(point - 1.0, point + 1.0))
    return float(found.x)


def _end(f, inside: float, direction: int) -> float:
    """The crossing of log M = log(1/alpha) from ``inside`` towards ``direction`` (+1 or -1)."""
    step = max(1.0, abs(inside))
    near = inside
    while f(near + direction * step) < 0:
        near += direction * step
        step *= 2
        if step > 1e12:
            return direction * math.inf
    far = near + direction * step
    low, high = sorted((near, far))
    return float(optimize.brentq(f, low, high, xtol=1e-12, rtol=1e-12, maxiter=500))


def sequence_from_t(t: float, repetitions: int, *, confidence: float = 0.95,
                    prior=PRIOR) -> tuple[float, float]:
    """The confidence sequence's interval at R = ``repetitions`` given the t statistic.

    Parameters
    ----------
    t : float
        The t statistic :math:`T_R`.
    repetitions : int
        R.
    confidence : float, default 0.95
        Confidence level, in (0, 1).
    prior : float or sequence of (float, float), default PRIOR
        The mixing prior on the SNR: one normal's scale, or (weight, scale) pairs of normals
        (module docstring).

    Returns
    -------
    (float, float)
        The interval's low and high ends.
    """
    confidence = _check_confidence(confidence)
    bound = math.log(1 / (1 - confidence))
    f = lambda theta: float(log_e_value(t, repetitions, theta, prior=prior)) - bound
    inside = _inside(f, t, repetitions)
    low = -math.inf if t == -math.inf else _end(f, inside, -1)
    high = math.inf if t == math.inf else _end(f, inside, +1)
    return low, high


def snr_confidence_sequence(values, conclusion: str = "A>B", *, confidence: float = 0.95,
                            prior=PRIOR) -> tuple[float, float]:
    """Time-uniform ``confidence`` interval for the SNR: valid at any stopping time.

    The interval at the current R of the confidence sequence :math:`\\{\\theta_0 :
    M_R(\\theta_0) < 1/\\alpha\\}` (module docstring), for the estimates signed by the
    conclusion under test as in
    :func:`~reprocompare.estimators.reproducibility.snr_exact_interval`. Wider than that fixed-R
    interval, which it replaces whenever the R was not fixed before the first look.

    Parameters
    ----------
    values : array_like of float, shape (R,)
        The estimates of A - B, one per repetition.
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test: the estimates are read with its sign.
    confidence : float, default 0.95
        Confidence level, in (0, 1).
    prior : float or sequence of (float, float), default PRIOR
        The mixing prior on the SNR: one normal's scale, or (weight, scale) pairs of normals
        (module docstring).

    Returns
    -------
    (float, float)
        The interval's low and high ends.

    Examples
    --------
    >>> low, high = snr_confidence_sequence([0.9, 1.1, 1.0, 1.2, 0.8, 1.05, 0.95, 1.0])
    >>> round(low, 3), round(high, 3)
    (2.158, 18.64)
    """
    signed = _values(values, conclusion)
    _check_confidence(confidence)
    if _is_constant(signed) and not np.any(signed):
        return 0.0, 0.0
    return sequence_from_t(t_statistic(signed), len(signed), confidence=confidence,
                           prior=prior)


def snr_interval(values, conclusion: str = "A>B", *, confidence: float = 0.95,
                 time_uniform: bool = True,
                 prior=PRIOR) -> tuple[float, float]:
    """The SNR interval a caller needs: time-uniform (any stopping) or fixed-R (R set in advance).

    ``time_uniform=True``: :func:`snr_confidence_sequence`, what a study that looks after each
    wave of repetitions and may stop must use. ``time_uniform=False``: the exact noncentral t
    interval, valid only when R was fixed before the estimates were seen (and narrower).

    Parameters
    ----------
    values : array_like of float, shape (R,)
        The estimates of A - B, one per repetition.
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test: the estimates are read with its sign.
    confidence : float, default 0.95
        Confidence level, in (0, 1).
    time_uniform : bool, default True
        The confidence sequence (True) or the fixed-R exact interval (False).
    prior : float or sequence of (float, float), default PRIOR
        The mixing prior on the SNR: one normal's scale, or (weight, scale) pairs of normals
        (module docstring).

    Returns
    -------
    (float, float)
        The interval's low and high ends.
    """
    if time_uniform:
        return snr_confidence_sequence(values, conclusion, confidence=confidence,
                                       prior=prior)
    return snr_exact_interval(values, conclusion, confidence=confidence)


# ---- the mean difference: the t confidence sequence ----------------------------------------------

def mean_confidence_sequence(values, *, confidence: float = 0.95,
                             prior=PRIOR) -> tuple[float, float]:
    r"""Time-uniform ``confidence`` interval for the mean of normal estimates (unknown variance).

    Wang & Ramdas (2023, Theorem 4.9 with Corollary 4.10): the e-value of this module at SNR 0,
    applied to :math:`x - m`, tests "the mean is m"; its sequence is
    :math:`\{m : M_R(0; T_R(m)) < 1/\alpha\}` with :math:`T_R(m) = \sqrt R(\bar x - m)/s`.
    :math:`\log M_R(0)` is even and increasing in :math:`|T|`, so the interval is
    :math:`\bar x \pm t^* s/\sqrt R` with :math:`t^*` its one crossing of :math:`\log(1/\alpha)`:
    wider than Student's :math:`t_{1-\alpha/2}` at every R (the price of looking after every
    wave), and like it exact only for normal estimates. In the unit of the values.

    A distribution-free sequence for a mean in [-1, 1] (Waudby-Smith & Ramdas 2023) exists, but
    its width is set by that range: about 15/R F1 fractions at these confidence levels, i.e.
    7 F1 points at R = 200, where differences of F1 are a few tenths of a point; it would
    never decide, so the normal model is stated instead (``docs/statistics.md``).

    Parameters
    ----------
    values : array_like of float, shape (R,)
        The estimates.
    confidence : float, default 0.95
        Confidence level, in (0, 1).
    prior : float or sequence of (float, float), default PRIOR
        The mixing prior on the SNR: one normal's scale, or (weight, scale) pairs of normals
        (module docstring).

    Returns
    -------
    (float, float)
        The interval's ends, in the unit of the values; (-inf, inf) when no t reaches 1/alpha.

    Examples
    --------
    >>> low, high = mean_confidence_sequence([0.9, 1.1, 1.0, 1.2, 0.8])
    >>> round(low, 3), round(high, 3)
    (0.621, 1.379)
    >>> mean_confidence_sequence([0.9, 1.1])  # R = 2: no T reaches 1/alpha
    (-inf, inf)
    """
    confidence = _check_confidence(confidence)
    x = np.asarray(values, dtype=np.float64)
    if x.ndim != 1 or x.size < 2:
        raise TooFewRepetitions(f"need at least 2 repetitions, got {x.size}")
    r = x.size
    centre, sd = float(x.mean()), float(x.std(ddof=1))
    if sd <= 0:
        return centre, centre
    bound = math.log(1 / (1 - confidence))
    f = lambda t: float(log_e_value(t, r, 0.0, prior=prior)) - bound
    high = 1.0
    while f(high) < 0:
        high *= 2
        if high > 1e12:  # at R = 2 the e-value stays below 1/alpha for every T: unbounded
            return -math.inf, math.inf
    crossing = float(optimize.brentq(f, 0.0, high, xtol=1e-12, rtol=1e-12))
    half = crossing * sd / math.sqrt(r)
    return centre - half, centre + half


# ---- Eq. 1's share: a distribution-free sequence --------------------------------------------------

def _log_share_e_value(successes, trials, share):
    """log of the Beta(1, 1) mixture of binomial likelihood ratios against "P(x > 0) = share"."""
    s = np.asarray(successes, dtype=np.float64)
    n = np.asarray(trials, dtype=np.float64)
    p = np.asarray(share, dtype=np.float64)
    failures = n - s
    with np.errstate(divide="ignore", invalid="ignore"):
        null = np.where(s > 0, s * np.log(p), 0.0) + np.where(failures > 0,
                                                             failures * np.log1p(-p), 0.0)
    return special.betaln(1 + s, 1 + failures) - null


def share_confidence_sequence(successes: int, trials: int, *,
                              confidence: float = 0.95) -> tuple[float, float]:
    r"""Time-uniform ``confidence`` interval for P(estimate > 0), Eq. 1's reproducibility itself.

    The estimates' signs are i.i.d. Bernoulli draws whatever the estimates' distribution, so
    this holds without the normal model: Robbins' (1970) mixture of the binomial likelihood
    ratios over a uniform prior on the alternative share, :math:`M_n(p) = B(1 + S, 1 + n - S)
    / (p^S (1 - p)^{n - S})`, is a nonnegative martingale with mean 1 under :math:`P(x > 0) =
    p`, and by Ville's inequality :math:`\{p : M_n(p) < 1/\alpha\}` covers at every n at once
    (Howard et al. 2021). :math:`\log M_n` is convex in p, so the set is an interval around
    :math:`S/n`; its ends are roots. It needs more repetitions than the normal model's interval
    (signs carry less than values): with every estimate positive its lower end passes 0.8 at
    n = 29.

    Parameters
    ----------
    successes : int
        Repetitions with an estimate > 0.
    trials : int
        All repetitions.
    confidence : float, default 0.95
        Confidence level, in (0, 1).

    Returns
    -------
    (float, float)
        The interval's low and high ends.

    Examples
    --------
    >>> low, high = share_confidence_sequence(29, 29)
    >>> round(low, 3), high
    (0.802, 1.0)
    """
    confidence = _check_confidence(confidence)
    s, n = int(successes), int(trials)
    if n < 1 or not 0 <= s <= n:
        raise ValueError(f"need 0 <= successes <= trials and trials >= 1, got {s} of {n}")
    bound = math.log(1 / (1 - confidence))
    f = lambda p: float(_log_share_e_value(s, n, p)) - bound
    share = s / n
    # the ends: 0 (1) when no estimate is negative (positive) would be needed to exclude it
    low = 0.0 if s == 0 or f(1e-300) < 0 else float(
        optimize.brentq(f, 1e-300, share, xtol=1e-14, rtol=1e-12))
    high = 1.0 if s == n or f(1 - 1e-16) < 0 else float(
        optimize.brentq(f, share, 1 - 1e-16, xtol=1e-14, rtol=1e-12))
    return low, high


# ---- looks ---------------------------------------------------------------------------------------

def running_intersection(intervals) -> tuple[float, float]:
    """The intersection of a confidence sequence's intervals over the looks taken.

    Every interval of a confidence sequence covers at once, so their intersection does too
    (Howard et al. 2021, section 2): a verdict decided at one look stays decided. An empty
    intersection (low > high) can happen only when the sequence missed, which its model makes
    unlikely (at most 1 - confidence): callers treat it as evidence against that model.

    Parameters
    ----------
    intervals : iterable of (float, float)
        The sequence's interval at each look, in order.

    Returns
    -------
    (float, float)
        The intersection's ends (low > high when it is empty).
    """
    intervals = list(intervals)
    if not intervals:
        raise ValueError("no intervals to intersect")
    return (max(low for low, _ in intervals), min(high for _, high in intervals))
