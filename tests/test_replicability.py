"""Partial-conjunction replicability analysis (Dror et al. 2017): by hand and against scipy."""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest
from scipy import stats

from reprocompare.estimators import replicability as module
from reprocompare.estimators.replicability import (corpus_p_value, partial_conjunction,
                                                    replicability)

# Four corpora, alpha = 0.05, p-values already sorted: p_(1..4) = 0.01, 0.02, 0.04, 0.30.
P = [0.30, 0.01, 0.04, 0.02]  # given in any order

# Bonferroni, p^(u/N) = (N - u + 1) p_(u):
#   u = 1: 4 * 0.01 = 0.04   <= 0.05, rejected
#   u = 2: 3 * 0.02 = 0.06   >  0.05, not rejected: stop, k-hat = 1
#   u = 3: 2 * 0.04 = 0.08;  u = 4: 1 * 0.30 = 0.30
BONFERRONI = (0.04, 0.06, 0.08, 0.30)
# Fisher, p^(u/N) = P(chi2_2k >= -2 sum_(i >= u) ln p_(i)), k = N - u + 1. For even degrees of
# freedom the chi-squared tail has a closed form: with Pi = prod_(i >= u) p_(i) and
# x / 2 = -ln Pi, P(chi2_2k >= x) = Pi * sum_(j < k) (-ln Pi)^j / j!.
#   u = 1: Pi = 0.01 * 0.02 * 0.04 * 0.30 = 2.4e-6, -ln Pi = 12.94004 (k = 4):
#          2.4e-6 * (1 + 12.94004 + 12.94004^2 / 2 + 12.94004^3 / 6)
#          = 2.4e-6 * (1 + 12.94004 + 83.72232 + 361.12335) = 2.4e-6 * 458.78571 = 0.0011011
#   u = 2: Pi = 0.02 * 0.04 * 0.30 = 2.4e-4, -ln Pi = 8.33471 (k = 3):
#          2.4e-4 * (1 + 8.33471 + 34.73370) = 2.4e-4 * 44.06841 = 0.0105764   <= 0.05
#   u = 3: Pi = 0.04 * 0.30 = 0.012, -ln Pi = 4.42285 (k = 2):
#          0.012 * (1 + 4.42285) = 0.0650742                                     >  0.05: stop
#   u = 4: Pi = 0.30 (k = 1): 0.30
# so k-hat = 2 with Fisher, 1 with Bonferroni.
FISHER = (0.0011011, 0.0105764, 0.0650742, 0.30)


def test_hand_computation():
    result = replicability(P, alpha=0.05)
    assert result.p_values == tuple(P) and result.corpora == 4 and result.alpha == 0.05
    assert result.bonferroni == pytest.approx(BONFERRONI, abs=1e-12)
    assert result.fisher == pytest.approx(FISHER, abs=5e-7)
    assert (result.count_bonferroni, result.count_fisher) == (1, 2)
    assert result.as_dict()["corpora"] == 4


def test_the_closed_form_of_the_hand_computation():
    """The even-df chi-squared tail used by hand is scipy's, to rounding."""
    p = sorted(P)
    for u, expected in enumerate(FISHER, start=1):
        product = math.prod(p[u - 1:])
        k = len(p) - u + 1
        closed = product * sum((-math.log(product)) ** j / math.factorial(j) for j in range(k))
        assert closed == pytest.approx(expected, abs=5e-7)
        assert closed == pytest.approx(partial_conjunction(P, u, "fisher"), rel=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_fisher_against_scipy_combine_pvalues(seed):
    p = np.random.default_rng(seed).uniform(0.0001, 1, size=6)
    ordered = np.sort(p)
    for u in range(1, 7):
        expected = stats.combine_pvalues(ordered[u - 1:], method="fisher").pvalue
        assert partial_conjunction(p, u, "fisher") == pytest.approx(expected, rel=1e-12)
    # u = 1 is Fisher's global test of all N p-values
    assert replicability(p).fisher[0] == pytest.approx(
        stats.combine_pvalues(p, method="fisher").pvalue, rel=1e-12)


def test_step_down_stops_at_the_first_non_rejection():
    # Bonferroni p^(u/N): 3 * 0.04 = 0.12 (not rejected), then 2 * 0.04, then 0.04 (would be):
    # the count stays 0 even though a later u has p^(u/N) <= alpha
    result = replicability([0.04, 0.04, 0.04], alpha=0.05)
    assert result.bonferroni == pytest.approx((0.12, 0.08, 0.04))
    assert result.count_bonferroni == 0
    # everything tiny: the conclusion can be claimed on all N corpora
    assert replicability([1e-6, 1e-5, 1e-4]).count_bonferroni == 3
    assert replicability([1e-6, 1e-5, 1e-4]).count_fisher == 3
    # one corpus: p^(1/1) = p itself, for both methods
    single = replicability([0.03])
    assert single.bonferroni == (0.03,) and single.fisher == pytest.approx((0.03,))
    assert single.count_bonferroni == single.count_fisher == 1


def test_bonferroni_is_capped_and_zero_p_values_are_fine():
    assert partial_conjunction([0.5, 0.6], 1) == 1.0  # 2 * 0.5
    assert partial_conjunction([0.0, 0.2], 1, "fisher") == 0.0
    assert partial_conjunction([0.0, 0.2], 2, "fisher") == pytest.approx(0.2)


@pytest.mark.parametrize("bad", [[], [[0.1, 0.2]], [0.1, 1.2], [-0.1], [float("nan")]])
def test_bad_p_values_are_refused(bad):
    with pytest.raises(ValueError):
        replicability(bad)


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="u must be"):
        partial_conjunction([0.1, 0.2], 3)
    with pytest.raises(ValueError, match="method"):
        partial_conjunction([0.1, 0.2], 1, "simes")
    with pytest.raises(ValueError, match="alpha"):
        replicability([0.1], alpha=1.0)


@pytest.mark.slow
def test_family_wise_error_under_the_global_null():
    """With no corpus where the conclusion holds, claiming it on >= 1 corpus happens in at most
    alpha of the studies (uniform p-values; 4000 seeded studies of N = 5 corpora)."""
    rng = np.random.default_rng(11)
    studies = [replicability(rng.uniform(size=5)) for _ in range(4000)]
    for key in ("count_bonferroni", "count_fisher"):
        rate = np.mean([getattr(s, key) >= 1 for s in studies])
        assert rate <= 0.05 + 2 * math.sqrt(0.05 * 0.95 / 4000), (key, rate)


def test_corpus_p_value_is_students_one_sided_t():
    values = [0.004, -0.001, 0.006, 0.002, 0.003]
    assert corpus_p_value(values, "A>B") == pytest.approx(
        stats.ttest_1samp(values, 0.0, alternative="greater").pvalue, rel=1e-12)
    # for "B > A" the evidence is A - B below 0
    assert corpus_p_value(values, "B>A") == pytest.approx(
        stats.ttest_1samp(values, 0.0, alternative="less").pvalue, rel=1e-12)
    # constant estimates: certain in their direction, never NaN
    assert corpus_p_value([0.01, 0.01, 0.01], "A>B") == 0.0
    assert corpus_p_value([0.01, 0.01, 0.01], "B>A") == 1.0
    assert corpus_p_value([0.0, 0.0], "A>B") == 1.0
    with pytest.raises(ValueError):
        corpus_p_value([0.1], "A>B")
    with pytest.raises(ValueError):
        corpus_p_value([0.1, 0.2], "A=B")


def test_doctests():
    assert doctest.testmod(module).failed == 0
