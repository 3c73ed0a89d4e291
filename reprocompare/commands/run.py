"""`reprocompare run DIR [snakemake arguments]`: run the study in DIR and say its verdicts.

DIR holds the study's config.yaml (`reprocompare init` writes one) and, once run, its results:
the installed workflow runs there (``snakemake --directory DIR`` with the Snakefile and the
profiles of the package, :mod:`reprocompare.pipeline.workflow_files`), with the local profile
unless another --profile is given; a config with ``stopping.enabled`` runs in waves until its
verdicts are decided (:func:`reprocompare.commands.sequential.run_sequential`). Then the
report (results/report.html, :func:`reprocompare.commands.sequential.write_report`, as every
sequential run writes it), and last, on the terminal, the verdict of every comparison and
estimator: Table 4's rows (:func:`reprocompare.reports.tables.table4_rows`) read from the
summaries the workflow wrote.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
from pathlib import Path

from reprocompare.base.errors import UserError
from reprocompare.base.records import SUMMARY
from reprocompare.base.run_records import read_summary
from reprocompare.commands.init import CONFIG_NAME
from reprocompare.commands.sequential import (OWN_OPTIONS, run_sequential, supervise,
                                              write_report)
from reprocompare.pipeline.workflow_files import LOCAL_PROFILE, profile, snakemake_command
from reprocompare.reports.tables import format_interval, said, table4_rows
from reprocompare.study.config import check_corpora, load_yaml, validate

#: short forms of the options a run sets itself (OWN_OPTIONS has the long ones)
OWN_SHORT = {"-s": "--snakefile", "-d": "--directory"}
#: snakemake's options that take a number of cores or jobs (snakemake reads one below 1 as
#: every core, and a scheduler's SIGTERM then meets more jobs than asked for)
CORES_OPTIONS = ("--cores", "-c", "--jobs", "-j")
#: the exit status of snakemake refusing its command line (argparse's)
EXIT_BAD_ARGUMENTS = 2
#: free space below which a failed workflow is said to have filled the disk
LOW_SPACE = 64 * 2**20


def add_parser(sub) -> None:
    """``reprocompare run``, registered on the CLI's subcommands.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The CLI's subcommands.
    """
    run = sub.add_parser(
        "run", help="run the study in DIR (its config.yaml), write the report, print the verdicts",
        description="Run the workflow on DIR/config.yaml in DIR (snakemake --directory DIR, "
                    "with the local profile unless you give another --profile), in waves when "
                    "the config has stopping.enabled; then write DIR/results/report.html and "
                    "print the verdict of every comparison and estimator. Arguments after DIR "
                    "(or after --) go to snakemake, e.g. --cores 4, --dry-run, or --profile "
                    "PATH for a cluster.")
    run.add_argument("directory", type=Path, metavar="DIR",
                     help="the study's folder, holding config.yaml (`reprocompare init`)")
    run.add_argument("snakemake", nargs=argparse.REMAINDER, metavar="...",
                     help="snakemake's own arguments (-h after DIR: this help; `snakemake "
                          "--help`: snakemake's)")
    run.set_defaults(run=cmd_run, usage=run.format_help)


def cmd_run(args: argparse.Namespace) -> int:
    """``reprocompare run``: run the study in a directory and print its verdicts.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit status (0).
    """
    arguments = args.snakemake[1:] if args.snakemake[:1] == ["--"] else args.snakemake
    if "-h" in arguments or "--help" in arguments:  # run's help, not snakemake's
        print(args.usage(), end="")
        return 0
    for line in run_study(args.directory, arguments):
        print(line)
    return 0


def _check_arguments(arguments: list[str]) -> list[str]:
    """The arguments with the local profile first unless they name one; a UserError for an
    option the run sets itself."""
    for token in arguments:
        option = OWN_SHORT.get(token[:2], token.split("=", 1)[0])
        own = next((advice for name, advice in OWN_OPTIONS.values() if name == option), None)
        if own is not None:
            raise UserError(f"{option} is what `reprocompare run` sets: DIR is the study's "
                            "folder and DIR/config.yaml its config", path="the command line")
    _check_cores(arguments)
    named = any(token == "--profile" or token.startswith("--profile=") for token in arguments)
    return arguments if named else ["--profile", str(profile(LOCAL_PROFILE)), *arguments]


def _check_cores(arguments: list[str]) -> None:
    """--cores, -c, --jobs and -j: a whole number of at least 1, or ``all`` (snakemake's own
    check reads 0 and -3 as every core)."""
    for i, token in enumerate(arguments):
        option, value = token, None
        if "=" in token and token.startswith("--"):
            option, value = token.split("=", 1)
        elif token[:2] in ("-c", "-j") and len(token) > 2 and not token.startswith("--"):
            option, value = token[:2], token[2:]
        elif token in CORES_OPTIONS and i + 1 < len(arguments) and (
                not arguments[i + 1].startswith("-") or arguments[i + 1][1:].isdigit()):
            value = arguments[i + 1]  # else no value: every core, as snakemake reads it
        if option not in CORES_OPTIONS or value is None or value in ("all", "unlimited"):
            continue
        try:
            number = int(value)
        except ValueError:
            number = None
        if number is None or number < 1:
            raise UserError(f"{value!r} is not a number of cores: give a whole number of at "
                            "least 1, or all", path="the command line", key=option)


def _check_writable(directory: Path) -> None:
    """Every folder of the study a run writes in (the study's, its results and Snakemake's
    records) can be written: said before any job, not as a job's failure."""
    folders = [directory]
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
    (Snakemake does not rerun a job for an output that no target asks for).

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


