"""Significance tests for "model A beats model B", one function per test.

Every test takes plain numpy arrays (A's results first, B's second) and returns a small
``NamedTuple`` whose first two fields are ``statistic`` and ``p_value``, in the style of mlxtend's
``evaluate`` module, so ``stat, p = test(a, b)`` works for the two-field results.

Which test fits which design:

* one run, one test set, per-item correctness (token or sentence): :func:`mcnemar`;
* one run, one test set, a corpus-level metric such as chunk F1 that does not decompose over
  sentences: :func:`paired_bootstrap` or :func:`approximate_randomization` over sentences;
* 10-20 paired scores from repeated splits: :func:`wilcoxon` (seed 003, after Demšar 2006);
* m x 2 cross-validation: :func:`paired_t_mx2` (Dietterich 1998) or :func:`combined_f_mx2`
  (Alpaydin 1999); both are conservative (measured size 2.7-4.9% at alpha = 0.05, see
  docs/statistics.md), and F says nothing of direction (its ``mean_difference`` does);
* blocked 3 x 2 cross-validation: :func:`blocked_3x2_t` (Wang et al. 2014), whose size depends
  on how the six fold differences are correlated (far below alpha on re-splits of one corpus);
* J repeated random hold-outs, whose training sets overlap: :func:`corrected_resampled_t`
  (Nadeau & Bengio 2003);
* several comparisons at once: :func:`holm_bonferroni` on their p-values.

Conventions shared by every test: ``alternative`` is 'two-sided' (default), 'greater' (A better
than B) or 'less', as in scipy.stats, wherever a direction exists (McNemar and the combined F are
two-sided by construction); resampling p-values count the observed value (add-one,
p >= 1/(K+1)) and count ties as extreme, so two identical systems always get p = 1; empty input is
a ValueError everywhere.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from scipy import stats

from reprocompare.corpora.scoring import f1_from_counts

__all__ = [
    "TestResult",
    "FTestResult",
    "BootstrapResult",
    "HolmResult",
    "mcnemar",
    "wilcoxon",
    "paired_t_mx2",
    "combined_f_mx2",
    "blocked_3x2_t",
    "corrected_resampled_t",
    "paired_bootstrap",
    "approximate_randomization",
    "holm_bonferroni",
    "corpus_f1",
]

#: Below this many discordant pairs McNemar's chi-squared approximation is poor and the exact
#: binomial test is used instead (the usual rule of thumb, e.g. statsmodels' documentation).
MCNEMAR_EXACT_BELOW = 25

#: Up to this many non-zero differences without ties, the Wilcoxon test uses the exact null
#: distribution of W+; above it, or with tied |differences|, the normal approximation with the
#: tie-corrected variance and a continuity correction (the same limit as scipy's 'auto').
WILCOXON_EXACT_UP_TO = 50

ALTERNATIVES = ("two-sided", "greater", "less")

#: Two F1 differences closer than this are treated as equal in the resampling tests. F1 lies in
#: [0, 1], so a difference of two F1s computed from different sums carries an absolute rounding
#: error of ~1e-16; without a tolerance, mathematically tied resamples (common: a resample that
#: repeats the one sentence where A and B differ twice doubles the difference exactly) would be
#: counted or not by the accident of rounding.
_TIE = 1e-12

#: Relative tolerance below which per-split differences count as equal (zero variance) in the
#: t and F tests: scores are typically rounded to far fewer digits than this.
_EQUAL = 1e-12

#: Resamples drawn per block in the vectorized resampling tests: a (block, n_sentences) float
#: matrix is 16 MB for 2,000 sentences, small enough for a shared machine, large enough that the
#: Python loop costs nothing.
_BLOCK = 1000


class TestResult(NamedTuple):
    """A test statistic and its p-value."""

    statistic: float
    p_value: float

    # Not a pytest test class, despite the name.
    __test__ = False


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


class BootstrapResult(NamedTuple):
    """Observed F1 difference A - B, its p-value, and the percentile interval of the difference."""

    statistic: float
    p_value: float
    ci_low: float
    ci_high: float


class HolmResult(NamedTuple):
    """Holm-adjusted p-values (input order) and which hypotheses are rejected at ``alpha``."""

    p_adjusted: np.ndarray
    reject: np.ndarray


# --------------------------------------------------------------------------------------------
# input checks


def _check_alternative(alternative: str) -> str:
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative must be one of {', '.join(ALTERNATIVES)}; "
                         f"got {alternative!r}")
    return alternative


def _t_p_value(t: float, df: int, alternative: str) -> float:
    if alternative == "greater":
        return float(stats.t.sf(t, df))
    if alternative == "less":
        return float(stats.t.cdf(t, df))
    return float(2.0 * stats.t.sf(abs(t), df))


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


def _as_float_vector(x, name: str) -> np.ndarray:
    arr = np.asarray(x, dtype=float)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty: there are no scores to compare")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return arr


def _same_length(a: np.ndarray, b: np.ndarray, name_a: str, name_b: str) -> None:
    if a.shape != b.shape:
        raise ValueError(f"{name_a} and {name_b} must be paired (same shape); "
                         f"got {a.shape} and {b.shape}")


def _mx2_differences(scores_a, scores_b) -> tuple[np.ndarray, float]:
    """Fold-wise differences p_i^(j) = A - B as an (m, 2) array, and the scores' scale."""
    a = np.asarray(scores_a, dtype=float)
    b = np.asarray(scores_b, dtype=float)
    _same_length(a, b, "scores_a", "scores_b")
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


