"""The typed records: one reader and one writer each, and what each must hold, stated once.

A compare job writes, in its repetition's run directory (:data:`reprocompare.base.paths.RUN`),
the split (:func:`read_split`), the settings it ran with (:data:`SETTINGS`), the fold scores
(:data:`SCORES`), the per-sentence counts (:func:`read_counts`), the fold times (:data:`RUNTIME`)
and the estimates (:data:`ESTIMATES`), last; a summarize job writes a comparison's summary
and claims (:data:`SUMMARY`, :data:`CLAIMS`). Each JSON record here is a :class:`Record`: its
file name (from :mod:`reprocompare.base.paths`), the keys it must hold and of what type, and
its reader and writer, through :func:`reprocompare.base.files.read_json` and
:func:`reprocompare.base.files.write_json_atomic`. A record that lacks a key, or holds it as
another type, is one UserError naming the file, whoever reads it; the writer refuses the same
record before anything is written.

The per-sentence counts table (:data:`COUNTS_COLUMNS`) is parsed by :func:`counts_rows` alone.
A committed study keeps, in place of its repetitions' JSON files, one table per strategy
(``records.jsonl``: :func:`tabulate_repetitions`, :func:`read_repetitions`), whose lines are
checked and written back by :func:`restore_tabulated`. What the records say of one another (the
estimates a function of the counts, the counts of the sentences the split validated) is checked
by :mod:`reprocompare.study.verify`; the split document's own fields by
:mod:`reprocompare.splitters`.
"""

from __future__ import annotations

import gzip
import json
import math
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

import numpy as np

from reprocompare.base import paths
from reprocompare.base.errors import UserError
from reprocompare.base.files import (read_json, write_bytes_atomic, write_json_atomic,
                                     write_text_atomic)

#: a repetition's per-sentence counts (counts.tsv.gz): a row per validation sentence of every
#: fold, and of a BCV's vote (fold "vote"), for model A and for model B
COUNTS_COLUMNS = ("fold", "model", "sentence", "gold", "pred", "correct")


def counts_rows(text: str) -> list[tuple[str, str, int, int, int, int]]:
    """The rows of a counts table, (fold, model, sentence, gold, pred, correct), checked: the one
    parser of counts.tsv.gz. Raises ValueError naming the line of anything that is not one:
    every count a non-negative integer, and correct chunks at most the gold and the predicted.

    Parameters
    ----------
    text : str
        The decompressed text of counts.tsv.gz.

    Returns
    -------
    list of tuple
        The rows, after the header.
    """
    rows = _valid_counts_rows(text)
    if rows is not None:
        return rows
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines or tuple(lines[0].split("\t")) != COUNTS_COLUMNS:
        raise ValueError("not a counts table: the header must be "
                         f"{', '.join(COUNTS_COLUMNS)} (tab-separated)")
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        match = _COUNTS_ROW.fullmatch(line)
        if match is None:  # say what is wrong with it
            _counts_row_problem(line, number)
        fold, model, *numbers = match.groups()
        sentence, gold, pred, correct = map(int, numbers)
        # a correct chunk is a predicted chunk that is also gold: counts beyond that are no
        # tagger's (an edit), and would give an F1 above 1 to every reader
        if correct > gold or correct > pred:
            raise ValueError(f"line {number}: {correct} correct chunks of {gold} gold and "
                             f"{pred} predicted (correct can exceed neither)")
        rows.append((fold, model, sentence, gold, pred, correct))
    return rows


#: a row of the counts table: ASCII digits only (a superscript digit is no count, and int()
#: would refuse it), so a row that matches is one int() reads (one regex: half the time of
#: checking field by field, and resume reads every committed repetition's counts)
_COUNTS_ROW = re.compile(r"(vote|[0-9]+)\t([AB])\t([0-9]+)\t([0-9]+)\t([0-9]+)\t([0-9]+)")


