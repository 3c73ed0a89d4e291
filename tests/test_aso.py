"""Almost stochastic order (estimators.aso) against deepsig itself, and its measured size."""

from __future__ import annotations

import doctest
import json
import re

import numpy as np
import pytest

import conftest

from conftest import ROOT
from reprocompare.estimators import aso as module
from reprocompare.estimators.aso import (MEASURED_SIZE, almost_stochastic_order,
                                         calibration_note)

# (n, m, shift of A, seed, confidence, comparisons, bootstrap iterations): small R as a study
# has it, unequal sizes, ties, a clear winner, both orders, deepsig's Bonferroni step; the
# default 1000 iterations once: deepsig's scalar quantile function makes each of its
# iterations 3 ms, and an iteration is the same code at any count
CASES = [(5, 5, 0.0, 1, 0.95, 1, 1000), (5, 7, 0.5, 42, 0.95, 1, 300),
         (20, 20, 0.3, 7, 0.99, 1, 300), (3, 3, 0.0, 0, 0.95, 1, 300),
         (30, 12, -0.4, 123, 0.95, 3, 300), (200, 200, 0.05, 5, 0.95, 1, 200),
         (8, 8, 2.0, 9, 0.95, 1, 300)]


@pytest.mark.slow
@pytest.mark.parametrize("n, m, shift, seed, confidence, comparisons, iterations", CASES)
def test_equals_deepsig(n, m, shift, seed, confidence, comparisons, iterations):
    from deepsig import aso as deepsig_aso  # imports torch: not in every worker's collection

    rng = np.random.default_rng(seed)
    a, b = rng.normal(shift, 1, n).round(2), rng.normal(0, 1, m).round(2)  # rounding: ties
    expected = deepsig_aso(a, b, confidence_level=confidence, num_comparisons=comparisons,
                           num_bootstrap_iterations=iterations, seed=seed, show_progress=False)
    mine = almost_stochastic_order(a, b, confidence_level=confidence,
                                   num_comparisons=comparisons, n_bootstrap=iterations,
                                   random_state=seed)
    assert mine.eps_min == pytest.approx(expected, abs=1e-12)
    assert mine.n_bootstrap == iterations and 0 <= mine.violation_ratio <= 1
    if comparisons > 1:
        assert mine.confidence_level == pytest.approx(confidence + (1 - confidence) / comparisons)


def test_deterministic_and_seeded():
    a, b = [0.81, 0.84, 0.80, 0.86, 0.83], [0.82, 0.80, 0.79, 0.85, 0.81]
    first = almost_stochastic_order(a, b, random_state=3)
    assert almost_stochastic_order(a, b, random_state=3) == first
    # deepsig's iteration i draws from seed + i: seeds 3 and 4 share 999 of 1000 draws (and
    # here give the same eps_min), so the workflow's seeds are derived, far apart
    assert almost_stochastic_order(a, b, random_state=5000).eps_min != first.eps_min


def test_readings():
    better, worse = [0.90, 0.91, 0.92, 0.93, 0.94], [0.80, 0.81, 0.82, 0.83, 0.84]
    dominant = almost_stochastic_order(better, worse)
    assert dominant.violation_ratio == 0 and dominant.eps_min == 0 and dominant.a_better()
    # the other way round: every quantile of A below B's (deepsig's sum skips t = dt, so the
    # point ratio falls just short of 1)
    dominated = almost_stochastic_order(worse, better)
    assert dominated.violation_ratio > 0.99 and dominated.eps_min > 0.99
    assert not dominated.a_better()
    # identical scores: W_2 = 0, the ratio is 1/2, no order
    same = almost_stochastic_order([0.8, 0.8, 0.8], [0.8, 0.8, 0.8])
    assert same.violation_ratio == 0.5 and same.sigma == 0 and same.eps_min == 0.5
    assert not same.a_better() and same.a_better(threshold=0.6)


