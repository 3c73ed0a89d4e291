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


def test_the_readme_reads_the_ner_size_study_as_committed():
    """README's paragraph on the NER samples quotes studies/size-ner's summaries."""
    import json

    found = {}
    for path in (ROOT / "studies" / "size-ner" / "results" / "summaries").glob("*/*.json"):
        if path.name.endswith(".claims.json"):
            continue
        s = json.loads(path.read_text())["summary"]
        found.setdefault(s["sentences"], []).append(
            (100 * s["estimators"]["Avg"]["mean"], s["estimators"]["Avg"]["snr"],
             s["verdicts"]["Avg"]["decision"], s["verdicts"]["ST"]["decision"]))
    readme = (ROOT / "README.md").read_text()
    means = {n: sorted(m for m, *_ in rows) for n, rows in found.items()}
    assert (f"at 300 sentences Avg's mean difference runs from {means[300][0]:+.2f} to "
            f"{means[300][-1]:+.2f} points") in readme
    assert f"at 1,200\nfrom {means[1200][0]:.2f} to {means[1200][-1]:.2f}" in readme
    assert f"at 4,800 from {means[4800][0]:.2f} to {means[4800][-1]:.2f}" in readme
    assert sum(d == "A>B" for _, _, d, _ in found[1200]) == 1
    assert all(d == "A>B" for _, _, d, _ in found[4800])
    assert all(d == "undecided" for _, _, d, _ in found[300])
    assert all(st == "undecided" for rows in found.values() for *_, st in rows)


def test_the_readme_reads_the_chunking_size_study_as_committed():
    """README's paragraph on the chunking samples quotes studies/size-chunking's summaries."""
    import json

    found = {}
    for path in (ROOT / "studies" / "size-chunking" / "results" / "summaries").glob("*/*.json"):
        if path.name.endswith(".claims.json"):
            continue
        s = json.loads(path.read_text())["summary"]
        found.setdefault(s["sentences"], []).append(
            (round(100 * s["estimators"]["Avg"]["mean"], 2), s["estimators"]["Avg"]["snr"],
             s["verdicts"]["Avg"]["decision"], s["verdicts"]["ST"]["decision"]))
    readme = " ".join((ROOT / "README.md").read_text().split())
    means = {n: sorted(m for m, *_ in rows) for n, rows in found.items()}
    assert (f"at 300 sentences Avg's mean difference runs from {means[300][0]:+.2f} to "
            f"{means[300][-1]:+.2f} points") in readme
    assert f"at 1,200 from {means[1200][0]:+.2f} to {means[1200][-1]:+.2f}" in readme
    assert f"at 4,800 from {means[4800][0]:+.2f} to {means[4800][-1]:+.2f}" in readme
    decided = sorted(snr for _, snr, d, _ in found[1200] if d == "B>A")
    assert len(decided) == 2 and f"SNR {decided[0]:.2f} and {decided[1]:.2f}" in readme
    snrs = sorted(snr for _, snr, *_ in found[4800])
    assert all(d == "B>A" for _, _, d, _ in found[4800])
    assert f"(SNR {snrs[0]:.2f} to {snrs[-1]:.2f})" in readme
    assert not any(d != "undecided" for _, _, d, _ in found[300])
    assert all(st == "undecided" for rows in found.values() for *_, st in rows)
    assert all(m < 0 for m in means[1200] + means[4800])