#: a counts table as the jobs write it (the header, then rows ending in a newline, nothing
#: else), each count short enough for int64, the fold "vote" or a number as str() spells it (no
#: leading zero, at most 4 digits: read back as a number, it gives the same string)
_COUNTS_HEADER = "\t".join(COUNTS_COLUMNS) + "\n"
_COUNTS_BODY = re.compile(r"(?:(?:vote|0|[1-9][0-9]{0,3})\t[AB]\t[0-9]{1,18}+\t[0-9]{1,18}+"
                          r"\t[0-9]{1,18}+\t[0-9]{1,18}+\n)*+")


def _valid_counts_rows(text: str) -> list[tuple[str, str, int, int, int, int]] | None:
    """:func:`counts_rows` of a table that :data:`_COUNTS_BODY` matches whole and whose counts
    keep their bounds, converted at once by numpy (the rows the line-by-line parser gives, the
    same types); None for anything else, which that parser reads or names the line of. resume
    and the tests check every committed repetition: about 7 million lines."""
    if not text.startswith(_COUNTS_HEADER):
        return None
    start = len(_COUNTS_HEADER)
    if not text.endswith("\n"):
        text += "\n"
    if _COUNTS_BODY.fullmatch(text, start) is None:
        return None
    # every field now a digit string, "vote", A or B: each turned into a number
    numbers = np.fromstring(text[start:].replace("vote", "-1").replace("A", "0")
                            .replace("B", "1"), dtype=np.int64, sep=" ").reshape(-1, 6)
    fold, model, sentence, gold, pred, correct = numbers.T
    if (correct > gold).any() or (correct > pred).any():
        return None
    names = np.array(["vote", *map(str, range(int(fold.max(initial=-1)) + 1))], dtype=object)
    return list(zip(names[fold + 1].tolist(), np.array(["A", "B"], dtype=object)[model].tolist(),
                    sentence.tolist(), gold.tolist(), pred.tolist(), correct.tolist()))


def _counts_row_problem(line: str, number: int) -> None:
    fields = line.split("\t")
    if len(fields) != len(COUNTS_COLUMNS):
        raise ValueError(f"line {number}: expected {len(COUNTS_COLUMNS)} tab-separated "
                         f"fields, got {len(fields)}")
    if fields[1] not in ("A", "B"):
        raise ValueError(f"line {number}: model must be A or B, got {fields[1]!r}")
    raise ValueError(f"line {number}: fold, sentence and counts must be integers")


#: the files a complete compare job wrote in its run directory (estimates.json last)
OUTPUTS = (paths.SPLIT_FILE, paths.SETTINGS_FILE, paths.SCORES_FILE, paths.COUNTS_FILE,
           paths.RUNTIME_FILE, paths.ESTIMATES_FILE)

_TYPE_NAMES = {dict: "an object", list: "a list", str: "a string", int: "a number",
               float: "a number"}


def _is(value: Any, types: tuple[type, ...]) -> bool:
    # JSON's true and false are no numbers, though Python's bool is an int
    return isinstance(value, types) and not (isinstance(value, bool) and bool not in types)


