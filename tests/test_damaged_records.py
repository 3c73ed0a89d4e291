"""A committed study whose records.jsonl holds a damaged line resumes in one step (issue 50).

A NaN written into one line's estimates and another line cut in half: `reprocompare resume`
names each line's file, line and repetition, restores nothing from it (no repetition left with
estimates but no split, which every later run would stop on), and says that snakemake trains
those repetitions again; the next snakemake run does exactly that, and the tables it rebuilds
are the ones the undamaged study gave. An output emptied by hand is written again by the next
`reprocompare run`.
"""

from __future__ import annotations

import json
import math
import shutil
import sys

import pytest

import conftest
from conftest import SNAKEMAKE, planned
from reprocompare.base.paths import ESTIMATES_FILE, SPLIT_FILE
from test_study import clone

pytestmark = pytest.mark.slow

RESUME = [sys.executable, "-m", "reprocompare", "resume"]


def _damage(table, line: int, edit) -> None:
    lines = table.read_text().splitlines()
    lines[line - 1] = edit(lines[line - 1])
    table.write_text("\n".join(lines) + "\n")


def _nan_avg(text: str) -> str:
    record = json.loads(text)
    record[ESTIMATES_FILE]["avg"] = math.nan
    return json.dumps(record)  # Python's json writes NaN, as a hand or another tool may


def test_a_damaged_line_is_named_and_its_repetition_trained_again(small_study, tmp_path):
    first, study = small_study, tmp_path / "clone"
    study.mkdir()
    clone(first, study)
    config = ["--configfile", str(first / "study.yaml"), "--directory", str(study)]
    compare = study / "results" / "compare" / "tiny" / "p1"
    _damage(compare / "holdout" / "records.jsonl", 2, _nan_avg)
    _damage(compare / "bcv" / "records.jsonl", 1, lambda text: text[:len(text) // 2])

    result = conftest.run([*RESUME, *config], cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    said = result.stdout.splitlines()
    assert (f"{compare}/holdout/records.jsonl:2: repetition 1: estimates.json.avg is not a "
            "finite number (NaN or infinity, which no job writes); nothing is restored from "
            "this line, so snakemake trains rep1 again (and the next `make study-NAME` writes "
            "the table anew)") in said, result.stdout
    assert any(line.startswith(f"{compare}/bcv/records.jsonl:1: not JSON (")
               and line.endswith("so snakemake trains rep0 again (and the next `make "
                                 "study-NAME` writes the table anew)") for line in said), said
    assert said[-1].startswith(f"{study}: 4 of 6 repetitions are complete"), said[-1]
    # consistent: every repetition that claims to be finished has its split
    for estimates in study.glob(f"results/compare/*/*/*/rep*/{ESTIMATES_FILE}"):
        assert (estimates.parent / SPLIT_FILE).is_file(), estimates
    assert not (compare / "holdout" / "rep1" / ESTIMATES_FILE).exists()
    assert not (compare / "bcv" / "rep0" / ESTIMATES_FILE).exists()

    # the advice holds: snakemake trains those two, and the study's tables are as they were
    plan = conftest.run([*SNAKEMAKE, "--cores", "2", *config, "-n", "--quiet", "rules"],
                        cwd=tmp_path)
    assert planned(plan.stdout)["compare"] == 2, plan.stdout
    # up to the tables, which are compared (the figures, front page and checklist read them)
    done = conftest.run([*SNAKEMAKE, "--cores", "2", *config, "--until", "tables"], cwd=tmp_path)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    for name in ("results/tables/table4.csv", "results/tables/table3.md"):
        assert (study / name).read_bytes() == (first / name).read_bytes(), name
    again = conftest.run([*RESUME, *config], cwd=tmp_path)
    assert "6 of 6 repetitions are complete" in again.stdout, again.stdout


def test_an_emptied_table_is_written_again_by_run(small_study, tmp_path):
    """`: > results/tables/table4.md`, then `reprocompare run`: the table is written again
    (Snakemake alone would take the empty file, newer than its inputs, for done)."""
    study = tmp_path / "study"
    shutil.copytree(small_study, study, symlinks=True)
    shutil.copyfile(study / "study.yaml", study / "config.yaml")
    table = study / "results" / "tables" / "table4.md"
    expected = table.read_bytes()
    table.write_bytes(b"")
    result = conftest.reprocompare("run", "study", "--cores", "2", cwd=tmp_path)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    assert ("study: results/tables/table4.md was empty: removed, so that this run writes "
            "it again") in result.stdout, result.stdout
    assert table.read_bytes() == expected
