"""The tables as HTML for the report (reports.html): the Markdown subset they use, rendered."""

from __future__ import annotations

from html.parser import HTMLParser

from reprocompare.reports.html import markdown_html
from reprocompare.reports.tables import table4_markdown, table4_rows
from test_tables import LABEL, make_summary


class _Count(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.cells = {}, []

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1

    def handle_data(self, data):
        self.cells.append(data)


def test_table4_renders_as_a_table_with_every_row():
    markdown = table4_markdown(table4_rows({LABEL: make_summary(), "x < y & z": make_summary()}))
    page = markdown_html(markdown, "Table 4")
    parsed = _Count()
    parsed.feed(page)
    assert parsed.tags["table"] == 2 and parsed.tags["h3"] == 2
    rows = sum(1 for line in markdown.splitlines()
               if line.startswith("|") and not line.startswith("|---"))
    assert parsed.tags["tr"] == rows  # every Markdown row, header included, is a table row
    assert parsed.tags["ul"] == 2 and parsed.tags["strong"] >= 2 and parsed.tags["code"] >= 4
    assert "Table 4: x &lt; y &amp; z" in page and "<script" not in page
    assert page == markdown_html(markdown, "Table 4")  # byte-identical


def test_paragraphs_and_escaping():
    page = markdown_html("one\ntwo <b>\n\n- `a|b`\n", "t")
    assert "<p>one two &lt;b&gt;</p>" in page and "<li><code>a|b</code></li>" in page
