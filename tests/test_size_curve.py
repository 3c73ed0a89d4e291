"""The sample-size curve (reports.size_curve, studies/size_curve.py; issue 26, item 2)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT
from reprocompare.estimators.effect import mean_interval
from reprocompare.reports.size_curve import points, size_curve
from test_tables import make_summary


def _summary(sentences, **extra):
    return {**make_summary(**extra), "sentences": sentences}


def test_points_carry_the_mean_interval_in_points_and_the_verdict():
    found = points([_summary(1200), _summary(300)], "Avg")
    assert [p["sentences"] for p in found] == [300, 1200]  # by size
    s = make_summary()["estimators"]["Avg"]
    interval = mean_interval(s["mean"], s["sd"], s["repetitions"])
    assert found[0]["mean_low"] == pytest.approx(100 * interval.low)
    assert found[0]["snr_high"] == s["snr_high"]
    assert found[0]["verdict"] == make_summary()["verdicts"]["Avg"]["decision"]
    assert points([_summary(300)], "RS") == []  # a study without the estimator adds no point


def test_the_figure_is_written_and_reproducible(tmp_path):
    tasks = {"task": [_summary(300), _summary(300), _summary(1200)]}
    first = [p.read_bytes() for p in size_curve(tasks, tmp_path / "a")]
    second = [p.read_bytes() for p in size_curve(tasks, tmp_path / "b")]
    assert first == second and first[0][:4] == b"\x89PNG" and first[1][:4] == b"%PDF"


def test_the_committed_studies_draw(tmp_path):
    result = subprocess.run([sys.executable, str(ROOT / "studies" / "size_curve.py"),
                             str(tmp_path / "curve")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "curve.png").stat().st_size > 10_000

