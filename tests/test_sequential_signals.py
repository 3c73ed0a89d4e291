"""`reprocompare sequential` interrupted (issue 34, item 5): whatever signal ends it mid-wave,
the same command resumes, and no snakemake or job of it keeps running.

Real processes throughout: a command tagger whose first training tells the test it has started
(through a FIFO: the test blocks on it, no polling; tests/blocking.py) and then sleeps; the test then signals the
command as a terminal's Ctrl-C (SIGINT to its process group), a scheduler (SIGTERM to the
process) or the kernel (SIGKILL), waits for the job to end, and runs the same command again.

Ctrl-C and both SIGTERMs (one to a command in the background) take one path after the signal,
supervise's handler (reprocompare.commands.sequential: FORWARDED, forward, stop), which differs
only in the name it prints: each is checked to end every process, in its own message, and to
leave the study as a stopped snakemake leaves it (its lock freed, the wave's record removed).
Killed, the command leaves that state and its record, which the next run removes first
(_free_stale_lock, where no lock is left): the same command is run again after SIGKILL, to its
end, and that covers the resume from the others' state too (a resume, the wave's jobs left, its
report and two fresh snakemakes, was about 9 of the 12 to 15 CPU s a case took).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import psutil
import pytest
import yaml

import conftest
from blocking import blocked, blocking_models, handshake
from conftest import TEST_DATA
from reprocompare.commands.sequential import RUN_RECORD, _running_here

pytestmark = pytest.mark.slow


def _study(tmp_path: Path) -> Path:
    config = {"corpora": {"tiny": {"path": str(TEST_DATA / "tiny.conll")}},
              "models": blocking_models(),
              "comparisons": {"p": {"a": "a", "b": "b", "corpora": ["tiny"]}},
              "strategies": {"holdout": {}},
              "stopping": {"enabled": True, "estimators": ["ST"], "wave": 2,
                           "max_repetitions": 2},
              "significance": {"resamples": 100}}
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def _command(tmp_path: Path, config: Path) -> list[str]:
    return [sys.executable, "-m", "reprocompare", "sequential", "--configfile", str(config),
            "--directory", str(tmp_path / "run"), "--", "--cores", "2", "--quiet"]


def _as_a_background_job():
    """What a non-interactive shell does to a command it runs with `&` (as nohup scripts and
    batch jobs do): SIGINT and SIGQUIT ignored, inherited by everything it starts."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGQUIT, signal.SIG_IGN)


@pytest.mark.parametrize("how", ["Ctrl-C", "SIGTERM", "SIGKILL", "SIGTERM in the background"])
def test_an_interrupted_wave_resumes_with_the_same_command(tmp_path, how):
    config = _study(tmp_path)
    (tmp_path / "run").mkdir()
    log = (tmp_path / "first.log").open("w")
    # a session of its own, as a terminal gives a command: Ctrl-C is SIGINT to its group; in
    # the background of a script it starts with SIGINT ignored, and snakemake must still stop
    # (it inherited the ignored SIGINT and ran on, found stopping a study run with nohup)
    background = how.endswith("in the background")
    how = how.removesuffix(" in the background")
    first = subprocess.Popen(_command(tmp_path, config), stdout=log, stderr=subprocess.STDOUT,
                             start_new_session=True, cwd=tmp_path, env=blocked(tmp_path),
                             preexec_fn=_as_a_background_job if background else None)
    job = psutil.Process(handshake(tmp_path / "fifo"))
    assert (tmp_path / "run" / ".snakemake" / "locks").is_dir()  # the wave holds its lock
    snakemake = psutil.Process(
        yaml.safe_load((tmp_path / "run" / RUN_RECORD).read_text())["snakemake"])
    if how == "Ctrl-C":
        os.killpg(first.pid, signal.SIGINT)
    else:
        os.kill(first.pid, getattr(signal, how))
    status = first.wait(timeout=300)
    # nothing keeps running: the sleeping job and snakemake end (killed outright, the command
    # leaves snakemake a SIGINT from the kernel)
    # (generous: under the full suite's load on 2 cores, snakemake's shutdown once took > 120 s)
    job.wait(timeout=300)
    snakemake.wait(timeout=300)
    assert _running_here(tmp_path / "run") == []
    output = (tmp_path / "first.log").read_text()
    # snakemake, stopped as by Ctrl-C (by the command, or by its watchdog when the command was
    # killed), freed its lock: none in the next run's way
    assert not list((tmp_path / "run" / ".snakemake" / "locks").glob("*"))
    if how != "SIGKILL":
        assert status == 130, output
        assert f"interrupted by {'SIGINT' if how == 'Ctrl-C' else how} in the wave to R = 2" \
               in output and "run the same command again to resume" in output
        assert "Traceback" not in output
        # no record of a wave in progress: the state SIGKILL's resume below starts from, once
        # it has removed the record the killed command left
        assert not (tmp_path / "run" / RUN_RECORD).exists()
        return
    assert status == -signal.SIGKILL
    assert (tmp_path / "run" / RUN_RECORD).exists()  # the killed command could not remove it
    # the same command again: no lock in its way, the wave done
    # (forked from the suite's warm process: what resumes is the command, not its start-up)
    again = conftest.run(_command(tmp_path, config), cwd=tmp_path, timeout=600)
    assert again.returncode == 0, (again.stdout + again.stderr)[-3000:]
    assert "stopped at R = 2" in again.stdout
    assert "LockException" not in again.stderr and "cannot be locked" not in again.stderr
    assert len(list((tmp_path / "run").glob("results/compare/tiny/p/holdout/rep*/"
                                            "estimates.json"))) == 2
    assert not (tmp_path / "run" / RUN_RECORD).exists()
