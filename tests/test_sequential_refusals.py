"""`reprocompare sequential` refusing what a user typed, and the world failing under it (issue
50): each one line naming the option, file or cause, a non-zero exit, no traceback, nothing
half written, and a rerun advised only where one can succeed. In-process, no training: the
dry run, the damaged summary and the emptied table with real waves are in
tests/test_sequential_workflow.py.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from conftest import TEST_DATA
from reprocompare.base.errors import UserError
from reprocompare.commands import cli, sequential
from reprocompare.commands.options import check_cores

#: cores and jobs snakemake would read as every core, or cannot read
BAD_CORES = [["--cores", "-3"], ["--cores", "0"], ["-c0"], ["--jobs=0"], ["-j", "-1"],
             ["--cores", "two"], ["-j", "1.5"]]


def _config(tmp_path: Path) -> Path:
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump({
        "corpora": {"tiny": {"path": str(TEST_DATA / "tiny.conll")}},
        "models": {"a": {"type": "majority"}, "b": {"type": "majority", "scheme": "IOBES"}},
        "comparisons": {"p": {"a": "a", "b": "b", "corpora": ["tiny"]}},
        "strategies": {"holdout": {}},
        "stopping": {"enabled": True, "estimators": ["ST"], "wave": 2, "max_repetitions": 4}}))
    return path


def _main(*argv: str) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        status = cli.main([str(arg) for arg in argv])
    return status, err.getvalue()


def _one_line(err: str) -> None:
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err


@pytest.mark.parametrize("cores", BAD_CORES, ids=" ".join)
def test_sequential_refuses_cores_below_one_before_anything_runs(tmp_path, cores):
    status, err = _main("sequential", "--configfile", _config(tmp_path), "--directory",
                        tmp_path / "run", "--", *cores)
    assert status == 2
    _one_line(err)
    assert "is not a number of cores: give a whole number of at least 1, or all" in err
    assert f"the command line: {cores[0][:2] if len(cores[0]) == 3 else cores[0].split('=')[0]}" \
           in err
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("cores", [["--cores", "2"], ["-c", "all"], ["-j4"], ["--jobs=1"],
                                   ["--cores"], ["--cores", "--quiet"], ["-j", "unlimited"]],
                         ids=" ".join)
def test_a_number_of_cores_of_at_least_one_or_all_is_accepted(cores):
    check_cores(cores)


@pytest.mark.parametrize("arguments, dry", [(["-n"], True), (["--dry-run"], True),
                                            (["-np", "--cores", "1"], True),
                                            (["--dryrun"], True), (["--cores", "1"], False),
                                            ([], False)])
def test_a_dry_run_is_read_as_snakemake_reads_it(arguments, dry):
    assert sequential.is_dry_run(arguments) is dry


@pytest.mark.parametrize("stopping, lacking", [
    (None, "has no `stopping` record"), ({"decided": True}, "lacks stopped"),
    ({"decided": True, "stopped": True, "futile": True}, "lacks futility_judgement")])
def test_a_damaged_stopping_record_is_named_with_its_file(tmp_path, stopping, lacking):
    path = tmp_path / "p.json"
    summary = {} if stopping is None else {"stopping": stopping}
    with pytest.raises(UserError) as raised:
        sequential._stopping_record(summary, path)
    message = str(raised.value)
    assert message.startswith(f"{path}: ") and lacking in message
    assert "delete this summary, then run the same command again" in message


def test_a_full_disk_at_the_run_record_is_one_line_and_leaves_no_half_record(tmp_path,
                                                                              monkeypatch):
    """The disk fills as the wave records itself beside snakemake's lock: the wave (here a
    sleeping stand-in in snakemake's place) is ended, the half-written record removed (it would
    tell the next run that a lock is ours), and the line names the file and the cause."""
    started = []

    def command(*arguments):
        started.append(arguments)
        return [sys.executable, "-c", "import time; time.sleep(60)"]

    monkeypatch.setattr(sequential, "snakemake_command", command)
    write_text = Path.write_text

    def full(self, data, *args, **kwargs):
        if self.name == sequential.RUN_RECORD.name:
            write_text(self, data[:7])  # what a disk that filled leaves
            raise OSError(errno.ENOSPC, "No space left on device")
        return write_text(self, data, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", full)
    run = tmp_path / "run"
    status, err = _main("sequential", "--configfile", _config(tmp_path), "--directory", run,
                        "--", "--cores", "1")
    assert started and status == 2
    _one_line(err)
    assert f"no space left on the device writing {run / sequential.RUN_RECORD}: free some " \
           "space, then run the same command again to resume" in err
    assert not (run / sequential.RUN_RECORD).exists()
    assert sequential._running_here(run) == []


def test_a_full_disk_restoring_a_clones_records_names_the_file(tmp_path, monkeypatch):
    estimates = tmp_path / "run/results/compare/tiny/p/holdout/rep0/estimates.json"

    def restore(config, directory):
        raise OSError(errno.ENOSPC, "No space left on device", str(estimates))

    monkeypatch.setattr(sequential, "restore_records", restore)
    status, err = _main("sequential", "--configfile", _config(tmp_path), "--directory",
                        tmp_path / "run")
    assert status == 2
    _one_line(err)
    assert f"no space left on the device writing {estimates}: free some space" in err


@pytest.mark.parametrize("returncode, free, read_only, said", [
    (2, 2**40, False, "snakemake refused its arguments (its message above): correct them "
                      "(`reprocompare sequential -h`, `snakemake --help`)"),
    (1, 10 * 2**20, False, "the report could not be written with 10 MiB left on the disk "
                           "(snakemake's messages above): free some space, then run the same "
                           "command again to write it"),
    (1, 2**40, True, "cannot be written (a read-only folder): give yourself write permission"),
    (1, 2**40, False, "the report could not be written (snakemake's messages above name the "
                      "job and its log): correct what they say, then run the same command "
                      "again to write it")])
def test_a_failed_report_advises_a_rerun_only_where_one_can_succeed(tmp_path, monkeypatch,
                                                                    returncode, free,
                                                                    read_only, said):
    run = tmp_path / "run"
    (run / "results").mkdir(parents=True)
    monkeypatch.setattr(sequential, "supervise", lambda command, directory: (returncode, None))
    monkeypatch.setattr(sequential.shutil, "disk_usage", lambda path: SimpleNamespace(free=free))
    access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: access(path, mode) and not (
        read_only and Path(path) == run / "results"))
    with pytest.raises(UserError) as raised:
        sequential.write_report(_config(tmp_path), run, say=lambda line: None)
    message = str(raised.value)
    assert said in message and "\n" not in message, message
    if returncode == 2 or read_only:
        assert "run the same command again" not in message


@pytest.mark.slow
def test_run_reads_a_dry_run_as_snakemake_does(tmp_path):
    """`run DIR -np` on a fixed study was not taken for a dry run: after snakemake's plan it
    wrote the report and ended in "summaries/...json: missing"."""
    from reprocompare.commands.init import init_study
    from reprocompare.commands.run import run_study

    init_study(tmp_path / "study", TEST_DATA / "tiny.conll")
    said = []
    assert run_study(tmp_path / "study", ["-np", "--cores", "1", "--quiet"],
                     say=said.append) == []
    assert not (tmp_path / "study" / "results").exists() and said == []