def _chunk_counts(counts, name: str) -> np.ndarray:
    arr = np.asarray(counts)
    if arr.ndim != 2 or arr.shape[1] != 3:
        raise ValueError(f"{name} must have shape (n_sentences, 3) with columns "
                         f"(gold, predicted, correct); got {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} has no sentences")
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr)):
            raise ValueError(f"{name} must hold whole chunk counts")
    elif arr.dtype.kind not in "iu":
        raise ValueError(f"{name} must hold integer chunk counts, got dtype {arr.dtype}")
    arr = arr.astype(np.int64)
    if np.any(arr < 0):
        raise ValueError(f"{name} has negative chunk counts")
    gold, pred, correct = arr.T
    bad = np.flatnonzero((correct > gold) | (correct > pred))
    if bad.size:
        raise ValueError(f"{name}: sentence {bad[0]} has more correct chunks than gold or "
                         f"predicted chunks")
    return arr


def _paired_chunk_counts(counts_a, counts_b) -> tuple[np.ndarray, np.ndarray]:
    a = _chunk_counts(counts_a, "counts_a")
    b = _chunk_counts(counts_b, "counts_b")
    _same_length(a, b, "counts_a", "counts_b")
    if not np.array_equal(a[:, 0], b[:, 0]):
        bad = int(np.flatnonzero(a[:, 0] != b[:, 0])[0])
        raise ValueError(f"gold chunk counts differ between A and B at sentence {bad}: both "
                         "systems must be scored against the same gold standard")
    return a, b


def _check_resamples(n: int, name: str) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"{name} must be a positive integer, got {n!r}")
    return int(n)


# --------------------------------------------------------------------------------------------
# one run, per-item correctness


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
    _same_length(a, b_, "correct_a", "correct_b")
    b = int(np.count_nonzero(a & ~b_))
    c = int(np.count_nonzero(~a & b_))
    n = b + c
    if exact is None:
        exact = n < MCNEMAR_EXACT_BELOW
    if n == 0:
        # (|0 - 0| - 1)^2 / 0 is undefined; with no disagreements there is nothing to test.
        return TestResult(0.0, 1.0)
    if exact:
        k = min(b, c)
        # The binomial(n, 1/2) is symmetric, so doubling one tail is the two-sided p-value;
        # it exceeds 1 only when b == c, where the answer is exactly 1.
        p = min(1.0, 2.0 * float(stats.binom.cdf(k, n, 0.5)))
        return TestResult(float(k), p)
    chi2 = (abs(b - c) - 1) ** 2 / n
    return TestResult(float(chi2), float(stats.chi2.sf(chi2, 1)))


