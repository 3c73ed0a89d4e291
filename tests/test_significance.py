"""Tests for estimators.significance: hand-computed values, statsmodels/scipy, exact enumeration."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from conftest import statsmodels_holm
from reprocompare.estimators.significance import (
    BootstrapResult,
    FTestResult,
    TestResult,
    approximate_randomization,
    blocked_3x2_t,
    combined_f_mx2,
    corpus_f1,
    corrected_resampled_t,
    holm_bonferroni,
    mcnemar,
    paired_bootstrap,
    paired_t_mx2,
    wilcoxon,
)


def _paired_correctness(both, b, c, neither, seed=0):
    """Correctness vectors with the given 2x2 cell counts, shuffled (order must not matter)."""
    a = np.array([1] * both + [1] * b + [0] * c + [0] * neither, dtype=bool)
    bb = np.array([1] * both + [0] * b + [1] * c + [0] * neither, dtype=bool)
    perm = np.random.default_rng(seed).permutation(a.size)
    return a[perm], bb[perm]


# ------------------------------------------------------------------------------------- McNemar


def test_mcnemar_chi2_hand_value():
    a, b = _paired_correctness(both=100, b=30, c=15, neither=20)
    res = mcnemar(a, b, exact=False)
    # (|30 - 15| - 1)^2 / (30 + 15) = 196 / 45; the concordant 120 items play no part.
    assert res.statistic == pytest.approx(196 / 45)
    assert res.p_value == pytest.approx(stats.chi2.sf(196 / 45, 1))
    assert isinstance(res, TestResult)


def test_mcnemar_exact_hand_value():
    a, b = _paired_correctness(both=50, b=8, c=2, neither=5)
    stat, p = mcnemar(a, b)  # 10 discordant pairs < 25: exact by default
    # 2 * P(Binomial(10, 1/2) <= 2) = 2 * (1 + 10 + 45) / 1024
    assert stat == 2
    assert p == pytest.approx(112 / 1024)


def test_mcnemar_default_switches_to_chi2_at_25_discordant_pairs():
    a, b = _paired_correctness(both=10, b=16, c=8, neither=3)  # 24 discordant: exact
    assert mcnemar(a, b).statistic == 8
    a, b = _paired_correctness(both=10, b=17, c=8, neither=3)  # 25 discordant: chi-squared
    assert mcnemar(a, b).statistic == pytest.approx((9 - 1) ** 2 / 25)


@pytest.mark.parametrize("exact", [True, False])
@pytest.mark.parametrize("cells", [(40, 3, 9, 8), (500, 31, 18, 51), (7, 12, 12, 2), (0, 0, 5, 0),
                                   (1000, 140, 95, 30), (3, 1, 0, 4)])
def test_mcnemar_matches_statsmodels(cells, exact):
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

    both, b, c, neither = cells
    a, bb = _paired_correctness(both, b, c, neither, seed=b + c)
    ours = mcnemar(a, bb, exact=exact)
    ref = sm_mcnemar(np.array([[both, b], [c, neither]]), exact=exact, correction=True)
    assert ours.statistic == pytest.approx(float(ref.statistic))
    assert ours.p_value == pytest.approx(float(ref.pvalue))


def test_mcnemar_is_symmetric_and_accepts_0_1_ints():
    a, b = _paired_correctness(both=20, b=14, c=4, neither=6)
    assert mcnemar(a, b) == mcnemar(b, a)
    assert mcnemar(a.astype(int), b.astype(float)) == mcnemar(a, b)


def test_mcnemar_no_disagreement_is_no_evidence():
    a = np.array([True, False, True, True])
    assert mcnemar(a, a, exact=False) == (0.0, 1.0)
    assert mcnemar(a, a, exact=True) == (0.0, 1.0)


@pytest.mark.parametrize("a, b, match", [
    ([True, False], [True], "same shape"),
    ([1, 2, 0], [1, 0, 0], "0/1"),
    ([1.0, np.nan], [1, 0], "0/1"),
    ([[True, False]], [[True, False]], "one-dimensional"),
    ([], [], "empty"),
])
def test_mcnemar_rejects_bad_input(a, b, match):
    with pytest.raises(ValueError, match=match):
        mcnemar(a, b)


@pytest.mark.parametrize("exact", ["yes", 1, "False"])
def test_mcnemar_exact_must_be_a_bool(exact):
    with pytest.raises(ValueError, match="exact must be True, False or None"):
        mcnemar([True, False], [False, True], exact=exact)


# ------------------------------------------------------------------------------------ Wilcoxon


def test_wilcoxon_hand_values():
    base = np.full(10, 0.8)
    # All 10 differences positive: W- = 0, and only 1 of the 2^10 equally likely sign patterns
    # reaches it in each tail, so p = 2 / 1024.
    d = np.arange(1, 11) / 1000
    stat, p = wilcoxon(base + d, base)
    assert stat == 0
    assert p == pytest.approx(2 / 1024)
    # The smallest difference negative: W- = 1, reached by 2 patterns per tail (W- in {0, 1}).
    d[0] = -d[0]
    stat, p = wilcoxon(base + d, base)
    assert stat == 1
    assert p == pytest.approx(4 / 1024)


def test_wilcoxon_with_ties_and_zeros_is_the_corrected_normal_approximation():
    rng = np.random.default_rng(3)
    a = np.round(rng.normal(0.8, 0.02, 20), 2)
    b = np.round(a - rng.normal(0.005, 0.01, 20), 2)
    d = np.round(a - b, 10)
    assert np.any(d == 0) and np.unique(np.abs(d[d != 0])).size < np.count_nonzero(d)
    # By hand: drop zeros, average ranks of |d|, tie-corrected variance, continuity 1/2.
    d = d[d != 0]
    n = d.size
    ranks = stats.rankdata(np.abs(d))
    w_plus = ranks[d > 0].sum()
    _, ties = np.unique(np.abs(d), return_counts=True)
    var = n * (n + 1) * (2 * n + 1) / 24 - (ties**3 - ties).sum() / 48
    w = min(w_plus, n * (n + 1) / 2 - w_plus)
    z = (w - n * (n + 1) / 4 + 0.5) / math.sqrt(var)
    stat, p = wilcoxon(a, b)
    assert stat == w
    assert p == pytest.approx(2 * stats.norm.cdf(z), rel=1e-9)
    # one-sided: A is ahead here, so 'greater' halves the p-value and 'less' is near 1
    assert wilcoxon(a, b, alternative="greater").p_value == pytest.approx(
        stats.norm.sf((w_plus - n * (n + 1) / 4 - 0.5) / math.sqrt(var)), rel=1e-9)
    assert wilcoxon(a, b, alternative="less").p_value > 0.9


def test_wilcoxon_small_sample_without_ties_is_exact():
    d = np.array([0.3, -0.1, 0.2, 0.5, 0.4])  # ranks 3, 1, 2, 5, 4: W- = 1
    # exact: 2 of the 32 sign patterns have W- <= 1 -> one-sided 2/32, two-sided 4/32
    assert wilcoxon(d, np.zeros(5)) == pytest.approx((1.0, 4 / 32))
    assert wilcoxon(d, np.zeros(5), alternative="greater").p_value == pytest.approx(2 / 32)


@pytest.mark.parametrize("a, b, match", [
    ([0.8], [0.7], "at least 2"),
    ([0.8, 0.7, 0.9], [0.8, 0.7, 0.9], "all paired differences are zero"),
    ([0.8, 0.7], [0.8, 0.7, 0.9], "same shape"),
    ([0.8, np.nan], [0.7, 0.6], "NaN"),
    ([], [], "empty"),
])
def test_wilcoxon_rejects_bad_input(a, b, match):
    with pytest.raises(ValueError, match=match):
        wilcoxon(a, b)
    with pytest.raises(ValueError, match="alternative"):
        wilcoxon([0.8, 0.7], [0.7, 0.8], alternative="bigger")


# ------------------------------------------------------------------------ 5x2cv t and F tests

# Scores of A and B on 5 repetitions x 2 folds. Differences p_i^(j) = A - B:
#   [[.05, .02], [.01, .04], [.01, .04], [.05, .01], [.02, .01]]
# s_i^2 = (p1 - pbar)^2 + (p2 - pbar)^2 = (p1 - p2)^2 / 2:
#   [.00045, .00045, .00045, .0008, .00005], sum .0022, mean .00044
# sum of all p^2: .0029 + .0017 + .0017 + .0026 + .0005 = .0094
A_5X2 = np.array([[0.90, 0.88], [0.87, 0.91], [0.89, 0.90], [0.92, 0.86], [0.88, 0.89]])
B_5X2 = np.array([[0.85, 0.86], [0.86, 0.87], [0.88, 0.86], [0.87, 0.85], [0.86, 0.88]])


def test_paired_t_mx2_hand_value():
    t, p = paired_t_mx2(A_5X2, B_5X2)
    t_hand = 0.05 / math.sqrt(0.00044)  # = 2.38366...
    assert t == pytest.approx(t_hand)
    assert t == pytest.approx(2.3836564, abs=1e-6)
    assert p == pytest.approx(2 * stats.t.sf(t_hand, 5))


def test_paired_t_mx2_numerator_is_first_fold_only():
    # The known pitfall: using the mean difference (.027) instead of p_1^(1) (.05).
    t, _ = paired_t_mx2(A_5X2, B_5X2)
    p = A_5X2 - B_5X2
    assert t != pytest.approx(p.mean() / math.sqrt(0.00044))
    # Swapping the folds of repetition 1 changes only the numerator (s_1^2 is symmetric).
    t_swapped, _ = paired_t_mx2(np.r_[[A_5X2[0, ::-1]], A_5X2[1:]],
                                np.r_[[B_5X2[0, ::-1]], B_5X2[1:]])
    assert t_swapped == pytest.approx(0.02 / math.sqrt(0.00044))
    # Swapping later repetitions' folds changes nothing.
    t_later, _ = paired_t_mx2(np.r_[A_5X2[:1], A_5X2[1:, ::-1]], np.r_[B_5X2[:1], B_5X2[1:, ::-1]])
    assert t_later == pytest.approx(t)


def test_combined_f_mx2_hand_value():
    f, p, mean_difference = combined_f_mx2(A_5X2, B_5X2)
    # mlxtend's combined_ftest_5x2cv computes the same: sum of squared differences over
    # 2 * sum of the per-repetition variances.
    assert f == pytest.approx(0.0094 / (2 * 0.0022))  # = 2.13636...
    assert p == pytest.approx(stats.f.sf(0.0094 / 0.0044, 10, 5))
    # Unlike the t-test, F does not care about fold order.
    assert combined_f_mx2(A_5X2[:, ::-1], B_5X2[:, ::-1]).statistic == pytest.approx(f)
    # F is symmetric in A and B; the direction is reported beside it.
    swapped = combined_f_mx2(B_5X2, A_5X2)
    assert isinstance(swapped, FTestResult)
    assert swapped.statistic == pytest.approx(f) and swapped.p_value == pytest.approx(p)
    assert mean_difference == pytest.approx(np.mean(A_5X2 - B_5X2))
    assert swapped.mean_difference == pytest.approx(-mean_difference)
    assert {combined_f_mx2(A_5X2, B_5X2).direction, swapped.direction} == {"A>B", "B>A"}


def test_mx2_tests_accept_flat_fold_order_and_general_m():
    flat_a, flat_b = A_5X2.ravel(), B_5X2.ravel()  # rep1-fold1, rep1-fold2, rep2-fold1, ...
    assert paired_t_mx2(flat_a, flat_b) == pytest.approx(paired_t_mx2(A_5X2, B_5X2))
    assert combined_f_mx2(flat_a, flat_b) == pytest.approx(combined_f_mx2(A_5X2, B_5X2))
    # m = 3: three repetitions, t with 3 dof, F with (6, 3) dof.
    t, p = paired_t_mx2(A_5X2[:3], B_5X2[:3])
    t_hand = 0.05 / math.sqrt((0.00045 * 3) / 3)
    assert t == pytest.approx(t_hand)
    assert p == pytest.approx(2 * stats.t.sf(t_hand, 3))
    f, p, _ = combined_f_mx2(A_5X2[:3], B_5X2[:3])
    assert f == pytest.approx((0.0029 + 0.0017 + 0.0017) / (2 * 0.00135))
    assert p == pytest.approx(stats.f.sf(f, 6, 3))


def test_paired_t_mx2_sign_follows_direction():
    t, p = paired_t_mx2(A_5X2, B_5X2)
    t_rev, p_rev = paired_t_mx2(B_5X2, A_5X2)
    assert t_rev == pytest.approx(-t)
    assert p_rev == pytest.approx(p)
    # one-sided p-values are the two tails of t_m
    m = A_5X2.shape[0]
    assert paired_t_mx2(A_5X2, B_5X2, alternative="greater").p_value == pytest.approx(
        stats.t.sf(t, m))
    assert paired_t_mx2(A_5X2, B_5X2, alternative="less").p_value == pytest.approx(
        stats.t.cdf(t, m))


@pytest.mark.parametrize("fn", [paired_t_mx2, combined_f_mx2])
@pytest.mark.parametrize("a, b, match", [
    (np.ones(5), np.ones(5), "even"),
    (np.ones((5, 3)), np.ones((5, 3)), r"shape \(m, 2\)"),
    (np.ones((5, 2)), np.ones((4, 2)), "same shape"),
    (np.array([[0.9, 0.8], [0.7, 0.6]]), np.array([[0.8, 0.7], [0.6, 0.5]]), "variance is zero"),
])
def test_mx2_tests_reject_bad_input(fn, a, b, match):
    with pytest.raises(ValueError, match=match):
        fn(a, b)


# -------------------------------------------------------------- blocked 3x2 cv t (Wang 2014)

# The first three repetitions of A_5X2 and B_5X2: p = [.05, .02, .01, .04, .01, .04] in fold
# order rep1-fold1, rep1-fold2, rep2-fold1, ...; sum .17, sum of squares .0063.
A_3X2, B_3X2 = A_5X2[:3], B_5X2[:3]


def test_blocked_3x2_t_hand_value():
    t, p = blocked_3x2_t(A_3X2, B_3X2)
    # mean = .17 / 6; sigma^2 = (1/6) sum (p - mean)^2 = (.0063 - 6 mean^2) / 6 (not 1/5: the
    # spread of the six differences stands for the variance of their mean, with 5 dof)
    mean = 0.17 / 6
    sigma2 = (0.0063 - 6 * mean**2) / 6
    t_hand = mean / math.sqrt(sigma2)  # = 1.80199...
    assert sigma2 == pytest.approx(0.00024722222)
    assert t == pytest.approx(t_hand)
    assert t == pytest.approx(1.8019964, abs=1e-6)
    assert p == pytest.approx(2 * stats.t.sf(t_hand, 5))
    assert isinstance(blocked_3x2_t(A_3X2, B_3X2), TestResult)


def test_blocked_3x2_t_is_the_one_sample_t_over_sqrt_5():
    # sigma^2 = (5/6) s^2 with s^2 the sample variance (ddof = 1), so t = t_one-sample / sqrt(5);
    # the reference distribution stays t_5.
    d = np.random.default_rng(11).normal(0.01, 0.02, 6)
    t, p = blocked_3x2_t(d, np.zeros(6))
    naive = stats.ttest_1samp(d, 0.0)
    assert t * math.sqrt(5) == pytest.approx(naive.statistic)
    assert p == pytest.approx(2 * stats.t.sf(abs(naive.statistic) / math.sqrt(5), 5))


def test_blocked_3x2_t_uses_all_six_folds_in_any_order():
    t, p = blocked_3x2_t(A_3X2, B_3X2)
    assert blocked_3x2_t(A_3X2.ravel(), B_3X2.ravel()) == pytest.approx((t, p))
    order = np.random.default_rng(4).permutation(6)
    assert blocked_3x2_t(A_3X2.ravel()[order], B_3X2.ravel()[order]) == pytest.approx((t, p))
    # adding a constant to both systems' scores changes nothing
    assert blocked_3x2_t(A_3X2 - 0.3, B_3X2 - 0.3) == pytest.approx((t, p))


def test_blocked_3x2_t_alternatives_and_symmetry():
    t, p = blocked_3x2_t(A_3X2, B_3X2)
    greater = blocked_3x2_t(A_3X2, B_3X2, alternative="greater").p_value
    less = blocked_3x2_t(A_3X2, B_3X2, alternative="less").p_value
    assert greater == pytest.approx(stats.t.sf(t, 5))
    assert less == pytest.approx(stats.t.cdf(t, 5))
    assert greater + less == pytest.approx(1.0)
    assert p == pytest.approx(2 * min(greater, less))
    # swapping A and B flips the sign of t and the one-sided tails, not the two-sided p-value
    t_rev, p_rev = blocked_3x2_t(B_3X2, A_3X2)
    assert t_rev == pytest.approx(-t)
    assert p_rev == pytest.approx(p)
    assert blocked_3x2_t(B_3X2, A_3X2, alternative="greater").p_value == pytest.approx(less)
    assert blocked_3x2_t(B_3X2, A_3X2, alternative="less").p_value == pytest.approx(greater)


@pytest.mark.parametrize("a, b, match", [
    (A_5X2, B_5X2, "needs m = 3"),  # 5 x 2
    (A_5X2[:2], B_5X2[:2], "needs m = 3"),  # 2 x 2
    (np.ones(8), np.zeros(8), "needs m = 3"),  # flat, m = 4
    (np.ones(5), np.ones(5), "even"),
    (np.ones((3, 3)), np.ones((3, 3)), r"shape \(m, 2\)"),
    (np.ones((3, 2)), np.ones((2, 3)), "same shape"),
    (np.ones(6), np.ones(3), "same shape"),
    (np.array([0.9, 0.8, 0.7, 0.6, 0.5, np.nan]), np.zeros(6), "NaN"),
    (np.ones(6), np.ones(6), "variance is zero"),
    # .9 - .8 and .8 - .7 differ by rounding only: equal differences, not t = 1e15
    (np.array([0.9, 0.8, 0.9, 0.8, 0.9, 0.8]), np.array([0.8, 0.7, 0.8, 0.7, 0.8, 0.7]),
     "variance is zero"),
])
def test_blocked_3x2_t_rejects_bad_input(a, b, match):
    with pytest.raises(ValueError, match=match):
        blocked_3x2_t(a, b)


def test_blocked_3x2_t_rejects_unknown_alternative():
    with pytest.raises(ValueError, match="alternative must be one of"):
        blocked_3x2_t(A_3X2, B_3X2, alternative="two_sided")


# --------------------------------------------------------------- corrected resampled t-test


def test_corrected_resampled_t_hand_value():
    d = [0.01, 0.03, 0.02, 0.04, 0.00]
    t, p = corrected_resampled_t(d, n_train=900, n_validation=100)
    # mean .02; var (ddof=1) = (1 + 1 + 0 + 4 + 4)e-4 / 4 = .00025; 1/J + n2/n1 = .2 + 1/9
    t_hand = 0.02 / math.sqrt((0.2 + 1 / 9) * 0.00025)
    assert t == pytest.approx(t_hand)
    assert t == pytest.approx(2.2677868, abs=1e-6)
    assert p == pytest.approx(2 * stats.t.sf(t_hand, 4))


def test_corrected_resampled_t_is_scipy_t_deflated_by_the_correction():
    d = np.random.default_rng(5).normal(0.01, 0.02, 15)
    t, p = corrected_resampled_t(d, n_train=800, n_validation=200)
    naive = stats.ttest_1samp(d, 0.0)
    # t_corrected = t_naive * sqrt((1/J) / (1/J + n2/n1)) = t_naive / sqrt(1 + J n2 / n1)
    assert t * math.sqrt(1 + 15 * 200 / 800) == pytest.approx(naive.statistic)
    assert p > naive.pvalue
    for alternative in ("greater", "less"):
        assert corrected_resampled_t(d, n_train=800, n_validation=200,
                                     alternative=alternative).p_value == pytest.approx(
            stats.t.sf(t, 14) if alternative == "greater" else stats.t.cdf(t, 14))


@pytest.mark.parametrize("d, kwargs, match", [
    ([0.01], {"n_train": 90, "n_validation": 10}, "at least 2"),
    ([], {"n_train": 90, "n_validation": 10}, "empty"),
    ([0.01, 0.01, 0.01], {"n_train": 90, "n_validation": 10}, "variance is zero"),
    # .9 - .8 and .8 - .7 differ by rounding only: still zero variance, not t = 1e15.
    ([0.9 - 0.8, 0.8 - 0.7], {"n_train": 90, "n_validation": 10}, "variance is zero"),
    ([0.01, 0.02], {"n_train": 0, "n_validation": 10}, "n_train"),
    ([0.01, 0.02], {"n_train": 90, "n_validation": 1.5}, "n_validation"),
])
def test_corrected_resampled_t_rejects_bad_input(d, kwargs, match):
    with pytest.raises(ValueError, match=match):
        corrected_resampled_t(d, **kwargs)


def test_corrected_resampled_t_sizes_are_keyword_only():
    with pytest.raises(TypeError):
        corrected_resampled_t([0.01, 0.02], 90, 10)


# ------------------------------------------------------------------ corpus F1 and resampling

# Sentence 1 is short, sentence 2 long. A: 1/1 right, then 0/9; B: 0/1, then 4/9.
# Corpus F1: A = 2*1/20 = .1, B = 2*4/20 = .4, so A - B = -.3, while the mean of sentence F1s
# (A: (1 + 0)/2 = .5, B: (0 + 8/18)/2 = .222) would say A is ahead.
COUNTS_A = np.array([[1, 1, 1], [9, 9, 0]])
COUNTS_B = np.array([[1, 1, 0], [9, 9, 4]])


def test_corpus_f1_sums_counts_before_dividing():
    assert corpus_f1(COUNTS_A) == pytest.approx(0.1)
    assert corpus_f1(COUNTS_B) == pytest.approx(0.4)
    assert corpus_f1(np.zeros((3, 3), dtype=int)) == 0.0  # no chunks at all: F1 = 0, no error
    assert corpus_f1([[4, 0, 0]]) == 0.0


@pytest.mark.parametrize("fn", [paired_bootstrap, approximate_randomization])
def test_statistic_is_corpus_level_difference(fn):
    res = fn(COUNTS_A, COUNTS_B, random_state=0)
    assert res.statistic == pytest.approx(-0.3)


def _one_sentence_apart(n=2000, seed=0):
    """A and B equal except that A gets one more chunk right in sentence 7.

    Every sentence has 5 gold and 5 predicted chunks, so G + P of any resample is 10 n and the
    bootstrap difference is exactly w_7 * 2 / (10 n), w_7 ~ Binomial(n, 1/n) the number of times
    sentence 7 is drawn.
    """
    rng = np.random.default_rng(seed)
    correct_b = rng.integers(0, 5, n)
    correct_a = correct_b.copy()
    correct_a[7] += 1
    five = np.full(n, 5)
    return np.c_[five, five, correct_a], np.c_[five, five, correct_b]


@pytest.mark.slow
def test_paired_bootstrap_resamples_pairs_together():
    n = 2000
    a, b = _one_sentence_apart(n)
    res = paired_bootstrap(a, b, n_resamples=10_000, random_state=1)
    delta = 2 / (10 * n)
    assert res.statistic == pytest.approx(delta)
    # Paired: the difference is w_7 * delta, w_7 in {0, 1, 2, 3, ...}, P(w_7 = 0) = 0.37 and
    # P(w_7 <= 3) = 0.98, so the 95% interval is exactly [0, 3 delta]. Resampling A and B
    # independently would spread the difference over roughly +-0.01, a hundred times wider.
    assert res.ci_low == pytest.approx(0.0, abs=1e-12)
    assert res.ci_high == pytest.approx(3 * delta, rel=1e-9)
    # Two-sided: |w_7 delta - delta| >= delta iff w_7 = 0 or w_7 >= 2 (ties count as extreme)
    p_exact = stats.binom.pmf(0, n, 1 / n) + stats.binom.sf(1, n, 1 / n)  # 0.632
    se = math.sqrt(p_exact * (1 - p_exact) / 10_000)
    assert abs(res.p_value - p_exact) < 4 * se
    # 'greater': w_7 delta - delta >= delta iff w_7 >= 2
    greater = paired_bootstrap(a, b, n_resamples=10_000, random_state=1, alternative="greater")
    p_exact = stats.binom.sf(1, n, 1 / n)  # 0.264
    assert abs(greater.p_value - p_exact) < 4 * math.sqrt(p_exact * (1 - p_exact) / 10_000)


def test_paired_bootstrap_matches_exact_enumeration():
    # 4 sentences: all 4^4 = 256 equally likely index draws can be enumerated.
    a = np.array([[3, 2, 2], [1, 2, 1], [4, 4, 1], [2, 0, 0]])
    b = np.array([[3, 3, 1], [1, 1, 1], [4, 5, 2], [2, 1, 0]])
    f1 = lambda c: 2 * c[2] / (c[0] + c[1]) if c[0] + c[1] else 0.0
    observed = f1(a.sum(0)) - f1(b.sum(0))
    assert observed > 0
    deltas = np.array([f1(a[list(ix)].sum(0)) - f1(b[list(ix)].sum(0))
                       for ix in itertools.product(range(4), repeat=4)])
    k = 20_000
    for alternative, extreme in [
            ("greater", deltas - observed >= observed - 1e-12),
            ("less", deltas - observed <= observed + 1e-12),
            ("two-sided", np.abs(deltas - observed) >= abs(observed) - 1e-12)]:
        p_exact = np.mean(extreme)
        res = paired_bootstrap(a, b, n_resamples=k, random_state=2, alternative=alternative)
        assert res.statistic == pytest.approx(observed)
        # add-one: (1 + K p) / (K + 1), within Monte Carlo error of the exact share
        expected = (1 + k * p_exact) / (k + 1)
        assert abs(res.p_value - expected) < 4 * math.sqrt(p_exact * (1 - p_exact) / k) + 1 / k
    assert 0.05 < np.mean(deltas - observed >= observed - 1e-12) < 0.5  # informative case
    # Percentile interval: inside the support, and around the observed difference.
    assert deltas.min() <= res.ci_low < observed < res.ci_high <= deltas.max()


def test_paired_bootstrap_is_deterministic_given_seed():
    rng = np.random.default_rng(9)
    g = rng.integers(0, 6, 300)
    a = np.c_[g, g, rng.binomial(g, 0.8)]
    b = np.c_[g, g, rng.binomial(g, 0.75)]
    r1 = paired_bootstrap(a, b, n_resamples=2000, random_state=42)
    r2 = paired_bootstrap(a, b, n_resamples=2000, random_state=42)
    r3 = paired_bootstrap(a, b, n_resamples=2000, random_state=43)
    assert r1 == r2
    assert isinstance(r1, BootstrapResult)
    assert (r1.p_value, r1.ci_low, r1.ci_high) != (r3.p_value, r3.ci_low, r3.ci_high)
    r4 = paired_bootstrap(a, b, n_resamples=2000, random_state=np.random.default_rng(42))
    assert r4 == r1


@pytest.mark.parametrize("fn", [paired_bootstrap, approximate_randomization])
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_identical_systems_are_never_significant(fn, alternative):
    # Every resample ties the observed difference of 0: add-one with ties counted gives p = 1
    # (the strict count without add-one gave the bootstrap p = 0, "significant").
    a, _ = _one_sentence_apart(300)
    result = fn(a, a, random_state=0, alternative=alternative)
    assert result.statistic == 0.0 and result.p_value == 1.0


@pytest.mark.parametrize("fn", [paired_bootstrap, approximate_randomization])
def test_resampling_p_value_is_never_below_one_over_k_plus_one(fn):
    g = np.full(200, 5)
    good, bad = np.c_[g, g, g], np.c_[g, g, np.zeros(200, int)]
    kw = {"n_resamples" if fn is paired_bootstrap else "n_permutations": 999}
    assert fn(good, bad, random_state=0, alternative="greater", **kw).p_value == 1 / 1000
    assert fn(good, bad, random_state=0, alternative="less", **kw).p_value == 1.0


def test_approximate_randomization_matches_exact_enumeration():
    # 12 sentences: all 2^12 swap patterns can be enumerated for the exact permutation p-value.
    rng = np.random.default_rng(4)
    gold = rng.integers(1, 6, 12)
    pred_a, pred_b = rng.integers(1, 6, 12), rng.integers(1, 6, 12)
    a = np.c_[gold, pred_a, rng.binomial(np.minimum(gold, pred_a), 0.7)]
    b = np.c_[gold, pred_b, rng.binomial(np.minimum(gold, pred_b), 0.5)]
    f1 = lambda g, p, c: 2 * c / (g + p)
    observed = f1(*a.sum(0)) - f1(*b.sum(0))
    diffs = []
    for swap in itertools.product([False, True], repeat=12):
        s = np.array(swap)[:, None]
        pa, pb = np.where(s, b, a).sum(0), np.where(s, a, b).sum(0)
        diffs.append(f1(*pa) - f1(*pb))
    p_exact = np.mean(np.abs(diffs) >= abs(observed) - 1e-12)
    assert 0.02 < p_exact < 0.6
    r = 20_000
    stat, p = approximate_randomization(a, b, n_permutations=r, random_state=5)
    assert stat == pytest.approx(observed)
    assert abs(p - p_exact) < 4 * math.sqrt(p_exact * (1 - p_exact) / r) + 1 / r


def test_approximate_randomization_p_value_bounds():
    a, _ = _one_sentence_apart(200)
    # Identical systems: every shuffle ties the observed 0, so p = (R + 1) / (R + 1) = 1.
    assert approximate_randomization(a, a, n_permutations=500, random_state=0) == (0.0, 1.0)
    # A right everywhere, B wrong everywhere: no shuffle comes close, and the +1 keeps
    # p = 1 / (R + 1) rather than 0.
    g = np.full(200, 5)
    good, bad = np.c_[g, g, g], np.c_[g, g, np.zeros(200, int)]
    stat, p = approximate_randomization(good, bad, n_permutations=999, random_state=0)
    assert stat == pytest.approx(1.0)
    assert p == pytest.approx(1 / 1000)
    # Two-sided: the direction does not matter.
    assert approximate_randomization(bad, good, n_permutations=999, random_state=0) == \
        pytest.approx((-1.0, 1 / 1000))
    with pytest.raises(ValueError, match="alternative"):
        approximate_randomization(good, bad, alternative="one-sided")


def test_approximate_randomization_is_deterministic_given_seed():
    rng = np.random.default_rng(11)
    g = rng.integers(0, 6, 150)
    a = np.c_[g, g, rng.binomial(g, 0.8)]
    b = np.c_[g, g, rng.binomial(g, 0.78)]
    r1 = approximate_randomization(a, b, n_permutations=3000, random_state=7)
    assert r1 == approximate_randomization(a, b, n_permutations=3000, random_state=7)
    assert r1 != approximate_randomization(a, b, n_permutations=3000, random_state=8)


@pytest.mark.parametrize("fn", [paired_bootstrap, approximate_randomization])
@pytest.mark.parametrize("a, b, match", [
    ([[3, 2, 1]], [[4, 2, 1]], "gold chunk counts differ"),
    ([[3, 2, 3]], [[3, 2, 1]], "more correct chunks"),
    ([[3, 2]], [[3, 2]], r"shape \(n_sentences, 3\)"),
    ([[3, -2, 0]], [[3, 2, 0]], "negative"),
    ([[3, 2, 1], [1, 1, 1]], [[3, 2, 1]], "same shape"),
    ([[3, 2.5, 1]], [[3, 2, 1]], "whole"),
    (np.zeros((0, 3), int), np.zeros((0, 3), int), "no sentences"),
])
def test_resampling_tests_reject_bad_input(fn, a, b, match):
    with pytest.raises(ValueError, match=match):
        fn(a, b)


@pytest.mark.parametrize("fn, kw", [(paired_bootstrap, "n_resamples"),
                                    (approximate_randomization, "n_permutations")])
def test_resampling_tests_reject_bad_resample_count(fn, kw):
    with pytest.raises(ValueError, match=kw):
        fn(COUNTS_A, COUNTS_B, **{kw: 0})


# -------------------------------------------------------------------------------------- Holm


def test_holm_hand_values():
    p = [0.01, 0.04, 0.03, 0.005]
    adjusted, reject = holm_bonferroni(p, alpha=0.05)
    # sorted .005*4 = .02, .01*3 = .03, .03*2 = .06, .04*1 = .04 -> running max .06
    assert adjusted == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert reject.tolist() == [True, False, False, True]


def test_holm_caps_at_one_and_stays_monotone():
    adjusted, reject = holm_bonferroni([0.6, 0.5])
    assert adjusted.tolist() == [1.0, 1.0]
    assert not reject.any()


@settings(max_examples=80, deadline=None)
@given(p=st.lists(st.one_of(st.floats(0, 1), st.sampled_from([0.0, 0.001, 0.01, 0.025, 0.05, 1.0])),
                  min_size=1, max_size=25),
       alpha=st.sampled_from([0.01, 0.05, 0.1]))
def test_holm_matches_statsmodels(p, alpha):
    reject_ref, adjusted_ref = statsmodels_holm(p, alpha)
    adjusted, reject = holm_bonferroni(p, alpha=alpha)
    np.testing.assert_allclose(adjusted, adjusted_ref, rtol=1e-12, atol=0)
    np.testing.assert_array_equal(reject, reject_ref)


def test_holm_empty_and_bad_input():
    with pytest.raises(ValueError, match="empty"):
        holm_bonferroni([])
    for bad in ([0.1, np.nan], [0.1, 1.2], [-0.1]):
        with pytest.raises(ValueError, match=r"\[0, 1\]"):
            holm_bonferroni(bad)
    with pytest.raises(ValueError, match="alpha"):
        holm_bonferroni([0.1], alpha=1.5)
