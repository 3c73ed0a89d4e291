"""The planned (group-sequential) design (issue 39): estimators/group_sequential.py and the
verdict that reads its repeated confidence intervals.

- with known variance the calibration reproduces the published Lan-DeMets boundaries;
- on the t statistics it is built for, an independent seeded simulation covers at every planned
  look with the nominal probability, where the textbook (normal) boundaries do not;
- ``verdict(planned=True)`` is each planned look's exact interval at its own level,
  intersected, narrower than the confidence sequence, and it decides sooner;
- bad plans are refused with a message naming the argument.
"""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest
from scipy import stats

from reprocompare.estimators import group_sequential
from reprocompare.estimators.group_sequential import (MAX_LOOKS, look_confidences,
                                                      look_levels, planned_looks)
from reprocompare.estimators.reproducibility import snr_exact_interval
from reprocompare.estimators.verdict import replay, verdict


def _z(levels):
    return [float(stats.norm.isf(a / 2)) for a in levels]


@pytest.mark.parametrize("spending, published", [
    # Lan and DeMets (1983), five equally spaced looks, two-sided alpha = 0.05 (also gsDesign's
    # and ldbounds' values); the O'Brien-Fleming type's first look spends 1.1e-6, a fifth of a
    # path of 200,000: spent by Bonferroni, which is exact at a first look
    ("pocock", [2.438, 2.427, 2.410, 2.397, 2.386]),
    ("obrien-fleming", [4.877, 3.357, 2.680, 2.290, 2.031]),
])
def test_known_variance_reproduces_the_published_boundaries(spending, published):
    z = _z(look_levels((20, 40, 60, 80, 100), 0.05, spending, known_variance=True))
    for got, want in zip(z, published):
        assert got == pytest.approx(want, abs=0.015)


def test_one_look_is_the_fixed_design():
    """A plan of one look spends all of alpha there, exactly: the fixed-R interval at 95%; a
    verdict of that plan claims nothing before the look and is the fixed-R verdict at it."""
    assert look_levels((10,), 0.05) == (0.05,)
    values = 0.01 * (3.0 + np.random.default_rng(4).standard_normal(10))
    plan = dict(time_uniform=False, planned=True, wave=10, max_repetitions=10)
    early = verdict(values[:5], **plan)
    assert early.decision == "undecided" and early.looks == ()
    at_max, fixed = verdict(values, **plan), verdict(values, time_uniform=False)
    assert at_max.decision == fixed.decision != "undecided"
    assert at_max.reproducibility_low == fixed.reproducibility_low


def test_the_default_spending_by_hand():
    """Shares of alpha at the first looks at or after R = 5 and 10 (16% and 8%), the rest as
    alpha t^4; the last look spends what is left, and a share that would fall on the last look
    is not allotted (a maximum of 10 keeps 92% for its last look)."""
    spent = group_sequential.early_then_late_spending([5, 10, 15, 20], 0.05)
    rest = 0.05 * (1 - 0.24)
    assert spent == pytest.approx([0.008 + rest / 256, 0.012 + rest / 16,
                                   0.012 + rest * 81 / 256, 0.05])
    assert group_sequential.early_then_late_spending([5, 10], 0.05) == pytest.approx(
        [0.008 + 0.05 * 0.84 / 16, 0.05])
    assert group_sequential.early_then_late_spending([1, 2, 3], 0.05) == pytest.approx(
        [0.05 / 81, 0.05 * 16 / 81, 0.05])


def test_the_default_spending_of_a_longer_plan_by_hand():
    """Past a maximum of 20: shares of 16%, 3% and 1% of alpha at the first looks at or after
    R = 5, 10 and 15, the rest as alpha (0.9 t^12 + 0.1 t^2) (issue 47: near the threshold it
    keeps the error for the last looks); a maximum of 20 keeps the short schedule."""
    assert group_sequential.SHORT_MAXIMUM == 20
    late = lambda t: 0.9 * t ** 12 + 0.1 * t ** 2  # noqa: E731
    rest = 0.05 * (1 - 0.20)
    spent = group_sequential.early_then_late_spending([5, 10, 15, 20, 25], 0.05)
    assert spent == pytest.approx([0.008 + rest * late(0.2), 0.0095 + rest * late(0.4),
                                   0.01 + rest * late(0.6), 0.01 + rest * late(0.8), 0.05])
    # waves of 2: the shares fall on the first looks at or after 5, 10 and 15 (R = 6, 10, 16)
    looks = list(range(2, 42, 2))
    spent = group_sequential.early_then_late_spending(looks, 0.05)
    allotted = [0.008 * (r >= 6) + 0.0015 * (r >= 10) + 0.0005 * (r >= 16) for r in looks]
    assert spent[:-1] == pytest.approx([a + rest * late(r / 40)
                                        for a, r in zip(allotted, looks)][:-1])
    assert spent[-1] == 0.05 and np.all(np.diff(spent) > 0)
    # the longer plan's last look keeps more of alpha than t^4 would leave it
    plan = planned_looks(5, 200)
    assert look_levels(plan, 0.05)[-1] > 0.035


