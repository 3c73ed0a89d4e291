"""The one way a user's tagger runs: in processes of its own, ended whole, within its timeout.

A tagger of the user's, a command (:mod:`reprocompare.models.command`) or a Python class
(:mod:`reprocompare.models.plain`, or a SequenceTagger subclass outside this package), runs code
that may hang, start processes that outlive it, ``os._exit``, ``chdir`` or crash the
interpreter. Each runs in a process of its own process group, started here:

- a command as ``sh -c`` (:func:`run_command`); a Python tagger's ``fit`` and ``predict`` in a
  fork of the job (:func:`run_contained`), whose result (the predictions, or the one line an
  exception ends in) comes back through a pipe. A fork shares what the job computed (the
  features) without pickling it, and what the code does to its process (``chdir``,
  ``os._exit``, signal handlers, global state) stays in it;
- past ``timeout`` seconds, or when the job is interrupted, the process, every process of its
  group and every descendant that left the group (``setsid``) are killed with SIGKILL
  (:func:`end_tree`); so are those that a tagger leaves running when it returns. What the
  message says of them is what was observed: how many were killed, and any that survived.
"""

from __future__ import annotations

import ctypes
import os
import pickle
import select
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any, Callable

from reprocompare.base.errors import UserError

#: Seconds a tagger's step may run by default (a day), and at most (a year).
DEFAULT_TIMEOUT = 86400.0
MAX_TIMEOUT = 365 * 86400.0
#: how long SIGKILLed processes are given to disappear before they count as survivors
_GRACE = 2.0
#: prctl(2)'s PR_SET_PDEATHSIG (Linux): a signal the kernel sends when the parent dies
_PR_SET_PDEATHSIG = 1
try:  # loaded here, not in the child: a fork of a threaded job must not import
    _LIBC = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None
except OSError:
    _LIBC = None


def die_with_parent(parent: int) -> None:
    """In a child just started (a fork, or a command before its exec): the kernel SIGKILLs it
    when ``parent`` (the job) dies, also when the job itself is SIGKILLed (the OOM killer, a
    scheduler's kill, a lost node) and cannot end it. Without this a user's training, in a
    process group of its own, ran on for hours after its job, holding the GPU. Linux only;
    elsewhere it does nothing.

    Parameters
    ----------
    parent : int
        The job's process id, read before the fork: a child whose parent is already gone
        exits at once.
    """
    if _LIBC is None or not hasattr(_LIBC, "prctl"):
        return
    _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the job died between the fork and prctl
        os._exit(1)


#: the signals a run stops its jobs with (reprocompare.pipeline.guard: SIGTERM to the job's
#: process group, SIGINT from a terminal), which the job's guard turns into an interrupt
_STOPS = {signal.SIGINT, signal.SIGTERM}


def _block_stops() -> set:
    """Hold the stop signals back over a fork; the mask before, for :func:`_unblock_stops`.

    A child is in the job's process group from its fork until it takes a group of its own,
    and a run that stops the group then reaches it too. Its first Python after the fork
    (``threading._after_fork``, before any code of ours) ran the guard's handler, whose
    interrupt Python could only print as "Exception ignored ... Traceback" into the job's log
    (found in CI: tests/test_run_signals.py). Blocked, the signal waits: in the job for the
    guard, in the child for :func:`_child_default_stops`."""
    return signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)


def _unblock_stops(mask: set) -> None:
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def _child_default_stops(mask: set) -> None:
    """In the child, once it has a group of its own: a stop signal that reached it in the
    job's group ends it as it ends any process outside a guard (silently, by the default
    action), and the mask is the job's again (an exec keeps it)."""
    for number in _STOPS:
        signal.signal(number, signal.SIG_DFL)
    _unblock_stops(mask)


#: Linux's /proc, where a process's parent and group are read (elsewhere: its group alone)
_PROC = Path("/proc/self/stat").exists()


def _processes() -> list[tuple[int, str, int, int]]:
    """(pid, state, parent pid, process group) of every process we can see in /proc."""
    found = []
    for entry in Path("/proc").glob("[0-9]*/stat") if _PROC else ():
        try:
            text = entry.read_text()
        except OSError:  # gone meanwhile
            continue
        # the command name is in parentheses and may hold spaces: the fields follow the last ")"
        state, ppid, pgrp = text.rsplit(")", 1)[-1].split()[:3]
        found.append((int(entry.parent.name), state, int(ppid), int(pgrp)))
    return found


