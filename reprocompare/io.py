"""Writing outputs so that no reader ever sees half a file.

Every output is written to a temporary name in the same directory and renamed over the target:
``os.replace`` is atomic on POSIX, so a killed job leaves either the old file or the new one.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


def write_bytes_atomic(path: str | Path, data: bytes) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def write_text_atomic(path: str | Path, text: str) -> Path:
    # encode ourselves: "\n" stays "\n" on every platform
    return write_bytes_atomic(path, text.encode("utf-8"))


def dumps_json(data: Any) -> str:
    """Deterministic JSON: fixed key order as given, floats as Python's shortest repr.

    An SNR can be infinite (every repetition agrees, sd = 0; with few repetitions a bootstrap
    resample often does): it is written as ``Infinity``, which Python's json reads back.
    """
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def write_json_atomic(path: str | Path, data: Any) -> Path:
    return write_text_atomic(path, dumps_json(data))
