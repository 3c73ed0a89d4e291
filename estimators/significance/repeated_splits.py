"""Tests on paired scores from repeated splits: Wilcoxon, the m x 2 CV t and F, blocked 3 x 2 t,
and the corrected resampled t of repeated hold-outs.

Each split (or fold) gives one score per system, and the tests differ in what they assume of how
the per-split differences are correlated: none (Wilcoxon, seed 003 after Demšar 2006), the
independence of the m repetitions of 2-fold CV (Dietterich 1998, Alpaydin 1999), the blocked
design of 3 x 2 CV (Wang et al. 2014) or the overlap of the training sets of J hold-outs (Nadeau
& Bengio 2003).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from reprocompare.estimators.significance._common import (TestResult, check_alternative,
                                                          same_length)

# SciPy's statistics are imported where a test runs: the report jobs import this package for
# holm_bonferroni and corpus_f1, and scipy.stats costs every fresh job process 0.7 CPU s
# (benchmarks/bench_job_cpu.py)

__all__ = ["FTestResult", "wilcoxon", "paired_t_mx2", "combined_f_mx2", "blocked_3x2_t",
           "corrected_resampled_t", "WILCOXON_EXACT_UP_TO"]


#: Up to this many non-zero differences without ties, the Wilcoxon test uses the exact null
#: distribution of W+; above it, or with tied |differences|, the normal approximation with the
#: tie-corrected variance and a continuity correction (the same limit as scipy's 'auto').
WILCOXON_EXACT_UP_TO = 50


#: Relative tolerance below which per-split differences count as equal (zero variance) in the
#: t and F tests: scores are typically rounded to far fewer digits than this.
_EQUAL = 1e-12


class FTestResult(NamedTuple):
    """The combined F statistic, its p-value, and the mean difference A - B that gives direction.

    F is a sum of squares: F(A, B) = F(B, A), so a small p-value says that A and B differ, not
    which is better; ``direction`` reads that from the sign of ``mean_difference``.
    """

    statistic: float
    p_value: float
    mean_difference: float

    @property
    def direction(self) -> str:
        """'A>B', 'B>A' or 'A=B' by the sign of the mean of the 2m differences A - B."""
        return "A>B" if self.mean_difference > 0 else "B>A" if self.mean_difference < 0 else "A=B"



def _t_p_value(t: float, df: int, alternative: str) -> float:
    from scipy import stats  # local: see the module's imports

    if alternative == "greater":
        return float(stats.t.sf(t, df))
    if alternative == "less":
        return float(stats.t.cdf(t, df))
    return float(2.0 * stats.t.sf(abs(t), df))



def _as_float_vector(x, name: str) -> np.ndarray:
    arr = np.asarray(x, dtype=float)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty: there are no scores to compare")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return arr



def _mx2_differences(scores_a, scores_b) -> tuple[np.ndarray, float]:
    """Fold-wise differences p_i^(j) = A - B as an (m, 2) array, and the scores' scale."""
    a = np.asarray(scores_a, dtype=float)
    b = np.asarray(scores_b, dtype=float)
    same_length(a, b, "scores_a", "scores_b")
    if a.ndim == 1:
        if a.size == 0 or a.size % 2:
            raise ValueError(f"flat m x 2 scores need an even, non-zero length; got {a.size}")
        # Fold order rep1-fold1, rep1-fold2, rep2-fold1, ...: row-major reshape keeps it.
        a, b = a.reshape(-1, 2), b.reshape(-1, 2)
    if a.ndim != 2 or a.shape[1] != 2 or a.shape[0] < 1:
        raise ValueError(f"m x 2 scores must have shape (m, 2) or (2m,); got {a.shape}")
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        raise ValueError("scores contain NaN or infinite values")
    return a - b, float(max(1.0, np.abs(a).max(), np.abs(b).max()))


def _fold_variances(p: np.ndarray, scale: float) -> np.ndarray:
    """s_i^2 = (p_i^(1) - pbar_i)^2 + (p_i^(2) - pbar_i)^2 for every repetition i.

    A sum of squares, not a mean: Dietterich (1998, section 3.5) and Alpaydin (1999) use this
    unnormalized form, and their degrees of freedom are set accordingly.
    """
    pbar = p.mean(axis=1, keepdims=True)
    s2 = ((p - pbar) ** 2).sum(axis=1)
    # "Equal" differences such as 0.9 - 0.8 and 0.8 - 0.7 differ by rounding (~1e-17), which would
    # give an arbitrary, astronomically large statistic; differences equal to 12 significant
    # digits of the scores' scale count as equal.
    if np.all(np.abs(p[:, 0] - p[:, 1]) <= _EQUAL * scale):
        raise ValueError("the two folds of every repetition give the same difference A - B; "
                         "the fold variance is zero and the test is undefined")
    return s2



