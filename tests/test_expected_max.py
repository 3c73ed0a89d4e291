"""Tests for estimators.expected_max: brute-force enumeration, closed forms, simulation."""

from __future__ import annotations

import itertools
import math
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

from reprocompare.base.errors import UserError
from reprocompare.estimators.expected_max import (
    ExpectedMax,
    budget_to_reach,
    crossings,
    expected_max,
    expected_max_meanmax,
    expected_max_unbiased,
)
from reprocompare.estimators.expected_max_bias import simulate_bias, true_expected_max
from reprocompare.estimators.trial_scores import read_scores


def _brute_force(scores, draws):
    """Mean and std of max over every draw of indices produced by ``draws(N, n)``, n = 1..N."""
    v = np.asarray(scores, dtype=float)
    mean, std = [], []
    for n in range(1, v.size + 1):
        maxima = np.array([v[list(ix)].max() for ix in draws(v.size, n)])
        mean.append(maxima.mean())
        std.append(maxima.std())
    return np.array(mean), np.array(std)


def _with_replacement(size, n):
    return itertools.product(range(size), repeat=n)  # N^n equally likely ordered draws


def _without_replacement(size, n):
    return itertools.combinations(range(size), n)  # C(N, n) equally likely subsets


def _eq8_over_distinct_values(scores, n):
    """Dodge et al. Eq. 8 literally: sum over distinct v of v (P(V <= v)^n - P(V < v)^n)."""
    v = np.asarray(scores, dtype=float)
    return sum(x * (np.mean(v <= x) ** n - np.mean(v < x) ** n) for x in np.unique(v))


# ---------------------------------------------------------------------------------- MeanMax


def test_meanmax_hand_values_with_a_tie():
    # Sorted .5, .7, .7, .9; n = 2: weights (i/4)^2 - ((i-1)/4)^2 = 1/16, 3/16, 5/16, 7/16
    res = expected_max_meanmax([0.7, 0.9, 0.5, 0.7])
    assert isinstance(res, ExpectedMax)
    assert res.expected[0] == pytest.approx(0.7)  # n = 1: the mean
    assert res.expected[1] == pytest.approx((0.5 * 1 + 0.7 * 3 + 0.7 * 5 + 0.9 * 7) / 16)
    second = (0.25 * 1 + 0.49 * 8 + 0.81 * 7) / 16
    assert res.std[1] == pytest.approx(math.sqrt(second - res.expected[1] ** 2))


@pytest.mark.parametrize("scores", [
    [0.3, 0.8, 0.5, 0.6, 0.1],
    [0.5, 0.5, 0.7, 0.5, 0.7],  # ties
    [0.42, 0.42, 0.42],  # all tied
    [0.9],
])
def test_meanmax_matches_enumeration_with_replacement(scores):
    mean, std = _brute_force(scores, _with_replacement)
    res = expected_max_meanmax(scores)
    np.testing.assert_allclose(res.expected, mean, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(res.std, std, rtol=1e-9, atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([0.61, 0.65, 0.7, 0.7, 0.72, 0.9]), min_size=1, max_size=5))
def test_meanmax_matches_enumeration_property(scores):
    mean, std = _brute_force(scores, _with_replacement)
    res = expected_max_meanmax(scores)
    np.testing.assert_allclose(res.expected, mean, rtol=1e-12)
    np.testing.assert_allclose(res.std, std, rtol=1e-7, atol=1e-7)


def test_meanmax_position_form_equals_eq8_with_many_ties():
    # Accuracies on a 200-item set: many exact ties, as in practice.
    scores = np.random.default_rng(0).binomial(200, 0.7, 60) / 200
    assert np.unique(scores).size < 40
    res = expected_max_meanmax(scores)
    for n in (1, 2, 5, 17, 60):
        assert res.expected[n - 1] == pytest.approx(_eq8_over_distinct_values(scores, n))


def test_meanmax_closed_form_for_an_indicator_sample():
    # One 1 among N - 1 zeros: the max of n draws with replacement is 1 unless all miss it.
    n_total = 5000
    scores = np.zeros(n_total)
    scores[1234] = 1.0
    res = expected_max_meanmax(scores)
    n = np.arange(1, n_total + 1)
    np.testing.assert_allclose(res.expected, 1 - (1 - 1 / n_total) ** n, rtol=1e-10)


# ---------------------------------------------------------------------------------- unbiased


