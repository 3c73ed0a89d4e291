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
import signal
from pathlib import Path

from reprocompare.base.errors import UserError
from reprocompare.base.run_records import SUMMARY
from reprocompare.commands.init import CONFIG_NAME
from reprocompare.commands.options import check_cores
from reprocompare.commands.sequential import (OWN_OPTIONS, check_writable, failure,
                                              is_dry_run, rebuilt_targets,
                                              remove_empty_outputs, run_sequential, supervise,
                                              write_report)
from reprocompare.pipeline.workflow_files import LOCAL_PROFILE, profile, snakemake_command
from reprocompare.reports.tables import FEW_REPETITIONS, format_interval, said, table4_rows
from reprocompare.study.config import check_corpora, load_yaml, validate

#: short forms of the options a run sets itself (OWN_OPTIONS has the long ones)
OWN_SHORT = {"-s": "--snakefile", "-d": "--directory"}


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
    check_cores(arguments)
    named = any(token == "--profile" or token.startswith("--profile=") for token in arguments)
    return arguments if named else ["--profile", str(profile(LOCAL_PROFILE)), *arguments]


def _snakemake(config_path: Path, directory: Path, *arguments: str, say=print) -> None:
    command = snakemake_command("--configfile", str(config_path.resolve()),
                                "--directory", str(directory), *arguments)
    returncode, received = supervise(command, directory)
    if received is not None:
        say(f"interrupted by {signal.Signals(received).name}: snakemake stopped; run the same "
            "command again to go on")
        raise KeyboardInterrupt
    if returncode != 0:  # its messages went to the terminal
        raise failure(directory, returncode, "run", "the workflow stopped", "to go on",
                      "; the jobs that finished are kept")


def verdict_lines(config: dict, directory: Path) -> list[str]:
    """One line per comparison and estimator: Table 4's verdict and mean difference, with a
    caution where they rest on fewer than ``FEW_REPETITIONS`` repetitions.

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
            path = directory / SUMMARY.name.format(corpus=corpus, comparison=name)
            summaries[f"{name} on {corpus}"] = SUMMARY.read_file(path)["summary"]
    maximum = config["stopping"]["max_repetitions"] if config["stopping"]["enabled"] else None
    return [f"{row['comparison']}, {row['estimator']} ({row['strategy']}): "
            + (said(row["verdict_text"], row["verdict"], row["repetitions"], row["forecast"],
                    maximum, row["verdict_claim"]) or "no verdict") + "; A - B = "
            + format_interval(row["mean_f1_points"], row["mean_low_f1_points"],
                              row["mean_high_f1_points"], 2)
            + " F1 points" + (f"; caution: R = {row['repetitions']} < {FEW_REPETITIONS}, a "
                              "first look only (Table 4 says why)"
                              if row["repetitions"] < FEW_REPETITIONS else "")
            for row in table4_rows(summaries)]


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
    check_writable(directory)
    if config["stopping"]["enabled"]:
        # sequential: its waves, then the report at the R it stopped at (run_sequential);
        # a dry run plans its next wave, as `reprocompare sequential -- -n` does
        stopped = run_sequential(config_path, directory, arguments, say=say, command_name="run")
        return [] if stopped.get("dry_run") else verdict_lines(config, directory)
    if is_dry_run(arguments):  # -n, --dry-run, -np...: as snakemake reads it
        # a plan: no report, no verdicts yet
        _snakemake(config_path, directory, *arguments, say=say)
        return []
    # the default target, and the files removed (not all of them are its inputs); first, or
    # an option of any number of values among the arguments (--quiet) would take them
    targets = rebuilt_targets(directory, remove_empty_outputs(directory, say=say))
    _snakemake(config_path, directory, *targets, *arguments, say=say)
    write_report(config_path, directory, arguments, say=say, command_name="run")
    return verdict_lines(config, directory)
