"""The sample-size curve (reports.size_curve, studies/size_curve.py; issue 26, item 2)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT
from reprocompare.estimators.effect import mean_interval
from reprocompare.reports.size_curve import points, size_curve
from test_tables import make_summary


def _summary(sentences, **extra):
    return {**make_summary(**extra), "sentences": sentences}


@pytest.mark.slow
def test_points_carry_the_mean_interval_in_points_and_the_verdict():
    found = points([_summary(1200), _summary(300)], "Avg")
    assert [p["sentences"] for p in found] == [300, 1200]  # by size
    s = make_summary()["estimators"]["Avg"]
    interval = mean_interval(s["mean"], s["sd"], s["repetitions"])
    assert found[0]["mean_low"] == pytest.approx(100 * interval.low)
    assert found[0]["snr_high"] == s["snr_high"]
    assert found[0]["verdict"] == make_summary()["verdicts"]["Avg"]["decision"]
    assert points([_summary(300)], "RS") == []  # a study without the estimator adds no point


@pytest.mark.slow
def test_the_figure_is_written_and_reproducible(tmp_path):
    tasks = {"task": [_summary(300), _summary(300), _summary(1200)]}
    first = [p.read_bytes() for p in size_curve(tasks, tmp_path / "a")]
    second = [p.read_bytes() for p in size_curve(tasks, tmp_path / "b")]
    assert first == second and first[0][:4] == b"\x89PNG" and first[1][:4] == b"%PDF"


@pytest.mark.slow
def test_the_committed_studies_draw(tmp_path):
    result = subprocess.run([sys.executable, str(ROOT / "studies" / "size_curve.py"),
                             str(tmp_path / "curve")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "curve.png").stat().st_size > 10_000



def test_the_curve_holds_one_tagger_per_task():
    """Issue 38: the 30-iteration studies (300, 600 sentences) stay out of the curve, so sample
    size is not confounded with training; a curve of two specs is refused."""
    sys.path.insert(0, str(ROOT / "studies"))
    import size_curve as script

    for task in ("chunking", "ner"):
        specs = {json.dumps(s["models"], sort_keys=True) for s in script.task_summaries(task)}
        assert len(specs) == 1 and "max_iterations=200" in specs.pop()


def test_the_sample_tables_are_what_the_committed_records_give():
    """docs/results.md's overlap and between-sample tables are studies/sample_overlap.py's
    output on the committed corpus.json and summaries (README's sentence on the NER samples is
    a block of studies/prose.py: tests/test_results_prose.py)."""
    page = (ROOT / "docs" / "results.md").read_text()
    block = page.split("<!-- samples:begin -->\n", 1)[1].split("\n<!-- samples:end -->", 1)[0]
    made = subprocess.run([sys.executable, str(ROOT / "studies" / "sample_overlap.py")],
                          capture_output=True, text=True, check=True).stdout.strip()
    assert block == made
