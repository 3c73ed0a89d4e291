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


#: what the tables' Markdown holds inline: code spans (reprocompare.base.markdown.md_code, whose
#: fence is longer than any backtick run inside), md_text's backslash escapes and entities, and
#: ``**`` (bold)
_INLINE = re.compile(r"(?P<fence>`+)(?P<code>.+?)(?<!`)(?P=fence)(?!`)"
                     r"|\\(?P<escaped>[\\`*_\[\]|#])|&(?P<entity>amp|lt|gt);|(?P<bold>\*\*)", re.S)
_ENTITIES = {"amp": "&", "lt": "<", "gt": ">"}


def _inline(text: str) -> str:
    """The tables' inline Markdown as HTML: what a user wrote (through md_text or md_code)
    shows as written, every character escaped; ``**`` pairs are bold."""
    tokens = list(_INLINE.finditer(text))
    bold = [t for t in tokens if t.group("bold")]
    unpaired = bold[-1] if len(bold) % 2 else None  # shown as written
    out, position, open_bold = [], 0, False
    for token in tokens:
        out.append(html.escape(text[position:token.start()], quote=False))
        position = token.end()
        if token.group("code") is not None:
            code = token.group("code")
            if code.startswith(" ") and code.endswith(" ") and code.strip():
                code = code[1:-1]  # the pad md_code puts beside a backtick
            out.append("<code>" + html.escape(code.replace("\\|", "|"), quote=False)
                       + "</code>")
        elif token.group("escaped") is not None:
            out.append(html.escape(token.group("escaped"), quote=False))
        elif token.group("entity") is not None:
            out.append(html.escape(_ENTITIES[token.group("entity")], quote=False))
        elif token is unpaired:
            out.append("**")
        else:
            out.append("</strong>" if open_bold else "<strong>")
            open_bold = not open_bold
    out.append(html.escape(text[position:], quote=False))
    return "".join(out)


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
