"""Every value computed from fewer than 5 repetitions comes with a caution, in every format
(Table 3 and Table 4 in Markdown, LaTeX and the terminal; reprocompare run's verdict lines):
at R = 2 an SNR of hundreds and an interval of a model's F1 past 100 F1 points are what the
formulas give, and a reader must be told so beside them."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from reprocompare.base import run_records
from reprocompare.estimators.reproducibility import model_interval, summarize
from reprocompare.reports.latex import table3_latex, table4_latex, table4_wide_latex
from reprocompare.reports.tables import (FEW_REPETITIONS, few_repetitions_caution,
                                         table3_markdown, table3_rows, table4_markdown,
                                         table4_rows, table4_text)
from reprocompare.study.summary import verdicts

LABEL = "crf_a vs crf_b on conll2000"


def summary_at(r: int) -> dict:
    """A comparison's summary over r repetitions: A - B barely varies (an SNR of hundreds at
    R = 2), and B's F1 spreads enough for Table 3's interval to pass 100 F1 points at R = 2."""
    rng = np.random.default_rng(r)
    values = {"ST": 0.004 + 1e-5 * rng.standard_normal(r),
              "Avg": 0.003 + 0.002 * rng.standard_normal(r)}
    summary = {
        "models": {"A": "crf:scheme=IOB2", "B": "crf:scheme=IOBES"}, "conclusion": "A>B",
        "table4_k": 6,
        "estimators": {name: summarize(v).as_dict() for name, v in values.items()},
        "per_model": {"A": model_interval(0.9 + 0.01 * rng.standard_normal(r)).as_dict(),
                      "B": model_interval(np.linspace(0.80, 0.97, r)).as_dict()},
        "corpus": {"name": "conll2000", "sentences": 300}, "typed": True,
        "strategies": {"holdout": {"ratio": "4:1"}, "bcv": {"m": 5}},
    }
    summary.update(verdicts(values, {}, "A>B"))
    return summary


@pytest.mark.parametrize("r", [2, 3, 4])
def test_few_repetitions_are_cautioned_in_every_format(r):
    summary = summary_at(r)
    rows4, rows3 = table4_rows({LABEL: summary}), table3_rows({LABEL: summary})
    t = f"{stats.t.ppf(0.975, r - 1):.1f} standard errors"
    markdown4 = table4_markdown(rows4)
    assert f"- **Caution:** ST, Avg rest on R = {r} repetitions, fewer than 5" in markdown4
    assert t in markdown4
    bias = "no finite mean at R = 2" if r == 2 else "overstates its size"
    assert bias in markdown4
    markdown3 = table3_markdown(rows3)
    assert f"- **Caution:** ST rests on R = {r} repetitions" in markdown3 and t in markdown3
    assert "SNR" not in markdown3.split("**Caution:**")[1].split("\n")[0]  # no SNR in Table 3
    for latex in (table4_latex(rows4), table4_wide_latex(rows4), table3_latex(rows3)):
        assert r"\textbf{Caution:}" in latex and f"R = {r} repetitions" in latex
    text = table4_text(summary)
    assert f"caution: ST, Avg rest on R = {r} repetitions" in text
    assert f"  caution: A, B rest on R = {r} repetitions" in text  # Table 3's lines


def test_at_r2_the_caution_stands_beside_what_it_warns_of():
    """The numbers the caution is about are there: an SNR in the hundreds, an interval of a
    model's F1 past 100 F1 points."""
    summary = summary_at(2)
    assert abs(summary["estimators"]["ST"]["snr"]) > 100
    assert 100 * summary["per_model"]["B"]["high"] > 100
    assert "Caution" in table3_markdown(table3_rows({LABEL: summary}))


@pytest.mark.parametrize("r", [FEW_REPETITIONS, 10])
def test_enough_repetitions_are_not_cautioned(r):
    summary = summary_at(r)
    assert few_repetitions_caution(table4_rows({LABEL: summary})) == ""
    for text in (table4_markdown(table4_rows({LABEL: summary})),
                 table3_markdown(table3_rows({LABEL: summary})),
                 table4_latex(table4_rows({LABEL: summary})), table4_text(summary)):
        assert "aution" not in text


def test_the_caution_names_only_the_estimators_it_concerns():
    rows = [{"estimator": "ST", "repetitions": 3}, {"estimator": "Avg", "repetitions": 10}]
    caution = few_repetitions_caution(rows)
    assert caution.startswith("Caution: ST rests on R = 3 repetitions") and "Avg" not in caution
    both = few_repetitions_caution([{"estimator": "ST", "repetitions": 3},
                                    {"estimator": "RS", "repetitions": 2}])
    assert both.startswith("Caution: ST, RS rest on as few as R = 2 repetitions")


class _Summaries:
    """The summary record's name, its reading replaced."""

    name = run_records.SUMMARY.name

    def __init__(self, read):
        self.read_file = read


def test_run_says_the_caution_beside_each_verdict_line(tmp_path, monkeypatch):
    """reprocompare run's last lines: a verdict and a mean difference from R < 5 say so."""
    from reprocompare.commands import run

    read = {}
    monkeypatch.setattr(run, "SUMMARY", _Summaries(
        lambda path: read.setdefault(path, {"summary": summary_at(2)})))
    config = {"comparisons": {"crf": {"corpora": ["conll2000"]}},
              "stopping": {"enabled": False, "max_repetitions": 200}}
    lines = run.verdict_lines(config, tmp_path)
    assert len(read) == 1 and len(lines) == 2
    assert all(line.endswith("; caution: R = 2 < 5, a first look only (Table 4 says why)")
               for line in lines), lines
    monkeypatch.setattr(run, "SUMMARY", _Summaries(lambda path: {"summary": summary_at(5)}))
    assert not any("caution" in line for line in run.verdict_lines(config, tmp_path))


def test_a_waves_progress_line_says_the_caution_below_r5():
    """reprocompare sequential's line after a wave: a verdict at R < 5 (waves under 5) says so."""
    from reprocompare.commands.sequential import progress

    decided = {"decision": "A>B", "text": "A > B reproduces", "forecast": None,
               "repetitions": 4, "claim": "Phi(SNR) >= 0.9 at R = 4, normal model"}
    assert progress("Avg", decided, 10) == (
        "Avg: A > B reproduces (Phi(SNR) >= 0.9 at R = 4, normal model); caution: R = 4 < 5, a "
        "first look only (Table 4 says why)")
    assert "caution" not in progress("Avg", {**decided, "repetitions": 5}, 10)


def test_the_reports_front_page_says_the_caution_below_r5():
    """The report leads with the verdicts and their intervals: at R < 5 a caution stands under
    them (a docutils admonition, rendered as Snakemake renders the front page)."""
    from test_front_page import _html

    from reprocompare.reports.front import answer_rst

    html = _html(answer_rst(table4_rows({LABEL: summary_at(2)}), {}))
    assert 'class="admonition caution"' in html and "system-message" not in html
    assert "ST, Avg rest on R = 2 repetitions, fewer than 5" in html
    assert "admonition caution" not in _html(answer_rst(table4_rows({LABEL: summary_at(5)}), {}))
