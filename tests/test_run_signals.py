"""`reprocompare run` at 2 cores, stopped by a signal (issue 50, item 2): SIGTERM (a scheduler's,
`timeout`'s), SIGINT and SIGHUP (a closed terminal) end every job of the study and snakemake
within seconds, and the same command then finishes the study.

Real processes throughout, as tests/test_sequential_signals.py: two repetitions train at once
(--cores 2), the first training of model A blocks until the test has seen it start
(tests/blocking.py), and the test then signals the command.

The three signals take one path, supervise's handler (reprocompare.commands.sequential:
FORWARDED, forward, stop), which differs only in the name it prints: each signal is checked to
end every process, in its own message, and to leave the study as a stopped snakemake leaves it
(its lock freed, the run's record removed); the same command is run again after SIGTERM alone,
to its end and its report (a resume, the jobs left, the report's jobs and two fresh
snakemakes, was about 9 of the 13 to 16 CPU s a case took).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
import yaml

import conftest
from blocking import blocked, blocking_models, handshake
from conftest import TEST_DATA
from reprocompare.commands.sequential import RUN_RECORD, _running_here

pytestmark = pytest.mark.slow

#: seconds a signalled run may take to end with every job it started (generous: the suite's
#: load on 2 cores; snakemake stops its jobs, then itself)
WITHIN = 120


def _study(tmp_path: Path) -> Path:
    config = {"corpora": {"tiny": {"path": str(TEST_DATA / "tiny.conll")}},
              "models": blocking_models(),
              "comparisons": {"p": {"a": "a", "b": "b", "corpora": ["tiny"]}},
              "strategies": {"holdout": {}}, "repetitions": 2,
              "significance": {"resamples": 100}}
    study = tmp_path / "study"
    study.mkdir()
    (study / "config.yaml").write_text(yaml.safe_dump(config))
    return study


@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT", "SIGHUP"])
def test_a_signal_stops_every_job_at_two_cores_and_the_run_resumes(tmp_path, how):
    study = _study(tmp_path)
    command = [sys.executable, "-m", "reprocompare", "run", "study", "--cores", "2"]
    log = (tmp_path / "first.log").open("w")
    first = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path,
                             start_new_session=True, env=blocked(tmp_path))
    job = psutil.Process(handshake(tmp_path / "fifo"))
    snakemake = psutil.Process(yaml.safe_load((study / RUN_RECORD).read_text())["snakemake"])
    started = time.monotonic()
    os.kill(first.pid, getattr(signal, how))
    status = first.wait(timeout=WITHIN)
    job.wait(timeout=WITHIN)
    snakemake.wait(timeout=WITHIN)
    took = time.monotonic() - started
    assert _running_here(study) == [], "a process of the study outlived the run"
    output = (tmp_path / "first.log").read_text()
    assert status == 130, output
    assert f"interrupted by {how}: snakemake stopped; run the same command again to go on" \
        in output and "Traceback" not in output, output
    assert took < WITHIN
    print(f"{how}: the run and every job of it ended {took:.1f} s after the signal")
    # as snakemake leaves a study it was stopped in: no lock in the next run's way, no record
    # of a run in progress (what the same command again needs; resumed below after SIGTERM)
    assert not list((study / ".snakemake" / "locks").glob("*"))
    assert not (study / RUN_RECORD).exists()
    if how == "SIGTERM":  # the one path of the three, run again to its end once
        # (forked from the suite's warm process: what resumes is the command, not its start-up)
        again = conftest.run(command, cwd=tmp_path, timeout=600)
        assert again.returncode == 0, (again.stdout + again.stderr)[-3000:]
        assert len(list(study.glob("results/compare/tiny/p/holdout/rep*/estimates.json"))) == 2
        assert (study / "results" / "report.html").is_file()
