"""Expected validation performance against tuning budget ("Show your work", and its fix).

Given the validation scores :math:`v_1, \\dots, v_N` of :math:`N` random-search trials of one
model, the curve :math:`n \\mapsto E[\\max(V_1, \\dots, V_n)]`, :math:`n = 1, \\dots, N`, tells how
good the best-of-n configuration is expected to be, so two models can be compared at equal budget
(Dodge et al. 2019, seeds 000/001). Two estimators of it:

* :func:`expected_max_meanmax`: Dodge et al.'s Eq. 8, the plug-in estimate under the empirical
  CDF, i.e. the max of n draws **with** replacement from the observed scores;
* :func:`expected_max_unbiased`: Tang et al.'s U-statistic (seed 002), the max of n draws
  **without** replacement, which is unbiased; MeanMax is biased downwards, most at n near N.

:func:`simulate_bias` reproduces that finding; :func:`budget_to_reach` and :func:`crossings` read
the curves ("which model is better depends on the budget"); :func:`read_scores` reads a score
file for the command line.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Callable, NamedTuple

import numpy as np
import pandas as pd
from scipy import integrate, special, stats

from reprocompare.base.errors import UserError

__all__ = [
    "ExpectedMax",
    "expected_max",
    "expected_max_meanmax",
    "expected_max_unbiased",
    "true_expected_max",
    "budget_to_reach",
    "crossings",
    "simulate_bias",
    "read_scores",
    "ESTIMATORS",
]

#: Weight (probability mass) an expected maximum may leave out: the order statistics whose
#: weights sum to at most this are never multiplied in. At 1e-18 of a total of 1 the sum of
#: the left-out terms is below the rounding of the result itself (about 1e-16 of it).
_LEFT_OUT = 1e-18
#: Weights computed at a time: 2^20 doubles = 8 MB, whatever N.
_BLOCK_ELEMENTS = 2**20
#: Scores a simulation of the bias may hold (searches x trials, 8 bytes each: 400 MB).
MAX_SIMULATED_SCORES = 50_000_000


class ExpectedMax(NamedTuple):
    """Expected maximum and its standard deviation for budgets n = 1..N (index n - 1)."""

    expected: np.ndarray
    std: np.ndarray


# --------------------------------------------------------------------------------------------
# weights: E_hat[max of n] = sum_i w[n, i] * v_(i) over the ascending order statistics


def _meanmax_weights(n_total: int, budgets: np.ndarray, first: int = 1) -> np.ndarray:
    """w[n, i] = (i/N)^n - ((i-1)/N)^n, i = first..N: P(max of n draws with replacement = v_(i))."""
    # ECDF powers (i/N)^n for i = first-1..N; the weights are differences of neighbouring
    # columns. exp(n log q) rather than q ** n: a float power is several times slower
    # (relative error ~ n * eps, negligible).
    with np.errstate(divide="ignore"):
        log_q = np.log(np.arange(first - 1, n_total + 1, dtype=float) / n_total)  # log 0 -> 0**n
    n = np.asarray(budgets, dtype=float)[:, None]
    return np.diff(np.exp(n * log_q), axis=1)


def _meanmax_left_out(n_total: int, below: np.ndarray, budgets: np.ndarray) -> np.ndarray:
    """log of the weight of v_(1)..v_(below) at each budget: (below/N)^n, telescoped."""
    with np.errstate(divide="ignore"):
        return budgets * np.log(below / n_total)


def _log_factorials(n_total: int) -> np.ndarray:
    return special.gammaln(np.arange(n_total + 1, dtype=float) + 1.0)  # log k! = gammaln(k + 1)


def _unbiased_weights(n_total: int, budgets: np.ndarray, first: int = 1) -> np.ndarray:
    """w[n, i] = C(i-1, n-1) / C(N, n) for i >= n, else 0, i = first..N: P(max of an n-subset
    = v_(i)).

    The binomial coefficients overflow a double beyond N ~ 1,030, so they are built from a table
    of log-factorials and exponentiated only as ratios.
    """
    log_fact = _log_factorials(n_total)
    i = np.arange(first, n_total + 1)
    n = np.asarray(budgets, dtype=np.int64)[:, None]
    k = i - n  # (i-1) - (n-1): the lower index of C(i-1, n-1) is n - 1, the "rest" is i - n
    valid = k >= 0
    kk = np.where(valid, k, 0)
    log_num = log_fact[i - 1] - log_fact[n - 1] - log_fact[kk]
    log_den = log_fact[n_total] - log_fact[n] - log_fact[n_total - n]
    w = np.where(valid, np.exp(np.where(valid, log_num - log_den, 0.0)), 0.0)
    # By the hockey-stick identity sum_i C(i-1, n-1) = C(N, n) each full row sums to 1 exactly;
    # the log-space rounding (~1e-12 relative for N in the thousands) and the at most _LEFT_OUT
    # below ``first`` are renormalized away, so that a constant sample gives back that constant.
    return w / w.sum(axis=1, keepdims=True)


def _unbiased_left_out(n_total: int, below: np.ndarray, budgets: np.ndarray) -> np.ndarray:
    """log of the weight of v_(1)..v_(below) at each budget: C(below, n) / C(N, n) by the
    hockey-stick identity (0 when below < n)."""
    log_fact = _log_factorials(n_total)
    m = np.maximum(below, budgets)
    value = (log_fact[m] - log_fact[m - budgets]) - (log_fact[n_total] - log_fact[n_total - budgets])
    return np.where(below >= budgets, value, -np.inf)


def _first_needed(n_total: int, left_out, budgets: np.ndarray) -> np.ndarray:
    """Per budget, the first order statistic (1-based) whose weight counts: the lowest ones,
    whose weights sum to at most _LEFT_OUT, are left out. A bisection on all budgets at once
    (the left-out weight grows with how many are left out)."""
    low = np.zeros(budgets.size, dtype=np.int64)  # leaving out none is always allowed
    high = np.full(budgets.size, n_total, dtype=np.int64)  # leaving out all never is
    limit = math.log(_LEFT_OUT)
    while np.any(high - low > 1):
        middle = (low + high) // 2
        ok = left_out(n_total, middle, budgets) <= limit
        low, high = np.where(ok, middle, low), np.where(ok, high, middle)
    return low + 1


def _curve(scores, weights: Callable[..., np.ndarray], left_out) -> ExpectedMax:
    """The curve, in O(N log N) rather than the N x N weights of the sums as written.

    Both sums (Dodge et al. 2019, Eq. 8; Tang et al. 2020, section 3.1) weigh the order
    statistic :math:`v_{(i)}` by the probability that it is the max of n draws, and that mass
    sits on the top ones: what the lowest m carry together is :math:`(m/N)^n` for MeanMax and
    :math:`\\binom{m}{n}/\\binom{N}{n}` for the U-statistic (the hockey-stick identity), both
    below :math:`(m/N)^n`. Leaving out the lowest ones whose mass is at most ``_LEFT_OUT``
    leaves about :math:`N (1 - e^{-41/n}) \\le 41 N / n` terms at budget n, and the budgets
    together a harmonic sum, :math:`41 N H_N = O(N \\log N)`: 20,000 scores take a fraction of
    a second where the full sums took seconds (benchmarks/RESULTS.md, issue 23). The result is
    the full sum's to rounding (tests/test_expected_max.py checks it against the full weights).
    Budgets go in blocks that share the widest of their windows.
    """
    v = np.sort(_check_scores(scores))
    n_total = v.size
    budgets = np.arange(1, n_total + 1)
    first = _first_needed(n_total, left_out, budgets)
    expected = np.empty(n_total)
    second = np.empty(n_total)
    start = 1
    while start <= n_total:
        width = n_total - int(first[start - 1]) + 1
        # at most as many rows as the block already spans (a row of the block wastes at most
        # half its work), and at most _BLOCK_ELEMENTS weights in all
        rows = max(1, min(start, _BLOCK_ELEMENTS // width, n_total - start + 1))
        block = budgets[start - 1:start - 1 + rows]
        lowest = int(first[start - 1:start - 1 + rows].min())
        w = weights(n_total, block, lowest)
        top = v[lowest - 1:]
        expected[block - 1] = w @ top
        second[block - 1] = w @ (top * top)
        start += rows
    # Var = E[M^2] - E[M]^2 can come out a few ulps below zero when the weight is concentrated
    # on one value (n = N for the unbiased estimator, or a constant sample); that is a zero.
    var = np.clip(second - expected**2, 0.0, None)
    return ExpectedMax(expected, np.sqrt(var))


def _check_scores(scores) -> np.ndarray:
    v = np.asarray(scores, dtype=float)
    if v.ndim != 1:
        raise ValueError(f"scores must be one-dimensional, got shape {v.shape}")
    if v.size == 0:
        raise ValueError("scores is empty: at least one trial is needed")
    if np.any(np.isnan(v)):
        raise ValueError("scores contain NaN (a failed trial?); drop or score it explicitly")
    if np.any(np.isinf(v)):
        raise ValueError("scores contain infinite values")
    return v


# --------------------------------------------------------------------------------------------
# estimators


def expected_max_meanmax(scores) -> ExpectedMax:
    r"""Dodge et al.'s expected maximum validation score ("MeanMax"), n = 1..N.

    Eq. 8 of Dodge et al. (2019) replaces the CDF in :math:`E[V_n^*]` by the empirical CDF
    :math:`\hat F` of the :math:`N` observed scores:

    .. math:: \hat E[V_n^* \mid n] = \sum_v v\left(\hat P(V \le v)^n - \hat P(V < v)^n\right)
              = \sum_{i=1}^N v_{(i)}\left[\left(\tfrac{i}{N}\right)^n
                - \left(\tfrac{i-1}{N}\right)^n\right],

    with :math:`v_{(1)} \le \dots \le v_{(N)}`: the expected max of n draws **with replacement**
    from the sample. The second form handles ties: for a block of equal values at positions
    :math:`l..r` the weights telescope to :math:`(r/N)^n - ((l-1)/N)^n`, which is exactly the
    first form's mass at that value. At n = 1 it is the sample mean; it never exceeds the sample
    max, and it is biased downwards (Tang et al. 2020, Theorem 1; see :func:`simulate_bias`).

    The standard deviation is the plug-in one of section 3.3,
    :math:`\sqrt{\hat E[(V_n^*)^2] - \hat E[V_n^*]^2}` under the same weights.

    Parameters
    ----------
    scores : array_like, shape (N,)
        Validation scores of N hyperparameter trials, in any order; no NaN.

    Returns
    -------
    ExpectedMax
        ``expected`` and ``std``, arrays of length N; entry n - 1 is budget n.

    References
    ----------
    J. Dodge, S. Gururangan, D. Card, R. Schwartz and N. A. Smith (2019). Show your work:
    improved reporting of experimental results. EMNLP-IJCNLP, 2185-2194, Eq. 8 and section 3.3.
    """
    return _curve(scores, _meanmax_weights, _meanmax_left_out)


def expected_max_unbiased(scores) -> ExpectedMax:
    r"""Tang et al.'s unbiased estimator of the expected maximum, n = 1..N.

    The U-statistic with kernel :math:`\max(x_1, \dots, x_n)`: the average of the maximum over
    all :math:`\binom{N}{n}` subsets of size n of the sample, i.e. the expected max of n draws
    **without** replacement. The subsets whose max is :math:`v_{(i)}` are those containing
    position i and n - 1 of the i - 1 positions below it, so

    .. math:: \hat U_n = \sum_{i=n}^{N} v_{(i)} \frac{\binom{i-1}{n-1}}{\binom{N}{n}}

    (Tang et al. 2020, section 3.1, the proof of Theorem 1), with ascending
    :math:`v_{(1)} \le \dots \le v_{(N)}` (ties need no special care: tied values are
    interchangeable in the subset average). It is unbiased for :math:`E[\max(V_1..V_n)]` because
    each size-n subset of an i.i.d. sample is an i.i.d. sample. :math:`\hat U_1` is the mean and
    :math:`\hat U_N` the sample max. The weights are computed in log space (``gammaln``) so that
    N in the thousands does not overflow.

    The standard deviation is the analogous plug-in,
    :math:`\sqrt{\hat U_n[\max^2] - \hat U_n^2}` with the same weights: the spread of the best of
    n trials drawn from the observed ones.

    Parameters
    ----------
    scores : array_like, shape (N,)
        Validation scores of N hyperparameter trials, in any order; no NaN.

    Returns
    -------
    ExpectedMax
        ``expected`` and ``std``, arrays of length N; entry n - 1 is budget n.

    References
    ----------
    R. Tang, J. Lee, J. Xin, X. Liu, Y. Yu and J. Lin (2020). Showing your work doesn't always
    work. Proceedings of ACL 2020, section 3.1 (Theorem 1 and its proof).
    """
    return _curve(scores, _unbiased_weights, _unbiased_left_out)


#: Estimator name -> function, for :func:`expected_max` and the command line.
ESTIMATORS: dict[str, Callable[[np.ndarray], ExpectedMax]] = {
    "unbiased": expected_max_unbiased,
    "meanmax": expected_max_meanmax,
}


def expected_max(scores, *, estimator: str = "unbiased") -> ExpectedMax:
    """Expected maximum validation score for budgets n = 1..N.

    Parameters
    ----------
    scores : array_like, shape (N,)
        Validation scores of N trials; non-empty, no NaN.
    estimator : {"unbiased", "meanmax"}, default "unbiased"
        :func:`expected_max_unbiased` (Tang et al. 2020) or :func:`expected_max_meanmax`
        (Dodge et al. 2019, Eq. 8). Unbiased is the default because MeanMax systematically
        understates what a larger budget buys.

    Returns
    -------
    ExpectedMax
        ``expected`` and ``std`` per budget.
    """
    try:
        fn = ESTIMATORS[estimator]
    except (KeyError, TypeError):
        raise ValueError(f"unknown estimator {estimator!r}; choose one of "
                         f"{', '.join(map(repr, ESTIMATORS))}") from None
    return fn(scores)


# --------------------------------------------------------------------------------------------
# reading the curves


def _check_curve(curve, name: str) -> np.ndarray:
    c = np.asarray(curve, dtype=float)
    if c.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {c.shape}")
    if np.any(np.isnan(c)):
        raise ValueError(f"{name} contains NaN")
    return c


def budget_to_reach(expected, target: float) -> int | None:
    """The smallest budget n (1-based) whose expected maximum reaches ``target``.

    Dodge et al. (2019, Figure 1 and section 4) read "the expected budget required to reach" a
    reported score off the curve this way.

    Parameters
    ----------
    expected : array_like, shape (N,)
        An expected-maximum curve, entry n - 1 for budget n.
    target : float
        The score to reach (``expected[n - 1] >= target``).

    Returns
    -------
    int or None
        n, or None if the curve never reaches ``target`` within the N observed trials (no
        extrapolation beyond N: the curve says nothing about it).
    """
    c = _check_curve(expected, "expected")
    if math.isnan(target):
        raise ValueError("target is NaN")
    hits = np.flatnonzero(c >= target)
    return int(hits[0]) + 1 if hits.size else None


def crossings(curve_a, curve_b) -> list[int]:
    """Budgets n at which the better of two expected-maximum curves changes.

    With :math:`s_n = \\mathrm{sign}(a_n - b_n)`, n is reported when :math:`s_n \\ne 0` and it
    differs from the last non-zero sign before it: n is the first budget at which the new leader
    leads. Exact ties (:math:`s_n = 0`) are skipped, so touching without crossing is not a
    crossing. An empty list means one model is never behind the other (Dodge et al. 2019,
    Figure 1: logistic regression beats the CNN up to budget 10, then the CNN leads).

    Parameters
    ----------
    curve_a, curve_b : array_like, shape (N,)
        Expected-maximum curves of A and B over the same budgets 1..N.

    Returns
    -------
    list of int
        1-based budgets, ascending.
    """
    a = _check_curve(curve_a, "curve_a")
    b = _check_curve(curve_b, "curve_b")
    if a.shape != b.shape:
        raise ValueError(f"curves must cover the same budgets; got lengths {a.size} and {b.size}")
    signs = np.sign(a - b)
    nz = np.flatnonzero(signs)
    changes = nz[1:][signs[nz[1:]] != signs[nz[:-1]]]
    return [int(i) + 1 for i in changes]


# --------------------------------------------------------------------------------------------
# Tang et al.'s bias finding, by simulation

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
    for name, weights in (("meanmax", _meanmax_weights), ("unbiased", _unbiased_weights)):
        estimates = samples @ weights(n_trials, ns).T  # (n_simulations, len(ns))
        bias = estimates.mean(axis=0) - truth
        se = estimates.std(axis=0, ddof=1) / math.sqrt(n_simulations)
        rows += [{"estimator": name, "n": int(n), "bias": float(b), "mc_se": float(s)}
                 for n, b, s in zip(ns, bias, se)]
    return pd.DataFrame(rows, columns=["estimator", "n", "bias", "mc_se"])


# --------------------------------------------------------------------------------------------
# input file


def read_scores(path) -> tuple[np.ndarray, np.ndarray | None]:
    """Read trial scores (and optionally runtimes) from a text file, for the command line.

    Format: one trial per line, ``score`` or ``score runtime_seconds`` separated by whitespace;
    every trial line has the same number of columns. Blank lines and ``#`` comments (whole-line
    or trailing) are ignored.

    Parameters
    ----------
    path : str or os.PathLike
        The file.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray or None)
        The scores in file order, and the runtimes when the file has a second column.

    Raises
    ------
    reprocompare.base.errors.UserError
        (a ``ValueError``) with the message ``"<path>:<line>: ..."`` for a value that is not a
        number, a NaN or infinite value, a negative runtime, or a wrong column count;
        ``"<path>: ..."`` for an unreadable file, one that is not a regular file (a FIFO
        would block the read), or one without any scores.
    """
    p = Path(path)
    if p.exists() and not p.is_file():  # reading a FIFO or a terminal would wait forever
        raise UserError("not a regular file (a directory, FIFO, socket or device): scores are "
                        "read from a file", path=str(path))
    try:
        text = p.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise UserError(f"cannot read the file: {exc.strerror or exc}", path=str(path)) from None
    except UnicodeDecodeError:
        raise UserError("not a UTF-8 text file", path=str(path)) from None
    scores: list[float] = []
    runtimes: list[float] = []
    n_columns: int | None = None
    for lineno, raw in enumerate(text.splitlines(), start=1):
        fields = raw.split("#", 1)[0].split()
        if not fields:
            continue
        if len(fields) not in (1, 2):
            raise UserError(f"expected 1 column (score) or 2 (score runtime), got "
                            f"{len(fields)}: {raw.strip()!r}", path=str(path), line=lineno)
        if n_columns is None:
            n_columns = len(fields)
        elif len(fields) != n_columns:
            raise UserError(f"expected {n_columns} column(s) like the first trial line, got "
                            f"{len(fields)}: {raw.strip()!r}", path=str(path), line=lineno)
        values = []
        for what, field in zip(("score", "runtime"), fields):
            try:
                value = float(field)
            except ValueError:
                raise UserError(f"{what} is not a number: {field!r}", path=str(path),
                                line=lineno) from None
            if not math.isfinite(value):
                raise UserError(f"{what} must be a finite number, got {field!r}",
                                path=str(path), line=lineno)
            values.append(value)
        if len(values) == 2 and values[1] < 0:
            raise UserError(f"runtime must be non-negative seconds, got {fields[1]!r}",
                            path=str(path), line=lineno)
        scores.append(values[0])
        if len(values) == 2:
            runtimes.append(values[1])
    if not scores:
        raise UserError("no scores found (only blank lines or comments)", path=str(path))
    return np.array(scores), (np.array(runtimes) if n_columns == 2 else None)
