"""The suite's warm runner (tests/forkserver.py) is the program it stands in for: a fork gives
what a fresh ``python -m snakemake`` or ``python -m reprocompare`` gives, exit status and output."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import conftest
from conftest import ROOT, TINY, planned


def fresh(command: list[str], cwd) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd)


@pytest.mark.skipif(not conftest.FORKSERVER, reason="REPROCOMPARE_TESTS_FORKSERVER=0")
def test_a_fork_plans_and_fails_as_a_fresh_process(tmp_path):
    conftest.snakemake(tmp_path, "-n", config=TINY, cores=None)  # writes study.yaml
    dry = [*conftest.SNAKEMAKE, "--directory", str(tmp_path), "--configfile",
           str(tmp_path / "study.yaml"), "-n", "--quiet", "rules"]
    forked, alone = conftest.run(dry, cwd=tmp_path), fresh(dry, tmp_path)
    assert forked.returncode == alone.returncode == 0
    assert planned(forked.stdout + forked.stderr) == planned(alone.stdout + alone.stderr)
    assert planned(forked.stdout + forked.stderr)["compare"] == 3 * 3  # strategies x R

    bad = [sys.executable, "-m", "reprocompare", "split", str(tmp_path / "missing.conll"),
           "--strategy", "holdout"]
    forked, alone = conftest.run(bad, cwd=tmp_path), fresh(bad, tmp_path)
    assert (forked.returncode, forked.stdout, forked.stderr) == \
        (alone.returncode, alone.stdout, alone.stderr)
    assert forked.returncode == 2 and "missing.conll" in forked.stderr

    version = [sys.executable, "-m", "reprocompare", "--version"]
    assert conftest.run(version).stdout == fresh(version, ROOT).stdout


@pytest.mark.skipif(not conftest.FORKSERVER, reason="REPROCOMPARE_TESTS_FORKSERVER=0")
def test_a_fork_takes_the_environment_and_times_out(tmp_path):
    # a variable read at run time reaches the fork; PYTHONPATH, read at start-up, runs afresh
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    assert not conftest._ForkServer.starts_as(env) and conftest._ForkServer.starts_as(os.environ)
    with pytest.raises(subprocess.TimeoutExpired):
        conftest.snakemake(tmp_path, config=TINY, timeout=0.5)
    # the server answers the next run
    assert conftest.reprocompare("--version").returncode == 0