# --------------------------------------------------------------------------------------------
# repeated splits


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
    _same_length(a, b, "scores_a", "scores_b")
    if a.size < 2:
        raise ValueError(f"the Wilcoxon signed-rank test needs at least 2 paired scores, got "
                         f"{a.size} (10-20 splits are advised)")
    d = a - b
    _check_alternative(alternative)
    # Scores are rounded numbers: 0.81 - 0.80 and 0.79 - 0.78 are the same difference, a tie,
    # though their floats differ by ~1e-17. Differences are compared to 12 significant digits
    # of the scores' scale (as ``_EQUAL``), so ties and zeros do not depend on rounding.
    scale = float(max(1.0, np.abs(a).max(), np.abs(b).max()))
    d = np.round(d / scale, 12) * scale
    nonzero = d[d != 0]
    if not nonzero.size:
        raise ValueError("all paired differences are zero: A and B scored identically on every "
                         "split, so the Wilcoxon test is undefined")
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
    _check_alternative(alternative)
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
    _check_alternative(alternative)
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
    _check_alternative(alternative)
    t = d.mean() / math.sqrt((1.0 / j + n_validation / n_train) * var)
    return TestResult(float(t), _t_p_value(float(t), j - 1, alternative))


# --------------------------------------------------------------------------------------------
# one run, corpus-level chunk F1: resampling over sentences


def corpus_f1(counts) -> float:
    r"""Corpus-level chunk F1 from per-sentence counts: :math:`2C / (G + P)`, 0 if :math:`G+P=0`.

    :math:`G, P, C` are the gold, predicted and correct chunk counts summed over all sentences
    (micro-averaged F1, as conlleval computes it). Averaging sentence-level F1s instead would
    give short sentences the weight of long ones and is a different, non-standard metric.

    Parameters
    ----------
    counts : array_like of int, shape (n_sentences, 3)
        Columns (gold, predicted, correct).
    """
    return float(f1_from_counts(_chunk_counts(counts, "counts").sum(axis=0)))


def _delta(sums: np.ndarray) -> np.ndarray:
    """F1(A) - F1(B) from summed columns (gold, pred_a, correct_a, pred_b, correct_b)."""
    return f1_from_counts(sums[..., [0, 1, 2]]) - f1_from_counts(sums[..., [0, 3, 4]])


def _resampling_p_value(null: np.ndarray, observed: float, alternative: str) -> float:
    """Add-one p-value: (1 + #{null values at least as extreme}) / (K + 1), ties counted.

    ``null`` holds K draws of the statistic under the null hypothesis. Counting the observed
    value as one more draw keeps p >= 1/(K+1) (Phipson & Smyth 2010: a resampling p-value of 0
    is never valid); counting ties (within ``_TIE``) as extreme makes two identical systems,
    whose every draw ties, get p = 1.
    """
    if alternative == "greater":
        hits = np.count_nonzero(null >= observed - _TIE)
    elif alternative == "less":
        hits = np.count_nonzero(null <= observed + _TIE)
    else:
        hits = np.count_nonzero(np.abs(null) >= abs(observed) - _TIE)
    return float((hits + 1) / (null.size + 1))


