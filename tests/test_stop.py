"""How `reprocompare run` and `sequential` stop a run (reprocompare.commands.sequential.stop):
snakemake gets SIGINT, its jobs reprocompare.pipeline.guard.STOP, and a job ends in one line or
silently, never in a traceback, wherever the signal finds it.

A job's Python turns SIGINT into a KeyboardInterrupt from its first instruction, and a job still
in snakemake's script preamble (importing snakemake, before its guard) printed the traceback
into the run's output when the whole group got SIGINT: tests/test_run_signals.py saw it once,
by chance. Here the window is held open: a stand-in for snakemake starts one job, which tells
the test through a FIFO (tests/blocking.py) where it is, before its guard or inside it, and
waits there; the test then signals the supervising command as a terminal's Ctrl-C would.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from blocking import handshake

#: the stand-in for snakemake: it runs one job and waits for it, as snakemake, stopping, waits
#: for its jobs; it writes down each signal it gets
SNAKEMAKE = """
import signal, subprocess, sys
def note(signum, frame):
    with open("signals", "a") as out:
        print(signal.Signals(signum).name, file=out)
for signum in (signal.SIGINT, signal.SIGTERM):
    signal.signal(signum, note)
status = subprocess.call([sys.executable, "job.py", *sys.argv[1:]])
sys.exit(128 - status if status < 0 else status)  # as a shell says a signal's end
"""

#: the job: a workflow script's shape (snakemake's preamble, then the guard around the work),
#: waiting where the test says, its process id in the FIFO
JOB = """
import os, sys, time
def wait_here():
    with open("fifo", "w") as fifo:
        fifo.write(str(os.getpid()))
    time.sleep(120)
if sys.argv[1] == "preamble":
    wait_here()
from reprocompare.pipeline.guard import job
with job(None):
    if sys.argv[1] == "guarded":
        wait_here()
"""

#: `reprocompare run`'s supervision of snakemake, the stand-in in its place
SUPERVISE = """
import sys
from pathlib import Path
from reprocompare.commands.sequential import supervise
print("supervise:", *supervise([sys.executable, "snakemake.py", sys.argv[1]], Path(".")))
"""


@pytest.mark.parametrize("where", ["preamble", "guarded"])
def test_a_stopped_run_ends_each_job_without_a_traceback(tmp_path, where):
    for name, text in (("snakemake.py", SNAKEMAKE), ("job.py", JOB),
                       ("supervise.py", SUPERVISE)):
        (tmp_path / name).write_text(text)
    os.mkfifo(tmp_path / "fifo")
    with open(tmp_path / "output", "w") as output:
        command = subprocess.Popen([sys.executable, "supervise.py", where], cwd=tmp_path,
                                   stdout=output, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    job = psutil.Process(handshake(tmp_path / "fifo", timeout=120))
    os.kill(command.pid, signal.SIGINT)
    assert command.wait(timeout=60) == 0
    job.wait(timeout=60)
    output = (tmp_path / "output").read_text()
    assert "Traceback" not in output and "KeyboardInterrupt" not in output, output
    # snakemake was told as by Ctrl-C, and only so (its SIGTERM handler takes a lock)
    assert (tmp_path / "signals").read_text() == "SIGINT\n"
    if where == "preamble":  # SIGTERM's default: silent
        assert output == f"supervise: {128 + signal.SIGTERM} {signal.SIGINT.value}\n", output
    else:
        assert output == ("reprocompare: error: interrupted; nothing half-written is kept "
                          f"(rerun to resume)\nsupervise: 130 {signal.SIGINT.value}\n"), output


def test_a_stop_that_reaches_a_command_before_it_leaves_the_group_ends_it_silently(
        monkeypatch, capfd):
    """A command tagger's process (models.processes.run_command) is in the job's process group
    from its fork until its setsid, and a run that stops the group reaches it there too. Its
    first Python after the fork ran the guard's handler and printed "Exception ignored ...
    Traceback" into the job's log (seen once in CI, tests/test_run_signals.py). Here the stop
    reaches the child at the latest point of that window, in its preexec step: held back over
    the fork, it ends the child by its default action, silently, before the command runs."""
    from reprocompare.models import processes
    from reprocompare.pipeline import guard

    def stopped_in_the_window(parent):  # the child, before it runs the command
        os.kill(os.getpid(), guard.STOP)

    monkeypatch.setattr(processes, "die_with_parent", stopped_in_the_window)
    previous = signal.signal(guard.STOP, guard._interrupt)  # as inside a job's guard
    try:
        status, stderr, _ = processes.run_command("echo ran", timeout=30, which="test")
    finally:
        signal.signal(guard.STOP, previous)
    assert status == -guard.STOP and stderr == ""
    out, err = capfd.readouterr()
    assert "ran" not in out + err and "Traceback" not in err and "Exception ignored" not in err
