"""Reading and writing a file of the study: the one JSON reader, and atomic writes.

- Reading: :func:`read_json`, so that a missing, truncated or foreign record is one error
  naming its file. What each record of a repetition and each summary must hold, and its one
  reader and writer, are :mod:`reprocompare.base.run_records`'s.
- Writing: every output is written to a temporary name in the same directory and renamed over
  the target: ``os.replace`` is atomic on POSIX, so a killed job leaves either the old file or
  the new one; a JSON record holding NaN is refused (:func:`nan_key`).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from reprocompare.base.errors import UserError


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
