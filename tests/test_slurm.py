"""The cluster path on a real SLURM: a one-node cluster on this machine (tests/cluster/start.sh).

A tiny sequential study (tests/data/tiny.conll, CRF vs the majority baseline, hold-out and 2x2
BCV, one wave to R = 2) runs with `reprocompare sequential -- --profile profiles/slurm` (issue
22) and once locally with ``--profile profiles/local``. Checked: every job of the wave went
through sbatch (the cluster's job-completion records), each sbatch asked for what the rules and
the profile intend (cores, memory, time limit), one training job cancelled with scancel mid-run
is retried with twice the memory and the run finishes, the study stops as the local one does,
and the tables are byte-identical to the local run's. The cluster is shut down at the end when
the tests started it. (Plain `snakemake --profile profiles/slurm` plans the same jobs:
tests/test_workflow.py's dry run; one study on the cluster covers both drivers' submissions,
each job of which costs a fresh snakemake inside it.)

Starting SLURM needs root and apt (or slurm-wlm and munge installed). Where that is missing the
test is skipped with the reason, except under CI=true on a root machine with apt-get, where a
cluster that does not start is a failure.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, SNAKEMAKE, TEST_DATA

pytestmark = pytest.mark.slow

CLUSTER = ROOT / "tests" / "cluster"
STATE = Path(os.environ.get("REPROCOMPARE_SLURM_STATE", "/tmp/reprocompare-slurm"))
TABLES = ["table3.csv", "table3.md", "table3.tex", "table4.csv", "table4.md", "table4.tex"]

STUDY = {
    "corpora": {"tiny": {"path": str(TEST_DATA / "tiny.conll")}},
    "models": {"crf": {"type": "crf", "max_iterations": 5}, "majority": {"type": "majority"}},
    "comparisons": {"crf_vs_majority": {"a": "crf", "b": "majority", "corpora": ["tiny"]}},
    "strategies": {"holdout": {}, "bcv": {"m": 2}},
    "repetitions": 2,
    "seed": 5,
    # `reprocompare sequential` runs it: one wave, R = 2 (the profile is what is tested)
    "stopping": {"enabled": True, "estimators": ["ST"], "wave": 2, "max_repetitions": 2},
}
# What each sbatch should ask for (cores, MB, minutes), from the rules (workflow/rules/*.smk) and
# profiles/slurm: a training job (which also makes its split) 1 core, 1000 MB (2000 on its
# second attempt), 45 minutes; every other job 1 core, 2000 MB, 10 minutes.
INTENDED = {"compare": (1, 1000, 45), "compare_retry": (1, 2000, 45), "other": (1, 2000, 10)}

# Only for the test cluster: it has no slurmdbd, so job states come from squeue (the profile
# leaves the plugin's default, sacct, for real clusters), and short polling intervals. The
# partition is named as a user would; an account cannot be: the plugin checks a given account
# with sacctmgr, which needs slurmdbd, so the run takes the cluster's default (none).
LOCAL_CLUSTER = ["--default-resources", "slurm_partition=debug",
                 "--slurm-status-command", "squeue",
                 "--slurm-init-seconds-before-status-checks", "1",
                 "--seconds-between-status-checks", "2",
                 "--slurm-keep-successful-logs"]


def _skip_or_fail(reason: str):
    must_run = (os.environ.get("CI") == "true" and os.geteuid() == 0
                and shutil.which("apt-get") is not None)
    if must_run:
        pytest.fail(f"SLURM must run under CI on this machine, but: {reason}")
    pytest.skip(f"no SLURM: {reason}")


def _cluster_answers() -> bool:
    if not shutil.which("sinfo") or not (STATE / "slurm.conf").exists():
        return False
    state = subprocess.run(["sinfo", "-h", "-o", "%T"], capture_output=True, text=True,
                           env={**os.environ, "SLURM_CONF": str(STATE / "slurm.conf")})
    return state.returncode == 0 and bool(re.search(r"idle|mixed|alloc", state.stdout))


@pytest.fixture(scope="module")
def cluster():
    """The one-node cluster (installed if needed), shared by every test worker that uses it:
    the first starts it, the last one out stops it if the tests started it. xdist runs this
    module's tests on different workers at once; a worker that stopped the cluster at the end
    of its own test left the other's run polling a dead cluster until its timeout (seen
    2026-11-28: `pytest tests/test_slurm.py`, one test passed, the other timed out at 600 s)."""
    _enter_cluster()
    saved = os.environ.get("SLURM_CONF")
    os.environ["SLURM_CONF"] = str(STATE / "slurm.conf")  # for squeue and scancel below
    try:
        yield STATE
    finally:
        if saved is None:
            del os.environ["SLURM_CONF"]
        else:
            os.environ["SLURM_CONF"] = saved
        if _leave_cluster():
            assert not _cluster_answers()


#: the cluster's users: {"users": [worker, ...], "started": whether the tests started it}, kept
#: beside its state directory and changed under a lock on itself
USERS = STATE.with_name(STATE.name + ".users")


@contextlib.contextmanager
def _users():
    """The users record, read and written back under an exclusive lock; a worker that died
    without leaving is dropped."""
    with open(USERS, "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        handle.seek(0)
        text = handle.read()
        record = json.loads(text) if text.strip() else {"users": [], "started": False}
        record["users"] = [user for user in record["users"] if _alive(user)]
        yield record
        handle.seek(0)
        handle.truncate()
        handle.write(json.dumps(record))


def _me(pid: int | None = None) -> str:
    """A process as "PID:START" (its start time in clock ticks since boot, /proc/PID/stat),
    so that a pid the system has given to another process since does not count."""
    pid = os.getpid() if pid is None else pid
    try:
        start = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except OSError:
        return f"{pid}:gone"
    return f"{pid}:{start}"


def _alive(user: str) -> bool:
    return _me(int(user.split(":")[0])) == user


def _enter_cluster() -> None:
    """Start the cluster unless it is up; this worker is one of its users from then on."""
    with _users() as record:
        if not record["users"]:
            record["started"] = not _cluster_answers()
            start = subprocess.run([str(CLUSTER / "start.sh"), str(STATE)], capture_output=True,
                                   text=True)
            if start.returncode == 77:
                _skip_or_fail(start.stderr.strip().splitlines()[-1])
            assert start.returncode == 0, start.stdout[-2000:] + start.stderr[-3000:]
        record["users"].append(_me())


def _leave_cluster() -> bool:
    """This worker no longer uses the cluster; the last user stops it if the tests started it.
    Whether it was stopped."""
    with _users() as record:
        record["users"] = [user for user in record["users"] if user != _me()]
        if record["users"] or not record["started"]:
            return False
        subprocess.run([str(CLUSTER / "stop.sh"), str(STATE)], check=False)
        record["started"] = False
        return True


def _jobcomp() -> list[dict[str, str]]:
    path = STATE / "log" / "jobcomp.log"
    if not path.exists():
        return []
    return [dict(field.split("=", 1) for field in line.split() if "=" in field)
            for line in path.read_text().splitlines()]


def _sequential(workdir: Path, *options: str) -> list[str]:
    """`reprocompare sequential` on STUDY in ``workdir``, snakemake's ``options`` after --."""
    workdir.mkdir(parents=True, exist_ok=True)
    configfile = workdir / "study.yaml"
    configfile.write_text(yaml.safe_dump(STUDY))
    return [sys.executable, "-m", "reprocompare", "sequential", "--configfile", str(configfile),
            "--directory", str(workdir), "--", *options]


