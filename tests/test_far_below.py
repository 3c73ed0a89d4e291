"""A model far below the other is named in a warning, with what to try (issue 37, item 5b).

Not only at F1 = 0: a BiLSTM at 35 where a CRF reaches 80 learned something, and a comparison
against it says little. Checked on hand-made summaries, through every format (Markdown, text,
LaTeX, the front page, the checklist), with a user's spec that tries to inject markup.
"""

from __future__ import annotations

from reprocompare.estimators.reproducibility import model_interval, summarize
from reprocompare.reports.checklist import _validation
from reprocompare.reports.front import answer_rst
from reprocompare.reports.latex import table3_latex, table4_latex
from reprocompare.reports.tables import (FAR_BELOW_ADVICE, FAR_BELOW_POINTS, far_below,
                                         far_below_warning, table3_markdown, table3_rows,
                                         table4_markdown, table4_rows, table4_text)
from reprocompare.study.summary import verdicts

VALUES = {"ST": [0.40, 0.45, 0.42, 0.44], "Avg": [0.41, 0.43, 0.42, 0.40]}
#: a user's spec with Markdown, HTML, LaTeX and reST in it
HOSTILE = "bilstm:scheme=IOB2,path=<b>*x*_{y}`z`|#\\"


def summary_of(a: list[float], b: list[float], spec_b: str = "bilstm:scheme=IOB2") -> dict:
    summary = {
        "models": {"A": "crf:scheme=IOB2", "B": spec_b}, "conclusion": "A>B",
        "estimators": {name: summarize(v).as_dict() for name, v in VALUES.items()},
        "per_model": {"A": model_interval(a).as_dict(), "B": model_interval(b).as_dict()},
        "corpus": {"name": "ner", "sentences": 600}, "typed": False,
        "strategies": {"holdout": {"ratio": "8:1"}, "bcv": {"m": 3}},
    }
    summary.update(verdicts(VALUES, {}, "A>B"))
    return summary


CRF = [0.78, 0.80, 0.79, 0.80]
BEHIND = [0.35, 0.38, 0.36, 0.37]  # 42.75 points below: the BiLSTM


def test_far_below_is_a_gap_of_more_than_the_threshold_in_mean_f1_points():
    found = far_below(summary_of(CRF, BEHIND))
    assert found[:2] == ("B", "A")
    assert (round(found[2], 2), round(found[3], 2)) == (36.5, 79.25)
    # either side: A far below B
    assert far_below(summary_of(BEHIND, CRF))[:2] == ("A", "B")
    # a gap of FAR_BELOW_POINTS or less is a comparison, not a warning
    close = [f - FAR_BELOW_POINTS / 100 + 1e-4 for f in CRF]
    assert far_below(summary_of(CRF, close)) is None
    assert far_below(summary_of(CRF, [f - FAR_BELOW_POINTS / 100 - 1e-3 for f in CRF]))
    assert far_below(summary_of(CRF, [0.85, 0.86, 0.84, 0.85])) is None  # B better, close
    # F1 = 0 everywhere has its own warning; no per_model (no standard split), no warning
    assert far_below(summary_of(CRF, [0.0] * 4)) is None
    assert far_below({**summary_of(CRF, BEHIND), "per_model": {}}) is None


def test_every_format_names_the_model_the_gap_and_what_to_try():
    summaries = {"crf vs bilstm": summary_of(CRF, BEHIND)}
    rows = table4_rows(summaries)
    warning = ("B (bilstm:scheme=IOB2) scored 42.8 F1 points below A (crf:scheme=IOB2) on the "
               "standard split (36.5 against 79.2)")
    assert {r["warning"] for r in rows} == {warning}
    assert rows[0]["warning_advice"] == FAR_BELOW_ADVICE
    assert "more epochs" in FAR_BELOW_ADVICE and "type: crf" in FAR_BELOW_ADVICE
    markdown = table4_markdown(rows)
    assert "- **Warning:** B (bilstm:scheme=IOB2) scored 42.8 F1 points below" in markdown
    assert "says nothing about which model is better" not in markdown
    assert f"warning: {warning}. {FAR_BELOW_ADVICE}" in table4_text(summaries["crf vs bilstm"])
    latex = table4_latex(rows)
    assert r"\textbf{Warning:} B (crf:" not in latex and "42.8 F1 points below A" in latex
    assert "A model this far behind is usually undertrained" in latex
    assert r"42\.8 F1 points below A" in answer_rst(rows, {})  # reST-escaped
    table3 = table3_rows(summaries)
    assert [r["warning"] for r in table3] == ["", "42.8 F1 points below A on the standard split"]
    assert "B **(warning: 42.8 F1 points below A on the standard split)**" in \
        table3_markdown(table3)
    assert r"$^{\dagger}$B: 42.8 F1 points below A on the standard split." in \
        table3_latex(table3)


def test_the_f1_zero_warning_keeps_its_own_advice():
    rows = table4_rows({"p": summary_of(CRF, [0.0] * 4)})
    assert rows[0]["warning"] == "B (bilstm:scheme=IOB2) scored F1 = 0 on every fold"
    assert "says nothing about which model is better" in table4_markdown(rows)
    assert "far behind" not in table4_markdown(rows)
    assert table4_rows({"p": summary_of(CRF, CRF)})[0]["warning"] == ""


def test_a_users_spec_in_the_warning_is_escaped_everywhere():
    summaries = {"p": summary_of(CRF, BEHIND, spec_b=HOSTILE)}
    rows = table4_rows(summaries)
    markdown = table4_markdown(rows)
    line = next(line for line in markdown.splitlines() if line.startswith("- **Warning:**"))
    assert "<b>" not in line and "&lt;b&gt;" in line and r"\*x\*" in line and r"\|" in line
    rst = answer_rst(rows, {})
    assert "<b>*x*" not in rst and r"\<b\>\*x\*" in rst
    latex = table4_latex(rows)
    assert "{y}" not in latex and "_{" not in latex.split("Warning:")[1].split("\n")[0]


def test_the_checklist_lists_it_under_validation_performance():
    records = {"config": {"comparisons": {}}, "budget": None, "seed_variance": None,
               "summaries": [{"corpus": "ner", "comparison": "crf_vs_bilstm",
                              "summary": summary_of(CRF, BEHIND, spec_b=HOSTILE)}]}
    text = "\n".join(_validation(records))
    warning = next(line for line in text.splitlines() if line.startswith("**Warning:**"))
    assert warning.startswith(r"**Warning:** crf\_vs\_bilstm on ner: B (bilstm:") and \
        warning.endswith("as a baseline.")
    assert "<b>" not in warning and "42.8 F1 points below A" in warning
    assert far_below_warning(summary_of(CRF, CRF)) == ""
