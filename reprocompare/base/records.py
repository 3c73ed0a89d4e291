"""The study's records: where each artefact lives, the names they share, and the one reader and
writers of every file.

- Names: the default k of Table 4's RS (the strategies are :mod:`reprocompare.strategies`'s,
  the stopping designs :mod:`reprocompare.estimators.designs`'s).
- Paths: a repetition's run directory, a comparison's summary and claims (patterns named once,
  with every other output's, in :mod:`reprocompare.base.paths`), and the table of a
  strategy's repetitions that a committed study holds in place of their JSON files
  (:data:`REPETITIONS`: :func:`tabulate_repetitions`, :func:`read_repetitions`; its lines
  checked and written back by :func:`reprocompare.base.run_records.restore_tabulated`).
- Formats: the per-sentence counts table (:data:`COUNTS_COLUMNS`, parsed by
  :func:`counts_rows` alone) and CSV text (:func:`csv_text`). A repetition's records are
  checked against one another by :mod:`reprocompare.study.verify`.
- Reading: :func:`read_json`, so that a missing, truncated or foreign record is one error
  naming its file. What each record of a repetition and each summary must hold, and its one
  reader and writer, are :mod:`reprocompare.base.run_records`'s.
- Writing: every output is written to a temporary name in the same directory and renamed over
  the target: ``os.replace`` is atomic on POSIX, so a killed job leaves either the old file or
  the new one.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from reprocompare import schemas
from reprocompare.base import paths
from reprocompare.base.errors import UserError


#: Table 4's RS averages this many hold-outs unless the config says otherwise (the paper's k,
#: the schema's default)
TABLE4_K = schemas.default("strategies.repeated_holdout.table4_k")


# a repetition's run directory, a comparison's summary and claims, and a committed study's
# table of a strategy's repetitions (issue 35: a few files, not four per repetition;
# counts.tsv.gz stays a file of each repetition, split.json its seed's): the workflow's patterns,
# named once in reprocompare.base.paths
RUN, SUMMARY, CLAIMS, REPETITIONS = paths.RUN, paths.SUMMARY, paths.CLAIMS, paths.REPETITIONS
#: the files of a repetition the table holds, in a line's order
TABULATED = (paths.SETTINGS_FILE, paths.SCORES_FILE, paths.RUNTIME_FILE, paths.ESTIMATES_FILE)


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


def _counts_row_problem(line: str, number: int) -> None:
    fields = line.split("\t")
    if len(fields) != len(COUNTS_COLUMNS):
        raise ValueError(f"line {number}: expected {len(COUNTS_COLUMNS)} tab-separated "
                         f"fields, got {len(fields)}")
    if fields[1] not in ("A", "B"):
        raise ValueError(f"line {number}: model must be A or B, got {fields[1]!r}")
    raise ValueError(f"line {number}: fold, sentence and counts must be integers")


def csv_text(rows: Iterable[Mapping], columns: Sequence[str],
             cell: Callable[[Any], str] = str) -> str:
    """``rows`` as CSV text: a header of ``columns``, then each row's values, written by ``cell``
    (each table chooses how numbers print), lines ending in ``\\n`` on every platform.

    Parameters
    ----------
    rows : iterable of mapping
        The rows.
    columns : sequence of str
        The columns, in order.
    cell : callable, default str
        Writes one value.

    Returns
    -------
    str
        The CSV text.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_inert(row[column], cell(row[column])) for column in columns])
    return out.getvalue()


#: what a spreadsheet reads as the start of a formula (OWASP, "CSV injection")
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _inert(raw: Any, text: str) -> str:
    """A text the user wrote (a label, a name, a spec) that a spreadsheet would run as a
    formula gets a leading apostrophe; numbers, which we format, are left as they are."""
    return "'" + text if isinstance(raw, str) and text.startswith(_FORMULA) else text


#: the project's root, in a clone (an installed package lies elsewhere: its paths stay as given)
PROJECT = Path(__file__).resolve().parents[2]


def project_path(path: str | Path) -> str:
    """``path`` relative to the project's root where it lies inside it, else as given: what a
    record says of a corpus or config file, so that the same study committed from two clones
    (or from a study's working directory and the repository) records the same bytes.

    Parameters
    ----------
    path : str or os.PathLike
        The path.

    Returns
    -------
    str
        The path, relative to the project's root where it can be.
    """
    # the path as it reads first: a link inside the project to a corpus outside it (CoNLL-2002,
    # linked from ../shared) is the project's file
    for candidate in (Path(os.path.abspath(path)), Path(path).resolve()):
        try:
            return candidate.relative_to(PROJECT).as_posix()
        except ValueError:
            continue
    return str(path)


def run_directory(corpus: str, comparison: str, strategy: str, repetition: int,
                  root: str | Path = ".") -> Path:
    """Where repetition ``repetition`` of ``strategy`` (the splitters' name) keeps its files.

    Parameters
    ----------
    corpus : str
        The corpus's name.
    comparison : str
        The comparison's name.
    strategy : str
        The strategy, as the splitters name it.
    repetition : int
        The repetition's number.
    root : str or os.PathLike, default '.'
        The study's directory.

    Returns
    -------
    pathlib.Path
        The directory.
    """
    return Path(root) / RUN.format(corpus=corpus, comparison=comparison, strategy=strategy,
                                   repetition=repetition)


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


