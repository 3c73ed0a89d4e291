"""Generated sections of Markdown files: a benchmark's table between its two markers, and the
machine it ran on as its note names it."""

from __future__ import annotations

import platform
from pathlib import Path


def replace_between(path: Path, begin: str, end: str, text: str) -> None:
    """Put ``text`` between the markers ``begin`` and ``end`` of ``path``, keeping the rest."""
    content = path.read_text(encoding="utf-8")
    head, rest = content.split(begin, 1)
    _, tail = rest.split(end, 1)
    path.write_text(head + begin + text + end + tail, encoding="utf-8")


def cpu_name() -> str:
    """The processor's model name (/proc/cpuinfo), else the machine's architecture."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()
