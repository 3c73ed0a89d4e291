"""McNemar's test: one run, one test set, per-item correctness (a 2 x 2 contingency table).

The test of the CS224u notebook (seed 003) for a single run, where repeated training is too
expensive; it counts only the items on which the two systems disagree.
"""

from __future__ import annotations

import numpy as np

from reprocompare.estimators.significance._common import TestResult, same_length

# SciPy's statistics are imported where a test runs: the report jobs import this package for
# holm_bonferroni and corpus_f1, and scipy.stats costs every fresh job process 0.7 CPU s
# (benchmarks/bench_job_cpu.py)

__all__ = ["mcnemar", "MCNEMAR_EXACT_BELOW"]

#: Below this many discordant pairs McNemar's chi-squared approximation is poor and the exact
#: binomial test is used instead (the usual rule of thumb, e.g. statsmodels' documentation).
MCNEMAR_EXACT_BELOW = 25


def _as_bool_vector(x, name: str) -> np.ndarray:
    arr = np.asarray(x)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty: there are no items to compare")
    if arr.dtype == bool:
        return arr
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be boolean (or 0/1), got dtype {arr.dtype}")
    # 0/1 ints or floats are accepted; anything else (2, 0.5, NaN) is a caller's mistake that
    # would silently count as "correct" under a plain astype(bool).
    if not np.all((arr == 0) | (arr == 1)):
        raise ValueError(f"{name} must contain only booleans or 0/1")
    return arr.astype(bool)



def mcnemar(correct_a, correct_b, *, exact: bool | None = None) -> TestResult:
    r"""McNemar's test on paired per-item correctness of two systems.

    With :math:`b` the number of items A gets right and B wrong and :math:`c` the number A gets
    wrong and B right (the discordant pairs; concordant items carry no information), the null
    hypothesis is that both systems have the same error rate, :math:`b = c`. The chi-squared
    form with continuity correction is

    .. math:: \chi^2 = \frac{(|b - c| - 1)^2}{b + c} \sim \chi^2_1,

    as given by Dietterich (1998), section 3.1, and quoted in the CS224u notebook (seed 003) with
    :math:`n_{01}, n_{10}` for :math:`c, b`. With few discordant pairs the approximation is poor, and the exact
    test is used: under the null, :math:`b \sim \mathrm{Binomial}(b + c, 1/2)`, and the
    two-sided p-value is :math:`\min(1, 2\,P(X \le \min(b, c)))` (McNemar 1947).

    Parameters
    ----------
    correct_a, correct_b : array_like of bool, shape (n_items,)
        Whether A (resp. B) is right on each item: token or sentence level, same item order.
    exact : bool or None, optional
        True: exact binomial test; False: chi-squared with continuity correction; None
        (default): exact when :math:`b + c <` ``MCNEMAR_EXACT_BELOW`` (25). Anything else
        (a string such as "yes", a number) is a ValueError rather than read as truthy.

    Returns
    -------
    TestResult
        ``statistic`` is :math:`\min(b, c)` for the exact test (as in statsmodels) or
        :math:`\chi^2` otherwise; ``p_value`` is two-sided. When there are no discordant pairs,
        the result is ``(0.0, 1.0)``: the systems never disagree, so there is no evidence.

    References
    ----------
    Q. McNemar (1947). Note on the sampling error of the difference between correlated
    proportions or percentages. Psychometrika 12(2):153-157.
    T. G. Dietterich (1998). Approximate statistical tests for comparing supervised
    classification learning algorithms. Neural Computation 10(7):1895-1923, section 3.1.
    """
    if exact is not None and not isinstance(exact, (bool, np.bool_)):
        raise ValueError(f"exact must be True, False or None, got {exact!r}")
    a = _as_bool_vector(correct_a, "correct_a")
    b_ = _as_bool_vector(correct_b, "correct_b")
    same_length(a, b_, "correct_a", "correct_b")
    b = int(np.count_nonzero(a & ~b_))
    c = int(np.count_nonzero(~a & b_))
    n = b + c
    if exact is None:
        exact = n < MCNEMAR_EXACT_BELOW
    if n == 0:
        # (|0 - 0| - 1)^2 / 0 is undefined; with no disagreements there is nothing to test.
        return TestResult(0.0, 1.0)
    from scipy import stats  # local: see the module's imports

    if exact:
        k = min(b, c)
        # The binomial(n, 1/2) is symmetric, so doubling one tail is the two-sided p-value;
        # it exceeds 1 only when b == c, where the answer is exactly 1.
        p = min(1.0, 2.0 * float(stats.binom.cdf(k, n, 0.5)))
        return TestResult(float(k), p)
    chi2 = (abs(b - c) - 1) ** 2 / n
    return TestResult(float(chi2), float(stats.chi2.sf(chi2, 1)))

