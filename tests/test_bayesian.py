"""The Bayesian answers (estimators.bayesian) against baycomp, by hand, and on bad input."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest

from reprocompare.base.errors import UserError
from reprocompare.estimators.bayesian import (averaged_rho, correlated_ttest, holdout_rho,
                                              intraclass_correlation, signed_rank)

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("k, runs", [(2, 1), (5, 1), (10, 1), (10, 10), (2, 3)])
@pytest.mark.parametrize("rope", [0.0, 0.1, 0.5])
def test_correlated_t_equals_baycomp_for_k_fold_scores(k, runs, rope):
    """rho = 1/k is what baycomp's correction assumes of runs x k-fold scores."""
    from baycomp import CorrelatedTTest

    rng = np.random.default_rng([k, runs])
    a = rng.normal(0.80, 0.01, k * runs)
    b = a - rng.normal(0.002, 0.004, k * runs)
    # baycomp's differences are y - x, its p_left is P(y - x < -rope) = P(A - B > rope)
    probs = CorrelatedTTest.probs(b, a, rope=rope / 100, runs=runs)
    left, middle, right = probs if rope else (probs[0], 0.0, probs[1])
    # rho = 1/k is a k-fold's test share, (k - 1):1
    post = correlated_ttest(a - b, rope=rope, rho=holdout_rho(f"{k - 1}:1"))
    assert post.p_a_better == pytest.approx(right, abs=1e-9)
    assert post.p_rope == pytest.approx(middle, abs=1e-9)
    assert post.p_b_better == pytest.approx(left, abs=1e-9)
    assert post.rho == pytest.approx(1 / k)


def test_correlated_t_by_hand():
    # values 1, 2, 3 points: mean 0.02, s = 0.01. A t with 2 dof has cdf
    # 1/2 + x / (2 sqrt(2 + x^2)).
    # rho = 0: scale 0.01 / sqrt(3), x = 2 sqrt(3): 0.5 + 3.4641 / (2 sqrt(14)) = 0.962910
    post = correlated_ttest([0.01, 0.02, 0.03], rope=0, rho=0)
    assert post.p_a_better == pytest.approx(0.5 + 2 * math.sqrt(3) / (2 * math.sqrt(14)))
    assert (post.p_rope, post.point) == (0.0, False)
    # rho = 1/2: scale^2 = (1/3 + 1) s^2, x = 0.02 / (0.01 * sqrt(4/3)) = sqrt(3):
    # 0.5 + sqrt(3) / (2 sqrt(5))
    post = correlated_ttest([0.01, 0.02, 0.03], rope=0, rho=0.5)
    assert post.p_a_better == pytest.approx(0.5 + math.sqrt(3) / (2 * math.sqrt(5)))
    # a rope of 2 points around 0: the posterior's location is its edge, half of the t is above it
    post = correlated_ttest([0.01, 0.02, 0.03], rope=2, rho=0)
    assert post.p_a_better == pytest.approx(0.5)
    assert post.p_a_better + post.p_rope + post.p_b_better == pytest.approx(1.0)
    assert post.as_record() == {"p_a_better": post.p_a_better, "p_rope": post.p_rope,
                                "p_b_better": post.p_b_better, "rope": 2.0, "rho": 0.0,
                                "point": False}


@pytest.mark.parametrize("values, rope, expected", [
    ([0.01] * 4, 0.5, (1.0, 0.0, 0.0)),          # 1 point, beyond half a point
    ([-0.01] * 4, 0.5, (0.0, 0.0, 1.0)),
    ([0.004] * 4, 0.5, (0.0, 1.0, 0.0)),          # 0.4 point, inside
    ([0.005] * 4, 0.5, (0.0, 1.0, 0.0)),          # at the edge: the rope is closed
    ([0.0] * 4, 0, (0.0, 1.0, 0.0)),              # a point at 0 with no rope: neither wins
    ([0.01, 0.01 + 1e-18, 0.01], 0.5, (1.0, 0.0, 0.0)),   # rounding is no spread
])
def test_zero_spread_is_a_point_not_nan(values, rope, expected):
    post = correlated_ttest(values, rope=rope, rho=1 / 9)
    assert post.point
    assert (post.p_a_better, post.p_rope, post.p_b_better) == expected


@pytest.mark.parametrize("call, argument", [
    (lambda: correlated_ttest([0.01], rope=0.5, rho=0), "values"),
    (lambda: correlated_ttest([], rope=0.5, rho=0), "values"),
    (lambda: correlated_ttest([0.01, float("nan")], rope=0.5, rho=0), "values"),
    (lambda: correlated_ttest([[0.01, 0.02]], rope=0.5, rho=0), "values"),
    (lambda: correlated_ttest([0.01, 0.02], rope=-0.1, rho=0), "rope"),
    (lambda: correlated_ttest([0.01, 0.02], rope=float("inf"), rho=0), "rope"),
    (lambda: correlated_ttest([0.01, 0.02], rope=float("nan"), rho=0), "rope"),
    (lambda: correlated_ttest([0.01, 0.02], rope="wide", rho=0), "rope"),
    (lambda: correlated_ttest([0.01, 0.02], rope=0.5, rho=1), "rho"),
    (lambda: correlated_ttest([0.01, 0.02], rope=0.5, rho=-0.1), "rho"),
    (lambda: signed_rank([0.01], rope=0.5), "differences"),
    (lambda: signed_rank([0.01, 0.02], rope=-1), "rope"),
    (lambda: signed_rank([0.01, 0.02], rope=0.5, prior=0), "prior"),
    (lambda: signed_rank([0.01, 0.02], rope=0.5, samples=0), "samples"),
    (lambda: holdout_rho("8-1"), "ratio"),
    (lambda: holdout_rho("0:1"), "ratio"),
])
def test_bad_input_is_one_line_naming_the_argument(call, argument):
    with pytest.raises(UserError) as raised:
        call()
    message = str(raised.value)
    assert "\n" not in message and message.startswith(argument)
    assert raised.value.key == argument