@dataclass(frozen=True)
class Record:
    """A JSON record: its file's name, the keys it must hold, and its one reader and writer.

    Parameters
    ----------
    name : str
        The file's name in a run directory, or the pattern of its path in a study's
        (:mod:`reprocompare.base.paths`).
    required : mapping of str to tuple of type
        Each key it must hold, and the types its value may have.
    what : str
        What it is, as an error says it.
    check : callable, optional
        ``check(data, path)``: what else it must hold, a UserError naming ``path`` if not.
    """

    name: str
    required: Mapping[str, tuple[type, ...]]
    what: str
    check: Callable[[dict, Path], None] | None = field(default=None, compare=False)

    def path(self, directory: str | Path) -> Path:
        """The record's file in ``directory``.

        Parameters
        ----------
        directory : str or os.PathLike
            The run directory.

        Returns
        -------
        pathlib.Path
            The file.
        """
        return Path(directory) / self.name

    def validate(self, data: Any, path: str | Path) -> dict:
        """``data`` if it holds every required key, of its type (and passes :attr:`check`),
        else a UserError naming ``path`` and the key.

        Parameters
        ----------
        data : object
            The record.
        path : str or os.PathLike
            Its file, as the error names it.

        Returns
        -------
        dict
            ``data``.
        """
        if not isinstance(data, dict):
            raise UserError("not a JSON object; delete it and rerun", path=path)
        for key, types in self.required.items():
            if key not in data:
                raise UserError(f"lacks {key} ({self.what}; a tampered or foreign file?)",
                                path=path)
            if not _is(data[key], types):
                kinds = " or ".join(dict.fromkeys(_TYPE_NAMES.get(t, t.__name__)
                                                  for t in types))
                raise UserError(f"{key} is {data[key]!r}, not {kinds} ({self.what}; a "
                                "tampered or foreign file?)", path=path)
        if self.check is not None:
            self.check(data, Path(path))
        return data

    def read_file(self, path: str | Path) -> dict:
        """The record in the file ``path``, checked (:meth:`validate`): a missing, unreadable or
        foreign file is one UserError naming it (:func:`reprocompare.base.files.read_json`).

        Parameters
        ----------
        path : str or os.PathLike
            The file (a summary's or claims' path, which :attr:`name` only patterns).

        Returns
        -------
        dict
            The record.
        """
        return self.validate(read_json(path), path)

    def write_file(self, path: str | Path, data: dict) -> Path:
        """Write the record to the file ``path`` atomically, once it passes :meth:`validate`.

        Parameters
        ----------
        path : str or os.PathLike
            The file.
        data : dict
            The record.

        Returns
        -------
        pathlib.Path
            The file written.
        """
        return write_json_atomic(path, self.validate(data, path))

    def read(self, directory: str | Path) -> dict:
        """The record in ``directory``, checked (:meth:`validate`): a missing, unreadable or
        foreign file is one UserError naming it (:func:`reprocompare.base.files.read_json`).

        Parameters
        ----------
        directory : str or os.PathLike
            The run directory.

        Returns
        -------
        dict
            The record.
        """
        return self.read_file(self.path(directory))

    def write(self, directory: str | Path, data: dict) -> Path:
        """Write the record to ``directory`` atomically, once it passes :meth:`validate`
        (:func:`reprocompare.base.files.write_json_atomic`).

        Parameters
        ----------
        directory : str or os.PathLike
            The run directory.
        data : dict
            The record.

        Returns
        -------
        pathlib.Path
            The file written.
        """
        return self.write_file(self.path(directory), data)


#: the settings a compare job ran with (reprocompare.pipeline.provenance.compare): what
#: ``resume`` checks a committed repetition against its config by
SETTINGS = Record(paths.SETTINGS_FILE, {"split": (dict,)}, "a compare job's settings")
#: each fold's sizes and the F1, precision and recall of A and of B
SCORES = Record(paths.SCORES_FILE, {"folds": (list,)}, "a compare job's fold scores")
#: each fold's seconds of A and of B (kept apart: wall times vary from run to run)
RUNTIME = Record(paths.RUNTIME_FILE, {"folds": (list,)}, "a compare job's fold times")
#: the strategy's differences of A and B (Xue et al., section 3), written last
#: (what each strategy's record must hold beside its name is the strategy's own to check:
#: :data:`reprocompare.strategies.ESTIMATES` reads and writes it)
ESTIMATES = Record(paths.ESTIMATES_FILE, {"strategy": (str,)}, "a compare job's estimates")
#: a comparison's summary on one corpus (reprocompare.pipeline.report_jobs.summarize)
SUMMARY = Record(paths.SUMMARY, {"comparison": (str,), "corpus": (str,), "summary": (dict,)},
                 "a comparison's summary")
#: a comparison's significance tests on one corpus (reprocompare.pipeline.significance_jobs)
CLAIMS = Record(paths.CLAIMS, {"comparison": (str,), "corpus": (str,), "alpha": (int, float),
                                 "repetitions": (dict,)}, "a comparison's claims")