def descendants(pid: int) -> set[int]:
    """The live processes below ``pid`` (its children, theirs, ...), however they regrouped,
    and those of its process group.

    Parameters
    ----------
    pid : int
        The process.

    Returns
    -------
    set of int
        Their pids.
    """
    processes = [p for p in _processes() if p[1] != "Z"]  # a zombie is dead: it awaits a wait
    tree: dict[int, list[int]] = {}
    for child, _, parent, _ in processes:
        tree.setdefault(parent, []).append(child)
    found = {child for child, _, _, group in processes if group == pid and child != pid}
    todo = [pid, *found]
    while todo:
        for child in tree.get(todo.pop(), ()):
            if child not in found and child != pid:
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    if _PROC:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                return stat.read().rsplit(")", 1)[-1].split()[0] != "Z"
        except OSError:
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def end_tree(pid: int, known: set[int] = frozenset()) -> tuple[int, list[int]]:
    """SIGKILL the process group ``pid`` leads, every live descendant and group member of
    ``pid``, and the processes ``known`` (descendants seen earlier, which a parent that died
    no longer leads to).

    Returns how many live processes besides ``pid`` were killed, and the pids still alive
    ``_GRACE`` seconds later (none, unless a process is stuck in the kernel).

    Parameters
    ----------
    pid : int
        The process.
    known : set of int, default frozenset()
        Descendants seen earlier.

    Returns
    -------
    (int, list of int)
        The count killed, and the pids still alive.
    """
    targets = {t for t in set(known) | descendants(pid) if t != pid and _alive(t)}
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for target in targets | {pid}:
        try:
            os.kill(target, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    deadline = time.monotonic() + _GRACE
    while True:
        survivors = sorted(t for t in targets if _alive(t))
        if not survivors or time.monotonic() > deadline:
            return len(targets), survivors
        time.sleep(0.02)


def _left_running(pid: int, seen: set[int]) -> bool:
    """Whether anything of ``pid``'s (ended) still runs: ``seen`` holds what one scan found
    of its group and descendants as it ended (one scan of /proc per fold: it costs about
    2.5 ms). A process that left the group (``setsid``) and whose parent ended before a scan
    saw it is not found: it was started and orphaned within half a second."""
    if any(_alive(p) for p in seen):
        return True
    if _PROC:
        return False
    try:  # no /proc: its group is all we can see
        os.killpg(pid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def _ended(killed: int, survivors: list[int]) -> str:
    """What was ended, as observed: "was killed with the 2 processes it started", and any that
    survived."""
    others = f" with the {killed} process{'es' if killed != 1 else ''} it started" \
        if killed else ""
    if survivors:
        return (f"was killed{others}, but {len(survivors)} of them survived SIGKILL "
                f"(pid {', '.join(map(str, survivors))})")
    return f"was killed{others}"


def _left_note(which: str, killed: int, survivors: list[int]) -> str:
    note = (f"the {which} left {killed} process{'es' if killed != 1 else ''} running when it "
            "returned; killed")
    if survivors:
        note += f", but {len(survivors)} survived SIGKILL (pid {', '.join(map(str, survivors))})"
    return note


# ---------------------------------------------------------------------- commands

def run_command(command: str, *, timeout: float, which: str) -> tuple[int, str, str]:
    """Run the shell command ``command`` in its own process group, its stdout to ours and its
    stderr to a file (a process it leaves in the background keeps a pipe open, and the wait
    would never end); then end whatever it left running.

    Returns (exit status, the tail of its stderr, a note on processes it left behind, or "").
    Past ``timeout`` seconds it is killed with everything it started: a UserError that says so.

    Parameters
    ----------
    command : str
        The shell command.
    timeout : float
        Seconds it may run.
    which : str
        What the command is, for messages.

    Returns
    -------
    (int, str, str)
        Its exit status, the tail of its stderr, and the note.
    """
    with tempfile.TemporaryFile() as stderr:
        parent = os.getpid()

        def in_child() -> None:  # after its setsid, before its exec
            die_with_parent(parent)
            _child_default_stops(mask)

        mask = _block_stops()
        try:
            process = subprocess.Popen(command, shell=True, stdin=subprocess.DEVNULL,
                                       stdout=_stdout_fd(), stderr=stderr,
                                       start_new_session=True, preexec_fn=in_child)
        except BaseException:
            _unblock_stops(mask)
            raise
        seen: set[int] = set()
        try:
            _unblock_stops(mask)  # a stop held back over the fork is the job's interrupt here
            deadline = time.monotonic() + timeout
            while True:
                try:
                    process.wait(timeout=min(0.5, max(0.0, deadline - time.monotonic())))
                    break
                except subprocess.TimeoutExpired:
                    seen |= descendants(process.pid)  # before a parent dies and hides them
                    if time.monotonic() >= deadline:
                        killed, survivors = end_tree(process.pid, seen)
                        process.wait()
                        raise UserError(
                            f"the {which} command did not finish within its timeout of "
                            f"{timeout:g} seconds and {_ended(killed, survivors)}: "
                            f"{command} (raise the "
                            "model's timeout: if it needs longer)", key=which) from None
        except BaseException:  # an interrupt, a SIGTERM made SystemExit: no orphan runs on
            end_tree(process.pid, seen)
            process.wait()
            raise
        # what it left running (a server, a `cmd &`) would outlive the job: end it too
        seen |= descendants(process.pid)
        note = ""
        if _left_running(process.pid, seen):
            killed, survivors = end_tree(process.pid, seen)
            if killed:
                note = _left_note(f"{which} command", killed, survivors)
        stderr.seek(0)
        return process.returncode, stderr.read().decode("utf-8", "replace"), note


def _stdout_fd():
    """The job's stderr, where a command's output goes (the job's log); stdout stays ours."""
    try:
        sys.stderr.flush()
        return sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):  # a stderr without a file (captured)
        return subprocess.DEVNULL


# ---------------------------------------------------------------------- Python taggers

def _where_raised(error: BaseException) -> str:
    """The innermost frame of a traceback outside this package: the user's line."""
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if "reprocompare" not in Path(f.filename).parts
              and Path(f.filename).name != Path(__file__).name]
    frame = frames[-1] if frames else None
    return f" (at {frame.filename}:{frame.lineno})" if frame else ""