def test_no_rope_is_a_rope_of_zero():
    assert correlated_ttest([0.01, 0.02, 0.04], rope=None, rho=0.1) == \
        correlated_ttest([0.01, 0.02, 0.04], rope=0, rho=0.1)


def test_hold_out_rho_is_the_test_share():
    assert holdout_rho("8:1") == pytest.approx(1 / 9)
    assert holdout_rho("4:1") == pytest.approx(1 / 5)
    assert holdout_rho("1:1") == 0.5


@pytest.mark.parametrize("fold_rho, folds", [(1 / 9, 1), (1 / 9, 6), (0.5, 6), (0.3, 4)])
def test_averaged_rho_is_the_correlation_of_two_repetitions_means(fold_rho, folds):
    """Two repetitions of J folds each, every pair of folds correlated rho_0: the means' exact
    correlation from the 2J x 2J covariance matrix."""
    size = 2 * folds
    cov = np.full((size, size), fold_rho) + (1 - fold_rho) * np.eye(size)
    first = np.r_[np.ones(folds), np.zeros(folds)] / folds
    second = first[::-1]
    exact = first @ cov @ second / (first @ cov @ first)
    assert averaged_rho(fold_rho, folds) == pytest.approx(exact)


def test_intraclass_correlation_recovers_rho():
    rng = np.random.default_rng(52)
    rho = 0.4
    groups = (rng.normal(0, math.sqrt(rho), (400, 1))
              + rng.normal(0, math.sqrt(1 - rho), (400, 10)))
    estimate, low, high = intraclass_correlation(groups)
    assert low < rho < high and high - low < 0.15
    assert estimate == pytest.approx(rho, abs=0.05)


def test_signed_rank_by_hand():
    # every difference above 0 and no rope: the only pair not above 0 is (0, 0), the prior's own,
    # so theta_A = 1 - w_0^2 / 2 > theta_B = w_0^2 / 2 in every sample
    post = signed_rank([0.001, 0.002, 0.01], rope=0, samples=2000)
    assert (post.p_a_better, post.p_rope, post.p_b_better) == (1.0, 0.0, 0.0)
    assert post.mc_se == 0.0 and post.rho == 0.0
    # mirrored differences, the same seed: the mirrored probabilities
    ahead = signed_rank([0.004, -0.001, 0.006, 0.002], rope=0.3, samples=5000, seed=3)
    behind = signed_rank([-0.004, 0.001, -0.006, -0.002], rope=0.3, samples=5000, seed=3)
    assert (ahead.p_a_better, ahead.p_rope, ahead.p_b_better) == \
        (behind.p_b_better, behind.p_rope, behind.p_a_better)
    # seeded: the same seed, the same answer
    assert signed_rank([0.004, -0.001, 0.006], rope=0.3, seed=9, samples=3000) == \
        signed_rank([0.004, -0.001, 0.006], rope=0.3, seed=9, samples=3000)


def test_signed_rank_with_no_spread_is_finite():
    post = signed_rank([0.003, 0.003, 0.003], rope=0.1, samples=2000)
    values = (post.p_a_better, post.p_rope, post.p_b_better)
    assert all(math.isfinite(v) for v in values) and sum(values) == pytest.approx(1.0)


@pytest.mark.slow
@pytest.mark.parametrize("differences, rope", [
    ([0.004, -0.001, 0.006, 0.002, 0.003], 0.3),
    ([0.004, -0.001, 0.006, 0.002, 0.003], 0.0),
    ([0.001, -0.002, 0.0005, 0.003, -0.001, 0.002, 0.0], 0.1),
    ([0.009, 0.012, 0.010], 0.5),
])
def test_signed_rank_equals_baycomp_within_monte_carlo_error(differences, rope):
    from baycomp import SignedRankTest

    samples = 50_000
    post = signed_rank(differences, rope=rope, samples=samples, seed=52)
    b = np.zeros(len(differences))
    a = np.asarray(differences)
    # baycomp's differences are y - x: y = A, x = B; its order is (left, rope, right)
    sample = SignedRankTest.sample(b, a, rope=rope / 100, nsamples=samples, random_state=52)
    winners = np.bincount(sample.argmax(axis=1), minlength=3) / samples
    ours = np.array([post.p_b_better, post.p_rope, post.p_a_better])
    # two independent Monte Carlo estimates: 4 standard errors of their difference
    allowed = 4 * np.sqrt(2 * np.maximum(ours * (1 - ours), 1 / samples) / samples)
    assert np.all(np.abs(ours - winners) <= allowed), (ours, winners)


@pytest.mark.slow
def test_the_calibration_blocks_are_what_the_bench_writes(monkeypatch):
    """benchmarks/RESULTS.md's and docs/bayesian.md's generated blocks are what
    benchmarks/bench_bayesian.py computes (its --check, in this process)."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))   # the bench imports its markers
    path = ROOT / "benchmarks" / "bench_bayesian.py"
    spec = importlib.util.spec_from_file_location("bench_bayesian", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--check"]) == 0