def paired_bootstrap(counts_a, counts_b, *, n_resamples: int = 10_000, random_state=None,
                     alternative: str = "two-sided") -> BootstrapResult:
    r"""Paired bootstrap test over sentences for corpus-level chunk F1.

    Let :math:`\delta(x) = F_1^A(x) - F_1^B(x)` on the test set :math:`x`, with corpus-level
    :math:`F_1 = 2C/(G+P)` recomputed from summed counts. Draw :math:`n` sentence indices with
    replacement, **once** per resample, and apply the same indices to A and B (the pairs are
    resampled together: resampling A and B independently destroys the pairing and inflates the
    spread of the difference). Shifting the bootstrap distribution to mean zero gives draws of
    :math:`\delta` under the null, :math:`\delta(x^{(i)}) - \delta(x)` (Berg-Kirkpatrick et
    al. 2012, whose one-sided count is :math:`\delta(x^{(i)}) > 2\delta(x)`). The p-value is
    add-one, with ties counted as extreme (see ``_TIE``):

    .. math:: p = \frac{1 + \#\{i : \delta(x^{(i)}) - \delta(x) \ge \delta(x)\}}{K + 1}

    for ``alternative='greater'`` (H1: A better), :math:`\le \delta(x)` for 'less', and
    :math:`|\delta(x^{(i)}) - \delta(x)| \ge |\delta(x)|` for 'two-sided' (the default, as in
    scipy). So p >= 1/(K+1), and a system against itself gets p = 1, never "significant". Use
    'two-sided' unless the direction was fixed before seeing the data: testing 'greater' and
    then, when B is ahead, 'less' doubles the false-positive rate. (Koehn 2004 introduced
    paired bootstrap resampling for MT.) The 95% percentile interval of
    :math:`\delta(x^{(i)})` is returned too (Efron & Tibshirani 1993, ch. 13).

    The resamples are drawn as multiplicity vectors (how often each sentence is drawn, via
    ``np.bincount``) in blocks, and the counts are summed by a matrix product, so 10,000
    resamples over 2,000 sentences take a fraction of a second.

    Parameters
    ----------
    counts_a, counts_b : array_like of int, shape (n_sentences, 3)
        Per-sentence (gold chunks, predicted chunks, correct chunks) of A and B; the gold column
        must be identical.
    n_resamples : int, default 10_000
        Number of bootstrap resamples K.
    random_state : None, int or numpy.random.Generator
        Seed; the result is deterministic given it.
    alternative : {'two-sided', 'greater', 'less'}
        'greater': A's F1 is higher than B's.

    Returns
    -------
    BootstrapResult
        ``statistic`` :math:`\delta(x)`, ``p_value``, ``ci_low`` and ``ci_high``.

    References
    ----------
    T. Berg-Kirkpatrick, D. Burkett and D. Klein (2012). An empirical investigation of
    statistical significance in NLP. EMNLP-CoNLL, 995-1005.
    P. Koehn (2004). Statistical significance tests for machine translation evaluation. EMNLP.
    B. Phipson and G. K. Smyth (2010). Permutation p-values should never be zero. Statistical
    Applications in Genetics and Molecular Biology 9(1).
    """
    _check_alternative(alternative)
    a, b = _paired_chunk_counts(counts_a, counts_b)
    k = _check_resamples(n_resamples, "n_resamples")
    rng = np.random.default_rng(random_state)
    # Columns (gold, pred_a, correct_a, pred_b, correct_b): one weight vector per resample sums
    # A's and B's counts over the same multiset of sentences, which is what "paired" means.
    table = np.column_stack([a, b[:, 1:]]).astype(float)
    n = table.shape[0]
    observed = float(_delta(table.sum(axis=0)))
    deltas = np.empty(k)
    for start in range(0, k, _BLOCK):
        size = min(_BLOCK, k - start)
        idx = rng.integers(0, n, size=(size, n))
        # Offsetting each row's indices by row * n lets one bincount build all the rows'
        # multiplicity vectors at once.
        idx += np.arange(size)[:, None] * n
        weights = np.bincount(idx.ravel(), minlength=size * n).reshape(size, n)
        deltas[start:start + size] = _delta(weights.astype(float) @ table)
    p = _resampling_p_value(deltas - observed, observed, alternative)
    lo, hi = np.percentile(deltas, [2.5, 97.5])
    return BootstrapResult(observed, p, float(lo), float(hi))


def approximate_randomization(counts_a, counts_b, *, n_permutations: int = 10_000,
                              random_state=None, alternative: str = "two-sided") -> TestResult:
    r"""Approximate randomization test over sentences for corpus-level chunk F1.

    Under the null hypothesis that A and B are interchangeable, the label "A" or "B" on each
    sentence's output is arbitrary. Each of :math:`R` shuffles swaps A's and B's counts on each
    sentence independently with probability 1/2 and recomputes :math:`\delta` = corpus-level
    :math:`F_1^A - F_1^B`; then, for the default ``alternative='two-sided'``,

    .. math:: p = \frac{\#\{r : |\delta_r| \ge |\delta_{obs}|\} + 1}{R + 1}

    (Noreen 1989; Riezler & Maxwell 2005; the +1 counts the observed
    assignment, which keeps the test valid, p >= 1/(R+1)); 'greater' counts
    :math:`\delta_r \ge \delta_{obs}` and 'less' :math:`\delta_r \le \delta_{obs}`. Differences
    within 1e-12 of each other count as ties, so that mathematically equal differences reached
    through different sums are not lost to rounding (the same idea as
    :func:`scipy.stats.permutation_test`'s tolerance, but absolute, because the error of a
    difference of two F1s in [0, 1] is absolute).

    Parameters
    ----------
    counts_a, counts_b : array_like of int, shape (n_sentences, 3)
        As in :func:`paired_bootstrap`.
    n_permutations : int, default 10_000
        Number of random shuffles R.
    random_state : None, int or numpy.random.Generator
        Seed; the result is deterministic given it.
    alternative : {'two-sided', 'greater', 'less'}
        'greater': A's F1 is higher than B's.

    Returns
    -------
    TestResult
        ``statistic`` :math:`\delta_{obs}` and the ``p_value``.

    References
    ----------
    E. W. Noreen (1989). Computer-Intensive Methods for Testing Hypotheses. Wiley.
    S. Riezler and J. T. Maxwell (2005). On some pitfalls in automatic evaluation and
    significance testing for MT. ACL Workshop on Intrinsic and Extrinsic Evaluation Measures.
    """
    _check_alternative(alternative)
    a, b = _paired_chunk_counts(counts_a, counts_b)
    r = _check_resamples(n_permutations, "n_permutations")
    rng = np.random.default_rng(random_state)
    n = a.shape[0]
    base = np.concatenate([a.sum(axis=0), b[:, 1:].sum(axis=0)]).astype(float)
    observed = float(_delta(base))
    # Swapping sentence s moves (B_s - A_s) from B's totals into A's: with a 0/1 swap matrix S,
    # A's permuted sums are A + S @ D and B's are B - S @ D (gold does not change).
    d = (b[:, 1:] - a[:, 1:]).astype(float)
    shift = np.column_stack([np.zeros(n), d, -d])
    perm = np.empty(r)
    for start in range(0, r, _BLOCK):
        size = min(_BLOCK, r - start)
        swaps = rng.integers(0, 2, size=(size, n)).astype(float)
        perm[start:start + size] = _delta(base + swaps @ shift)
    return TestResult(observed, _resampling_p_value(perm, observed, alternative))


