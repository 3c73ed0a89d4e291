"""Markdown: the one table writer, and the escaping of a user's text wherever it lands in one.

Every Markdown table of the project (the study tables, the checklist, the search and variance
reports, the model catalogue, the config reference) is written by :func:`md_table`, so that the
pipe rows, the separator and its alignment are spelled once. The cells are Markdown: a cell that
shows what a user wrote (a corpus path, a model spec, a label) goes through :func:`md_text` or
:func:`md_code` first, so that it shows as written and can neither end its code span nor split its
cell. It sits on the ground floor beside ``spreadsheet.csv_text`` because the stages and the study
configuration (floor 2) write tables too.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

__all__ = ["md_table", "md_text", "md_code"]

#: the separator cell of each alignment letter: none, left, centre, right (GitHub's table syntax)
_SEPARATORS = {"-": "---", "l": ":---", "c": ":---:", "r": "---:"}


def md_table(header: Sequence, rows: Iterable[Sequence], align: str | None = None) -> list[str]:
    """A Markdown (GitHub) table as lines: the header, the separator, then one line per row.

    Each cell is written as ``str(cell)`` between ``"| "`` and ``" |"``; an empty header cell
    (the corner over a column of row labels) is written ``"| |"``, an empty body cell ``"|  |"``.
    Cells are written as they are, Markdown included (bold, code spans): escape a user's text with
    :func:`md_text` or :func:`md_code` before it becomes a cell.

    Parameters
    ----------
    header : sequence
        The column headings.
    rows : iterable of sequence
        The rows, each with as many cells as ``header``.
    align : str, optional
        One letter per column: ``"-"`` (no alignment, ``---``), ``"l"`` (``:---``), ``"c"``
        (``:---:``) or ``"r"`` (``---:``); default ``"-"`` for every column.

    Returns
    -------
    list of str
        The table's lines, without line ends.

    Raises
    ------
    ValueError
        When a row's length or ``align``'s differs from the header's, or ``align`` holds another
        letter.

    Examples
    --------
    >>> print("\\n".join(md_table(["", "A", "B"], [["F1", "0.91", "0.89"]], align="-rr")))
    | | A | B |
    |---|---:|---:|
    | F1 | 0.91 | 0.89 |
    """
    header = [str(cell) for cell in header]
    align = "-" * len(header) if align is None else align
    if len(align) != len(header) or not set(align) <= set(_SEPARATORS):
        raise ValueError(f"align must hold one of {''.join(_SEPARATORS)!r} per column "
                         f"({len(header)}), got {align!r}")
    lines = ["|" + "|".join(f" {cell} " if cell else " " for cell in header) + "|",
             "|" + "|".join(_SEPARATORS[letter] for letter in align) + "|"]
    for number, row in enumerate(rows):
        cells = [str(cell) for cell in row]
        if len(cells) != len(header):
            raise ValueError(f"row {number} has {len(cells)} cells, the header {len(header)}")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def md_code(text: str, in_table: bool = False) -> str:
    """A user's text (a spec, a command) as a Markdown code span that no backtick inside it can end.

    The fence is one backtick longer than the longest run inside (CommonMark), padded with a space
    when the text starts or ends with a backtick.

    Parameters
    ----------
    text : str
        The text, shown as written.
    in_table : bool, default False
        Whether the span is a table cell: its pipes are then escaped, so that none splits the
        cell (GitHub reads ``\\|`` as a pipe even inside a code span).

    Returns
    -------
    str
        The code span.
    """
    text = str(text).replace("|", "\\|") if in_table else str(text)
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def md_text(text: str) -> str:
    """A user's text as Markdown prose or a table cell: shown as written, never markup or HTML.

    Parameters
    ----------
    text : str
        The text.

    Returns
    -------
    str
        The text with ``&``, ``<`` and ``>`` as entities and Markdown's punctuation (backslash,
        backtick, ``*``, ``_``, brackets, ``|``, ``#``) backslash-escaped.
    """
    text = str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return re.sub(r"([\\`*_\[\]|#])", r"\\\1", text)
