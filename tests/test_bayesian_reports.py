"""Issue 52's posteriors where a study shows them: the config's rope, each summary's record per
estimator (against baycomp and the strategy's rho), Table 4's rows in every format, the front
page, the claims table's signed-rank test across corpora and samples, escaping and bad input."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess

import numpy as np
import pytest

from reprocompare.base.errors import UserError
from reprocompare.estimators.bayesian import POSTERIOR_ROPE, correlated_ttest, signed_rank
from reprocompare.pipeline.significance_jobs import claims_tables
from reprocompare.reports import front, latex
from reprocompare.reports import tables as t
from reprocompare.strategies import repetition_rho
from reprocompare.study.config import load_yaml, validate
from reprocompare.study.summary import summarize_runs

from test_claims_aso import _claims_record, _summary_record
from test_tables import make_summary

RECORD_KEYS = {"p_a_better", "p_rope", "p_b_better", "rope", "rho", "point"}
#: nine hold-outs at 8:1 and five 3 x 2 BCVs of a comparison, A ahead by about half a point
HOLDOUTS = [0.004, 0.009, 0.001, 0.006, 0.005, 0.012, -0.002, 0.007, 0.003]
BCV_AVG = [0.0050, 0.0046, 0.0055, 0.0049, 0.0052]
BCV_VOTE = [0.0061, 0.0040, 0.0058, 0.0047, 0.0062]


def _write_run(directory, strategy, repetition, estimates, settings):
    directory.mkdir(parents=True)
    (directory / "split.json").write_text(json.dumps({"repetition": repetition, "seed": 1,
                                                      **settings}))
    (directory / "estimates.json").write_text(json.dumps(
        {"models": {"A": "crf:a", "B": "crf:b"}, "strategy": strategy, **estimates}))
    return directory


def _holdout(difference: float) -> dict:
    return {"holdout": difference,
            "per_model": {"A": {"holdout": 0.9}, "B": {"holdout": 0.9 - difference}}}


def _runs(tmp_path) -> list:
    runs = [_write_run(tmp_path / f"st{r}", "holdout", r, _holdout(d), {"ratio": "8:1"})
            for r, d in enumerate(HOLDOUTS)]
    runs += [_write_run(tmp_path / f"bcv{r}", "bcv", r,
                        {"avg": avg, "vote": vote, "mixture": max(avg, vote)}, {"m": 3})
             for r, (avg, vote) in enumerate(zip(BCV_AVG, BCV_VOTE))]
    return runs


# ---- the rope: the schema's key, its default, bad values --------------------------------------

def test_the_posterior_rope_has_its_own_key_and_the_verdicts_rope_stays_off():
    verdict = validate(load_yaml("config/config.yaml"), "config.yaml")["verdict"]
    assert verdict["posterior_rope"] == POSTERIOR_ROPE == 0.5
    assert verdict["rope"] is None  # the equivalence verdict (TOST) stays off by default


@pytest.mark.parametrize("bad", [-1, float("nan"), float("inf"), "wide", None, 101])
def test_a_bad_posterior_rope_is_one_line_naming_the_key(bad):
    config = load_yaml("config/config.yaml")
    config["verdict"] = {"posterior_rope": bad}
    with pytest.raises(UserError) as raised:
        validate(config, "study.yaml")
    assert "\n" not in str(raised.value)
    assert str(raised.value).startswith("study.yaml: verdict.posterior_rope: ")


# ---- the summary's record per estimator -------------------------------------------------------

def test_each_summary_holds_a_record_per_estimator_with_the_strategys_rho(tmp_path):
    summary = summarize_runs(_runs(tmp_path))
    posteriors = summary["posteriors"]
    assert list(posteriors) == ["ST", "Avg", "Vote", "Mixture"]  # Table 4's names and order
    for name, record in posteriors.items():
        assert set(record) == RECORD_KEYS
        assert record["rope"] == POSTERIOR_ROPE
        assert record["rho"] == repetition_rho(name)
        assert record["p_a_better"] + record["p_rope"] + record["p_b_better"] == \
            pytest.approx(1.0)
    assert posteriors["ST"]["rho"] == pytest.approx(1 / 9)
    assert posteriors["Avg"]["rho"] == pytest.approx(6 / 7)


def test_the_hold_outs_record_equals_baycomp_where_its_rho_is_baycomps(tmp_path):
    """Nine hold-outs at 8:1: rho = 1/9, what baycomp's CorrelatedTTest assumes of one run of
    nine folds, so its three probabilities are the record's (to 1e-9)."""
    from baycomp import CorrelatedTTest

    record = summarize_runs(_runs(tmp_path))["posteriors"]["ST"]
    a = np.full(len(HOLDOUTS), 0.9)
    # baycomp's differences are y - x: its left is P(A - B > rope) with x = A, y = B
    left, rope, right = CorrelatedTTest.probs(a, a - np.array(HOLDOUTS), rope=0.005, runs=1)
    assert (record["p_a_better"], record["p_rope"], record["p_b_better"]) == \
        pytest.approx((left, rope, right), abs=1e-9)