def _tables(workdir: Path) -> dict[str, bytes]:
    return {name: (workdir / "results" / "tables" / name).read_bytes() for name in TABLES}


def _cancel_one_training_task(cancelled: list[str], stop: threading.Event):
    """scancel the first training (rule compare) task seen running; record its id."""
    while not stop.is_set():
        queue = subprocess.run(["squeue", "-h", "-t", "RUNNING", "-o", "%i %k"],
                               capture_output=True, text=True).stdout
        for line in queue.splitlines():
            job_id, _, comment = line.partition(" ")
            if comment.startswith("rule_compare"):
                time.sleep(1)  # inside the job, training has begun
                subprocess.run(["scancel", job_id], check=True)
                cancelled.append(job_id)
                return
        time.sleep(0.3)


def _submitted_rules(workdir: Path) -> dict[str, str]:
    """SLURM job id -> rule (or group) name, from the executor's per-job SLURM logs."""
    logs = workdir / ".snakemake" / "slurm_logs"
    return {path.stem: path.relative_to(logs).parts[0].removeprefix("rule_")
            for path in logs.glob("**/*.log")}


def test_a_sequential_study_on_slurm_matches_the_local_run(cluster, tmp_path):
    workdir = tmp_path / "slurm"
    slurm = subprocess.Popen(_sequential(workdir, "--profile", str(ROOT / "profiles" / "slurm"),
                                         *LOCAL_CLUSTER),
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    cancelled, stop = [], threading.Event()
    canceller = threading.Thread(target=_cancel_one_training_task, args=(cancelled, stop))
    canceller.start()
    # the local reference runs meanwhile (this machine's cores are shared by both)
    local = subprocess.run(_sequential(tmp_path / "local", "--profile",
                                       str(ROOT / "profiles" / "local")),
                           capture_output=True, text=True, timeout=600)
    assert local.returncode == 0, (local.stdout + local.stderr)[-5000:]
    try:
        output, _ = slurm.communicate(timeout=600)
    finally:
        stop.set()
        canceller.join()
    assert slurm.returncode == 0, output[-5000:]
    assert cancelled, "no training job was seen running to cancel"
    # the study stopped as the local one did, after its one wave
    assert "wave to R = 2" in output and "stopped at R = 2" in output, output[-3000:]
    said = [line for line in output.splitlines() if line.startswith("stopped at R = ")]
    assert said == [line for line in local.stdout.splitlines()
                    if line.startswith("stopped at R = ")], (said, local.stdout[-3000:])

    # Every job of the wave went through sbatch: the cluster recorded one finished job per
    # submission.
    records = [r for r in _jobcomp() if r["WorkDir"] == str(workdir)]
    rules = _submitted_rules(workdir)
    assert sorted(r["JobId"] for r in records) == sorted(rules), (records, rules)
    submitted = sorted(rules.values())
    assert submitted == sorted(["corpus", *["compare"] * 5, "summarize",
                                "tables", "figures", "front_page", "checklist"]), submitted
    states = {r["JobId"]: r["JobState"] for r in records}
    assert states.pop(cancelled[0]) == "CANCELLED"
    assert set(states.values()) == {"COMPLETED"}, states

    # Each sbatch asked for what the rules and the profile intend.
    for record in records:
        rule = rules[record["JobId"]]
        tres = dict(item.split("=") for item in record["Tres"].split(","))
        if rule == "compare":
            retried = int(record["JobId"]) > int(cancelled[0]) and \
                tres["mem"] != f"{INTENDED['compare'][1]}M"
            kind = "compare_retry" if retried else "compare"
        else:
            kind = rule if rule in INTENDED else "other"
        cores, memory, minutes = INTENDED[kind]
        assert (int(tres["cpu"]), tres["mem"], int(record["TimeLimit"])) == \
            (cores, f"{memory}M", minutes), (rule, record)
    # the cancelled training job came back once, as its second attempt with twice the memory
    memory = sorted(dict(item.split("=") for item in r["Tres"].split(","))["mem"]
                    for r in records if rules[r["JobId"]] == "compare")
    assert memory == ["1000M"] * 4 + ["2000M"], memory

    assert _tables(workdir) == _tables(tmp_path / "local")
