"""benchmarks/check_designs.py, the independent check of the default design's targets: its
pieces against values computed by hand or by scipy, and its committed reading against its table.

The check is a second implementation written from the documentation; these tests pin it to
textbook values so that an agreement with the product means something.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import conftest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def check():
    return conftest.benchmark("check_designs")


def test_it_imports_nothing_of_the_product():
    text = (ROOT / "benchmarks" / "check_designs.py").read_text(encoding="utf-8")
    independent = text.split("def cross_check", 1)[0]
    for package in ("reprocompare", "estimators", "strategies"):
        assert f"import {package}" not in independent
        assert f"from {package}" not in independent


def test_looks(check):
    assert check.looks(5, 10) == (5, 10)
    assert check.looks(5, 200)[:3] == (5, 10, 15) and len(check.looks(5, 200)) == 40
    assert check.looks(5, 12) == (5, 10, 12)


def test_spending_by_hand(check):
    # a short plan: 16% of alpha at R = 5, the rest as alpha t^4 (the share at R = 10 falls on
    # the last look, which takes none): 0.008 + 0.042 / 16
    assert check.spending((5, 10), 0.05) == pytest.approx([0.008 + 0.042 / 16, 0.05])
    # a long plan: 16%, 3% and 1% at R = 5, 10 and 15, the rest (0.04) as 0.9 t^12 + 0.1 t^2
    spent = check.spending(check.looks(5, 200), 0.05)
    t = np.array([5, 10, 15, 195]) / 200
    late = 0.04 * (0.9 * t ** 12 + 0.1 * t ** 2)
    assert spent[[0, 1, 2, 38]] == pytest.approx([0.008, 0.0095, 0.01, 0.01] + late)
    for maximum in (10, 20, 200):
        spent = check.spending(check.looks(5, maximum), 0.05)
        assert spent[-1] == 0.05 and np.all(np.diff(spent) > 0)


def test_one_look_spends_all_its_error(check):
    assert check.look_levels((10,), 0.05).tolist() == [0.05]


def test_first_look_level_is_its_spending(check):
    # at the first look no path has crossed before: its level is the error allotted to it,
    # up to the calibration's Monte Carlo error (sqrt(0.0081 / 200,000) = 0.0002)
    levels = check.look_levels((5, 10, 15, 20), 0.05, paths=200_000, seed=1)
    assert levels[0] == pytest.approx(check.spending((5, 10, 15, 20), 0.05)[0], abs=8e-4)
    # later looks' levels exceed their increments (paths that crossed before are spent)
    assert np.all(levels[1:] > np.diff(check.spending((5, 10, 15, 20), 0.05)))


def test_exact_interval_at_one_look(check):
    # a single look is the fixed-R exact interval: T is the 97.5% quantile of the noncentral t
    # at the low end and the 2.5% quantile at the high end
    t, r = 3.1, 10
    low, high = check.snr_interval(t, r, 0.05)
    assert stats.nct.sf(t, r - 1, math.sqrt(r) * low) == pytest.approx(0.025, abs=1e-9)
    assert stats.nct.cdf(t, r - 1, math.sqrt(r) * high) == pytest.approx(0.025, abs=1e-9)
    # at T = 0 it is symmetric about 0
    low, high = check.snr_interval(0.0, 20, 0.05)
    assert low == pytest.approx(-high, abs=1e-9)


@pytest.mark.parametrize("r, level", [(5, 0.0106), (10, 0.0425), (20, 0.05), (200, 0.036)])
def test_critical_values_are_the_inverted_interval(check, r, level):
    c_clear, c_inside = check.critical_values(r, level)
    for t in np.linspace(-12, 12, 25) + 0.0137:
        low, high = check.snr_interval(float(t), r, level)
        assert (t >= c_clear) == (low >= check.Z)
        assert (t > c_inside) == (low > -check.Z)
        assert (t < -c_inside) == (high < check.Z)
        assert (t <= -c_clear) == (high <= -check.Z)


def test_clopper_pearson_is_scipys(check):
    k = np.array([0, 3, 17, 20])
    low, high = check.clopper_pearson(k, 20, 0.05)
    for i, x in enumerate(k):
        ci = stats.binomtest(int(x), 20).proportion_ci(0.95, method="exact")
        assert (low[i], high[i]) == pytest.approx((ci.low, ci.high), abs=1e-10)


def test_a_clear_study_decides_at_its_first_look(check):
    values = np.array([[1.0, 1.1, 0.9, 1.05, 0.95, 1.0, 1.02, 0.98, 1.01, 0.99]])
    decisions = check.decide(values, (5, 10), np.array([0.0106, 0.0425]))
    assert decisions.tolist() == [["A>B", "A>B"]]
    assert check.decide(-values, (5, 10), np.array([0.0106, 0.0425])).tolist() == \
        [["B>A", "B>A"]]


def test_committed_reading_follows_its_table(check):
    text = (ROOT / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    begin, end = check.MARKERS
    if begin not in text:
        pytest.skip("no designs-check block yet")
    block = text.split(begin, 1)[1].split(end, 1)[0]
    table = "\n".join(line for line in block.splitlines() if line.startswith("|"))
    assert check.reading(table) in block


def test_the_exact_fixed_look(check):
    # at the true SNR Phi^-1(0.8) the low end clears the threshold exactly half the error's
    # worth of the time: T >= c_clear has probability 2.5% under the noncentral t there
    c_clear, _ = check.critical_values(10, 0.05)
    assert stats.nct.sf(c_clear, 9, math.sqrt(10) * check.Z) == pytest.approx(0.025, abs=1e-9)
    # just below it (SNR 0.84, where the right verdict is "neither") a wrong "A > B" is a
    # little rarer; a fixed look at a maximum the normality check reads is not exact
    assert 2.4 < check.exact_fixed(10, 0.84, "wrong") < 2.5
    assert check.exact_fixed(20, 0.84, "wrong") is None
