"""The report's front page (reports.front): the answer, rendered by docutils as Snakemake does."""

from __future__ import annotations

from docutils.core import publish_parts

from reprocompare.reports.front import answer_rst
from reprocompare.reports.tables import table4_rows
from test_tables import make_summary


def _html(text: str) -> str:
    # Snakemake renders the front page with Jinja, then docutils: drop the raw markers as Jinja
    # does; a reST error would show as a system message
    text = text.replace("{% raw %}", "").replace("{% endraw %}", "")
    return publish_parts(text, writer="html",
                         settings_overrides={"report_level": 2, "halt_level": 2})["html_body"]


def test_every_comparison_leads_with_its_verdicts():
    summaries = {f"pair{i} on corpus{i}": make_summary(
        degenerate=["B"] if i == 1 else [], model_names={"A": f"a{i}", "B": f"b{i}"},
        model_labels={"A": "CRF {x}", "B": "B|ad"}) for i in range(3)}
    rows = table4_rows(summaries)
    html = _html(answer_rst(rows, {"corrected resampled t (Nadeau-Bengio)": "liberal, 9.7%"}))
    assert html.count("<table") == 3 and "system-message" not in html
    for i in range(3):
        assert f"pair{i} on corpus{i}" in html
    assert html.count("A &gt; B reproduces") == 3  # Vote, in each comparison
    # the warnings: the model that learned nothing (once) and what to try; the liberal test
    assert html.count('class="admonition warning"') == 1 and "Try training longer" in html
    assert 'class="admonition note"' in html and "liberal, 9.7%" in html
    # the effect in points with its interval, the reproducibility with its interval
    avg = next(r for r in rows if r["estimator"] == "Avg")
    assert f"{avg['mean_f1_points']:.2f} [{avg['mean_low_f1_points']:.2f}, " in html
    assert "CRF {x}" in html  # a label with braces is kept raw from Jinja


def test_no_comparison_yet():
    assert "No comparison has been summarized yet" in _html(answer_rst([], {}))
