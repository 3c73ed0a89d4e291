"""Generated sections of Markdown files: a benchmark's table between its two markers."""

from __future__ import annotations

from pathlib import Path


def replace_between(path: Path, begin: str, end: str, text: str) -> None:
    """Put ``text`` between the markers ``begin`` and ``end`` of ``path``, keeping the rest."""
    content = path.read_text(encoding="utf-8")
    head, rest = content.split(begin, 1)
    _, tail = rest.split(end, 1)
    path.write_text(head + begin + text + end + tail, encoding="utf-8")