def finished(run_dir: str | Path) -> bool:
    """Whether the run directory holds its estimates.json, which its job writes last.

    Parameters
    ----------
    run_dir : str or os.PathLike
        The repetition's directory.

    Returns
    -------
    bool
        Whether the file is there.
    """
    return ESTIMATES.path(run_dir).is_file()


def unfinish(run_dir: str | Path) -> None:
    """Remove the run directory's estimates.json, where there is one: from then on the
    directory is incomplete, and Snakemake runs its job again.

    Parameters
    ----------
    run_dir : str or os.PathLike
        The repetition's directory.
    """
    ESTIMATES.path(run_dir).unlink(missing_ok=True)


def read_split(run_dir: str | Path) -> dict:
    """The split.json of a run directory, as a JSON object (its fields are the splitters':
    :mod:`reprocompare.splitters` checks them).

    Parameters
    ----------
    run_dir : str or os.PathLike
        The repetition's directory.

    Returns
    -------
    dict
        The split document.
    """
    return read_json(Path(run_dir) / paths.SPLIT_FILE)


def write_split(run_dir: str | Path, text: str) -> Path:
    """Write the split.json of a run directory: the text the splitters' ``dumps`` gives (the
    same bytes as ``reprocompare split``).

    Parameters
    ----------
    run_dir : str or os.PathLike
        The repetition's directory.
    text : str
        The split document's text.

    Returns
    -------
    pathlib.Path
        The file written.
    """
    return write_text_atomic(Path(run_dir) / paths.SPLIT_FILE, text)


class UnreadableCounts(UserError):
    """A counts.tsv.gz that is not a counts table: ``message`` says what of the file (``is not
    a whole gzip of text (...)``, ``is broken: ...``, ``has no rows``), ``cause`` the error
    alone.

    Parameters
    ----------
    message : str
        What is wrong, said of the file.
    cause : str
        The error alone.
    path : str or os.PathLike
        The file.
    """

    def __init__(self, message: str, cause: str, path: str | Path):
        super().__init__(message, path=path)
        self.cause = cause


def read_counts(run_dir: str | Path) -> list[tuple[str, str, int, int, int, int]]:
    """The rows of a run directory's counts.tsv.gz, (fold, model, sentence, gold, pred,
    correct), checked by :func:`counts_rows`: a file that is not a
    whole gzip of text, not a counts table, or empty is an :class:`UnreadableCounts` naming it.

    Parameters
    ----------
    run_dir : str or os.PathLike
        The repetition's directory.

    Returns
    -------
    list of tuple
        The rows.
    """
    path = Path(run_dir) / paths.COUNTS_FILE
    try:
        text = gzip.decompress(path.read_bytes()).decode("utf-8")
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as error:
        raise UnreadableCounts(f"is not a whole gzip of text ({error})", str(error),
                               path) from None
    try:
        rows = counts_rows(text)
    except ValueError as error:  # a header missing, a row cut off, a count out of its bounds
        raise UnreadableCounts(f"is broken: {error}", str(error), path) from None
    if not rows:
        raise UnreadableCounts("has no rows", "the counts table has no rows", path)
    return rows


def write_counts(run_dir: str | Path, data: bytes) -> Path:
    """Write a run directory's counts.tsv.gz: ``data``, the gzip of a counts table
    (:data:`COUNTS_COLUMNS`), atomically.

    Parameters
    ----------
    run_dir : str or os.PathLike
        The repetition's directory.
    data : bytes
        The compressed table.

    Returns
    -------
    pathlib.Path
        The file written.
    """
    return write_bytes_atomic(Path(run_dir) / paths.COUNTS_FILE, data)


# ---- a committed study's table of a strategy's repetitions (records.jsonl) -------------------

#: the files of a repetition a committed study's records.jsonl holds, in a line's order
TABULATED = (paths.SETTINGS_FILE, paths.SCORES_FILE, paths.RUNTIME_FILE, paths.ESTIMATES_FILE)