def _failed(directory: Path, returncode: int) -> UserError:
    """Why snakemake stopped, as far as its exit tells, and what to do."""
    if returncode == EXIT_BAD_ARGUMENTS:
        return UserError("snakemake refused its arguments (its message above): correct them "
                         "(`reprocompare run -h`, `snakemake --help`)", path=directory)
    with contextlib.suppress(OSError):
        free = shutil.disk_usage(directory).free
        if free < LOW_SPACE:
            return UserError(f"the workflow stopped with {free / 2**20:.0f} MiB left on the "
                             "disk (snakemake's messages above): free some space, then run the "
                             "same command again to go on", path=directory)
    return UserError("the workflow stopped (snakemake's messages above name the job and its "
                     "log): correct what they say, then run the same command again; the jobs "
                     "that finished are kept", path=directory)


def _snakemake(config_path: Path, directory: Path, *arguments: str, say=print) -> None:
    command = snakemake_command("--configfile", str(config_path.resolve()),
                                "--directory", str(directory), *arguments)
    returncode, received = supervise(command, directory)
    if received is not None:
        say(f"interrupted by {signal.Signals(received).name}: snakemake stopped; run the same "
            "command again to go on")
        raise KeyboardInterrupt
    if returncode != 0:  # its messages went to the terminal
        raise _failed(directory, returncode)


def verdict_lines(config: dict, directory: Path) -> list[str]:
    """One line per comparison and estimator: Table 4's verdict and mean difference.

    Parameters
    ----------
    config : dict
        The validated config.
    directory : pathlib.Path
        The study's directory.

    Returns
    -------
    list of str
        The lines.
    """
    summaries = {}
    for name, comparison in sorted(config["comparisons"].items()):
        for corpus in sorted(comparison["corpora"]):
            path = directory / SUMMARY.format(corpus=corpus, comparison=name)
            summaries[f"{name} on {corpus}"] = read_summary(path)["summary"]
    maximum = config["stopping"]["max_repetitions"] if config["stopping"]["enabled"] else None
    return [f"{row['comparison']}, {row['estimator']} ({row['strategy']}): "
            + (said(row["verdict_text"], row["verdict"], row["repetitions"], row["forecast"],
                    maximum) or "no verdict") + "; A - B = "
            + format_interval(row["mean_f1_points"], row["mean_low_f1_points"],
                              row["mean_high_f1_points"], 2)
            + " F1 points" for row in table4_rows(summaries)]


def run_study(directory: str | Path, arguments: list[str] | None = None, say=print) -> list[str]:
    """Run the study in ``directory``, write its report; the verdict lines (Table 4's rows).

    Parameters
    ----------
    directory : str or os.PathLike
        The study's directory.
    arguments : list of str, optional
        Snakemake's arguments.
    say : callable, default print
        Called with each line of progress.

    Returns
    -------
    list of str
        The verdict lines; [] for a dry run (a plan only).
    """
    directory = Path(directory)
    config_path = directory / CONFIG_NAME
    arguments = _check_arguments(list(arguments or []))  # the command line first: no folder
    if not directory.is_dir():
        raise UserError("no such study folder; start one with `reprocompare init DIR --corpus "
                        "FILE`", path=directory)
    if not config_path.is_file():
        raise UserError(f"no {CONFIG_NAME} in this folder; write one with `reprocompare init "
                        f"{directory} --corpus FILE`", path=directory)
    # as the workflow reads it: in the study's folder, where a relative path is read from
    raw = load_yaml(config_path)
    with contextlib.chdir(directory):
        config = validate(raw, source=str(config_path))
        check_corpora(config)  # a corpus too small for a strategy: one line, before snakemake
    _check_writable(directory)
    if "-n" in arguments or "--dry-run" in arguments or "--dryrun" in arguments:
        # a plan: no report, no verdicts yet
        _snakemake(config_path, directory, *arguments, say=say)
        return []
    removed = remove_empty_outputs(directory, say=say)
    if config["stopping"]["enabled"]:
        # sequential: its waves, then the report at the R it stopped at (run_sequential)
        run_sequential(config_path, directory, arguments, say=say)
    else:
        # the default target, and the files removed (not all of them are its inputs)
        targets = ["all", *(str(path.relative_to(directory)) for path in removed)] \
            if removed else []
        _snakemake(config_path, directory, *arguments, *targets, say=say)
        write_report(config_path, directory, arguments, say=say)
    return verdict_lines(config, directory)
