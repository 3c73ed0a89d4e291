"""A workflow job's script (under reprocompare.pipeline.guard.job) ends in one line and an exit
status, never a traceback (issue 23, item 6)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from reprocompare.base.errors import UserError


@pytest.mark.parametrize("raised, status, fragment", [
    (KeyboardInterrupt(), 130, "interrupted"),
    (MemoryError(), 1, "out of memory"),
    (OSError(28, "No space left on device", "results/x.json"), 1,
     "No space left on device: results/x.json"),
    (UserError("bad", path="c.yaml", key="k"), 1, "bad"),
    (RuntimeError("[enforce fail at alloc_cpu.cpp:117] data. DefaultCPUAllocator: can't "
                  "allocate memory: you tried to allocate 1099511627776 bytes."), 1,
     "out of memory ([enforce fail"),
])
def test_a_workflow_job_ends_in_one_line_never_a_traceback(tmp_path, capsys, raised, status,
                                                           fragment):
    """Issue 23, item 6: what a job script meets (an interrupt, a full disk, no memory) is one
    line in its log and on stderr, and an exit status."""
    from reprocompare.pipeline.guard import job

    log = tmp_path / "job.log"
    with pytest.raises(SystemExit) as stopped:
        with job(str(log)):
            raise raised
    assert stopped.value.code == status
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and fragment in err and "Traceback" not in err
    assert fragment in log.read_text()


SCRIPTS = sorted((Path(__file__).resolve().parents[1] / "workflow" / "scripts").glob("*.py"))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_a_job_script_imports_its_work_inside_the_guard(script):
    """Outside the guard only the guard and the standard library: an interrupt while a job
    still imports (Snakemake stopping a wave as the job starts) printed a traceback (the
    SIGTERM test caught it once the jobs' imports had grown faster)."""
    outside = {alias.name.split(".")[0] if isinstance(node, ast.Import) else node.module
               for node in ast.parse(script.read_text()).body
               if isinstance(node, (ast.Import, ast.ImportFrom))
               for alias in node.names}
    assert outside <= {"pathlib", "reprocompare.pipeline.guard"}, outside


def test_an_interrupt_while_the_job_imports_is_one_line(tmp_path):
    """What a job script meets when Snakemake stops a wave as the job starts."""
    (tmp_path / "slow_module.py").write_text("raise KeyboardInterrupt\n")
    script = ("from reprocompare.pipeline.guard import job\n"
              "with job(None):\n"
              "    import slow_module\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            cwd=tmp_path, env={"PYTHONPATH": str(tmp_path), "PATH": ""})
    assert result.returncode == 130
    assert result.stderr.strip().splitlines() == [
        "reprocompare: error: interrupted; nothing half-written is kept (rerun to resume)"]


def test_another_error_is_not_disguised(tmp_path):
    from reprocompare.pipeline.guard import job

    with pytest.raises(FileNotFoundError):
        with job(str(tmp_path / "job.log")):
            raise FileNotFoundError(2, "No such file or directory", "x")
    with pytest.raises(RuntimeError, match="a bug"):
        with job(str(tmp_path / "job.log")):
            raise RuntimeError("a bug")


def test_summarize_refuses_a_difference_no_two_f1_scores_make(tmp_path):
    """Issue 23: an estimate of 5.0 (F1 differences lie in [-1, 1]) is a tampered file."""
    import json

    from reprocompare.study.summary import load_estimates

    (tmp_path / "estimates.json").write_text(json.dumps({"strategy": "holdout", "holdout": 5.0}))
    (tmp_path / "split.json").write_text(json.dumps({"repetition": 0, "seed": 1}))
    with pytest.raises(UserError, match=r"holdout is 5.0, outside \[-1, 1\]") as error:
        load_estimates(tmp_path)
    assert error.value.path.endswith("estimates.json")


def test_a_repetition_given_twice_names_both_directories():
    from reprocompare.strategies import strategy
    from reprocompare.study.summary import Repetition, estimator_values

    records = [Repetition(strategy("holdout").estimate({"A": [0.9], "B": [0.8]}, None), 0, d)
               for d in ("seed1/rep0", "seed2/rep0")]
    with pytest.raises(UserError, match="repetition 0 of strategy holdout is given twice: "
                                        "seed1/rep0 and seed2/rep0"):
        estimator_values(records)