def wilcoxon(scores_a, scores_b, *, alternative: str = "two-sided") -> TestResult:
    r"""Wilcoxon signed-rank test over paired per-split scores.

    For differences :math:`d_k = a_k - b_k` (zero differences dropped, Wilcoxon's own
    convention), rank :math:`|d_k|` (ties get their average rank) and sum the ranks of the
    positive and of the negative differences, :math:`W^+` and :math:`W^-`; the two-sided
    statistic is :math:`\min(W^+, W^-)`, the one-sided one :math:`W^+` (Wilcoxon 1945). It uses
    only the signs and the ranks of the differences, so it assumes nothing about how the scores
    are distributed.

    Differences equal to 12 significant digits of the scores' scale are ties (zero when equal
    to 0). The method is pinned, not left to scipy's defaults: with at most ``WILCOXON_EXACT_UP_TO``
    (50) non-zero differences and no tied :math:`|d_k|`, the exact null distribution of
    :math:`W^+`; otherwise the normal approximation with the tie-corrected variance and a
    continuity correction of 1/2 (:func:`scipy.stats.wilcoxon` with ``zero_method="wilcox"``,
    ``method="exact"`` or ``method="approx", correction=True``).

    Advice (seed 003, CS224u "Experimental methods", after Demšar 2006): use it when both
    systems can be run on **the same** 10-20 splits (preferably closer to 20); with fewer, the
    test has little power (with 5 splits the smallest possible two-sided p-value is 0.0625).
    Do not confuse it with the rank-sum (Mann-Whitney) test, which ignores the pairing.

    Parameters
    ----------
    scores_a, scores_b : array_like, shape (n_splits,)
        A's and B's score on each split, in the same split order.
    alternative : {'two-sided', 'greater', 'less'}
        'greater': A scores higher than B.

    Returns
    -------
    TestResult
        ``statistic`` (see above) and the ``p_value``.

    Raises
    ------
    ValueError
        Fewer than 2 pairs, or every difference is zero (the test is undefined: there are no
        ranks to compare).

    References
    ----------
    F. Wilcoxon (1945). Individual comparisons by ranking methods. Biometrics Bulletin
    1(6):80-83.
    J. Demšar (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7:1-30,
    section 3.1.3.
    """
    a = _as_float_vector(scores_a, "scores_a")
    b = _as_float_vector(scores_b, "scores_b")
    same_length(a, b, "scores_a", "scores_b")
    if a.size < 2:
        raise ValueError(f"the Wilcoxon signed-rank test needs at least 2 paired scores, got "
                         f"{a.size} (10-20 splits are advised)")
    d = a - b
    check_alternative(alternative)
    # Scores are rounded numbers: 0.81 - 0.80 and 0.79 - 0.78 are the same difference, a tie,
    # though their floats differ by ~1e-17. Differences are compared to 12 significant digits
    # of the scores' scale (as ``_EQUAL``), so ties and zeros do not depend on rounding.
    scale = float(max(1.0, np.abs(a).max(), np.abs(b).max()))
    d = np.round(d / scale, 12) * scale
    nonzero = d[d != 0]
    if not nonzero.size:
        raise ValueError("all paired differences are zero: A and B scored identically on every "
                         "split, so the Wilcoxon test is undefined")
    from scipy import stats  # local: see the module's imports

    tied = np.unique(np.abs(nonzero)).size < nonzero.size
    if nonzero.size <= WILCOXON_EXACT_UP_TO and not tied:
        res = stats.wilcoxon(nonzero, zero_method="wilcox", alternative=alternative,
                             method="exact")
    else:
        res = stats.wilcoxon(nonzero, zero_method="wilcox", alternative=alternative,
                             method="approx", correction=True)
    return TestResult(float(res.statistic), float(res.pvalue))


