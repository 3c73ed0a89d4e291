"""The mean difference's interval (estimators.effect) against statsmodels on the raw estimates."""

from __future__ import annotations

import numpy as np
import pytest

from reprocompare.estimators.effect import mean_interval


@pytest.mark.parametrize("repetitions", [2, 5, 30, 1000])
@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_student_interval_matches_statsmodels(repetitions, confidence):
    from statsmodels.stats.weightstats import DescrStatsW

    values = np.random.default_rng(repetitions).normal(0.01, 0.004, repetitions)
    low, high = DescrStatsW(values).tconfint_mean(alpha=1 - confidence)
    got = mean_interval(values.mean(), values.std(ddof=1), repetitions, confidence)
    assert got.mean == pytest.approx(values.mean())
    assert (got.low, got.high) == (pytest.approx(low, rel=1e-10), pytest.approx(high, rel=1e-10))


def test_by_hand():
    # t_{4, 0.975} = 2.776445; 0.5 / sqrt(5) = 0.223607; half-width 2.776445 * 0.223607 = 0.620832
    assert mean_interval(1.0, 0.5, 5) == pytest.approx((1.0, 0.379168, 1.620832), abs=1e-6)


@pytest.mark.slow
def test_coverage_at_small_and_large_r():
    """Calibrated: the share of seeded studies whose interval holds the true mean."""
    rng = np.random.default_rng(7)
    for repetitions, studies in ((5, 4000), (1000, 1000)):
        draws = rng.normal(0.3, 1.0, (studies, repetitions))
        hits = sum(lo <= 0.3 <= hi for lo, hi in (
            mean_interval(d.mean(), d.std(ddof=1), repetitions)[1:] for d in draws))
        assert abs(hits / studies - 0.95) < 0.015, (repetitions, hits / studies)


@pytest.mark.parametrize("args", [(1.0, 0.5, 1), (float("nan"), 0.5, 5), (1.0, -1.0, 5),
                                  (1.0, float("inf"), 5)])
def test_bad_input_is_refused(args):
    with pytest.raises(ValueError):
        mean_interval(*args)
    with pytest.raises(ValueError, match="confidence"):
        mean_interval(1.0, 0.5, 5, confidence=1.0)


@pytest.mark.slow
def test_the_docs_coverage_table_is_the_benchmarks_output():
    """docs/statistics.md, "The effect in F1 points": benchmarks/bench_effect.py's table."""
    import subprocess
    import sys

    from conftest import ROOT

    text = (ROOT / "docs" / "statistics.md").read_text()
    section = text.split("<!-- effect:begin -->\n", 1)[1].split("<!-- effect:end -->", 1)[0]
    made = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_effect.py")],
                          capture_output=True, text=True, check=True).stdout
    assert section == made, "regenerate: python benchmarks/bench_effect.py --write"
    # the interval is calibrated for normal estimates at the R our users run, 5 as 1000
    rows = {int(line.split("|")[1]): line for line in made.splitlines()[2:]}
    assert all(abs(float(rows[r].split("|")[3].strip(" %")) - 95) < 0.8 for r in (5, 1000))