@pytest.mark.parametrize("kwargs, match", [
    ({"scores_a": []}, "non-empty"), ({"scores_a": [[0.1, 0.2]]}, "1-D"),
    ({"scores_b": [0.1, float("nan")]}, "non-finite"), ({"confidence_level": 1.0}, "confidence"),
    ({"num_comparisons": 0}, "num_comparisons"), ({"n_bootstrap": 0}, "n_bootstrap"),
    ({"dt": 0.0}, "dt"), ({"random_state": -1}, "random_state"),
    ({"random_state": 2**32 - 10}, "random_state")])
def test_bad_input_is_refused(kwargs, match):
    arguments = {"scores_a": [0.1, 0.2, 0.3], "scores_b": [0.2, 0.3, 0.1], **kwargs}
    a, b = arguments.pop("scores_a"), arguments.pop("scores_b")
    with pytest.raises(ValueError, match=match):
        almost_stochastic_order(a, b, **arguments)


def test_doctests():
    assert doctest.testmod(module).failed == 0


# ---- the measured size, in docs/statistics.md and estimators.aso.MEASURED_SIZE -----------------

def _docs_rows() -> dict[int, list[str]]:
    docs = (ROOT / "docs" / "statistics.md").read_text()
    section = docs.split("<!-- aso:begin -->\n", 1)[1].split("<!-- aso:end -->", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells and re.fullmatch(r"\d+", cells[0]):
            rows[int(cells[0])] = cells
    return rows


def test_measured_size_is_the_docs_table():
    rows = _docs_rows()
    assert sorted(rows) == sorted(MEASURED_SIZE) and 5 in rows and 1000 in rows
    for r, size in MEASURED_SIZE.items():
        assert size.repetitions == r
        assert [f"{100 * x:.1f}" for x in (size.normal, size.skewed, size.normal_strict,
                                           size.skewed_strict)] == rows[r][2:]


def test_calibration_note_reads_the_nearest_measured_r_below():
    assert calibration_note(2) == ""
    note = calibration_note(7)
    size = MEASURED_SIZE[5]
    assert f"{100 * size.normal:.1f}% (normal)" in note and "at R = 5" in note
    assert "at R = 1000" in calibration_note(5000)
    # the report carries the note to users without the repository: no path into it
    assert "docs/" not in calibration_note(200) and "% at most)" in calibration_note(200)


@pytest.fixture(scope="module")
def bench():
    """benchmarks/bench_aso.py, imported in this process (it imports its markers beside it)."""
    return conftest.benchmark("bench_aso")


@pytest.mark.slow
def test_the_docs_r5_row_is_the_benchmarks_output(bench):
    """docs/statistics.md, "Almost stochastic order": each row is benchmarks/bench_aso.py's
    (seeded per cell). The R = 5 row is the one of the eps_min that its --write kept, study by
    study, in benchmarks/aso_size_r5.json, and studies recomputed here give those eps_min: per
    law the 10 nearest each threshold (where a drift would change the row) and 20 others at
    random (the whole row is 18 CPU s, the others minutes)."""
    kept = json.loads(bench.STUDIES_KEPT.read_text())
    assert kept["repetitions"] == bench.KEPT_R == 5
    assert [len(kept["eps_min"][law]) for law in bench.LAWS] == [bench.STUDIES[5]] * 2
    made = bench.row(5, kept["eps_min"])
    assert [c.strip() for c in made.strip().strip("|").split("|")] == _docs_rows()[5], \
        "regenerate: python benchmarks/bench_aso.py --write"
    for law in bench.LAWS:
        eps = np.array(kept["eps_min"][law])
        studies = list(bench.studies(5, law))  # the draws alone: milliseconds
        near = {int(k) for threshold in (0.5, 0.2)
                for k in np.argsort(np.abs(eps - threshold), kind="stable")[:10]}
        inside = [k for k in np.flatnonzero((eps > 0) & (eps < 1)) if k not in near]
        chosen = near | set(np.random.default_rng(5).choice(inside, 20, replace=False).tolist())
        assert len(chosen) == 40
        for k in sorted(chosen):
            assert bench.eps_min(*studies[k]) == pytest.approx(eps[k], abs=1e-12), \
                (law, k, "regenerate: python benchmarks/bench_aso.py --write")