def paired_t_mx2(scores_a, scores_b, *, alternative: str = "two-sided") -> TestResult:
    r"""Dietterich's 5x2cv paired t-test, generalized to m repetitions of 2-fold CV.

    With :math:`p_i^{(j)}` = score of A minus score of B on fold :math:`j` of repetition
    :math:`i`, :math:`\bar p_i = (p_i^{(1)} + p_i^{(2)})/2` and
    :math:`s_i^2 = (p_i^{(1)} - \bar p_i)^2 + (p_i^{(2)} - \bar p_i)^2`,

    .. math:: t = \frac{p_1^{(1)}}{\sqrt{\frac{1}{m}\sum_{i=1}^m s_i^2}} \sim t_m

    (Dietterich 1998, section 3.5, the statistic :math:`\tilde t`, there with m = 5). The numerator is the difference on the **first
    fold of the first repetition only**, not the mean of all differences: Dietterich chose it so
    that numerator and denominator are (approximately) independent, which the t distribution
    needs; the mean would be correlated with the :math:`s_i^2`. Because of that, the order of
    the folds matters.

    Parameters
    ----------
    scores_a, scores_b : array_like, shape (m, 2) or (2m,)
        Scores per repetition (rows) and fold (columns); a flat array is read in the order
        rep1-fold1, rep1-fold2, rep2-fold1, ...
    alternative : {'two-sided', 'greater', 'less'}
        'greater': A scores higher than B.

    Returns
    -------
    TestResult
        ``statistic`` t and its ``p_value`` with m degrees of freedom. The test is conservative:
        its measured size at alpha = 0.05 is below 0.05 (docs/statistics.md).

    Raises
    ------
    ValueError
        Wrong shape, non-finite scores, or :math:`\sum_i s_i^2 = 0` (undefined statistic).

    References
    ----------
    T. G. Dietterich (1998). Approximate statistical tests for comparing supervised
    classification learning algorithms. Neural Computation 10(7):1895-1923, section 3.5.
    """
    p, scale = _mx2_differences(scores_a, scores_b)
    m = p.shape[0]
    s2 = _fold_variances(p, scale)
    check_alternative(alternative)
    t = p[0, 0] / math.sqrt(s2.mean())
    return TestResult(float(t), _t_p_value(float(t), m, alternative))


def combined_f_mx2(scores_a, scores_b) -> FTestResult:
    r"""Alpaydin's combined 5x2cv F-test, generalized to m repetitions of 2-fold CV.

    With :math:`p_i^{(j)}` and :math:`s_i^2` as in :func:`paired_t_mx2`,

    .. math:: F = \frac{\sum_{i=1}^m \sum_{j=1}^2 \left(p_i^{(j)}\right)^2}
                       {2 \sum_{i=1}^m s_i^2} \sim F_{2m,\, m}

    (Alpaydin 1999, the statistic :math:`f`, there with m = 5). Unlike the 5x2cv t-test it uses
    all 2m differences, so it does not depend on which fold comes first. The p-value is the upper
    tail of the F distribution (large F: the differences are large relative to their
    within-repetition spread). Alpaydin reports a lower type I error than the t-test; our
    simulations (docs/statistics.md) find both conservative (size 2.7-4.9% at alpha = 0.05 for
    m = 3 and 5), F slightly more so but with more power, so neither is "better calibrated". F is symmetric in A and B: it tests "A and B differ" (two-sided by
    construction), and the direction comes from ``mean_difference``.

    Parameters
    ----------
    scores_a, scores_b : array_like, shape (m, 2) or (2m,)
        As in :func:`paired_t_mx2`.

    Returns
    -------
    FTestResult
        ``statistic`` F, its ``p_value`` from :math:`F_{2m, m}`, and ``mean_difference`` (the
        mean of the 2m differences A - B; ``.direction`` gives 'A>B', 'B>A' or 'A=B').

    References
    ----------
    E. Alpaydin (1999). Combined 5 x 2 cv F test for comparing supervised classification learning
    algorithms. Neural Computation 11(8):1885-1892.
    """
    from scipy import stats  # local: see the module's imports

    p, scale = _mx2_differences(scores_a, scores_b)
    m = p.shape[0]
    s2 = _fold_variances(p, scale)
    f = float((p**2).sum() / (2.0 * s2.sum()))
    return FTestResult(f, float(stats.f.sf(f, 2 * m, m)), float(p.mean()))