def _coverage_at_every_look(plan, levels, studies=40_000, seed=5):
    """Share of simulated null studies (SNR 0, t statistics) whose interval covers 0 at every
    planned look: an independent simulation (another seed, values drawn one by one)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((studies, plan[-1]))
    missed = np.zeros(studies, dtype=bool)
    for r, level in zip(plan, levels):
        head = x[:, :r]
        t = math.sqrt(r) * head.mean(axis=1) / head.std(axis=1, ddof=1)
        missed |= 2 * stats.t.sf(np.abs(t), r - 1) <= level
    return 1 - missed.mean()


def _canonical_levels(plan, alpha, spending="pocock"):
    """The textbook boundaries: the same calibration on z statistics (the normal law)."""
    return look_levels(plan, alpha, spending, known_variance=True)


@pytest.mark.parametrize("spending", ["early-then-late", "pocock"])
@pytest.mark.parametrize("wave, maximum", [(1, 30), (5, 10), (2, 20),
                                           pytest.param(5, 200, marks=pytest.mark.slow)])
def test_the_levels_cover_at_every_planned_look(wave, maximum, spending):
    plan = planned_looks(wave, maximum)
    covered = _coverage_at_every_look(plan, look_levels(plan, 0.05, spending))
    # 40,000 studies: a standard error of 0.0011
    assert covered == pytest.approx(0.95, abs=0.0035)


def test_the_textbook_boundaries_would_not_cover():
    """Why the levels are calibrated on t statistics: with the normal law's boundaries, looks
    after every repetition (few degrees of freedom, a shared variance estimate) miss more."""
    plan = planned_looks(1, 30)
    assert _coverage_at_every_look(plan, _canonical_levels(plan, 0.05)) < 0.945
    assert _coverage_at_every_look(plan, look_levels(plan, 0.05, "pocock")) > 0.9465


@pytest.mark.slow
def test_levels_are_deterministic_and_below_alpha():
    plan = planned_looks(5, 200)
    levels = look_levels(plan, 0.05)
    look_levels.cache_clear()
    assert look_levels(plan, 0.05) == levels
    assert all(0 < a < 0.05 for a in levels)
    # the union of the looks' errors is alpha, so the looks' own errors add up to more
    assert sum(levels) > 0.05
    assert list(look_confidences(5, 200, 0.95)) == list(plan)


@pytest.mark.parametrize("looks, alpha, spending, message", [
    ((5, 5), 0.05, "pocock", "increasing"),
    ((1, 5), 0.05, "pocock", ">= 2"),
    (tuple(range(2, MAX_LOOKS + 3)), 0.05, "pocock", "at most 200 looks"),
    ((5, 10), 1.5, "pocock", "alpha"),
    ((5, 10), 0.05, "haybittle", "spending"),
])
def test_bad_plans_are_refused(looks, alpha, spending, message):
    with pytest.raises(ValueError, match=message):
        look_levels(looks, alpha, spending)


def _study(snr, n, seed):
    return np.random.default_rng(seed).normal(snr, 1.0, n)


def test_the_planned_interval_is_each_looks_exact_interval_intersected():
    values = _study(1.5, 20, 3)
    levels = look_confidences(5, 20, 0.95)
    got = verdict(values, wave=5, max_repetitions=20, time_uniform=False, planned=True)
    ends = [snr_exact_interval(values[:r], confidence=c) for r, c in levels.items()]
    assert got.snr_low == pytest.approx(max(low for low, _ in ends))
    assert got.snr_high == pytest.approx(min(high for _, high in ends))
    assert got.looks == (5, 10, 15, 20) and got.planned
    assert "planned look" in got.interval


def test_an_unplanned_look_claims_nothing():
    values = _study(1.5, 20, 3)
    between = verdict(values[:12], wave=5, max_repetitions=20, time_uniform=False, planned=True)
    at_ten = verdict(values[:10], wave=5, max_repetitions=20, time_uniform=False, planned=True)
    assert between.looks == (5, 10)
    assert (between.snr_low, between.snr_high) == (at_ten.snr_low, at_ten.snr_high)
    # before the first planned look there is no interval at all
    early = verdict(values[:3], wave=5, max_repetitions=20, time_uniform=False, planned=True)
    assert early.looks == () and early.decision == "undecided"
    assert (early.snr_low, early.snr_high) == (-math.inf, math.inf)


def test_planned_intervals_lie_between_the_fixed_and_the_anytime_ones():
    """At one look (before intersections can narrow either): a planned look's level lies
    above the nominal one and spends less than the sequence's whole-path guarantee."""
    values = _study(1.0, 5, 8)
    fixed = verdict(values, time_uniform=False)
    planned = verdict(values, wave=5, max_repetitions=10, time_uniform=False, planned=True)
    anytime = verdict(values, wave=5, max_repetitions=10)
    width = lambda v: v.snr_high - v.snr_low  # noqa: E731
    assert width(fixed) < width(planned) < width(anytime)


def test_a_planned_study_of_ten_decides_where_the_sequence_cannot():
    """SNR 2 with a maximum of 10 (the R our users run): over 40 seeded studies the planned
    design decides "A > B" in many, the confidence sequence in few."""
    planned = anytime = 0
    for seed in range(40):
        values = _study(2.0, 10, seed)
        planned += replay(values, 5, time_uniform=False, planned=True,
                          max_repetitions=10).decided
        anytime += replay(values, 5, max_repetitions=10).decided
    assert planned >= anytime + 8


@pytest.mark.parametrize("settings", [dict(time_uniform=True), dict(time_uniform=False,
                                                                     wave=None)])
def test_a_planned_verdict_needs_a_wave_and_no_sequence(settings):
    with pytest.raises(ValueError, match="planned"):
        verdict(_study(1.0, 10, 1), **{"wave": 5, **settings}, max_repetitions=10, planned=True)


def test_doctests():
    assert doctest.testmod(group_sequential).failed == 0


@pytest.mark.parametrize("maximum, shown", [(10, "looks at R = 5, 10, each"),
                                            (200, "looks at R = 5, 10, ..., 200, each")])
def test_the_rule_names_the_planned_looks(maximum, shown):
    from reprocompare.estimators.verdict import rule

    assert shown in rule(planned=True, wave=5, max_repetitions=maximum, time_uniform=False)