# --------------------------------------------------------------------------------------------
# several comparisons


def holm_bonferroni(p_values, alpha: float = 0.05) -> HolmResult:
    r"""Holm's step-down multiple-testing correction (controls the family-wise error rate).

    Sort the :math:`m` p-values, :math:`p_{(1)} \le \dots \le p_{(m)}`. Reject
    :math:`H_{(1)}, \dots, H_{(k-1)}` where :math:`k` is the smallest index with
    :math:`p_{(k)} > \alpha / (m - k + 1)` (Holm 1979). The adjusted p-values are

    .. math:: \tilde p_{(k)} = \min\left(1, \max_{j \le k} (m - j + 1)\, p_{(j)}\right),

    monotone in the sorted order, so that :math:`H_{(k)}` is rejected iff
    :math:`\tilde p_{(k)} \le \alpha` (Wright 1992). Holm is uniformly more powerful than plain
    Bonferroni and needs no independence assumption.

    Parameters
    ----------
    p_values : array_like, shape (m,)
        Unadjusted p-values in [0, 1].
    alpha : float, default 0.05
        Family-wise error rate.

    Returns
    -------
    HolmResult
        ``p_adjusted`` (in input order, capped at 1) and boolean ``reject``.

    References
    ----------
    S. Holm (1979). A simple sequentially rejective multiple test procedure. Scandinavian Journal
    of Statistics 6(2):65-70.
    S. P. Wright (1992). Adjusted p-values for simultaneous inference. Biometrics 48(4):1005-1013.
    """
    p = np.asarray(p_values, dtype=float)
    if p.ndim != 1:
        raise ValueError(f"p_values must be one-dimensional, got shape {p.shape}")
    if p.size == 0:
        raise ValueError("p_values is empty: there are no hypotheses to correct")
    if np.any(np.isnan(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError("p_values must lie in [0, 1] (no NaN)")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha!r}")
    m = p.size
    # A stable sort keeps tied p-values in input order, so the result does not depend on how
    # the sort breaks ties.
    order = np.argsort(p, kind="stable")
    sorted_p = p[order]
    factors = np.arange(m, 0, -1, dtype=float)  # m - k + 1 for k = 1..m
    adjusted_sorted = np.minimum(1.0, np.maximum.accumulate(factors * sorted_p))
    # Step-down rejection in Holm's own form (p_(k) <= alpha / (m - k + 1) for all j <= k),
    # rather than adjusted <= alpha, so floating-point rounding at the boundary follows the
    # definition.
    passes = sorted_p <= alpha / factors
    reject_sorted = np.logical_and.accumulate(passes)
    adjusted = np.empty(m)
    reject = np.empty(m, dtype=bool)
    adjusted[order] = adjusted_sorted
    reject[order] = reject_sorted
    return HolmResult(adjusted, reject)
