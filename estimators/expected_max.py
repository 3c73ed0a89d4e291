"""Expected validation performance against tuning budget ("Show your work", and its fix).

Given the validation scores :math:`v_1, \\dots, v_N` of :math:`N` random-search trials of one
model, the curve :math:`n \\mapsto E[\\max(V_1, \\dots, V_n)]`, :math:`n = 1, \\dots, N`, tells how
good the best-of-n configuration is expected to be, so two models can be compared at equal budget
(Dodge et al. 2019, seeds 000/001). Two estimators of it:

* :func:`expected_max_meanmax`: Dodge et al.'s Eq. 8, the plug-in estimate under the empirical
  CDF, i.e. the max of n draws **with** replacement from the observed scores;
* :func:`expected_max_unbiased`: Tang et al.'s U-statistic (seed 002), the max of n draws
  **without** replacement, which is unbiased; MeanMax is biased downwards, most at n near N.

:func:`budget_to_reach` and :func:`crossings` read the curves ("which model is better depends on
the budget"). Tang et al.'s bias finding is simulated in :mod:`.expected_max_bias`, and a score
file for the command line is read by :mod:`.trial_scores`.
"""
from __future__ import annotations

import math
from typing import Callable, NamedTuple

import numpy as np

__all__ = [
    "ExpectedMax",
    "expected_max",
    "expected_max_meanmax",
    "expected_max_unbiased",
    "meanmax_weights",
    "unbiased_weights",
    "budget_to_reach",
    "crossings",
    "ESTIMATORS",
]

#: Weight (probability mass) an expected maximum may leave out: the order statistics whose
#: weights sum to at most this are never multiplied in. At 1e-18 of a total of 1 the sum of
#: the left-out terms is below the rounding of the result itself (about 1e-16 of it).
_LEFT_OUT = 1e-18
#: Weights computed at a time: 2^20 doubles = 8 MB, whatever N.
_BLOCK_ELEMENTS = 2**20


class ExpectedMax(NamedTuple):
    """Expected maximum and its standard deviation for budgets n = 1..N (index n - 1)."""

    expected: np.ndarray
    std: np.ndarray


# --------------------------------------------------------------------------------------------
# weights: E_hat[max of n] = sum_i w[n, i] * v_(i) over the ascending order statistics


def meanmax_weights(n_total: int, budgets: np.ndarray, first: int = 1) -> np.ndarray:
    r"""MeanMax's weights: the chance that :math:`v_{(i)}` is the max of n draws with replacement.

    :math:`w_{n,i} = (i/N)^n - ((i-1)/N)^n` (Dodge et al. 2019, Eq. 8), so that
    :math:`\hat E[\max \text{ of } n] = \sum_i w_{n,i}\, v_{(i)}` over the ascending order
    statistics.

    Parameters
    ----------
    n_total : int
        N, the number of scores.
    budgets : array_like of int, shape (n_budgets,)
        The budgets n, each in 1..N.
    first : int, default 1
        The first order statistic (1-based) to weigh; the lower ones are left out.

    Returns
    -------
    numpy.ndarray, shape (n_budgets, N - first + 1)
        ``w[k, j]`` weighs :math:`v_{(\text{first} + j)}` at budget ``budgets[k]``.
    """
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
    # local: the checklist job imports this module (through search.budget) and computes no curve
    # when the study has no search; scipy.special is 0.35 CPU s of a job's start (bench_job_cpu.py)
    from scipy import special

    return special.gammaln(np.arange(n_total + 1, dtype=float) + 1.0)  # log k! = gammaln(k + 1)


def unbiased_weights(n_total: int, budgets: np.ndarray, first: int = 1) -> np.ndarray:
    r"""The U-statistic's weights: the probability that :math:`v_{(i)}` is the max of an n-subset.

    :math:`w_{n,i} = \binom{i-1}{n-1} / \binom{N}{n}` for :math:`i \ge n`, else 0 (Tang et al.
    2020, section 3.1). The binomial coefficients overflow a double beyond N ~ 1,030, so they are
    built from a table of log-factorials and exponentiated only as ratios.

    Parameters
    ----------
    n_total : int
        N, the number of scores.
    budgets : array_like of int, shape (n_budgets,)
        The budgets n, each in 1..N.
    first : int, default 1
        The first order statistic (1-based) to weigh; the lower ones are left out, and each row
        is renormalized to sum to 1.

    Returns
    -------
    numpy.ndarray, shape (n_budgets, N - first + 1)
        ``w[k, j]`` weighs :math:`v_{(\text{first} + j)}` at budget ``budgets[k]``.
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
    return _curve(scores, meanmax_weights, _meanmax_left_out)


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
    return _curve(scores, unbiased_weights, _unbiased_left_out)


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
