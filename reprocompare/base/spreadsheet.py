"""CSV text a spreadsheet opens as data: the one CSV writer of the tables and reports.

A cell a user wrote (a label, a name, a spec) that a spreadsheet would run as a formula gets a
leading apostrophe (OWASP, "CSV injection"); the numbers, which we format, stay as they are.
"""

from __future__ import annotations

import csv
import io
from typing import Any, Callable, Iterable, Mapping, Sequence


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