def run_contained(function: Callable[[], Any], *, timeout: float, what: str) -> Any:
    """``function()`` in a fork of this process in a process group of its own; its return
    value (pickled) or the one line its exception ends in.

    ``what`` names the step in messages ("the tagger's fit and predict"). A ValueError or
    TypeError (a broken contract: UserError included) comes back as a UserError with its
    message; any other exception as its type, message and the user's line; a process that ends
    without answering (``os._exit``, a signal, a crash of the interpreter), one that runs past
    ``timeout`` seconds, or one that leaves processes running, as a UserError saying so.

    Parameters
    ----------
    function : callable
        Called with no argument in the fork.
    timeout : float
        Seconds it may run.
    what : str
        The step's name in messages.

    Returns
    -------
    object
        What ``function`` returned.
    """
    read, write = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    parent = os.getpid()
    mask = _block_stops()
    try:
        pid = os.fork()
    except BaseException:
        _unblock_stops(mask)
        raise
    if pid == 0:  # the child: answer through the pipe, never return into the caller's code
        status = 1
        try:
            os.close(read)
            os.setpgid(0, 0)
            die_with_parent(parent)
            _child_default_stops(mask)
            try:
                answer = ("ok", function())
            except (ValueError, TypeError) as error:
                answer = ("contract", str(error).replace("\n", " "))
            except BaseException as error:  # noqa: BLE001 (the user's code: any exception)
                answer = ("raised", f"{type(error).__name__}: {error}".replace("\n", " ")
                          + _where_raised(error))
            try:
                data = pickle.dumps(answer)
            except Exception as error:  # noqa: BLE001 (an answer that does not pickle)
                data = pickle.dumps(("contract", f"returned what cannot be sent back ({error})"))
            with os.fdopen(write, "wb") as pipe:
                pipe.write(data)
            status = 0
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(status)  # no atexit, no finally of the parent's frames
    os.close(write)
    try:
        os.setpgid(pid, pid)  # as the child does: whichever runs first
    except (ProcessLookupError, PermissionError):
        pass
    chunks, seen = [], set()
    deadline = time.monotonic() + timeout
    try:
        _unblock_stops(mask)  # a stop held back over the fork is the job's interrupt here
        with os.fdopen(read, "rb") as pipe:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    seen |= descendants(pid)
                    killed, survivors = end_tree(pid, seen)
                    os.waitpid(pid, 0)
                    raise UserError(f"{what} did not finish within its timeout of {timeout:g} "
                                    f"seconds and {_ended(killed, survivors)} (raise the "
                                    "model's timeout: if it needs longer)")
                ready, _, _ = select.select([pipe], [], [], min(left, 0.5))
                if not ready:
                    seen |= descendants(pid)
                    continue
                data = os.read(pipe.fileno(), 1 << 20)
                if not data:
                    break
                chunks.append(data)
        seen |= descendants(pid)
        _, status = os.waitpid(pid, 0)
    except BaseException:  # an interrupt: nothing of the tagger's outlives the job
        end_tree(pid, seen)
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
        raise
    # what its code left running (a subprocess, a daemon) would outlive the job: end it, and
    # say so on the job's log
    if _left_running(pid, seen):
        killed, survivors = end_tree(pid, seen)
        if killed:
            print(f"warning: {_left_note(what, killed, survivors)}", file=sys.stderr,
                  flush=True)
    if not chunks:
        how = (f"was killed by signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status)
               else f"exited with status {os.WEXITSTATUS(status)}")
        raise UserError(f"{what} ended its process without answering: it {how} (os._exit, "
                        "sys.exit in a thread, a crash of the interpreter?)")
    kind, value = pickle.loads(b"".join(chunks))
    if kind == "ok":
        return value
    if kind == "contract":
        raise UserError(value)
    raise UserError(f"{what} raised {value}")