def test_the_posterior_rope_changes_the_posteriors_and_no_verdict(tmp_path):
    runs = _runs(tmp_path)
    settings = {"threshold": 0.8, "confidence": 0.95, "rope": None}
    half = summarize_runs(runs, verdict_settings={**settings, "posterior_rope": 0.5})
    wide = summarize_runs(runs, verdict_settings={**settings, "posterior_rope": 2.0})
    assert half["verdicts"] == wide["verdicts"] and half["verdict_rule"] == wide["verdict_rule"]
    assert wide["posteriors"]["Avg"]["rope"] == 2.0
    assert wide["posteriors"]["Avg"]["p_rope"] > half["posteriors"]["Avg"]["p_rope"]
    assert wide["posteriors"]["Avg"] == correlated_ttest(BCV_AVG, rope=2.0, rho=6 / 7).as_record()


def test_values_without_spread_are_a_point_posterior_said_so(tmp_path):
    runs = [_write_run(tmp_path / f"st{r}", "holdout", r, _holdout(0.01), {"ratio": "8:1"})
            for r in range(3)]
    summary = summarize_runs(runs)
    assert summary["posteriors"]["ST"] == {"p_a_better": 1.0, "p_rope": 0.0, "p_b_better": 0.0,
                                           "rope": 0.5, "rho": pytest.approx(1 / 9),
                                           "point": True}
    row = t.table4_rows({"x": summary})[0]
    assert t.posterior_cell(row) == "1.000 / 0.000 / 0.000 (a point: no spread)"
    assert "ST: no spread over the repetitions, so the posterior is a point" in \
        t.posterior_note([row])


# ---- Table 4's rows: CSV, Markdown, LaTeX, the terminal, the front page ----------------------

POSTERIORS = {"ST": {"p_a_better": 0.25, "p_rope": 0.70, "p_b_better": 0.05, "rope": 0.3,
                     "rho": 1 / 9, "point": False},
              "Avg": {"p_a_better": 0.91, "p_rope": 0.09, "p_b_better": 0.0, "rope": 0.3,
                      "rho": 6 / 7, "point": False}}
LABEL = "crf_50%_A&B <x> #1 on conll2000"


def _rows():
    return t.table4_rows({LABEL: make_summary(posteriors=POSTERIORS)})


def test_table4_csv_carries_the_posterior_columns():
    parsed = list(csv.DictReader(io.StringIO(t.to_csv(_rows(), t.TABLE4_COLUMNS))))
    st, avg, vote = parsed[0], parsed[1], parsed[2]
    assert (st["posterior_p_a_better"], st["posterior_p_rope"], st["posterior_p_b_better"],
            st["posterior_rope_f1_points"], st["posterior_rho"], st["posterior_point"]) == \
        ("0.250000", "0.700000", "0.050000", "0.300000", "0.111111", "false")
    assert avg["posterior_p_a_better"] == "0.910000"
    # an estimator the summary holds no posterior of: empty cells, not zeros
    assert vote["posterior_p_a_better"] == "" and vote["posterior_rho"] == ""