def _repetition_number(run: Path) -> int | None:
    number = run.name.removeprefix("rep")
    return int(number) if run.name.startswith("rep") and number.isdigit() else None


def tabulate_repetitions(strategy_dir: str | Path) -> Path | None:
    """Write the strategy's records.jsonl from its complete repetitions (estimates.json,
    written last, exists), in the order of their numbers: a line ``{"repetition": r,
    "settings.json": ..., ...}`` with each of :data:`TABULATED` that is there and reads as
    JSON (one that does not is left out, and the repetition restored without it is one that
    ``resume`` trains again). None, and nothing written, when no repetition is complete.

    Parameters
    ----------
    strategy_dir : str or os.PathLike
        The strategy's directory (its repetitions under it).

    Returns
    -------
    pathlib.Path or None
        The records.jsonl written, or None.
    """
    strategy_dir = Path(strategy_dir)
    runs = sorted((number, run) for run in strategy_dir.glob("rep*")
                  if (number := _repetition_number(run)) is not None
                  and (run / paths.ESTIMATES_FILE).is_file())
    if not runs:
        return None
    lines = []
    for number, run in runs:
        line: dict[str, Any] = {"repetition": number}
        for name in TABULATED:
            try:
                line[name] = json.loads((run / name).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
        lines.append(json.dumps(line, separators=(",", ":")))
    return write_text_atomic(strategy_dir / "records.jsonl", "\n".join(lines) + "\n")


def read_repetitions(strategy_dir: str | Path) -> dict[int, dict[str, Any]]:
    """The records of records.jsonl by repetition number (each file's JSON by its name),
    or {} where the strategy has none; a line that is not a record is a UserError naming it.

    Parameters
    ----------
    strategy_dir : str or os.PathLike
        The strategy's directory (its repetitions under it).

    Returns
    -------
    dict of int to dict
        Each repetition's files, by number.
    """
    path = Path(strategy_dir) / "records.jsonl"
    if not path.is_file():
        return {}
    out = {}
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            line = json.loads(text)
            out[int(line.pop("repetition"))] = line
        except (ValueError, KeyError, TypeError, AttributeError):
            raise UserError("not a line of repetition records", path=path, line=number) \
                from None
    return out


#: the records a line of records.jsonl holds, by file name
#: the files of a repetition a records.jsonl line holds, in the order the job writes them; a
#: reader of the lines gives the records that check them (:data:`reprocompare.strategies.TABULATED_RECORDS`
#: has each strategy check its estimates)
TABULATED_RECORDS = {record.name: record for record in (SETTINGS, SCORES, RUNTIME, ESTIMATES)}


@dataclass(frozen=True)
class DamagedLine:
    """A line of a strategy's records.jsonl that is not a whole record: its file, its line,
    the repetition it names (None where that cannot be read) and what is wrong, in one line.

    Parameters
    ----------
    path : pathlib.Path
        The records.jsonl.
    line : int
        The line, 1-based.
    repetition : int or None
        The repetition the line names.
    problem : str
        What is wrong with it.
    """

    path: Path
    line: int
    repetition: int | None
    problem: str

    def __str__(self) -> str:
        named = "" if self.repetition is None else f"repetition {self.repetition}: "
        return f"{self.path}:{self.line}: {named}{self.problem}"


def _non_finite(data: Any, key: str = "") -> str | None:
    """The dotted key of the first NaN or infinity in ``data``, or None (JSON has neither:
    Python's reader takes NaN and Infinity, a hand's edit or another writer puts them there)."""
    if isinstance(data, float) and not math.isfinite(data):
        return key or "(the value)"
    items = data.items() if isinstance(data, dict) else enumerate(data) \
        if isinstance(data, list) else ()
    for name, value in items:
        found = _non_finite(value, f"{key}.{name}" if key else str(name))
        if found is not None:
            return found
    return None


def _tabulated_line(text: str, strategy_dir: Path, seen: dict[int, int],
                    records: Mapping[str, Record]) -> tuple[int, dict]:
    """(repetition, its files' records) of one line of records.jsonl, each record checked as
    its reader checks its file; a ValueError saying what is wrong, with the repetition as
    ``error.repetition`` where the line names one."""
    try:
        line = json.loads(text)
    except ValueError as error:
        raise ValueError(f"not JSON ({error}; a cut or edited line?)") from None
    if not isinstance(line, dict):
        raise ValueError("not a JSON object")
    repetition = line.pop("repetition", None)
    if not (_is(repetition, (int,)) and repetition >= 0):
        raise ValueError(f"its repetition is {repetition!r}, not a repetition's number")
    try:
        if repetition in seen:  # which of the two is right cannot be told: neither
            raise ValueError(f"line {seen[repetition]} holds this repetition too (neither "
                             "line is restored)")
        unknown = sorted(set(line) - set(records))
        if unknown:
            raise ValueError(f"{unknown[0]!r} is not a file of a repetition's records")
        found = _non_finite(line)
        if found is not None:
            raise ValueError(f"{found} is not a finite number (NaN or infinity, which no job "
                             "writes)")
        for name, data in line.items():
            try:
                records[name].validate(data, strategy_dir / f"rep{repetition}" / name)
            except UserError as error:
                raise ValueError(f"{name}: {error.message}") from None
    except ValueError as error:
        error.repetition = repetition
        raise
    return repetition, line


def read_tabulated(strategy_dir: str | Path, records: Mapping[str, Record]
                   ) -> tuple[dict[int, dict], list[DamagedLine]]:
    """The whole records of a strategy's records.jsonl by repetition (each file's record by its
    name, checked as its reader checks the file), and the lines that are not whole: not JSON,
    a NaN or an infinity, a record its reader refuses, a repetition given twice. A damaged
    line restores nothing: its repetition is one the next run trains again.

    Parameters
    ----------
    strategy_dir : str or os.PathLike
        The strategy's directory (its repetitions under it).
    records : mapping of str to Record
        The record of each file a line holds, whose check each line passes
        (:data:`reprocompare.strategies.TABULATED_RECORDS`).

    Returns
    -------
    (dict of int to dict, list of DamagedLine)
    """
    strategy_dir = Path(strategy_dir)
    path = strategy_dir / paths.REPETITIONS.rsplit("/", 1)[1]
    if not path.is_file():
        return {}, []
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UserError(f"cannot read: {error}", path=path) from None
    whole, damaged, seen = {}, [], {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            repetition, files = _tabulated_line(line, strategy_dir, seen, records)
        except ValueError as error:
            repetition = getattr(error, "repetition", None)
            damaged.append(DamagedLine(path, number, repetition, str(error)))
            whole.pop(repetition, None)  # given twice: the first line is not trusted either
            continue
        seen[repetition] = number
        whole[repetition] = files
    return whole, damaged


def restore_tabulated(strategy_dir: str | Path, records: Mapping[str, Record]
                      ) -> tuple[list[Path], list[DamagedLine]]:
    """Write each file of a whole line of records.jsonl that its repetition's directory lacks,
    as the job wrote it (estimates.json last); (the run directories written to, the damaged
    lines, of which nothing is written). A file that is there is left as it is: the directory
    is what Snakemake and every check read.

    Parameters
    ----------
    strategy_dir : str or os.PathLike
        The strategy's directory (its repetitions under it).
    records : mapping of str to Record
        The record of each file a line holds, whose check each line passes
        (:data:`reprocompare.strategies.TABULATED_RECORDS`).

    Returns
    -------
    (list of pathlib.Path, list of DamagedLine)
    """
    strategy_dir = Path(strategy_dir)
    found, damaged = read_tabulated(strategy_dir, records)
    written = []
    for number, files in found.items():
        run = strategy_dir / f"rep{number}"
        missing = {name: data for name, data in files.items() if not (run / name).exists()}
        # estimates.json last, as the job writes it: its presence says the rest is there
        for name in sorted(missing, key=list(TABULATED_RECORDS).index):
            write_json_atomic(run / name, missing[name])
        if missing:
            written.append(run)
    return written, damaged
