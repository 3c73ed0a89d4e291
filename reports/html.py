"""The Markdown tables as HTML pages, so that the report shows them as tables.

Snakemake's report shows an HTML result in place and offers any other text (CSV, Markdown) as a
download. The tables' Markdown (:mod:`reprocompare.reports.tables`) uses a small subset of
Markdown: ``###`` headings, ``-`` bullets, pipe tables, paragraphs, ``**bold**`` and
```code```. This module renders exactly that subset, escaped, with a few lines of CSS, so that
the report needs no Markdown library and equal tables give byte-identical pages.
"""

from __future__ import annotations

import html
import re

STYLE = ("body{font-family:system-ui,sans-serif;font-size:14px;line-height:1.45;margin:1.5em;"
         "max-width:75em;color:#222}table{border-collapse:collapse;margin:.8em 0}"
         "th,td{border-bottom:1px solid #ccc;padding:.3em .7em;text-align:left;"
         "vertical-align:top}th{border-bottom:2px solid #444}code{font-size:90%;"
         "background:#f3f3f3;padding:0 .2em}h3{margin-top:1.6em}")


def _inline(text: str) -> str:
    """Escape, then **bold** and `code`."""
    out = html.escape(text, quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    return re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", out)


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def markdown_html(text: str, title: str) -> str:
    """A standalone HTML page of ``text`` (the tables' Markdown subset).

    Parameters
    ----------
    text : str
        The Markdown.
    title : str
        The page's title.

    Returns
    -------
    str
        The HTML page.
    """
    body: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif line.startswith("### "):
            body.append(f"<h3>{_inline(line[4:])}</h3>")
            i += 1
        elif line.startswith("- "):
            items = []
            while i < len(lines) and lines[i].startswith("- "):
                items.append(f"<li>{_inline(lines[i][2:])}</li>")
                i += 1
            body.append("<ul>" + "".join(items) + "</ul>")
        elif line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(lines[i])
                i += 1
            header, data = _cells(rows[0]), [r for r in rows[1:]
                                               if not re.fullmatch(r"\|[-:| ]+\|?", r.strip())]
            body.append("<table><thead><tr>" + "".join(f"<th>{_inline(c)}</th>" for c in header)
                        + "</tr></thead><tbody>" + "".join(
                            "<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in _cells(row))
                            + "</tr>" for row in data) + "</tbody></table>")
        else:
            paragraph = []
            while i < len(lines) and lines[i].strip() and not lines[i].startswith(("### ", "- ",
                                                                                  "|")):
                paragraph.append(lines[i])
                i += 1
            body.append(f"<p>{_inline(' '.join(paragraph))}</p>")
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")