def blocked_3x2_t(scores_a, scores_b, *, alternative: str = "two-sided") -> TestResult:
    r"""The blocked 3x2 cross-validated t-test of Wang, Wang, Jia and Li (2014).

    With :math:`p_i^{(j)}` = score of A minus score of B on fold :math:`j` of replication
    :math:`i` of a **blocked** 3 x 2 CV (:math:`i = 1, 2, 3`; :math:`j = 1, 2`), their mean
    :math:`\hat\mu` and their spread about it,

    .. math:: t = \frac{\hat\mu}{\hat\sigma} \sim t_5, \qquad
              \hat\mu = \frac{1}{6}\sum_{i=1}^{3}\sum_{j=1}^{2} p_i^{(j)}, \qquad
              \hat\sigma^2 = \frac{1}{6}\sum_{i=1}^{3}\sum_{j=1}^{2}
                             \left(p_i^{(j)} - \hat\mu\right)^2 .

    Unlike :func:`paired_t_mx2` it uses all six differences, so fold order does not matter,
    and swapping A and B flips the sign of t.

    Why this form (the covariance structure of a blocked 3 x 2 CV). Each 2-fold replication
    splits the data into halves; "blocked" means the three partitions are built from four
    quarters so that every training half of one replication shares exactly n/4 examples with
    every training half of another. Then all six :math:`p_i^{(j)}` have one variance
    :math:`\sigma^2`, one correlation :math:`\rho_1` within a replication (disjoint training
    sets) and one correlation :math:`\rho_2` between replications (training sets overlapping in
    n/4), for every pair, and

    .. math:: \mathrm{Var}(\hat\mu) = \frac{\sigma^2}{6}(1 + \rho_1 + 4\rho_2), \qquad
              E(\hat\sigma^2) = \frac{\sigma^2}{6}(5 - \rho_1 - 4\rho_2).

    The ratio :math:`C^2 = (1 + \rho_1 + 4\rho_2) / (5 - \rho_1 - 4\rho_2)` is the constant
    the authors' later m x 2 BCV tests put in front of :math:`\hat\sigma` (their
    :math:`C_m`, with :math:`2(m-1)\rho_2` for :math:`4\rho_2`); the 2014 test takes
    :math:`C = 1` and 5 = 2m - 1 degrees of freedom. So :math:`\hat\sigma^2` matches
    :math:`\mathrm{Var}(\hat\mu)` on average only when :math:`\rho_1 + 4\rho_2 = 2` (e.g.
    :math:`\rho_1 = \rho_2 = 0.4`); the test is conservative below that and liberal above, so
    "conservative" holds for re-splits of one fixed corpus only, not where each repetition
    draws fresh data and the folds share a corpus effect.
    Re-splits of one corpus, which is what this project's repetitions are, have
    :math:`\rho_1 \approx -0.2, \rho_2 \approx 0` (measured on the project's BCV studies), far
    below it: there its measured size at alpha = 0.05 is 0.0% for normal and 0.6% for skewed
    differences, it almost never rejects a true null; yet at the effect where the m x 2 t has
    52% power it has 81%, since its numerator averages six differences, not one. With a corpus
    effect shared by all folds (:math:`\rho_1 = 0.3, \rho_2 = 0.4`) its size is 5.6% and 7.2%
    (docs/statistics.md).

    Sources, and what could not be confirmed. The paper's text was not reachable. The
    statistic, the variance estimator and the degrees of freedom are those of the authors' own
    research code (a copy of co-author Ruibo Wang's R code,
    github.com/HaojieTing/RegularizedCrossValidation):
    the paper's type I error experiment (R/papers/neco_b3x2_yu_2014/9_table6_typeI_result/
    simulation_1/template.json: test ``t_test_bmx2cv``, ``freedegree`` 5, ``m`` 3, variance
    estimator ``var_est3_mx2cv`` with ``minu_one`` false), that estimator
    (R/varianceEstimator/var_est3_mx2cv.R: :math:`\frac{1}{2m}\sum (p - \hat\mu)^2`), and the
    "2014" constants of the later sequential test (R/signif_Test/mx2cv_seq_significant_test.R,
    ``type14est``: :math:`C_m = 1`, :math:`f_m = 2m - 1`, reject when
    :math:`\hat\mu > \delta + C_m \hat\sigma\, t_{f_m}`; R/signif_Test/mx2bcv_t_test.R computes
    :math:`|\hat\mu - \delta| / \hat\sigma` against :math:`t_{2m-1}`), and the test itself,
    R/signif_Test/t_test_bmx2cv.R (read at commit 15d2a41; an earlier note here said it was
    missing): :math:`|\hat\mu - \mu_0| / \sqrt{\hat\sigma^2}` against ``const`` times the
    :math:`t_{\mathrm{freedegree}}` quantile, p-value :math:`2 F_t(-|t|)`, which is this function
    with const = 1 and 5 degrees of freedom. The two moments above are derived here from the
    covariance structure and agree with the authors' :math:`C_m`. The 2014 test is that of a 3 x 2 BCV; the
    authors' later m x 2 BCV tests estimate :math:`C_m` and the degrees of freedom otherwise and
    are other tests, so this function takes m = 3 only.

    Parameters
    ----------
    scores_a, scores_b : array_like, shape (3, 2) or (6,)
        Scores per replication (rows) and fold (columns) of a blocked 3 x 2 CV; a flat array is
        read in the order rep1-fold1, rep1-fold2, rep2-fold1, ... as in :func:`paired_t_mx2`.
    alternative : {'two-sided', 'greater', 'less'}
        'greater': A scores higher than B.

    Returns
    -------
    TestResult
        ``statistic`` t and its ``p_value`` from Student's t with 5 degrees of freedom.

    Raises
    ------
    ValueError
        A shape other than (3, 2) or (6,) (m must be 3), unpaired or non-finite scores, or six
        equal differences (:math:`\hat\sigma = 0`, the statistic is undefined).

    References
    ----------
    Y. Wang, R. Wang, H. Jia and J. Li (2014). Blocked 3 x 2 cross-validated t-test for
    comparing supervised classification learning algorithms. Neural Computation
    26(1):208-235.
    """
    p, scale = _mx2_differences(scores_a, scores_b)
    if p.shape != (3, 2):
        raise ValueError(f"the blocked 3x2 cross-validated t-test needs m = 3 replications of "
                         f"2-fold CV (6 scores per system); got m = {p.shape[0]}")
    # As in the other tests: differences equal up to rounding are equal, not a tiny spread.
    if np.ptp(p) <= _EQUAL * scale:
        raise ValueError("all six differences A - B are equal: their variance is zero and the "
                         "blocked 3x2 t statistic is undefined")
    check_alternative(alternative)
    mean = float(p.mean())
    t = mean / math.sqrt(float(((p - mean) ** 2).mean()))
    return TestResult(t, _t_p_value(t, 5, alternative))