def test_table4_markdown_rows_are_named_a_posterior_beside_the_verdict():
    text = t.table4_markdown(_rows())
    lines = text.splitlines()
    row = next(line for line in lines if line.startswith("| Posterior P(A > B)"))
    assert row == ("| Posterior P(A > B), P(rope), P(B > A) (rope +-0.3 F1 points; a posterior, "
                   "not a reproducibility) | 0.250 / 0.700 / 0.050 | 0.910 / 0.090 / 0.000 "
                   "| -- | -- |")
    assert "| Posterior's rho (its strategy's, across corpora) | 0.111 | 0.857 | -- | -- |" \
        in lines
    # beside the verdict: right below the verdict's rows, above the mean
    assert lines.index(row) < next(i for i, line in enumerate(lines)
                                   if line.startswith("| Mean of A - B"))
    assert lines.index(row) > next(i for i, line in enumerate(lines)
                                   if line.startswith("| **Verdict**"))
    assert "a posterior, not a reproducibility (docs/bayesian.md)" in text
    assert "(+-0.3 F1 points)" in text
    # the user's comparison name escaped where it lands
    assert r"### Table 4: crf\_50%\_A&amp;B &lt;x&gt; \#1 on conll2000" in text


def test_summaries_without_posteriors_give_the_tables_they_gave():
    rows = t.table4_rows({LABEL: make_summary()})
    assert "Posterior" not in t.table4_markdown(rows)
    assert "Posterior" not in latex.table4_latex(rows)
    assert "Posterior" not in latex.table4_wide_latex(rows)
    assert r"\begin{tabular}{lcccc}" in latex.table4_latex(rows)
    assert "Posterior" not in front.answer_rst(rows, {})


def test_table4_latex_has_the_posterior_column_and_rows():
    column = latex.table4_latex(_rows())
    lines = column.splitlines()
    # at column width a row under each estimator's two lines (a sixth column does not fit)
    row = r"\multicolumn{5}{r}{posterior $P(A>B)$/rope/$P(B>A)$: 0.25/0.70/0.05} \\"
    assert lines.index(row) == next(i for i, line in enumerate(lines)
                                    if line.startswith("ST & ")) + 2
    assert r"posterior $P(A>B)$/rope/$P(B>A)$: 0.91/0.09/0.00} \\" in column
    assert column.count(r"\multicolumn{5}") == 2  # Vote and Mixture hold no posterior
    wide = latex.table4_wide_latex(_rows())
    assert r"Posterior $P(A>B)$ & 0.250 & 0.910 & -- & -- \\" in wide
    assert r"\quad $P(|A-B| \leq 0.3)$ & 0.700 & 0.090 & -- & -- \\" in wide
    assert r"\quad $P(B>A)$ & 0.050 & 0.000 & -- & -- \\" in wide
    assert r"\quad $\rho$ (its strategy's) & 0.111 & 0.857 & -- & -- \\" in wide
    assert r"a posterior, not a reproducibility" in wide


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_table4_latex_with_posteriors_compiles(tmp_path):
    body = "\n".join([r"\documentclass[twocolumn]{article}", r"\usepackage{booktabs}",
                      r"\begin{document}", latex.table4_latex(_rows()),
                      latex.table4_wide_latex(_rows()), r"\end{document}"])
    (tmp_path / "t.tex").write_text(body)
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "t.tex"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:]


def test_the_terminal_table_and_the_front_page_show_the_posterior_beside_the_verdict():
    text = t.table4_text(make_summary(posteriors=POSTERIORS))
    assert ("posterior P(A > B) / P(rope) / P(B > A), rope +-0.3 F1 points: ST 0.250 / 0.700 / "
            "0.050 (rho 0.111); Avg 0.910 / 0.090 / 0.000 (rho 0.857); Vote -- (rho --); "
            "Mixture -- (rho --)") in text
    page = front.answer_rst(_rows(), {})
    lines = page.splitlines()
    # the posteriors are a table of their own under the answer, with its note: the answer's
    # table stays within a 1400-pixel window (tests/test_report_view.py)
    header = "     - Posterior P(A > B) / P(rope) / P(B > A), rope +-0.3 F1 points"
    assert lines.index("   :class: posterior") > lines.index("     - The interval it was decided on")
    assert lines[lines.index(header) - 1] == "   * - Estimator"
    assert r"     - 0\.250 \/ 0\.700 \/ 0\.050" in lines
    assert r"a posterior\, not a reproducibility" in page  # the note, escaped for reST
    # the comparison's name, the user's, escaped for reST
    assert r"**crf\_50\%\_A\&B \<x\> \#1 on conll2000**" in page


# ---- the claims table: across corpora, across a variation study's samples --------------------

