"""Sequential studies: `reprocompare sequential` runs waves of repetitions until the verdicts are
decided.

A study with ``stopping.enabled`` adds ``stopping.wave`` repetitions at a time through the same
Snakemake workflow (``--config repetitions=R``: every wave only adds repetitions, so the
provenance and growth guarantees hold as in any run) and stops when every estimator of
``stopping.estimators`` has a verdict on every comparison, or when ``stopping.max_repetitions``
is reached. The verdicts then read confidence sequences (:mod:`reprocompare.estimators.sequential`),
whose coverage holds however early the study stops, or, under ``stopping.design: planned``, the
repeated confidence intervals of the looks planned before it ran
(:mod:`reprocompare.estimators.group_sequential`), whose plan therefore cannot change once
results exist (:func:`check_plan`); the summaries record the rule, the waves run and where the
study stopped, and every table prints it.

Interrupted, the same command resumes: it starts at the last whole wave the results hold. A
signal (Ctrl-C, SIGTERM, SIGHUP) is passed to snakemake's process group (:func:`stop`), which
stops its jobs and frees its lock before this command exits with 130; killed outright, it leaves
a watchdog in snakemake's group that stops it the same way, and a record of the run, from which
the next run knows a lock left behind as its own and frees it once no snakemake runs in the
directory. On a fresh clone (results committed, no Snakemake records beside them) it first
runs :func:`reprocompare.commands.resume.resume`, which checks them against the config and
records them, so that nothing committed is trained again. Any profile works (``-- --profile
profiles/slurm ...`` passes its arguments to every snakemake run; a ``--config KEY=VALUE`` among
them is merged with the config file for the stopping rule and with each wave's repetitions).
A dry run (``-- -n``) plans the wave the study would run next and writes nothing; what the
command cannot go on from (cores below 1, a summary whose stopping record was lost, a full disk
under its own writes, snakemake refusing its arguments) ends in one line naming it, with a rerun
advised only where one can succeed (issue 50).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil

from reprocompare.base.errors import UserError
from reprocompare.base.paths import run_directory
from reprocompare.base.run_records import SUMMARY, finished
from reprocompare.commands.options import check_cores
from reprocompare.commands.resume import planned_runs, restore_records, resume
from reprocompare.estimators.designs import of_stopping
from reprocompare.pipeline.guard import STOP
from reprocompare.pipeline.workflow_files import (LOCAL_PROFILE, profile, report_stylesheet,
                                                  snakemake_command)
from reprocompare.reports.tables import FEW_REPETITIONS, said
from reprocompare.study.config import blame_command_line, load_yaml, validate, widest

#: the signals passed on to snakemake: a terminal's Ctrl-C reaches only this command's process
#: group, a scheduler's or a user's SIGTERM only this process
FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
#: seconds what is left of snakemake's group has to exit after a SIGTERM, before SIGKILL
GRACE = 60
#: where the report is written, in the study's directory (`reprocompare run` and `sequential`)
REPORT = "results/report.html"
#: what a wave in progress records beside Snakemake's lock (removed when the wave ends)
RUN_RECORD = Path(".snakemake", "reprocompare-sequential.json")
#: options each wave sets itself: given again after --, snakemake would keep one of the two
OWN_OPTIONS = {"configfile": ("--configfile", "give the config to sequential's --configfile"),
               "configfiles": ("--configfiles", "give the config to sequential's --configfile"),
               "directory": ("--directory", "give it to sequential's --directory"),
               "snakefile": ("--snakefile", "sequential runs reprocompare's workflow")}
#: the exit status of snakemake refusing its command line (argparse's)
EXIT_BAD_ARGUMENTS = 2
#: free space below which a failed workflow is said to have filled the disk
LOW_SPACE = 64 * 2**20
#: what a summary's stopping record holds that the waves read (the summary job writes it)
STOPPING_READ = ("decided", "stopped")


def _complete(config: dict, directory: Path) -> int:
    """How many leading repetitions are complete for every planned (corpus, comparison,
    strategy), up to the maximum."""
    complete = {}
    for corpus, comparison, strategy, r in planned_runs(widest(config)):
        key = (corpus, comparison, strategy)
        # every planned cell counts, none run too: a comparison added to a finished study (or
        # one whose results were moved away to train again) starts the waves from its first
        if complete.setdefault(key, 0) == r and \
                finished(run_directory(corpus, comparison, strategy, r, root=directory)):
            complete[key] = r + 1
    return min(complete.values(), default=0)


def progress(name: str, verdict: dict, maximum: int) -> str:
    """One estimator's verdict after a wave, as the wave's progress line says it
    (:func:`reprocompare.reports.tables.said`: an undecided one's forecast, not a point "N
    more").

    Parameters
    ----------
    name : str
        The estimator.
    verdict : dict
        Its verdict, as the summary holds it.
    maximum : int
        The study's maximum R.

    Returns
    -------
    str
    """
    r = verdict.get("repetitions")
    caution = (f"; caution: R = {r} < {FEW_REPETITIONS}, a first look only (Table 4 says why)"
               if r is not None and r < FEW_REPETITIONS else "")
    return f"{name}: " + said(verdict["text"], verdict["decision"], r, verdict.get("forecast"),
                              maximum, verdict.get("claim", "")) + caution


def _cloned(config: dict, directory: Path) -> bool:
    """Whether the study holds results Snakemake has no records of: a clone, where git gave
    every file the checkout's time and Snakemake would train the whole study again.

    Any finished repetition counts, not only whole waves: a comparison added to a committed
    study has none, and its neighbours' results must still be made current first."""
    if (directory / ".snakemake" / "metadata").is_dir():
        return False
    return any(finished(run_directory(*run, root=directory)) for run in planned_runs(widest(config)))


def _summary_paths(config: dict, directory: Path) -> list[Path]:
    return [directory / SUMMARY.name.format(corpus=corpus, comparison=name)
            for name, comparison in sorted(config["comparisons"].items())
            for corpus in comparison["corpora"]]


def _damaged_summary(path: Path, what: str) -> UserError:
    """A summary whose stopping record the waves cannot read: removed, it is written again."""
    return UserError(f"{what} (edited by hand or cut short?): delete this summary, then run "
                     "the same command again; the wave writes it again from the repetitions' "
                     "records, training nothing", path=path)


def _stopping_record(summary: dict, path: Path) -> dict:
    """The summary's ``stopping`` record, with what the waves read of it; a UserError naming
    the file where it is not there (a KeyError traceback before issue 50)."""
    stopping = summary.get("stopping")
    if not isinstance(stopping, dict):
        raise _damaged_summary(path, "has no `stopping` record")
    lacking = [key for key in STOPPING_READ if not isinstance(stopping.get(key), bool)]
    judged = stopping.get("futility_judgement")
    if stopping.get("futile") and not (isinstance(judged, dict) and all(
            key in judged for key in ("probability", "level", "estimator"))):
        lacking.append("futility_judgement")
    if lacking:
        raise _damaged_summary(path, f"its `stopping` record lacks {', '.join(lacking)}")
    return stopping


def _summaries(config: dict, directory: Path) -> list[dict]:
    """Every comparison's summary, each checked for the stopping record the waves read."""
    summaries = []
    for path in _summary_paths(config, directory):
        summary = SUMMARY.read_file(path)["summary"]
        _stopping_record(summary, path)
        summaries.append(summary)
    return summaries


def check_plan(config: dict, directory: Path, source: str | Path) -> None:
    """A planned design's plan is the one its results were made under: a UserError naming the
    key that changed and the summary it was read from, when the config asks for a planned
    design and an existing summary was made under another design, wave or maximum, or when it
    asks for confidence sequences and a summary was made under a planned design (the analysis
    chosen after seeing its results).

    Parameters
    ----------
    config : dict
        The validated config.
    directory : pathlib.Path
        The study's directory.
    source : str or os.PathLike
        The config's file, for the message.
    """
    stopping = config["stopping"]
    wanted = of_stopping(stopping)
    for path in _summary_paths(config, directory):
        if not path.exists():
            continue
        summary = SUMMARY.read_file(path)["summary"]
        made = summary.get("stopping")
        if made is None and any(isinstance(verdict, dict) and (
                verdict.get("planned") or verdict.get("time_uniform"))
                for verdict in summary.get("verdicts", {}).values()):
            # its verdicts were made under a stopping rule: the record was lost, not absent
            raise _damaged_summary(path, "has no `stopping` record")
        design = of_stopping(made)
        if design is wanted and wanted.planned:
            lacking = [key for key in ("wave", "max_repetitions") if key not in made]
            if lacking:
                raise _damaged_summary(path, f"its `stopping` record lacks {lacking[0]}")
            changed = [key for key in ("wave", "max_repetitions")
                       if made[key] != stopping[key]]
        else:
            changed = ["design"] if design.planned or wanted.planned else []
        if changed:
            key = changed[0]
            now, was = (wanted.name, f"design {design.name}") if key == "design" else \
                (stopping[key], f"{key} {made[key]}")
            if not (made and made.get("enabled")):
                was = "a fixed R (stopping off)"
            raise UserError(
                f"{now}, but {path} was made under {was}: a planned design's error is spent "
                "over the looks fixed before the study ran, so its plan (design, wave, "
                "max_repetitions) cannot change once results exist; run the new plan in a new "
                "study directory (--directory)", path=source, key=f"stopping.{key}")


def split_config(arguments: list[str]) -> tuple[list[str], list[str]]:
    """The arguments without their ``--config`` (``-C``) options, and the KEY=VALUE entries of
    all of them, in order (snakemake's --config takes every value up to the next option).

    Parameters
    ----------
    arguments : list of str
        Snakemake's arguments.

    Returns
    -------
    (list of str, list of str)
        The other arguments, and the entries.
    """
    rest: list[str] = []
    entries: list[str] = []
    i = 0
    while i < len(arguments):
        token = arguments[i]
        i += 1
        if token in ("--config", "-C") or token.startswith("--config="):
            if token.startswith("--config="):
                entries.append(token.split("=", 1)[1])
            while i < len(arguments) and not arguments[i].startswith("-"):
                entries.append(arguments[i])
                i += 1
        else:
            rest.append(token)
    return rest, entries


def snakemake_arguments(arguments: list[str]) -> tuple[list[str], list[str], dict]:
    """(the arguments each wave passes on, their --config entries, those entries as a config
    mapping); a UserError for arguments snakemake would refuse or that a wave sets itself.

    Parameters
    ----------
    arguments : list of str
        Snakemake's arguments as given.

    Returns
    -------
    (list of str, list of str, dict)
    """
    from snakemake.cli import get_argument_parser, parse_config  # lazy: 1 s, sequential only

    check_cores(arguments)  # below 1, snakemake would read every core (issue 50)
    rest, entries = split_config(arguments)
    parser = get_argument_parser()

    def refuse(message):  # argparse would print its usage and exit
        raise UserError(f"the arguments after --: {message}", path="the command line")

    parser.error = refuse
    parsed = parser.parse_args(rest)
    for dest, (option, advice) in OWN_OPTIONS.items():
        if getattr(parsed, dest, None):
            refuse(f"{option} is set by every wave: {advice}")
    try:
        overrides = parse_config(entries)
    except ValueError as error:
        refuse(f"--config {' '.join(entries)}: {error}")
    if "repetitions" in overrides:
        refuse("--config repetitions is what each wave sets (R grows by stopping.wave up to "
               "stopping.max_repetitions): set those in the config instead")
    return rest, entries, overrides


def is_dry_run(arguments: list[str]) -> bool:
    """Whether snakemake's arguments ask for a dry run (-n, --dry-run, -np, ...), as snakemake
    parses them.

    Parameters
    ----------
    arguments : list of str
        Snakemake's arguments, without their --config entries (:func:`split_config`).

    Returns
    -------
    bool
    """
    from snakemake.cli import get_argument_parser  # lazy, as above

    parsed, _ = get_argument_parser().parse_known_args(arguments)
    return bool(getattr(parsed, "dryrun", False))


def check_writable(directory: Path) -> None:
    """Every folder of the study a run writes in (the study's, its results and Snakemake's
    records) can be written: said before any job, not as a job's failure.

    Parameters
    ----------
    directory : pathlib.Path
        The study's directory.
    """
    # a study not begun yet: the folder it is created in
    folders = [next(folder for folder in (directory, *directory.absolute().parents)
                    if folder.exists())]
    for name in ("results", "logs", "benchmarks", ".snakemake"):
        if (directory / name).is_dir():
            folders += [Path(root) for root, _, _ in os.walk(directory / name)]
    for folder in folders:
        if not os.access(folder, os.W_OK | os.X_OK):
            raise UserError("cannot be written (a read-only folder): give yourself write "
                            f"permission (chmod -R u+w {directory}), or copy the study to a "
                            "folder you can write", path=folder)


def remove_empty_outputs(directory: Path, say=print) -> list[Path]:
    """Remove every empty file of the study's results (an output emptied by a hand, ``: >
    table4.md``, or a disk that filled as it was written): no job writes one, and Snakemake
    takes any file that exists and is newer than its inputs for done, so it would stay empty.
    Removed, it is written again by the run, which names it as a target beside the default one
    (:func:`rebuilt_targets`: Snakemake does not rerun a job for an output that no target asks
    for).

    Parameters
    ----------
    directory : pathlib.Path
        The study's directory.
    say : callable, default print
        Called with a line naming the files removed.

    Returns
    -------
    list of pathlib.Path
        The files removed.
    """
    results = directory / "results"
    empty = sorted(path for path in results.rglob("*")
                   if path.is_file() and not path.is_symlink() and path.stat().st_size == 0) \
        if results.is_dir() else []
    for path in empty:
        path.unlink()
    if empty:
        shown = ", ".join(str(path.relative_to(directory)) for path in empty[:5])
        more = f" and {len(empty) - 5} more" if len(empty) > 5 else ""
        one = len(empty) == 1
        say(f"{directory}: {shown}{more} {'was' if one else 'were'} empty: removed, so that "
            f"this run writes {'it' if one else 'them'} again")
    return empty


def rebuilt_targets(directory: Path, removed: list[Path]) -> list[str]:
    """Snakemake's targets that write the ``removed`` outputs again: the default target, and
    each file removed that a rule writes (the report is written after the workflow, by
    :func:`write_report`, and no rule of it is a target); [] when none was removed.

    Parameters
    ----------
    directory : pathlib.Path
        The study's directory.
    removed : list of pathlib.Path
        What :func:`remove_empty_outputs` removed.

    Returns
    -------
    list of str
    """
    files = [str(path.relative_to(directory)) for path in removed]
    files = [name for name in files if name != REPORT]
    return ["all", *files] if files else []


def failure(directory: Path, returncode: int, command: str, stopped: str, then: str,
            kept: str = "") -> UserError:
    """Why snakemake stopped, as far as its exit and the disk tell, and what to do: a rerun is
    advised only where one can succeed (arguments snakemake refused are refused again).

    Parameters
    ----------
    directory : pathlib.Path
        The study's directory.
    returncode : int
        Snakemake's exit status.
    command : str
        The reprocompare command that ran it (for its help).
    stopped : str
        What stopped, e.g. "the workflow stopped".
    then : str
        What the same command does when run again, e.g. "to go on".
    kept : str, optional
        What is kept, said after the advice.

    Returns
    -------
    UserError
    """
    if returncode == EXIT_BAD_ARGUMENTS:
        return UserError("snakemake refused its arguments (its message above): correct them "
                         f"(`reprocompare {command} -h`, `snakemake --help`)", path=directory)
    with contextlib.suppress(OSError):
        free = shutil.disk_usage(directory).free
        if free < LOW_SPACE:
            return UserError(f"{stopped} with {free / 2**20:.0f} MiB left on the disk "
                             "(snakemake's messages above): free some space, then run the "
                             f"same command again {then}", path=directory)
    check_writable(directory)  # made read-only while it ran: said as such, not as a job's
    return UserError(f"{stopped} (snakemake's messages above name the job and its log): "
                     f"correct what they say, then run the same command again {then}{kept}",
                     path=directory)


def _no_space(error: OSError, directory: Path, then: str) -> UserError | None:
    """A full disk met while this command writes: one line naming the file and the cause."""
    if error.errno != errno.ENOSPC:
        return None
    where = f" writing {error.filename}" if error.filename else ""
    return UserError(f"no space left on the device{where}: free some space, then run the same "
                     f"command again {then}", path=directory)


def _running_here(directory: Path, skip: int | None = None) -> list[int]:
    """The processes of this machine that run snakemake or one of its jobs in ``directory``
    (snakemake works in its --directory; its script jobs run from .snakemake/scripts)."""
    here = directory.resolve()
    found = []
    for process in psutil.process_iter(["pid", "cmdline", "cwd"]):
        info = process.info
        if info["pid"] in (os.getpid(), skip) or not info["cwd"] or not info["cmdline"]:
            continue  # not ours to see (another user's), or a zombie
        if Path(info["cwd"]) == here and "snakemake" in " ".join(info["cmdline"]):
            found.append(info["pid"])
    return sorted(found)


def _free_stale_lock(directory: Path, say) -> None:
    """Free the lock an interrupted wave of ours left, when no snakemake runs here; refuse to
    start while one does, or when the lock is not ours to free."""
    locks = directory / ".snakemake" / "locks"
    record_path = directory / RUN_RECORD
    running = _running_here(directory)
    if running:
        raise UserError(f"snakemake is still running in this directory (process "
                        f"{', '.join(map(str, running))}): wait for it to end, or stop it, then "
                        "run the same command again", path=directory)
    if not (locks.is_dir() and any(locks.iterdir())):
        record_path.unlink(missing_ok=True)
        return
    try:
        record = json.loads(record_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        record = None
    if record is None or record.get("host") != socket.gethostname():
        raise UserError("locked by a snakemake that is not running on this machine (killed, or "
                        "running elsewhere on a shared file system); if none runs, free the lock "
                        f"with `snakemake --directory {directory} --unlock` and run the same "
                        "command again", path=directory)
    # what `snakemake --unlock` does (its persistence's cleanup_locks), without its start-up
    shutil.rmtree(locks)
    record_path.unlink(missing_ok=True)
    say(f"{directory}: freed the lock of an interrupted wave (no snakemake runs here)")


#: a watchdog in snakemake's process group: when this command dies without saying "done", even
#: by SIGKILL, its pipe closes, and the watchdog stops the group (:func:`stop`), so that
#: snakemake stops its jobs and frees its lock rather than running on unwatched (what it
#: imports to do so, only then)
WATCHDOG = ("import os, sys\n"
            "if sys.stdin.read() != 'done':\n"
            "    from reprocompare.commands.sequential import stop\n"
            "    stop(os.getpgid(0), spare=os.getpid())\n")


def stop(snakemake: int, spare: int | None = None) -> None:
    """Stop the snakemake process ``snakemake``, leader of its process group, and its jobs:
    snakemake gets SIGINT, which it answers by stopping its jobs and freeing its lock (its
    Ctrl-C), and every other process of the group (its jobs, what they run; not ``spare``,
    the watchdog) the jobs' :data:`reprocompare.pipeline.guard.STOP`. SIGINT to the whole
    group would reach a job still importing snakemake in its script's preamble, before its
    guard, where Python turns it into a traceback; and snakemake is not sent STOP (SIGTERM):
    its scheduler's handler of it takes a lock the interrupted scheduler may hold.

    As with a signal to the whole group, a job whose start was under way as snakemake got
    its SIGINT is not reached, and snakemake waits for it; :func:`_end_group` ends whatever
    of the group is left once snakemake has exited.

    Parameters
    ----------
    snakemake : int
        Snakemake's process id, its group's id.
    spare : int, optional
        A process of the group to leave running.
    """
    with contextlib.suppress(ProcessLookupError):
        os.kill(snakemake, signal.SIGINT)
    for process in psutil.process_iter():
        with contextlib.suppress(psutil.Error, ProcessLookupError):
            if process.pid not in (snakemake, spare, os.getpid()) and \
                    os.getpgid(process.pid) == snakemake:
                process.send_signal(STOP)


def supervise(command: list[str], directory: Path) -> tuple[int, int | None]:
    """Run a snakemake ``command`` working in ``directory`` until it ends, passing it the
    signals this command gets; (its exit status, the first signal received or None). Also
    what `reprocompare run` runs snakemake with.

    Parameters
    ----------
    command : list of str
        The snakemake command.
    directory : pathlib.Path
        Where it runs.

    Returns
    -------
    (int, int or None)
    """
    record = directory / RUN_RECORD
    record.parent.mkdir(parents=True, exist_ok=True)
    received: list[int] = []
    started: list[subprocess.Popen] = []

    def forward(signum, frame):
        received.append(signum)
        # stopped as by Ctrl-C (stop); a second signal: the user insists, and snakemake gets
        # no more time
        if not started:
            return
        if len(received) > 1:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(started[0].pid, signal.SIGKILL)
        else:
            stop(started[0].pid, spare=watchdog.pid if watchdog is not None else None)

    # the handlers before snakemake starts: a signal this process catches is the default in a
    # program it starts, where an ignored one stays ignored. A command run in the background of
    # a script (`cmd &`, as nohup and batch jobs do) gets SIGINT ignored, and snakemake would
    # inherit that and never hear the SIGINT it is stopped by
    previous = {signum: signal.signal(signum, forward) for signum in FORWARDED}
    watchdog = None
    try:
        # its own process group: a signal reaches snakemake and its jobs once, from us, and is
        # waited for (a terminal's Ctrl-C alone would reach both, and Python would kill
        # snakemake a quarter of a second later, its lock left behind)
        process = subprocess.Popen(command, process_group=0)
        started.append(process)
        if received:  # a signal while it started: stop it now
            stop(process.pid)
        with contextlib.suppress(OSError):  # snakemake has already ended (its group with it)
            watchdog = subprocess.Popen([sys.executable, "-c", WATCHDOG], stdin=subprocess.PIPE,
                                        text=True, process_group=process.pid)
        try:
            record.write_text(json.dumps({"host": socket.gethostname(), "pid": os.getpid(),
                                          "snakemake": process.pid}), encoding="utf-8")
        except OSError as error:  # a full disk: no half record to mislead the next run
            record.unlink(missing_ok=True)
            if error.filename is None:
                error.filename = str(record)
            raise
        returncode = process.wait()  # snakemake stops its jobs and frees its lock, then exits
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if watchdog is not None:
            with contextlib.suppress(OSError):
                watchdog.communicate("done")
        if started:
            _end_group(started[0])
    locks = directory / ".snakemake" / "locks"
    if not (locks.is_dir() and any(locks.iterdir())):
        record.unlink(missing_ok=True)  # else it tells the next run that the lock is ours
    return returncode, received[0] if received else None


def _snakemake(config_path: Path, directory: Path, repetitions: int, arguments: list[str],
               entries: list[str], say=print, targets: list[str] | None = None,
               command_name: str = "sequential") -> None:
    # the targets first: after the arguments an option of any number of values (--quiet)
    # would take them, after --config they would be read as its entries
    command = snakemake_command("--configfile", str(config_path.resolve()),
                                "--directory", str(directory), *(targets or []), *arguments,
                                "--config", *entries, f"repetitions={repetitions}")
    returncode, received = supervise(command, directory)
    if received is not None:
        say(f"interrupted by {signal.Signals(received).name} in the wave to R = "
            f"{repetitions}: snakemake stopped; run the same command again to resume")
        raise KeyboardInterrupt
    if returncode != 0:  # its output went to the terminal as it ran
        raise failure(directory, returncode, command_name,
                      f"the wave at R = {repetitions} failed", "to resume",
                      "; the repetitions that finished are kept")


def write_report(config_path: str | Path, directory: str | Path,
                 arguments: list[str] | None = None, repetitions: int | None = None,
                 say=print, command_name: str = "sequential") -> Path:
    """Write the study's report, ``DIR/results/report.html`` (``snakemake --report``): what
    every run ends with, `reprocompare run` and `reprocompare sequential` alike.

    Parameters
    ----------
    config_path : str or os.PathLike
        The study's config.
    directory : str or os.PathLike
        The study's directory.
    arguments : list of str, optional
        Snakemake's arguments of the run: the report reads the config the run read, so their
        ``--config`` entries are passed on (the rest, a profile included, are not).
    repetitions : int, optional
        The R a sequential study stopped at (its waves set it; the config file's R is not it).
    say : callable, default print
        Called with each line of progress.
    command_name : str, default 'sequential'
        The reprocompare command writing it, for the advice where it fails.

    Returns
    -------
    pathlib.Path
        The report.
    """
    config_path, directory = Path(config_path), Path(directory)
    entries = split_config(list(arguments or []))[1]
    if repetitions is not None:
        entries = [*entries, f"repetitions={repetitions}"]
    command = snakemake_command("--configfile", str(config_path.resolve()),
                                "--directory", str(directory),
                                *(["--config", *entries] if entries else []), "--report", REPORT,
                                "--report-stylesheet", str(report_stylesheet()))
    returncode, received = supervise(command, directory)
    if received is not None:
        say(f"interrupted by {signal.Signals(received).name} while writing the report; run the "
            "same command again to write it")
        raise KeyboardInterrupt
    if returncode != 0:  # its messages went to the terminal
        raise failure(directory, returncode, command_name, "the report could not be written",
                      "to write it")
    say(f"report: {directory / REPORT}")
    return directory / REPORT


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


def _end_group(process: subprocess.Popen) -> None:
    """No process of snakemake's group outlives the wave (a job it did not stop, or snakemake
    itself when this command ends for another reason): SIGTERM, and SIGKILL after GRACE s."""
    if process.poll() is not None and not _group_alive(process.pid):
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    deadline = time.monotonic() + GRACE
    while (process.poll() is None or _group_alive(process.pid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def run_waves(config_path: str | Path, directory: str | Path = ".",
              arguments: list[str] | None = None, say=print,
              command_name: str = "sequential") -> dict:
    """Run waves until the stopping rule is met; return where the study stopped and why.

    Parameters
    ----------
    config_path : str or os.PathLike
        The study's config.
    directory : str or os.PathLike, default '.'
        The study's directory.
    arguments : list of str, optional
        Snakemake's arguments for every wave.
    say : callable, default print
        Called with each line of progress.
    command_name : str, default 'sequential'
        The reprocompare command running the waves, for the advice where snakemake fails.

    Returns
    -------
    dict
        The repetitions run, why it stopped and whether every verdict decided; for a dry run
        (``-n`` among the arguments), the wave it would run next and ``dry_run``: True.
    """
    config_path, directory = Path(config_path), Path(directory)
    try:
        return _run_waves(config_path, directory, list(arguments or []), say, command_name)
    except OSError as error:  # a full disk under this command's own writes: one line
        raise _no_space(error, directory, "to resume") or error from None


def _dry_run(config: dict, config_path: Path, directory: Path, arguments: list[str],
             entries: list[str], say, command_name: str) -> dict:
    """The next wave planned, not run: snakemake's dry run at the R the study resumes at, then
    one line saying so. Nothing is written, no lock freed and no record restored, so a study
    whose results Snakemake has no records of (a clone) is sent to `reprocompare resume` first:
    its dry run would plan every committed repetition again."""
    stopping = config["stopping"]
    wave, maximum = stopping["wave"], stopping["max_repetitions"]
    if not (directory / ".snakemake" / "metadata").is_dir() and (
            _cloned(config, directory) or any(directory.glob("results/compare/*/*/*/"
                                                             "records.jsonl"))):
        raise UserError("holds results Snakemake has no records of (a clone): a dry run would "
                        "plan every one of them again; record them first with `reprocompare "
                        f"resume --configfile {config_path} --directory {directory}` (it trains "
                        "nothing), then dry-run", path=directory)
    done = _complete(config, directory)
    repetitions = min(max(2, wave, done - done % wave), maximum)
    say(f"dry run: the wave to R = {repetitions} (waves of {wave}, at most {maximum}; "
        f"{done} complete repetitions found)")
    _snakemake(config_path, directory, repetitions, arguments, entries, say,
               command_name=command_name)
    later = (f"; whether waves to R = {min(repetitions + wave, maximum)} and beyond run "
             "depends on its verdicts") if repetitions < maximum else ""
    say(f"dry run: no job run, no result written{later}")
    return {"repetitions": repetitions, "reason": "dry run", "decided": False,
            "futile": False, "dry_run": True}


def _run_waves(config_path: Path, directory: Path, arguments: list[str], say,
               command_name: str) -> dict:
    arguments, entries, overrides = snakemake_arguments(arguments)
    # the config every wave runs: the file with the --config given after -- (snakemake's merge)
    config = load_yaml(config_path)
    if isinstance(config, dict):
        from snakemake.utils import update_config  # lazy, as above

        update_config(config, overrides)
    try:
        config = validate(config, source=str(config_path))
    except UserError as error:
        raise blame_command_line(error, overrides) from None
    stopping = config["stopping"]
    if not stopping["enabled"]:
        raise UserError("a sequential study needs `stopping: {enabled: true}` (and its wave, "
                        "maximum and deciding estimators)", path=config_path,
                        key="stopping.enabled")
    try:
        check_plan(config, directory, config_path)
    except UserError as error:
        raise blame_command_line(error, overrides) from None
    wave, maximum = stopping["wave"], stopping["max_repetitions"]
    dry = is_dry_run(arguments)
    # the installed local profile, also when only --config is given
    arguments = arguments or ["--profile", str(profile(LOCAL_PROFILE))]
    if dry:
        return _dry_run(config, config_path, directory, arguments, entries, say, command_name)
    check_writable(directory)
    _free_stale_lock(directory, say)
    # a clone holds its repetitions' records in their strategies' tables (issue 35): the files
    # first, or the repetitions would count as never run
    restore_records(widest(config), directory)
    done = _complete(config, directory)
    # resume at the last whole wave the results hold (a wave is never smaller than 2 repetitions)
    repetitions = min(max(2, wave, done - done % wave), maximum)
    if _cloned(config, directory):
        resume(config_path, directory, say=say)
    if done:
        say(f"{directory}: {done} complete repetitions found; resuming at R = {repetitions}")
    # an emptied output (`: > table4.md`) is written again by the first wave, as by `run`
    targets = rebuilt_targets(directory, remove_empty_outputs(directory, say=say))
    while True:
        say(f"wave to R = {repetitions} (waves of {wave}, at most {maximum})")
        _snakemake(config_path, directory, repetitions, arguments, entries, say, targets,
                   command_name)
        targets = []
        summaries = _summaries(config, directory)
        for summary in summaries:
            verdicts = summary.get("verdicts", {})
            say("  " + "; ".join(progress(name, verdicts[name], maximum)
                                 for name in stopping["estimators"] if name in verdicts))
        if all(s["stopping"]["decided"] for s in summaries):
            reason = "every deciding estimator decided"
            break
        if repetitions >= maximum:
            reason = f"the maximum of {maximum} repetitions reached, still undecided"
            break
        # futility (estimators/futility.py): stop once every undecided comparison is unlikely
        # to decide by the maximum; the others' next wave would be spent for nothing
        if all(s["stopping"]["stopped"] for s in summaries):
            futile = [s for s in summaries if s["stopping"].get("futile")]
            judged = min((s["stopping"]["futility_judgement"] for s in futile),
                         key=lambda j: j["probability"])
            reason = (f"no verdict reachable by R = {maximum} (predictive probability "
                      f"{judged['probability']:.3f} < {judged['level']:g}, {judged['estimator']})")
            break
        repetitions = min(repetitions + wave, maximum)
    say(f"stopped at R = {repetitions}: {reason}")
    return {"repetitions": repetitions, "reason": reason,
            "decided": all(s["stopping"]["decided"] for s in summaries),
            "futile": any(s["stopping"].get("futile") for s in summaries)}


def run_sequential(config_path: str | Path, directory: str | Path = ".",
                   arguments: list[str] | None = None, say=print,
                   command_name: str = "sequential") -> dict:
    """A sequential study from start to end: its waves (:func:`run_waves`), then its report at
    the R it stopped at (:func:`write_report`), as `reprocompare run` ends every study.

    Parameters
    ----------
    config_path : str or os.PathLike
        The study's config.
    directory : str or os.PathLike, default '.'
        The study's directory.
    arguments : list of str, optional
        Snakemake's arguments for every wave.
    say : callable, default print
        Called with each line of progress.
    command_name : str, default 'sequential'
        The reprocompare command running it (`run` runs a sequential study through it).

    Returns
    -------
    dict
        What :func:`run_waves` returns, with ``report``: the report's path (none for a dry
        run, which writes nothing).
    """
    stopped = run_waves(config_path, directory, arguments, say=say, command_name=command_name)
    if stopped.get("dry_run"):
        return {**stopped, "report": None}
    try:
        report = write_report(config_path, directory, arguments, stopped["repetitions"],
                              say=say, command_name=command_name)
    except OSError as error:
        raise _no_space(error, Path(directory), "to write it") or error from None
    return {**stopped, "report": report}
