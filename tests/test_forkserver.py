"""The suite's warm runner (tests/forkserver.py) is the program it stands in for: a fork gives
what a fresh ``python -m snakemake`` or ``python -m reprocompare`` gives, exit status and output."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import conftest
from conftest import ROOT, TEST_DATA, TINY, planned

TINY_CONLL = TEST_DATA / "tiny.conll"
NEEDS_FORKSERVER = pytest.mark.skipif(
    not conftest.FORKSERVER, reason="no fork server: REPROCOMPARE_TESTS_FORKSERVER=0, or not Linux")


def fresh(command: list[str], cwd) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd)


@pytest.mark.slow
@NEEDS_FORKSERVER
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


@pytest.mark.slow
@NEEDS_FORKSERVER
def test_a_fork_searches_the_working_directory_then_pythonpath(tmp_path):
    """sys.path as a fresh ``python -m`` has it: the working directory first, PYTHONPATH's
    entries next; nothing of the server's own start (tests/ is not on it)."""
    for folder, modules in (("here", ["where"]), ("there", ["where", "elsewhere"])):
        (tmp_path / folder).mkdir()
        for module in modules:  # the import error names the folder it was found in
            (tmp_path / folder / f"{module}.py").write_text(f"raise ImportError('{folder}')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "there")}
    found = {"where": "'where': here", "elsewhere": "'elsewhere': there",
             "forkserver": "No module named 'forkserver'"}
    for module, message in found.items():
        command = [sys.executable, "-m", "reprocompare", "compare", str(TINY_CONLL), "--a",
                   f"python:class={module}:Tagger", "--b", "majority", "--strategy",
                   "holdout", "--out", str(tmp_path / "out")]
        forked = conftest.run(command, cwd=tmp_path / "here", env=env)
        alone = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path / "here",
                               env=env)
        assert forked.returncode == 2 and message in forked.stderr, forked.stderr
        assert (forked.returncode, forked.stderr) == (alone.returncode, alone.stderr), module


@NEEDS_FORKSERVER
def test_a_fork_takes_the_environment_and_times_out(tmp_path):
    # a variable read only at start-up runs afresh; PYTHONPATH a fork applies itself
    assert not conftest._ForkServer.starts_as({**os.environ, "PYTHONHASHSEED": "7"})
    assert conftest._ForkServer.starts_as({**os.environ, "PYTHONPATH": str(tmp_path)})
    with pytest.raises(subprocess.TimeoutExpired):
        conftest.snakemake(tmp_path, config=TINY, timeout=0.5)
    # the server answers the next run
    assert conftest.reprocompare("--version").returncode == 0