def _with_posteriors(record: dict, rope: float = 0.5) -> dict:
    record["summary"]["posteriors"] = {"Avg": {**POSTERIORS["Avg"], "rope": rope}}
    return record


def _claims_md(tmp_path, records, summaries) -> tuple[str, str]:
    paths = []
    for i, record in enumerate(records + summaries):
        path = tmp_path / f"{i}.json"
        path.write_text(json.dumps(record))
        paths.append(str(path))
    outputs = {kind: str(tmp_path / f"claims.{kind}")
               for kind in ("csv", "md", "html", "tex", "wide_tex")}
    claims_tables(paths[:len(records)], paths[len(records):], outputs)
    return (tmp_path / "claims.md").read_text(), (tmp_path / "claims.tex").read_text()


def test_claims_across_corpora_carry_the_signed_rank_beside_the_partial_conjunction(tmp_path):
    corpora = ("c1", "c2", "c3")
    summaries = [_with_posteriors(_summary_record(c)) for c in corpora]
    text, tex = _claims_md(tmp_path, [_claims_record(c) for c in corpora], summaries)
    means = [float(np.mean(s["values"]["Avg"])) for s in summaries]
    expected = signed_rank(means, rope=0.5, seed=0)
    row = (f"| Avg | {', '.join(f'{100 * m:+.2f}' for m in means)} | "
           f"{expected.p_a_better:.3f} | {expected.p_rope:.3f} | {expected.p_b_better:.3f} |")
    assert text.count(row) == 3  # under each corpus's block
    assert text.count("| Across the 3 corpora (Bayesian signed-rank) | Mean A - B per corpus "
                      "(F1 points) | Posterior P(A > B) | P(rope: +-0.5 F1 points) | P(B > A) |"
                      ) == 3
    # beside the partial-conjunction count, after it
    assert text.index("Replicability across corpora") < text.index("| Across the 3 corpora")
    assert "| Mixture |" not in text  # leans to the conclusion when A = B: no population answer
    assert (f"posterior $P(A>B)$ / $P(\\mathrm{{rope}})$ / $P(B>A)$: Avg "
            f"{latex.number(expected.p_a_better, 2)} / {latex.number(expected.p_rope, 2)} / "
            f"{latex.number(expected.p_b_better, 2)}") in tex


def test_claims_across_a_variation_studys_samples(tmp_path):
    record = _with_posteriors(_summary_record("c1"))
    values = [0.004, 0.008, 0.012, 0.014, -0.003, 0.001]  # 3 samples x 2 splits x 1 seed
    record["values"] = {"Avg": values, "Vote": values}
    record["variation"] = {"samples": 3, "seeds": 1, "sample_size": 100, "decompose": False}
    text, _ = _claims_md(tmp_path, [_claims_record("c1")], [record])
    expected = signed_rank([np.mean(values[0:2]), np.mean(values[2:4]), np.mean(values[4:6])],
                           rope=0.5, seed=0)
    assert 0.05 < expected.p_a_better < 0.95  # a row that tells the samples apart
    assert "| Across the 3 samples (Bayesian signed-rank) | Mean A - B per sample" in text
    assert (f"| Avg | +0.60, +1.30, -0.10 | {expected.p_a_better:.3f} | "
            f"{expected.p_rope:.3f} | {expected.p_b_better:.3f} |") in text
    assert "sample 0, sample 1, sample 2" in text


def test_corpus_names_are_escaped_in_the_across_sentence(tmp_path):
    corpora = ("c1", "c2", "c3")
    summaries = [_with_posteriors(_summary_record(c)) for c in corpora]
    for s, name in zip(summaries, ("a_b", "c*d", "e")):
        s["corpus"] = name
    records = [_claims_record(c) for c in ("a_b", "c*d", "e")]
    text, _ = _claims_md(tmp_path, records, summaries)
    assert r"mean difference (a\_b, c\*d, e)" in text


def test_summaries_without_posteriors_give_no_signed_rank(tmp_path):
    corpora = ("c1", "c2", "c3")
    text, tex = _claims_md(tmp_path, [_claims_record(c) for c in corpora],
                           [_summary_record(c) for c in corpora])
    assert "Replicability across corpora" in text
    assert "signed-rank" not in text and "signed-rank" not in tex