def read_json(path: str | Path) -> dict:
    """A JSON object a job or a run wrote: the one reader of every record (estimates, splits,
    summaries, claims, trials, the corpus jobs' info), so that a missing, unreadable, truncated
    or foreign file is one UserError naming it (and its line), never a traceback.

    Parameters
    ----------
    path : str or os.PathLike
        The file.

    Returns
    -------
    dict
        The object.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError("missing (did the job that writes it finish?)", path=path) from None
    except (OSError, UnicodeDecodeError) as error:
        raise UserError(f"cannot read: {error}", path=path) from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise UserError(f"not valid JSON: {error.msg} (truncated? delete it and rerun)",
                        path=path, line=error.lineno) from None
    if not isinstance(record, dict):
        raise UserError("not a JSON object; delete it and rerun", path=path)
    return record


def _umask() -> int:
    mask = os.umask(0o022)  # the only way to read it is to set it: put it straight back
    os.umask(mask)
    return mask


def write_bytes_atomic(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically, with the permissions ``open`` would give it.

    A disk that is full, read-only or not ours is a UserError naming the file, and leaves no
    temporary file behind.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    data : bytes
        The content.

    Returns
    -------
    pathlib.Path
        The file written.
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.",
                                             suffix=".tmp")
    except OSError as error:
        raise UserError(f"cannot write: {error.strerror or error}", path=path) from None
    try:
        # mkstemp makes the file 0600; an output is as readable as any file the user creates
        os.fchmod(handle, 0o666 & ~_umask())
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise UserError(f"cannot write: {error.strerror or error}", path=path) from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def write_text_atomic(path: str | Path, text: str) -> Path:
    """Write ``text`` to ``path`` atomically, as UTF-8 with its line ends as they are
    (:func:`write_bytes_atomic`).

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    text : str
        The content.

    Returns
    -------
    pathlib.Path
        The file written.
    """
    # encode ourselves: "\n" stays "\n" on every platform
    return write_bytes_atomic(path, text.encode("utf-8"))


def nan_key(data: Any, key: str = "") -> str | None:
    """The dotted key of the first NaN in ``data`` (nested dicts and lists), or None.

    Parameters
    ----------
    data : object
        The data.
    key : str, default ''
        The dotted key of ``data`` itself.

    Returns
    -------
    str or None
        The key, or None.
    """
    if isinstance(data, float) and math.isnan(data):
        return key or "(the value)"
    if isinstance(data, dict):
        items = ((f"{key}.{k}" if key else str(k), v) for k, v in data.items())
    elif isinstance(data, (list, tuple)):
        items = ((f"{key}[{i}]", v) for i, v in enumerate(data))
    else:
        return None
    for sub_key, value in items:
        found = nan_key(value, sub_key)
        if found is not None:
            return found
    return None


def dumps_json(data: Any) -> str:
    """Deterministic JSON: fixed key order as given, floats as Python's shortest repr.

    An SNR can be infinite (every repetition agrees, sd = 0): it is written as ``Infinity``,
    which Python's json reads back. NaN is never written: it is not JSON, and a NaN in a result
    means a statistic was undefined, which the code computing it must say in words. A NaN
    raises a UserError naming its key (no partial file: nothing is written).

    Parameters
    ----------
    data : object
        The data (dicts, lists, strings, numbers, booleans, None).

    Returns
    -------
    str
        The JSON text, ending with a newline.
    """
    found = nan_key(data)
    if found is not None:
        raise UserError(f"refusing to write NaN (an undefined statistic) at {found}")
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def write_json_atomic(path: str | Path, data: Any) -> Path:
    """Write ``data`` to ``path`` atomically as :func:`dumps_json` writes it.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    data : object
        The data.

    Returns
    -------
    pathlib.Path
        The file written.
    """
    return write_text_atomic(path, dumps_json(data))


def write_directory_atomic(path: str | Path, write) -> Path:
    """Create the directory ``path`` whole or not at all: ``write(temporary)`` fills a temporary
    sibling directory, which is then renamed to ``path`` (an empty ``path`` is replaced).

    An error (a full or read-only disk included, as a UserError naming the directory) removes
    the temporary directory: no half-written run is ever left under ``path``.

    Parameters
    ----------
    path : str or os.PathLike
        The directory.
    write : callable
        Called with the temporary directory's path to fill it.

    Returns
    -------
    pathlib.Path
        The directory.
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = Path(tempfile.mkdtemp(dir=path.parent, prefix=f".{path.name}.",
                                          suffix=".tmp"))
        os.chmod(temporary, 0o777 & ~_umask())
    except OSError as error:
        raise UserError(f"cannot write: {error.strerror or error}", path=path) from None
    try:
        write(temporary)
        if path.is_dir():
            path.rmdir()  # empty (the caller checked): rename cannot replace a directory
        os.rename(temporary, path)
    except OSError as error:
        shutil.rmtree(temporary, ignore_errors=True)
        raise UserError(f"cannot write: {error.strerror or error}", path=path) from None
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise
    return path
