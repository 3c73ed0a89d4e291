"""Tables 3 and 4: formatting, layout and escaping, on a hand-made summary."""

from __future__ import annotations

import csv
import io
import math

from reprocompare.reports.tables import (TABLE3_COLUMNS, TABLE4_COLUMNS, table3_latex, table3_markdown,
                            table3_rows, table4_latex, table4_markdown, table4_rows, table4_text,
                            to_csv)


def row(mean, snr, rep):
    return {"repetitions": 4, "mean": mean, "sd": 0.01, "snr": snr, "snr_low": snr - 1,
            "snr_high": math.inf, "reproducibility": rep, "reproducibility_low": rep / 2,
            "reproducibility_high": 1.0, "chebyshev_bound": snr**2 / (1 + snr**2)}


SUMMARY = {
    "models": {"A": "crf:scheme=IOB2", "B": "crf:scheme=IOBES"}, "conclusion": "A>B",
    "table4_k": 6, "mixture_chose_vote": 0.25,
    "estimators": {"ST": row(0.002, 0.2, 0.5), "Avg": row(0.003, 1.5, 0.75),
                   "Vote": row(0.004, 1.0, 0.75), "Mixture": row(0.004, 2.0, 1.0)},
    "per_model": {"A": {"repetitions": 4, "mean": 0.9012, "standard_error": 0.0003,
                        "low": 0.9001, "high": 0.9023}},
}


def test_table4_rows_and_csv():
    rows = table4_rows({"crf_50%_A&B": SUMMARY})
    assert [r["estimator"] for r in rows] == ["ST", "Avg", "Vote", "Mixture"]  # no RS run
    parsed = list(csv.DictReader(io.StringIO(to_csv(rows, TABLE4_COLUMNS))))
    assert parsed[3]["snr"] == "2.000000" and parsed[3]["snr_high"] == "inf"
    assert parsed[3]["mixture_chose_vote"] == "0.250000" and parsed[0]["mixture_chose_vote"] == ""
    assert parsed[1]["strategy"] == "3x2 BCV" and parsed[0]["strategy"] == "8:1 hold-out"


def test_table4_markdown_and_latex():
    rows = table4_rows({"crf_50%_A&B": SUMMARY})
    markdown = table4_markdown(rows)
    assert "| SNR [95% CI] | 0.200 [-0.800, inf] | 1.500 [0.500, inf] |" in markdown
    assert "| Reproducibility [95% CI] | 0.500 [0.250, 1.000] |" in markdown
    assert "Vote (Case I) in 25% of the repetitions and Avg (Case II) in 75%" in markdown
    latex = table4_latex(rows)
    assert r"crf\_50\%\_A\&B & SNR & 0.200 & 1.500 & 1.000 & 2.000 \\" in latex
    assert latex.count(r"\toprule") == 1 and r"\bottomrule" in latex


def test_table3():
    rows = table3_rows({"pair": SUMMARY})
    assert to_csv(rows, TABLE3_COLUMNS).splitlines()[1].startswith("pair,A,crf:scheme=IOB2,4,")
    assert "| 90.12 | 3.00 | [90.01, 90.23] |" in table3_markdown(rows)
    assert r"90.12 & 3.00 & [90.01, 90.23] \\" in table3_latex(rows)


def test_terminal_table():
    text = table4_text(SUMMARY)
    assert "conclusion under test: A>B" in text
    assert text.splitlines()[3].startswith("ST ")
    assert "mean F1 90.12%" in text