def test_unbiased_hand_values():
    # Sorted .5, .7, .7, .9; n = 2: weights C(i-1, 1) / C(4, 2) = 0, 1/6, 2/6, 3/6
    res = expected_max_unbiased([0.7, 0.9, 0.5, 0.7])
    assert res.expected == pytest.approx([0.7, (0.7 * 1 + 0.7 * 2 + 0.9 * 3) / 6, 0.85, 0.9])
    assert res.std[-1] == 0.0  # n = N: the max of the only subset


@pytest.mark.parametrize("scores", [
    [0.3, 0.8, 0.5, 0.6, 0.1, 0.75, 0.2],
    [0.5, 0.5, 0.7, 0.5, 0.7, 0.7],  # ties
    [0.42, 0.42, 0.42],
    [0.9],
])
def test_unbiased_matches_enumeration_of_subsets(scores):
    mean, std = _brute_force(scores, _without_replacement)
    res = expected_max_unbiased(scores)
    np.testing.assert_allclose(res.expected, mean, rtol=1e-12)
    np.testing.assert_allclose(res.std, std, rtol=1e-7, atol=1e-7)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0, 1, allow_nan=False).map(lambda x: round(x, 2)), min_size=1,
                max_size=8))
def test_unbiased_matches_enumeration_property(scores):
    mean, std = _brute_force(scores, _without_replacement)
    res = expected_max_unbiased(scores)
    np.testing.assert_allclose(res.expected, mean, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(res.std, std, rtol=1e-7, atol=1e-7)


def test_unbiased_large_n_closed_forms():
    # N = 5000 overflows C(N, n) in doubles. Two closed forms:
    # scores 1..N: the expected max of an n-subset of {1..N} is n (N + 1) / (n + 1);
    # one 1 among zeros: P(the subset contains it) = n / N.
    n_total = 5000
    n = np.arange(1, n_total + 1)
    ramp = expected_max_unbiased(np.random.default_rng(1).permutation(n_total) + 1.0)
    assert np.all(np.isfinite(ramp.expected)) and np.all(np.isfinite(ramp.std))
    np.testing.assert_allclose(ramp.expected, n * (n_total + 1) / (n + 1), rtol=1e-9)
    indicator = np.zeros(n_total)
    indicator[17] = 1.0
    res = expected_max_unbiased(indicator)
    np.testing.assert_allclose(res.expected, n / n_total, rtol=1e-9)
    # Bernoulli max: std = sqrt(p (1 - p)).
    np.testing.assert_allclose(res.std, np.sqrt(n / n_total * (1 - n / n_total)), atol=1e-7)


def test_unbiased_weights_sum_to_one_at_large_n():
    # A constant sample gives that constant for every n only if each row of weights sums to 1.
    res = expected_max_unbiased(np.full(5000, 0.8125))
    np.testing.assert_allclose(res.expected, 0.8125, rtol=1e-12)
    np.testing.assert_allclose(res.std, 0.0, atol=1e-6)


def test_endpoints_and_ordering_of_the_two_estimators():
    scores = np.random.default_rng(2).normal(0.8, 0.05, 40)
    unbiased, meanmax = expected_max_unbiased(scores), expected_max_meanmax(scores)
    for res in (unbiased, meanmax):
        assert res.expected[0] == pytest.approx(scores.mean())  # n = 1: the mean
        assert np.all(np.diff(res.expected) >= -1e-12)  # more budget never hurts
        assert np.all(res.expected <= scores.max() + 1e-12)
    assert unbiased.expected[-1] == pytest.approx(scores.max())  # n = N: the sample max
    assert unbiased.std[-1] == 0.0
    assert meanmax.expected[-1] < scores.max()
    # Tang et al. Theorem 1: MeanMax <= unbiased for every n, strictly for n > 1 here.
    assert np.all(meanmax.expected[1:] < unbiased.expected[1:])


def test_input_order_does_not_matter():
    scores = np.random.default_rng(3).uniform(size=25)
    for fn in (expected_max_unbiased, expected_max_meanmax):
        a, b = fn(scores), fn(scores[::-1])
        np.testing.assert_allclose(a.expected, b.expected, rtol=1e-14)
        np.testing.assert_allclose(a.std, b.std, rtol=1e-10, atol=1e-14)


# ---------------------------------------------------------------------------------- dispatch


def test_expected_max_dispatches():
    scores = [0.7, 0.9, 0.5, 0.7]
    np.testing.assert_array_equal(expected_max(scores).expected,
                                  expected_max_unbiased(scores).expected)  # the default
    np.testing.assert_array_equal(expected_max(scores, estimator="meanmax").expected,
                                  expected_max_meanmax(scores).expected)
    np.testing.assert_array_equal(expected_max(scores, estimator="unbiased").std,
                                  expected_max_unbiased(scores).std)


@pytest.mark.parametrize("scores, kwargs, match", [
    ([0.5], {"estimator": "bootstrap"}, "unknown estimator"),
    ([], {}, "empty"),
    ([0.5, np.nan], {}, "NaN"),
    ([0.5, np.nan], {"estimator": "meanmax"}, "NaN"),
    ([0.5, np.inf], {}, "infinite"),
    ([[0.5, 0.6]], {}, "one-dimensional"),
])
def test_expected_max_rejects_bad_input(scores, kwargs, match):
    with pytest.raises(ValueError, match=match):
        expected_max(scores, **kwargs)


# ------------------------------------------------------------------------- reading the curves


def test_budget_to_reach():
    curve = [0.5, 0.6, 0.7]
    assert budget_to_reach(curve, 0.1) == 1
    assert budget_to_reach(curve, 0.6) == 2  # reaching means >=
    assert budget_to_reach(curve, 0.65) == 3
    assert budget_to_reach(curve, 0.8) is None
    assert type(budget_to_reach(np.array(curve), 0.6)) is int
    with pytest.raises(ValueError, match="NaN"):
        budget_to_reach([0.5, np.nan], 0.6)


def test_budget_to_reach_on_a_real_curve():
    # Unbiased curve of 1..10 is n * 11 / (n + 1): 5.5, 7.33, 8.25, 8.8, 9.17, ...
    curve = expected_max_unbiased(np.arange(1.0, 11.0)).expected
    assert budget_to_reach(curve, 8.8) == 4
    assert budget_to_reach(curve, 8.81) == 5
    assert budget_to_reach(curve, 10.0) == 10
    assert budget_to_reach(curve, 10.01) is None


@pytest.mark.parametrize("diff, expected", [
    ([1, 1, 0, -1, -1, 2], [4, 6]),  # the tie at 3 is skipped; new leaders at 4 and 6
    ([1, 0, 1], []),  # touching is not crossing
    ([0, 0, -1, 1], [4]),  # leading ties are skipped
    ([0, 0, 0], []),
    ([-1, 1, -1], [2, 3]),
    ([2], []),
])
def test_crossings_hand_cases(diff, expected):
    b = np.linspace(0.5, 0.6, len(diff))
    assert crossings(b + np.array(diff, dtype=float) / 100, b) == expected


def test_crossings_on_estimated_curves():
    # A: steady (low variance) model; B: erratic but sometimes excellent. A leads at budget 1
    # (higher mean), B overtakes once the budget lets it hit its good configurations.
    a = expected_max_unbiased([0.80, 0.81, 0.82, 0.81, 0.80, 0.82, 0.81, 0.80])
    b = expected_max_unbiased([0.60, 0.90, 0.70, 0.65, 0.88, 0.62, 0.75, 0.68])
    cross = crossings(a.expected, b.expected)
    assert len(cross) == 1
    n = cross[0]
    assert a.expected[n - 2] > b.expected[n - 2] and b.expected[n - 1] > a.expected[n - 1]
    assert crossings(b.expected, a.expected) == cross


def test_crossings_rejects_mismatched_curves():
    with pytest.raises(ValueError, match="same budgets"):
        crossings([0.1, 0.2], [0.1])


# --------------------------------------------------------------------------------- simulation


def test_true_expected_max_against_closed_forms_and_another_integral():
    # Unclipped normal: E[max of 1, 2, 3] = mu, mu + sigma / sqrt(pi), mu + 3 sigma / (2 sqrt(pi)).
    # Clipping at 1 (4 sigma) removes E[(M - 1)+] = int_1^inf (1 - Phi^n) dx (~1e-6), and
    # clipping at 0 (16 sigma) nothing measurable.
    norm = stats.norm(0.8, 0.05)
    for n, closed_form in [(1, 0.8), (2, 0.8 + 0.05 / math.sqrt(math.pi)),
                           (3, 0.8 + 1.5 * 0.05 / math.sqrt(math.pi))]:
        above_one, _ = integrate.quad(lambda x: -math.expm1(n * norm.logcdf(x)), 1, 2,
                                      epsabs=1e-15)
        assert above_one > 1e-7
        assert true_expected_max("normal", n) + above_one == pytest.approx(closed_form,
                                                                           abs=1e-11)
    # Beta(16, 4): mean 16/20; larger n against the density form int n x f(x) F(x)^(n-1) dx.
    beta = stats.beta(16, 4)
    assert true_expected_max("beta", 1) == pytest.approx(0.8, rel=1e-10)
    for n in (5, 50):
        density_form, _ = integrate.quad(lambda x: n * x * beta.pdf(x) * beta.cdf(x) ** (n - 1),
                                         0, 1, epsabs=1e-13, limit=200)
        assert true_expected_max("beta", n) == pytest.approx(density_form, rel=1e-9)


def test_true_expected_max_against_monte_carlo():
    rng = np.random.default_rng(0)
    maxima = np.clip(rng.normal(0.8, 0.05, size=(200_000, 20)), 0, 1).max(axis=1)
    se = maxima.std() / math.sqrt(maxima.size)
    assert abs(true_expected_max("normal", 20) - maxima.mean()) < 4 * se


@pytest.mark.parametrize("distribution", ["normal", "beta"])
def test_simulate_bias_reproduces_tang_et_al(distribution):
    n_trials = 20
    df = simulate_bias(distribution=distribution, n_trials=n_trials, budgets=[1, 5, 10, 20],
                       n_simulations=3000, random_state=0)
    assert list(df.columns) == ["estimator", "n", "bias", "mc_se"]
    assert sorted(df.estimator.unique()) == ["meanmax", "unbiased"]
    mm = df[df.estimator == "meanmax"].set_index("n")
    ub = df[df.estimator == "unbiased"].set_index("n")
    # MeanMax: significantly negative near n = N, and growing in magnitude with n.
    for n in (10, 20):
        assert mm.bias[n] + 3 * mm.mc_se[n] < 0
    assert mm.bias[20] < mm.bias[10] < mm.bias[5]
    # Unbiased: zero within Monte Carlo error at every budget.
    assert np.all(np.abs(ub.bias) <= 3 * ub.mc_se)
    # At n = 1 both are the sample mean.
    assert mm.bias[1] == pytest.approx(ub.bias[1])


def test_simulate_bias_is_seeded_and_checks_arguments():
    a = simulate_bias(n_trials=10, budgets=[2, 10], n_simulations=200, random_state=3)
    b = simulate_bias(n_trials=10, budgets=[2, 10], n_simulations=200, random_state=3)
    assert a.equals(b)
    assert len(simulate_bias(n_trials=8, n_simulations=50)) == 2 * 5  # default: 1, N/4 .. N
    with pytest.raises(ValueError, match="unknown distribution"):
        simulate_bias(distribution="cauchy")
    with pytest.raises(ValueError, match="budgets"):
        simulate_bias(n_trials=10, budgets=[11])


# ---------------------------------------------------------------------------------- the file


def test_read_scores_one_column(tmp_path):
    path = tmp_path / "scores.txt"
    path.write_bytes("\ufeff# dev accuracy per trial\r\n0.81\r\n\r\n  0.79  # seed 2\r\n.8\r\n"
                     .encode("utf-8"))
    scores, runtimes = read_scores(path)
    np.testing.assert_array_equal(scores, [0.81, 0.79, 0.8])
    assert runtimes is None


def test_read_scores_two_columns(tmp_path):
    path = tmp_path / "scores.txt"
    path.write_text("0.81 120\n# comment\n0.79\t3600.5\n")
    scores, runtimes = read_scores(str(path))
    np.testing.assert_array_equal(scores, [0.81, 0.79])
    np.testing.assert_array_equal(runtimes, [120.0, 3600.5])


@pytest.mark.parametrize("text, line, match", [
    ("0.8\n0.7\nabc\n", 3, "score is not a number: 'abc'"),
    ("0.8\n\nnan\n", 3, "finite"),
    ("0.8\ninf\n", 2, "finite"),
    ("0.8 10\n0.7 x\n", 2, "runtime is not a number"),
    ("0.8 10\n0.7 NaN\n", 2, "finite"),
    ("0.8 10 3\n", 1, "expected 1 column"),
    ("# header\n0.8\n0.7 20\n", 3, "expected 1 column"),
    ("0.8 20\n0.7\n", 2, "expected 2 column"),
    ("0.8 -5\n", 1, "non-negative"),
])
def test_read_scores_errors_name_file_and_line(tmp_path, text, line, match):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(ValueError, match=match) as info:
        read_scores(path)
    assert str(info.value).startswith(f"{path}:{line}: ")


def test_read_scores_empty_or_missing_file(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("# nothing yet\n\n")
    with pytest.raises(ValueError, match="no scores") as info:
        read_scores(path)
    assert str(info.value).startswith(f"{path}: ")
    with pytest.raises(ValueError, match="cannot read"):
        read_scores(tmp_path / "missing.txt")


# ------------------------------------------------------------------ O(N log N), issue 23


def _full_weights_curve(scores, estimator):
    """The sums as written (before issue 23): every budget weighs every order statistic."""
    v = np.sort(np.asarray(scores, dtype=float))
    n_total = v.size
    i = np.arange(1, n_total + 1)
    n = np.arange(1, n_total + 1)[:, None]
    if estimator == "meanmax":
        w = (i / n_total) ** n - ((i - 1) / n_total) ** n
    else:
        w = np.array([[math.comb(int(k) - 1, int(b) - 1) / math.comb(n_total, int(b))
                       if k >= b else 0.0 for k in i] for b in n[:, 0]])
    expected = w @ v
    return expected, np.clip(w @ (v * v) - expected**2, 0.0, None)


@pytest.mark.slow
@pytest.mark.parametrize("estimator", ["unbiased", "meanmax"])
@pytest.mark.parametrize("size", [1, 2, 5, 60, 300])
def test_the_windowed_curve_is_the_full_sum(estimator, size):
    rng = np.random.default_rng(size)
    for scores in (rng.random(size), rng.integers(0, 4, size) / 4.0, rng.standard_cauchy(size)):
        expected, var = _full_weights_curve(scores, estimator)
        curve = expected_max(scores, estimator=estimator)
        # the weights are ratios of log-factorials: ~1e-12 relative (see unbiased_weights)
        scale = float(np.max(np.abs(scores)))
        np.testing.assert_allclose(curve.expected, expected, rtol=1e-12, atol=1e-12 * scale)
        # the variance is E[M^2] - E[M]^2: equal to the rounding of E[M^2]
        np.testing.assert_allclose(curve.std**2, var, rtol=0,
                                   atol=1e-12 * scale**2)


def test_the_windowed_curve_by_hand():
    # .5 .7 .7 .9, n = 2 without replacement: the 6 pairs' maxima are .7 .7 .9 .7 .9 .9
    assert expected_max_unbiased([0.7, 0.9, 0.5, 0.7]).expected[1] == pytest.approx(0.8)
    # n = 3 with replacement: weights (i/4)^3 - ((i-1)/4)^3 = 1, 7, 19, 37 over 64
    assert expected_max_meanmax([0.7, 0.9, 0.5, 0.7]).expected[2] == pytest.approx(
        (0.5 * 1 + 0.7 * 7 + 0.7 * 19 + 0.9 * 37) / 64)


@pytest.mark.parametrize("estimator", ["unbiased", "meanmax"])
def test_the_curve_weighs_n_log_n_terms_not_n_squared(monkeypatch, estimator):
    """What is computed is counted, not timed (benchmarks/RESULTS.md has the seconds): at
    N = 20,000 the full sums weigh 4e8 terms, the windows at most 60 N ln N = 1.2e7."""
    from reprocompare.estimators import expected_max as module

    computed = []
    name = "unbiased_weights" if estimator == "unbiased" else "meanmax_weights"
    original = getattr(module, name)

    def counting(n_total, budgets, first=1):
        w = original(n_total, budgets, first)
        computed.append(w.size)
        return w

    monkeypatch.setattr(module, name, counting)
    size = 20_000
    scores = np.random.default_rng(0).random(size)
    curve = getattr(module, f"expected_max_{estimator}")(scores)
    assert sum(computed) <= 60 * size * math.log(size) < size**2 / 30
    assert curve.expected[0] == pytest.approx(scores.mean(), rel=1e-12)
    assert curve.expected[-1] <= scores.max() and np.all(np.diff(curve.expected) >= -1e-15)


def test_read_scores_refuses_a_fifo_without_blocking(tmp_path):
    fifo = tmp_path / "scores"
    os.mkfifo(fifo)
    with pytest.raises(UserError, match=r"scores: not a regular file \(a directory, FIFO"):
        read_scores(fifo)  # reading it would wait for a writer forever


def test_simulate_bias_refuses_what_does_not_fit_in_memory():
    with pytest.raises(ValueError, match=r"n_trials x n_simulations = 10,000,000,000 scores"):
        simulate_bias(n_trials=10_000, n_simulations=1_000_000)
    with pytest.raises(ValueError, match="n_simulations must be an integer"):
        simulate_bias(n_simulations=2.5)
