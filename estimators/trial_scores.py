"""The score file of a random search, as the command line's ``expected-max`` reads it."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from reprocompare.base.errors import UserError

__all__ = ["read_scores"]


def read_scores(path) -> tuple[np.ndarray, np.ndarray | None]:
    """Read trial scores (and optionally runtimes) from a text file, for the command line.

    Format: one trial per line, ``score`` or ``score runtime_seconds`` separated by whitespace;
    every trial line has the same number of columns. Blank lines and ``#`` comments (whole-line
    or trailing) are ignored.

    Parameters
    ----------
    path : str or os.PathLike
        The file.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray or None)
        The scores in file order, and the runtimes when the file has a second column.

    Raises
    ------
    reprocompare.base.errors.UserError
        (a ``ValueError``) with the message ``"<path>:<line>: ..."`` for a value that is not a
        number, a NaN or infinite value, a negative runtime, or a wrong column count;
        ``"<path>: ..."`` for an unreadable file, one that is not a regular file (a FIFO
        would block the read), or one without any scores.
    """
    p = Path(path)
    if p.exists() and not p.is_file():  # reading a FIFO or a terminal would wait forever
        raise UserError("not a regular file (a directory, FIFO, socket or device): scores are "
                        "read from a file", path=str(path))
    try:
        text = p.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise UserError(f"cannot read the file: {exc.strerror or exc}", path=str(path)) from None
    except UnicodeDecodeError:
        raise UserError("not a UTF-8 text file", path=str(path)) from None
    scores: list[float] = []
    runtimes: list[float] = []
    n_columns: int | None = None
    for lineno, raw in enumerate(text.splitlines(), start=1):
        fields = raw.split("#", 1)[0].split()
        if not fields:
            continue
        if len(fields) not in (1, 2):
            raise UserError(f"expected 1 column (score) or 2 (score runtime), got "
                            f"{len(fields)}: {raw.strip()!r}", path=str(path), line=lineno)
        if n_columns is None:
            n_columns = len(fields)
        elif len(fields) != n_columns:
            raise UserError(f"expected {n_columns} column(s) like the first trial line, got "
                            f"{len(fields)}: {raw.strip()!r}", path=str(path), line=lineno)
        values = []
        for what, field in zip(("score", "runtime"), fields):
            try:
                value = float(field)
            except ValueError:
                raise UserError(f"{what} is not a number: {field!r}", path=str(path),
                                line=lineno) from None
            if not math.isfinite(value):
                raise UserError(f"{what} must be a finite number, got {field!r}",
                                path=str(path), line=lineno)
            values.append(value)
        if len(values) == 2 and values[1] < 0:
            raise UserError(f"runtime must be non-negative seconds, got {fields[1]!r}",
                            path=str(path), line=lineno)
        scores.append(values[0])
        if len(values) == 2:
            runtimes.append(values[1])
    if not scores:
        raise UserError("no scores found (only blank lines or comments)", path=str(path))
    return np.array(scores), (np.array(runtimes) if n_columns == 2 else None)