def corrected_resampled_t(differences, *, n_train: int, n_validation: int,
                          alternative: str = "two-sided") -> TestResult:
    r"""Nadeau & Bengio's corrected resampled t-test for J repeated hold-out splits.

    For :math:`J` differences :math:`d_j` = score(A) - score(B) on random train/validation
    splits of :math:`n_1` training and :math:`n_2` validation items,

    .. math:: t = \frac{\bar d}{\sqrt{\left(\frac{1}{J} + \frac{n_2}{n_1}\right)
                    \hat\sigma^2}} \sim t_{J-1},
              \qquad \hat\sigma^2 = \frac{1}{J-1}\sum_{j=1}^J (d_j - \bar d)^2

    (Nadeau & Bengio 2003, the "corrected resampled t-test"). The naive resampled t-test
    uses :math:`1/J` alone and ignores that the training sets overlap, which correlates the
    :math:`d_j`; its type I error grows with J. The :math:`n_2/n_1` term is a heuristic bound on
    that correlation. Measured (docs/statistics.md): with J = 6 and a correlation of exactly
    :math:`n_2/n_1`, its size at alpha = 0.05 is 5.7% for normal and 9.7% for skewed
    differences, slightly liberal. The same correction applies to repeated (blocked) cross-validation folds.

    Parameters
    ----------
    differences : array_like, shape (J,)
        Score difference A - B on each split, J >= 2.
    n_train, n_validation : int
        Training and validation set sizes of one split (keyword-only, easy to swap otherwise).
    alternative : {'two-sided', 'greater', 'less'}
        'greater': A scores higher than B.

    Returns
    -------
    TestResult
        ``statistic`` t and its ``p_value`` with J - 1 degrees of freedom.

    References
    ----------
    C. Nadeau and Y. Bengio (2003). Inference for the generalization error. Machine Learning
    52(3):239-281.
    R. R. Bouckaert and E. Frank (2004). Evaluating the replicability of significance tests for
    comparing learning algorithms. PAKDD, LNCS 3056:3-12 (its use with repeated CV folds).
    """
    d = _as_float_vector(differences, "differences")
    j = d.size
    if j < 2:
        raise ValueError(f"the corrected resampled t-test needs at least 2 splits, got {j}")
    for name, value in (("n_train", n_train), ("n_validation", n_validation)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    var = d.var(ddof=1)
    # As in the m x 2 tests: differences equal up to rounding are equal, not a tiny variance.
    if np.ptp(d) <= _EQUAL * max(1.0, float(np.abs(d).max())):
        raise ValueError("all differences are equal: their variance is zero and the t statistic "
                         "is undefined")
    check_alternative(alternative)
    t = d.mean() / math.sqrt((1.0 / j + n_validation / n_train) * var)
    return TestResult(float(t), _t_p_value(float(t), j - 1, alternative))
