"""Difference estimators (paper section 3.2, Table 2, Eq. 8) and their statistics (Eq. 1, 3, 4).

The toy BCV below is worked out by hand in the comments; every expected number comes from there.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, stats
from hypothesis import given
from hypothesis import strategies as st

from reprocompare.corpora.schemes import convert, first_violation
from reprocompare.corpora.scoring import count_chunks
from reprocompare.estimators.difference import (avg, bcv_estimates, holdout, mixture, repeated_holdout,
                                   vote_chunks, vote_labels, vote_predictions, vote_tokens)
from reprocompare.estimators.reproducibility import (
    RELATIVE_TOLERANCE, TooFewRepetitions, chebyshev_bound, clopper_pearson, model_interval,
    repetitions_for_reproducibility, repetitions_for_snr, reproducibility, snr, snr_bias_factor,
    snr_bootstrap_interval, snr_exact_interval, summarize)

GOLD = [["B-NP", "I-NP", "O", "B-VP"],  # NP(0,2) VP(3,4)
        ["B-NP", "O"],                  # NP(0,1)
        ["B-PP", "B-NP", "I-NP"],       # PP(0,1) NP(1,3)
        ["O", "B-VP"]]                  # VP(1,2)      -> 6 gold chunks

# three basis predictions of A per sentence (one per repetition of a 3x2 BCV, Table 2)
BASIS_A = [
    [GOLD[0], GOLD[0], ["B-NP", "O", "O", "B-VP"]],   # NP(0,2) 2 votes, VP 3 -> both kept
    [["O", "O"], ["B-NP", "O"], ["B-NP", "I-NP"]],    # NP(0,1) 1, NP(0,2) 1 -> nothing
    [GOLD[2], GOLD[2], GOLD[2]],                       # unanimous -> gold
    [["O", "B-VP"], ["O", "O"], ["B-VP", "I-VP"]],    # VP(1,2) 1, VP(0,2) 1 -> nothing
]
# B is right everywhere but misses the VP of sentence 1 in all three basis models
BASIS_B = [[["B-NP", "I-NP", "O", "O"]] * 3, [GOLD[1]] * 3, [GOLD[2]] * 3, [GOLD[3]] * 3]


def vote_f1(basis, method="chunk"):
    return count_chunks(GOLD, vote_predictions(basis, "IOB2", method)).score().f1


def test_chunk_vote_by_hand():
    assert vote_predictions(BASIS_A, "IOB2") == [GOLD[0], ["O", "O"], GOLD[2], ["O", "O"]]
    # A: 4 predicted, 4 correct, 6 gold -> F1 = 2*4/(6+4) = 0.8; B: 5, 5, 6 -> 10/11
    assert vote_f1(BASIS_A) == pytest.approx(0.8)
    assert vote_f1(BASIS_B) == pytest.approx(10 / 11)


def test_token_vote_by_hand():
    # sentence 2: (O,B-NP,B-NP) -> B-NP, (O,O,I-NP) -> O; sentence 4: (O,O,B-VP) -> O and a
    # three-way tie (B-VP, O, I-VP) -> B-VP, first in sorted order. Every sentence is then gold.
    assert vote_tokens(BASIS_A[1], "IOB2") == ["B-NP", "O"]
    assert vote_tokens(BASIS_A[3], "IOB2") == ["O", "B-VP"]
    assert vote_f1(BASIS_A, "token") == pytest.approx(1.0)


def test_token_vote_repairs_ill_formed_majorities():
    basis = [["O", "I-NP"], ["O", "I-NP"], ["B-NP", "I-NP"]]  # majorities O, I-NP: ill-formed
    assert vote_tokens(basis, "IOB2") == ["O", "B-NP"]
    assert vote_tokens([convert(b, "IOBES") for b in basis], "IOBES") == ["O", "S-NP"]


def test_bcv_estimates_by_hand():
    fold_a = [0.80, 0.82, 0.78, 0.81, 0.79, 0.83]
    fold_b = [0.79, 0.80, 0.80, 0.78, 0.80, 0.81]  # differences .01 .02 -.02 .03 -.01 .02
    estimates = bcv_estimates({"A": fold_a, "B": fold_b},
                              {"A": vote_f1(BASIS_A), "B": vote_f1(BASIS_B)})
    assert estimates.avg == pytest.approx(0.05 / 6)
    assert estimates.vote == pytest.approx(0.8 - 10 / 11)
    # vote (-0.109) is not above avg (0.0083): Eq. 8 takes avg (Case II)
    assert (estimates.mixture, estimates.mixture_chose) == (estimates.avg, "avg")
    assert estimates.fold_differences == pytest.approx((0.01, 0.02, -0.02, 0.03, -0.01, 0.02))
    assert estimates.per_model["A"] == pytest.approx({"avg": np.mean(fold_a), "vote": 0.8})
    assert estimates.per_model["B"]["vote"] == pytest.approx(10 / 11)


def test_mixture_switch_eq8():
    assert mixture(0.03, 0.01) == (0.03, "vote")
    assert mixture(0.01, 0.03) == (0.03, "avg")
    assert mixture(0.02, 0.02) == (0.02, "avg")  # Delta = 1 only when vote > avg


def test_holdout_and_means():
    assert holdout(0.9, 0.85) == pytest.approx(0.05)
    assert repeated_holdout([0.9, 0.8, 0.7], [0.8, 0.8, 0.8]) == pytest.approx(0.0)
    assert avg([0.5, 0.7], [0.4, 0.4]) == pytest.approx(0.2)
    with pytest.raises(ValueError, match="equal-length"):
        avg([0.5], [0.4, 0.3])


def test_vote_labels():
    assert vote_labels(["pos", "neg", "pos"]) == "pos"
    assert vote_labels(["pos", "neg"]) == "neg"  # tie: first in sorted order


TAGS = st.lists(st.sampled_from(["O", "B-NP", "I-NP", "B-VP", "I-VP"]), min_size=1, max_size=10)


@given(TAGS, st.integers(1, 7))
def test_vote_of_identical_predictions_is_that_prediction(tags, m):
    valid = convert(tags, "IOB2")
    assert vote_chunks([valid] * m, "IOB2") == valid
    assert vote_tokens([valid] * m, "IOB2") == valid


@pytest.mark.slow
@given(st.lists(TAGS, min_size=1, max_size=6).filter(lambda b: len({len(t) for t in b}) == 1))
def test_chunk_vote_is_always_valid(basis):
    for scheme in ("IOB2", "IOBES"):
        assert first_violation(vote_chunks(basis, scheme), scheme) is None


def test_unknown_voting_method():
    with pytest.raises(ValueError, match="unknown voting method 'mean'"):
        vote_predictions(BASIS_A, "IOB2", "mean")


# ---- across repetitions: Eq. 1, 3, 4 -------------------------------------------------------

def test_snr_reproducibility_bound_by_hand():
    values = [0.1, 0.2, 0.3, -0.2]  # mean 0.1, sd sqrt(((0)^2+.1^2+.2^2+.3^2)/3) = sqrt(.14/3)
    expected = 0.1 / np.sqrt(0.14 / 3)
    assert snr(values) == pytest.approx(expected)
    assert reproducibility(values) == 0.75
    assert chebyshev_bound(snr(values)) == pytest.approx(expected**2 / (1 + expected**2))
    assert snr(values, "B>A") == pytest.approx(-expected)
    assert reproducibility(values, "B>A") == 0.25
    assert chebyshev_bound(-1.0) == 0.0


def test_clopper_pearson_equals_statsmodels():
    from statsmodels.stats.proportion import proportion_confint

    for k, n in [(0, 10), (7, 10), (10, 10), (940, 1000)]:
        assert clopper_pearson(k, n) == pytest.approx(proportion_confint(k, n, method="beta"))



def test_clopper_pearson_is_binomtests_to_the_bit():
    """The interval is computed without scipy.stats (the tables job does not import it), and
    equals ``binomtest(k, n).proportion_ci(level, "exact")`` exactly: every k of each n up to
    15 at 95%, and 100 seeded draws of (k, n, level) up to n = 5,000, a third of them at k = 0,
    a third at k = n (a wider grid, n up to 40 at three levels, passed too)."""
    rng = np.random.default_rng(20)
    cases = [(k, n, 0.95) for n in range(1, 16) for k in range(n + 1)]
    for _ in range(100):
        n = int(rng.integers(1, 5001))
        cases.append((int(rng.choice([0, n, int(rng.integers(0, n + 1))])), n,
                      float(rng.uniform(0.5, 0.9999))))
    for k, n, level in cases:
        expected = stats.binomtest(k, n).proportion_ci(level, "exact")
        assert clopper_pearson(k, n, level) == (expected.low, expected.high), (k, n, level)
    for bad in [(3, 2), (-1, 5), (0, 0)]:
        with pytest.raises(ValueError, match="successes"):
            clopper_pearson(*bad)


def _outcome(solver, *args, **kwargs):
    """A root, or the type of error the solver raised."""
    try:
        return solver(*args, **kwargs)
    except (ValueError, RuntimeError) as error:
        return type(error)


@pytest.mark.parametrize("f, a, b, tolerances", [
    (lambda x: x**2 - 2, 0, 3, {}),
    (lambda x: math.cos(x) - x, -1, 2, {"xtol": 1e-12, "rtol": 1e-12, "maxiter": 500}),
    (lambda x: math.expm1(x) - 1e-3, -1, 1, {}),
    (lambda x: (x - 0.3) ** 3, 0, 1, {"xtol": 1e-3}),
    (lambda x: (x - 0.3) ** 3, 0, 1, {}),  # too flat for 100 steps: neither converges
    (lambda x: stats.nct.cdf(1.5, 4, x) - 0.025, -10, 20, {"xtol": 1e-12, "rtol": 1e-12}),
    (lambda x: 1.0 if x > 0.1 else -1.0, -5, 7, {}),  # a step: bisection only
    (lambda x: x - 0.25, 0, 0.25, {}),  # a root at an end
    (lambda x: x - 0.25, 0.5, 1, {}),  # no sign change
    (lambda x: x - 0.25, 0, 1, {"maxiter": 1}),
    (lambda x: math.nan if x > 0.5 else x - 0.25, 0, 1, {}),
])
def test_brentq_is_scipys_to_the_bit(f, a, b, tolerances):
    """Brent's method as the intervals run it (clopper_pearson, the exact SNR interval)
    returns scipy.optimize.brentq's root exactly (the same steps, the same arithmetic), and
    fails where it fails, with the same type of error."""
    from scipy import optimize

    from reprocompare.estimators.reproducibility import _brentq

    ours = _outcome(_brentq, f, a, b, **tolerances)
    assert ours == _outcome(optimize.brentq, f, a, b, **tolerances)


def test_model_interval_takes_scipys_t_quantile():
    """Table 3's half-width is scipy.stats.t.ppf's quantile (taken from scipy.special's stdtrit,
    which the tables job imports instead of scipy.stats), to the bit."""
    rng = np.random.default_rng(3)
    for r in (2, 3, 5, 10, 31, 200):
        values = rng.normal(0.8, 0.02, r)
        for level in (0.95, 0.9, 0.99):
            interval = model_interval(values, level)
            se = float(values.std(ddof=1) / np.sqrt(r))
            half = float(stats.t.ppf(0.5 + level / 2, df=r - 1) * se)
            assert (interval.low, interval.high) == (values.mean() - half, values.mean() + half)

@pytest.mark.slow
def test_summary_and_intervals():
    values = np.random.default_rng(1).normal(0.01, 0.01, size=200)
    summary = summarize(values)
    assert summary.repetitions == 200 and summary.mean == pytest.approx(values.mean())
    assert summary.snr_method == "exact"
    assert summary.snr_low < summary.snr < summary.snr_high
    assert summary.reproducibility_low < summary.reproducibility < summary.reproducibility_high
    assert summary.chebyshev_bound <= summary.reproducibility + 0.05
    assert snr_bootstrap_interval(values, random_state=3) == snr_bootstrap_interval(
        values, random_state=3)
    boot = summarize(values, snr_method="bootstrap")
    assert boot.snr_method == "bootstrap" and boot.snr == summary.snr
    # the SNR of N(0.01, 0.01) is 1: a 95% interval from 200 draws covers it
    for s in (summary, boot):
        assert s.snr_low < 1.0 < s.snr_high
    with pytest.raises(ValueError, match="snr_method"):
        summarize(values, snr_method="percentile")


def _nct_cdf_by_integration(t, df, delta):
    """P(T <= t), T = (Z + delta) / sqrt(V / df): E_V[Phi(t sqrt(V / df) - delta)], V ~ chi2."""
    integrand = lambda v: stats.norm.cdf(t * math.sqrt(v / df) - delta) * stats.chi2.pdf(v, df)
    return integrate.quad(integrand, 0, np.inf, limit=200)[0]


@pytest.mark.parametrize("values", [
    [0.01, 0.02],                                  # R = 2: finite
    [0.0, 0.0, 0.0, 0.01, 0.02],                   # zeros: finite, no NaN
    [0.012, -0.004, 0.02, 0.007, 0.015, 0.001],
    list(np.random.default_rng(7).normal(0.02, 0.01, 20)),
])
def test_exact_interval_inverts_the_noncentral_t(values):
    # Each end is the SNR whose noncentral t puts the observed T at its 97.5% (low end) or
    # 2.5% (high end) quantile, checked by integrating the definition, not with scipy.stats.nct.
    low, high = snr_exact_interval(values)
    r = len(values)
    t = math.sqrt(r) * np.mean(values) / np.std(values, ddof=1)
    assert math.isfinite(low) and math.isfinite(high) and low < snr(values) < high
    assert _nct_cdf_by_integration(t, r - 1, math.sqrt(r) * low) == pytest.approx(0.975, abs=1e-6)
    assert _nct_cdf_by_integration(t, r - 1, math.sqrt(r) * high) == pytest.approx(0.025, abs=1e-6)


@pytest.mark.parametrize("seed", range(5))
def test_exact_interval_excludes_zero_iff_the_t_test_rejects(seed):
    # At SNR 0 the noncentral t is Student's t: the low end is above 0 exactly when the
    # one-sided one-sample t-test (scipy) rejects at 2.5%.
    values = np.random.default_rng(seed).normal(0.005, 0.01, 6)
    low, high = snr_exact_interval(values)
    assert (low > 0) == (stats.ttest_1samp(values, 0, alternative="greater").pvalue < 0.025)
    assert (high < 0) == (stats.ttest_1samp(values, 0, alternative="less").pvalue < 0.025)


@pytest.mark.slow
@pytest.mark.parametrize("repetitions", [5, 20])
def test_exact_interval_coverage_at_a_fixed_seed(repetitions):
    # Issue 16's acceptance: 93-97% of simulated studies cover the true SNR (the bootstrap
    # covered 65-78% at R = 5). 600 normal studies per true SNR, seed 2026: deterministic.
    rng = np.random.default_rng(2026)
    covered = total = 0
    for true_snr in (0.5, 1.5, 3.0):
        for _ in range(600):
            values = rng.normal(true_snr, 1.0, repetitions)
            low, high = snr_exact_interval(values)
            covered += low <= true_snr <= high
            total += 1
    assert 0.93 <= covered / total <= 0.97


def test_corners_give_one_documented_answer():
    # constant non-zero estimates: +-inf, the same for every R (was 5.88e15 at R = 3, inf at 5)
    for r in (2, 3, 5):
        assert snr([0.1] * r) == math.inf and snr([-0.1] * r) == -math.inf
        assert snr_exact_interval([0.1] * r) == (math.inf, math.inf)
    # equal up to rounding counts as constant: .9 - .8 and .8 - .7
    assert snr([0.9 - 0.8, 0.8 - 0.7, 0.1]) == math.inf
    just_above = 0.1 * (1 + 10 * RELATIVE_TOLERANCE)
    assert math.isfinite(snr([0.1, just_above, 0.1]))
    # all zeros: no signal, SNR 0, interval [0, 0], reproducibility 0
    zeros = summarize([0.0, 0.0, 0.0])
    assert (zeros.snr, zeros.snr_low, zeros.snr_high, zeros.reproducibility) == (0, 0, 0, 0)
    # the bootstrap never gives NaN (it did for a resample of zeros)
    for seed in range(20):
        low, high = snr_bootstrap_interval([0, 0, 0, 0.01, 0.02], random_state=seed)
        assert not (math.isnan(low) or math.isnan(high)) and low <= high
    # R = 2: finite and ordered (the bootstrap gave [2.121, inf])
    s = summarize([0.01, 0.02])
    assert math.isfinite(s.snr_low) and math.isfinite(s.snr_high) and s.snr_low < s.snr_high


def test_too_few_repetitions_is_a_clear_error():
    for values in ([], [0.1]):
        with pytest.raises(TooFewRepetitions, match="at least 2 repetitions"):
            summarize(values)
    with pytest.raises(TooFewRepetitions):
        model_interval([0.9])


def test_bias_factor():
    # E[sigma / s] for s with R - 1 degrees of freedom, by Monte Carlo at a fixed seed
    rng = np.random.default_rng(0)
    for r in (5, 20):
        s = rng.standard_normal((200_000, r)).std(axis=1, ddof=1)
        assert snr_bias_factor(r) == pytest.approx(np.mean(1 / s), rel=0.01)
    assert snr_bias_factor(5) == pytest.approx(1.2533, abs=1e-4)
    assert snr_bias_factor(2) == math.inf


def test_repetitions_needed():
    # reproducibility +-0.05: at share 1, k = R successes, CP low end (0.025)^(1/R) >= 0.9
    r = repetitions_for_reproducibility(1.0)
    assert r == math.ceil(math.log(0.025) / math.log(0.9))
    low, high = clopper_pearson(r, r)
    assert (high - low) / 2 <= 0.05 < (1 - clopper_pearson(r - 1, r - 1)[0]) / 2
    # at 0.5 the normal approximation 1.96^2 / (4 * 0.05^2) = 384 is close
    assert 384 <= repetitions_for_reproducibility(0.5) <= 410
    # SNR +-0.25: the exact interval at that R is narrow enough, one fewer is not
    for value in (0.0, 1.0, 2.5):
        r = repetitions_for_snr(value)
        width = lambda n: np.subtract(*snr_exact_interval(_with_snr(n, value))[::-1])
        assert snr(_with_snr(r, value)) == pytest.approx(value, abs=1e-12)
        assert width(r) / 2 <= 0.25 + 1e-9 < width(r - 1) / 2
    assert repetitions_for_snr(math.inf) is None
    # beyond 1,000 repetitions the normal approximation z^2 (1 + SNR^2 / 2) / 0.25^2 is used;
    # just below it the exact search agrees with that approximation within 2
    z2 = stats.norm.ppf(0.975) ** 2
    assert repetitions_for_snr(10.0) == math.ceil(z2 * (1 + 50) / 0.0625)
    assert abs(repetitions_for_snr(5.0) - z2 * (1 + 12.5) / 0.0625) <= 2
    s = summarize([0.1] * 4)
    assert s.repetitions_for_snr is None and s.repetitions_for_reproducibility == 36


def _with_snr(n, value):
    """n values whose sample SNR is exactly ``value`` (mean value, sd 1)."""
    z = np.resize([-1.0, 1.0], n)
    if n % 2:
        z[-1] = 0.0
    return value + z / np.std(z, ddof=1)


def test_model_interval_table3():
    values = [0.80, 0.82, 0.81, 0.83]
    interval = model_interval(values)
    se = np.std(values, ddof=1) / 2
    assert interval.standard_error == pytest.approx(se)
    half = 3.182446305284263 * se  # t_{0.975, 3} from tables
    assert (interval.low, interval.high) == pytest.approx((0.815 - half, 0.815 + half))


def test_errors():
    with pytest.raises(ValueError, match="at least 2 repetitions"):
        snr([0.1])
    with pytest.raises(ValueError, match="unknown conclusion"):
        reproducibility([0.1, 0.2], "A<B")
    with pytest.raises(ValueError, match="finite"):
        snr([0.1, np.nan])


# ---- issue 23: nothing silent from the Python API ----

NAN, INF = float("nan"), float("inf")


@pytest.mark.parametrize("call,message", [
    (lambda: avg([0.5, NAN], [0.4, 0.3]), r"f1_a\[1\] is nan: F1 scores must be finite"),
    (lambda: avg([0.5, 0.6], [0.4, -INF]), r"f1_b\[1\] is -inf"),
    (lambda: repeated_holdout([INF], [0.4]), r"f1_a\[0\] is inf"),
    (lambda: holdout(NAN, 0.5), "f1_a is nan"),
    (lambda: mixture(NAN, 0.01), "vote is nan: estimates must be finite"),
    (lambda: mixture(0.02, INF, "B>A"), "avg is inf"),
    (lambda: chebyshev_bound(NAN), "snr_value must be a number, got nan"),
    (lambda: chebyshev_bound("2"), "snr_value must be a number"),
    (lambda: model_interval([0.5, 0.6], confidence=2), r"confidence must lie in \(0, 1\), got 2"),
    (lambda: model_interval([0.5, 0.6], confidence=NAN), "got nan"),
    (lambda: model_interval([0.5, 0.6], confidence=0), "got 0"),
    (lambda: model_interval([0.5, NAN]), "F1 values must be finite, got nan at index 1"),
    (lambda: snr([0.1, INF]), "estimates must be finite, got inf at index 1"),
    (lambda: snr_exact_interval([0.1, 0.2], confidence=1.5), r"lie in \(0, 1\)"),
])
def test_nan_inf_and_out_of_domain_are_value_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_the_edges_that_remain_answers():
    assert chebyshev_bound(INF) == 1.0 and chebyshev_bound(-INF) == 0.0
    assert chebyshev_bound(1e200) == 1.0  # SNR^2 overflows a double; the bound is 1 there
    assert mixture(0.02, 0.01) == (0.02, "vote")


@pytest.mark.parametrize("scale", [1e-300, 1e-310, 1e300, 1.0])
def test_snr_neither_overflows_nor_underflows(scale):
    # 1, 2, 3 (times scale): mean 2, sd 1, SNR 2 by hand; 10, 1, 1, 1: mean 13/4, sd 4.5
    assert snr(np.array([1.0, 2.0, 3.0]) * scale) == pytest.approx(2.0, rel=1e-12)
    assert snr(np.array([10.0, 1.0, 1.0, 1.0]) * scale) == pytest.approx(13 / 4 / 4.5, rel=1e-12)
    low, high = snr_exact_interval(np.array([1.0, 2.0, 3.0]) * scale)
    assert low < 2.0 < high and math.isfinite(low) and math.isfinite(high)
    assert reproducibility(np.array([1.0, -2.0, 3.0]) * scale) == pytest.approx(2 / 3)


def test_snr_near_the_largest_double():
    # mean 1.65e308, sd 1e307 / sqrt(2): the squares (and the sum) overflowed before
    assert snr([1.7e308, 1.6e308]) == pytest.approx(1.65e308 / (1e307 / math.sqrt(2)))
