"""The range of every number a command-line option takes: one table, one parser.

Every subcommand's numeric options are typed by :func:`bounded`, so that a number out of its
range, NaN or a word ends in one line naming the range, before any work; tests/test_cli.py walks
every subcommand and checks that each numeric option is here. Where the config schema bounds the
same setting (k, m, Table 4's k, a wave, the most repetitions, the verdict's threshold and
confidence), the range is the schema's.
"""

from __future__ import annotations

import argparse

from reprocompare import schemas
from reprocompare.base.errors import UserError

#: option -> (type, lowest, highest), both ends included: the columns a corpus may have, the
#: config schema's bounds, and for the simulations what fits in memory and time
BOUNDS = {
    "--token-column": (int, -1000, 999),
    "--tag-column": (int, -1000, 999),
    "--k": (int, schemas.bound("strategies.repeated_holdout.k[]", "minimum"),
            schemas.bound("strategies.repeated_holdout.k[]")),
    "--m": (int, schemas.bound("strategies.bcv.m", "minimum"), schemas.bound("strategies.bcv.m")),
    "--seed": (int, 0, 2**63 - 1),
    "--repetition": (int, 0, 999_999),
    "--table4-k": (int, schemas.bound("strategies.repeated_holdout.table4_k", "minimum"),
                   schemas.bound("strategies.repeated_holdout.table4_k")),
    "--trials": (int, 1, 10_000),
    "--budgets": (int, 1, 10_000),
    "--simulations": (int, 2, 1_000_000),
    # reprocompare plan: |SNR| beyond 1000 decides at the first look whatever the design
    "--snr": (float, -1000.0, 1000.0),
    "--wave": (int, schemas.bound("stopping.wave", "minimum"), schemas.bound("stopping.wave")),
    "--max-repetitions": (int, schemas.bound("stopping.max_repetitions", "minimum"),
                          schemas.bound("stopping.max_repetitions")),
    "--futility": (float, schemas.bound("stopping.futility", "minimum"),
                   schemas.bound("stopping.futility")),
    "--studies": (int, 1, 10_000),  # each up to max / wave verdicts of 5-30 ms
    "--cores": (int, 1, 1_000_000),
    "--jobs": (int, 1, 1_000_000),
}
#: snakemake's options that take a number of cores or jobs, passed on by `reprocompare run` and
#: `reprocompare sequential` (snakemake reads one below 1 as every core, and a scheduler's
#: SIGTERM then meets more jobs than asked for)
CORES_OPTIONS = ("--cores", "-c", "--jobs", "-j")
#: option -> (type, lowest, highest), both ends excluded (the schema's exclusive bounds)
OPEN_BOUNDS = {
    "--threshold": (float, schemas.bound("verdict.threshold", "exclusiveMinimum"),
                    schemas.bound("verdict.threshold", "exclusiveMaximum")),
    "--confidence": (float, schemas.bound("verdict.confidence", "exclusiveMinimum"),
                     schemas.bound("verdict.confidence", "exclusiveMaximum")),
}


def bounded(option: str):
    """The argparse type of ``option``: its kind within its range, else one line naming it.

    Parameters
    ----------
    option : str
        A key of :data:`BOUNDS` or :data:`OPEN_BOUNDS`.

    Returns
    -------
    callable
        ``parse(text)``: the value, or an ``argparse.ArgumentTypeError``.
    """
    is_open = option in OPEN_BOUNDS
    kind, low, high = (OPEN_BOUNDS if is_open else BOUNDS)[option]
    words = "an integer" if kind is int else "a number"
    shown = f"({low}, {high})" if is_open else f"[{low}, {high}]"

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {words} in {shown}, got {text!r}") \
                from None
        inside = low < value < high if is_open else low <= value <= high
        if not inside:  # NaN compares false: refused too
            raise argparse.ArgumentTypeError(f"must be in {shown}, got {text}")
        return value

    parse.__name__ = words  # what argparse would name in its own messages
    return parse


def shown_range(option: str) -> str:
    """``low..high`` of an option, for its help.

    Parameters
    ----------
    option : str
        A key of :data:`BOUNDS`.

    Returns
    -------
    str
    """
    _, low, high = BOUNDS[option]
    return f"{low}..{high}"


def check_cores(arguments: list[str]) -> None:
    """Snakemake's --cores, -c, --jobs and -j among ``arguments``: a whole number of at least 1,
    or ``all`` (snakemake's own check reads 0 and -3 as every core); else a UserError naming the
    option, before anything runs.

    Parameters
    ----------
    arguments : list of str
        Snakemake's arguments, as given after the command's own.
    """
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
