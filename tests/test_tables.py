"""Tables 3 and 4: self-explaining blocks in CSV, Markdown and LaTeX (issue 13 items 1, 3, 5)."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import shutil
import subprocess

import numpy as np
import pytest

from reprocompare.base.errors import UserError
from reprocompare.strategies import STRATEGIES
from reprocompare.estimators.claims import Claim, claim_reproducibility
from reprocompare.estimators.effect import mean_interval
from reprocompare.estimators.reproducibility import model_interval, summarize
from reprocompare.estimators.verdict import verdict
from reprocompare.reports.latex import (claims_latex, claims_wide_latex, table3_latex,
                                        table4_latex, table4_wide_latex)
from reprocompare.reports.tables import (CLAIMS_COLUMNS, DECISION_TEXT, TABLE3_COLUMNS,
                                         TABLE4_COLUMNS, claims_markdown, claims_rows,
                                         table3_markdown, table3_rows, table4_markdown,
                                         table4_rows, table4_text, to_csv)
from reprocompare.estimators.designs import PLANNED
from reprocompare.study.summary import interval_fields, summarize_runs, verdicts

LABEL = "crf_50%_A&B on conll2000"
VALUES = {"ST": [0.002, -0.001, 0.004, 0.003], "Avg": [0.003, 0.004, 0.002, 0.005],
          "Vote": [0.0100, 0.0101, 0.0099, 0.01005], "Mixture": [0.004, 0.001, 0.006, 0.005]}


def make_summary(**extra):
    summary = {
        "models": {"A": "crf:scheme=IOB2", "B": "crf:scheme=IOBES"}, "conclusion": "A>B",
        "table4_k": 6, "mixture_chose_vote": 0.25,
        "estimators": {name: summarize(v).as_dict() for name, v in VALUES.items()},
        "per_model": {"A": model_interval([0.9012, 0.9001, 0.9023, 0.9012]).as_dict(),
                      "B": model_interval([0.0, 0.0, 0.0, 0.0]).as_dict()},
        "corpus": {"name": "conll2000", "sentences": 600}, "typed": False,
        "strategies": {"holdout": {"ratio": "4:1"}, "repeated_holdout": {"ratio": "4:1", "k": [6]},
                       "bcv": {"m": 5}},
    }
    summary.update(verdicts(VALUES, {}, "A>B"))
    summary.update(extra)
    return summary


def test_table4_csv_rows_carry_their_context_and_units():
    rows = table4_rows({LABEL: make_summary()})
    assert [r["estimator"] for r in rows] == ["ST", "Avg", "Vote", "Mixture"]  # no RS run
    parsed = list(csv.DictReader(io.StringIO(to_csv(rows, TABLE4_COLUMNS))))
    st, avg, vote = parsed[0], parsed[1], parsed[2]
    assert (st["comparison"], st["corpus"], st["sentences"], st["scoring"]) == \
        (LABEL, "conll2000", "600", "untyped")
    assert (st["model_a"], st["model_b"], st["conclusion"]) == \
        ("crf:scheme=IOB2", "crf:scheme=IOBES", "A>B")
    # labels from the run's settings, not the paper's 8:1 and 3x2
    assert st["strategy"] == "4:1 hold-out" and avg["strategy"] == "5x2 BCV"
    # F1 quantities in F1 points: mean of ST = 0.002 -> 0.2 points
    assert float(st["mean_f1_points"]) == pytest.approx(100 * np.mean(VALUES["ST"]), abs=1e-6)
    assert float(st["sd_f1_points"]) == pytest.approx(100 * np.std(VALUES["ST"], ddof=1), abs=1e-6)
    expected = summarize(VALUES["ST"])
    assert float(st["snr_low"]) == pytest.approx(expected.snr_low, abs=1e-6)
    assert st["snr_interval"] == "exact"
    # the verdict (fixed R: the exact interval) and how many more repetitions would decide it
    decided = verdict(VALUES["ST"], time_uniform=False)
    assert (st["verdict"], st["verdict_text"]) == (decided.decision, decided.text)
    assert float(st["predictive_reproducibility_low"]) == \
        pytest.approx(decided.reproducibility_low, abs=1e-6)
    assert st["repetitions_to_decide"] == ("" if decided.more is None else str(decided.more))
    # every interval names its kind (issue 33): fixed R here
    assert (st["mean_interval"], st["reproducibility_interval"]) == (
        "Student t, fixed R", "Clopper-Pearson, fixed R")
    assert st["predictive_reproducibility_interval"] == "SNR exact interval (fixed R)"
    # R = 4: the normal model is checked for ties only (Shapiro-Wilk from R = 15), and says so
    assert st["verdict_path"] == "normal (not checked below R = 15, only for ties)"
    assert st["verdict_claim"] == decided.claim
    assert vote["verdict"] == "A>B" and vote["repetitions_to_decide"] == ""
    assert parsed[3]["mixture_chose_vote"] == "0.250000" and st["mixture_chose_vote"] == ""
    assert "B (crf:scheme=IOBES) scored F1 = 0 on every fold" in st["warning"]


def test_zero_variance_gets_no_verdict_in_every_format():
    """Issue 33, item 5: equal estimates (and all zeros) say so, never 'reproduces'."""
    values = {**VALUES, "Vote": [0.01] * 4, "Avg": [0.0] * 4}
    summary = make_summary()
    summary["estimators"].update({name: summarize(values[name]).as_dict()
                                  for name in ("Vote", "Avg")})
    summary.update(verdicts(values, {}, "A>B"))
    rows = table4_rows({LABEL: summary})
    parsed = {r["estimator"]: r for r in csv.DictReader(io.StringIO(to_csv(rows, TABLE4_COLUMNS)))}
    assert parsed["Vote"]["verdict"] == parsed["Avg"]["verdict"] == "degenerate"
    assert "all 4 estimates of A - B equal +1.000 F1 points" in parsed["Vote"]["verdict_text"]
    assert "all 4 estimates of A - B are 0" in parsed["Avg"]["verdict_text"]
    markdown = table4_markdown(rows)
    assert markdown.count("**no verdict: no spread**") == 2 and "nan" not in markdown.lower()
    latex = table4_latex(rows)  # the cell wraps: "no" over "spread"
    assert "Vote & 1.00 & inf & 1.00 & no \\\\" in latex and "& spread \\\\" in latex
    assert "reproduces" not in parsed["Vote"]["verdict_text"]


def test_table4_markdown_explains_itself():
    markdown = table4_markdown(table4_rows({LABEL: make_summary()}))
    for text in ("A = `crf:scheme=IOB2`, B = `crf:scheme=IOBES`",
                 "Conclusion under test: A > B (A's chunk F1 is higher than B's)",
                 "Corpus: conll2000, 600 sentences; scoring: untyped chunks",
                 "R = 4 independent repetitions of every strategy",
                 "ST = 4:1 hold-out", "Avg = 5x2 BCV",
                 "| SNR (Eq. 4, unitless) [95% CI] |", "(Eq. 1, share of R) [95% CI]",
                 "| Mean of A - B (F1 points) [95% CI] | 0.200 [", "Verdict rule: one deciding",
                 "Path: ST normal (not checked below R = 15, only for ties)",
                 "| **Verdict** | ", "Repetitions to decide, if the SNR stays where it is",
                 "How to read:", "0.9 means 9 in 10 reruns", "**Warning:** B (crf:scheme=IOBES)",
                 "Vote (Case I) in 25% of the repetitions"):
        assert text in markdown, text
    s = summarize(VALUES["ST"])
    assert f"| SNR (Eq. 4, unitless) [95% CI] | {s.snr:.3f} [{s.snr_low:.3f}, {s.snr_high:.3f}]" \
        in markdown
    st = verdict(VALUES["ST"], time_uniform=False)
    assert st.decision == "undecided" and \
        f"ST about {st.more} more to reach '{DECISION_TEXT[st.reaches]}'" in markdown
    assert "**A > B reproduces**" in markdown  # Vote: SNR 130
    assert "nan" not in markdown.lower() and "[, ]" not in markdown


def test_a_planned_summary_names_its_repeated_intervals_in_table4():
    """Issue 39: under ``stopping.design: planned`` every interval Table 4 prints is a
    repeated confidence interval over the planned looks, and says so (Markdown and LaTeX)."""
    stopping = {"enabled": True, "design": "planned", "estimators": ["Avg"], "wave": 2,
                "max_repetitions": 8, "futility": 0.0}
    summary = make_summary()
    for name, values in VALUES.items():
        summary["estimators"][name].update(interval_fields(
            values, "A>B", time_uniform=False, wave=2, summary=summary["estimators"][name],
            planned=True, max_repetitions=8))
    summary.update(verdicts(VALUES, {}, "A>B", stopping=stopping))
    assert all(v["planned"] and not v["time_uniform"] for v in summary["verdicts"].values())
    rows = table4_rows({LABEL: summary})
    markdown = table4_markdown(rows)
    kinds = PLANNED.interval_kinds
    assert "SNR: exact noncentral t at each planned look's level (group-sequential" in markdown
    for text in (kinds["mean"], kinds["snr"], kinds["reproducibility"],
                 "repeated confidence intervals of a planned design, looks at R = 2, 4, 6, 8"):
        assert text in markdown, text
    assert "confidence sequence" not in markdown and "fixed R" not in markdown
    assert "repeated confidence intervals of a planned design, intersected over its looks" \
        in table4_latex(rows)


def test_missing_context_is_said_not_guessed():
    bare = make_summary()
    for key in ("corpus", "typed", "strategies"):
        del bare[key]
    markdown = table4_markdown(table4_rows({"pair": bare}))
    assert "corpus not recorded (number of sentences not recorded)" in markdown
    assert "typed or untyped not recorded" in markdown
    assert "m x 2 BCV (m not recorded)" in markdown and "8:1" not in markdown


def test_fields_as_the_workflow_writes_them():
    # provenance.summary: strategies keyed by the splitters' names, model names from the config
    summary = make_summary(model_names={"A": "crf_iob2", "B": "crf_iobes"}, corpus="conll2000",
                           sentences=600, strategies={
                               "holdout": {"ratio": "8:1"},
                               "repeated-holdout": {"ratio": "8:1", "k": [3, 6], "table4_k": 6},
                               "bcv": {"m": 3, "voting": "chunk"}})
    rows = table4_rows({LABEL: summary})
    assert (rows[0]["name_a"], rows[0]["model_a"]) == ("crf_iob2", "crf:scheme=IOB2")
    markdown = table4_markdown(rows)
    assert "A = crf_iob2 (`crf:scheme=IOB2`), B = crf_iobes (`crf:scheme=IOBES`)" in markdown
    assert "Corpus: conll2000, 600 sentences" in markdown and "Avg = 3x2 BCV" in markdown
    latex = table4_latex(rows)
    # the caption names the models by their short labels; the specs are in the note
    assert r"A = crf\_iob2, B = crf\_iobes;" in latex
    assert r"A = crf\_iob2: \texttt{crf:\allowbreak{}scheme=\allowbreak{}IOB2}" in latex
    labelled = table4_rows({LABEL: {**summary, "model_labels": {"A": "IOB2", "B": "IOBES"}}})
    assert labelled[0]["label_a"] == "IOB2" and "A = IOB2, B = IOBES;" in table4_latex(labelled)


def test_degenerate_flag_from_the_summary_field():
    summary = make_summary(degenerate=["A"])
    rows = table4_rows({LABEL: summary})
    assert rows[0]["warning"] == "A (crf:scheme=IOB2) scored F1 = 0 on every fold"
    assert table4_rows({LABEL: make_summary(degenerate=[])})[0]["warning"] == ""
    table3 = table3_rows({LABEL: summary})
    assert [r["warning"] for r in table3] == ["F1 = 0 on every fold", ""]


def test_bootstrap_intervals_at_small_r_carry_a_caution():
    summary = make_summary()
    summary["estimators"]["ST"] = summarize(VALUES["ST"], snr_method="bootstrap").as_dict()
    markdown = table4_markdown(table4_rows({LABEL: summary}))
    assert "Caution: the SNR intervals of ST are percentile bootstraps at R < 200" in markdown
    assert "Caution: the SNR intervals" not in \
        table4_markdown(table4_rows({LABEL: make_summary()}))


def test_the_few_repetitions_caution_prints_scipys_t_multiplier():
    """The caution's t multipliers are stored, not computed (the front page job imports no
    SciPy for them): they are scipy's t quantiles to the bit, one for every R the caution is
    printed at."""
    from scipy import special, stats

    from reprocompare.reports.tables import FEW_REPETITIONS, T_975

    assert sorted(T_975) == list(range(1, FEW_REPETITIONS - 1))
    for df, value in T_975.items():
        assert value == float(special.stdtrit(df, 0.975)) == float(stats.t.ppf(0.975, df))


def test_table4_latex_has_cis_caption_label_and_escapes():
    rows = table4_rows({LABEL: make_summary()})
    s = summarize(VALUES["ST"])
    mean = mean_interval(s.mean, s.sd, s.repetitions)
    for latex, float_, digits in ((table4_latex(rows), "table", 1),
                                  (table4_wide_latex(rows), "table*", 2)):
        assert r"\caption{" in latex and r"\label{tab:table4-crf-50-a-b-on-conll2000" in latex
        assert "A = crf:scheme=IOB2, B = crf:scheme=IOBES;" in latex
        assert f"[{s.snr_low:.{digits}f}, {s.snr_high:.{digits}f}]".replace("-", "$-$") in latex
        # the effect in F1 points with its 95% interval (estimators.effect)
        assert (f"[{100 * mean.low:.2f}, {100 * mean.high:.2f}]".replace("-", "$-$")) in latex
        assert "conll2000, 600 sentences, untyped F1" in latex and r"\toprule" in latex
        assert latex.count(rf"\begin{{{float_}}}") == latex.count(rf"\end{{{float_}}}") == 1
        # the long reading note follows the float as comments; a compact note is inside
        body, after = latex.split(rf"\end{{{float_}}}")
        assert "How to read" not in body and after.startswith("\n% ")
        assert "How to read" in after.replace("\n% ", " ")
        assert "Brackets: 95\\% intervals (mean: Student t, fixed R; SNR: exact " in body
        assert r"\resizebox" not in latex and r"\footnotesize" in latex
    assert r"\label{tab:table4-crf-50-a-b-on-conll2000-wide}" in table4_wide_latex(rows)
    weird = make_summary(models={"A": r"x\y{z}_%", "B": "b~^#$&"})
    text = table4_latex(table4_rows({"p": weird}))
    assert r"A = x\textbackslash{}y\{z\}\_\%, B" in text  # no names: the spec is the label
    assert r"b\textasciitilde{}\textasciicircum{}\#\$\&" in text


def test_table4_mean_interval_in_every_format():
    rows = table4_rows({LABEL: make_summary()})
    s = summarize(VALUES["Avg"])
    mean = mean_interval(s.mean, s.sd, s.repetitions)
    avg = next(r for r in csv.DictReader(io.StringIO(to_csv(rows, TABLE4_COLUMNS)))
               if r["estimator"] == "Avg")
    assert float(avg["mean_low_f1_points"]) == pytest.approx(100 * mean.low, abs=1e-6)
    assert float(avg["mean_high_f1_points"]) == pytest.approx(100 * mean.high, abs=1e-6)
    assert (f"{100 * s.mean:.3f} [{100 * mean.low:.3f}, {100 * mean.high:.3f}]"
            in table4_markdown(rows))
    assert f"{100 * s.mean:+.3f} [{100 * mean.low:.3f}, {100 * mean.high:.3f}]" \
        in table4_text(make_summary())


def test_table3_units_and_context():
    rows = table3_rows({LABEL: make_summary()})
    parsed = list(csv.DictReader(io.StringIO(to_csv(rows, TABLE3_COLUMNS))))
    a = parsed[0]
    interval = model_interval([0.9012, 0.9001, 0.9023, 0.9012])
    assert (a["model"], a["spec"], a["strategy"], a["scoring"]) == \
        ("A", "crf:scheme=IOB2", "4:1 hold-out", "untyped")
    assert float(a["mean_f1_points"]) == pytest.approx(100 * interval.mean, abs=1e-6)
    assert float(a["standard_error_f1_points"]) == pytest.approx(100 * interval.standard_error, abs=1e-6)
    assert float(a["low_f1_points"]) == pytest.approx(100 * interval.low, abs=1e-6)
    markdown = table3_markdown(rows)
    assert "| Strategy | Model | Spec | R | Mean F1 (F1 points) | SE (F1 points) | 95% CI " \
           "(F1 points) |" in markdown
    assert f"| ST (4:1 hold-out) | A | `crf:scheme=IOB2` | 4 | 90.12 | " \
           f"{100 * interval.standard_error:.3f} |" in markdown
    # a summary without the claims' scores (`reprocompare summarize`): the standard split's
    assert "R = 4 standard-split repetitions (4:1 hold-out)" in markdown
    assert "How to read" in markdown
    latex = table3_latex(rows)
    assert r"\label{tab:table3-crf-50-a-b-on-conll2000}" in latex and "90.12" in latex
    assert r"B$^{\dagger}$" in latex and r"A: \texttt{crf:\allowbreak{}scheme" in latex


def test_table3_reports_every_strategy_of_the_study():
    """Issue 36: each model's F1 over the repetitions of ST, RS and BCV (the scores the claims
    record: ST's hold-out, RS's mean over Table 4's k hold-outs, BCV's mean over its folds)."""
    scores = {STRATEGIES[0].name: {"A": [0.90, 0.91, 0.92], "B": [0.80, 0.81, 0.83]},
              STRATEGIES[1].name: {"A": [0.905, 0.906, 0.907], "B": [0.81, 0.82, 0.815]},
              STRATEGIES[2].name: {"A": [0.91, 0.915, 0.912], "B": [0.82, 0.825, 0.821]}}
    rows = table3_rows({LABEL: make_summary()}, {LABEL: scores})
    assert [(r["strategy_short"], r["model"]) for r in rows] == \
        [(s.short, m) for s in STRATEGIES[:3] for m in ("A", "B")]
    assert [r["strategy"] for r in rows[::2]] == ["4:1 hold-out", "6 x 4:1 hold-outs", "5x2 BCV"]
    for r, (s, m) in zip(rows, [(s, m) for s in STRATEGIES[:3] for m in ("A", "B")]):
        interval = model_interval(scores[s.name][m])
        assert r["mean_f1_points"] == pytest.approx(100 * interval.mean)
        assert r["low_f1_points"] == pytest.approx(100 * interval.low)
        assert r["repetitions"] == 3
    markdown = table3_markdown(rows)
    assert "| RS (6 x 4:1 hold-outs) | A |" in markdown and "| BCV (5x2 BCV) | B **(" in markdown
    assert "R = 3 independent repetitions of every strategy; strategies: ST = 4:1 hold-out; " \
           "RS = 6 x 4:1 hold-outs; BCV = 5x2 BCV" in markdown
    for s in STRATEGIES[:3]:
        assert f"{s.short} {s.model_f1}" in markdown
    latex = table3_latex(rows)
    assert r"\begin{tabular}{llccc}" in latex and "RS & A & 90.60" in latex
    assert "over the repetitions of each strategy" in latex
    columns = list(csv.DictReader(io.StringIO(to_csv(rows, TABLE3_COLUMNS))))
    assert [c["strategy_short"] for c in columns] == [s.short for s in STRATEGIES[:3]
                                                      for _ in "AB"]


def test_tables_are_byte_identical_for_equal_summaries():
    outputs = []
    for _ in range(2):
        rows = table4_rows({LABEL: make_summary()})
        outputs.append(to_csv(rows, TABLE4_COLUMNS) + table4_markdown(rows) + table4_latex(rows)
                       + table4_wide_latex(rows))
    assert outputs[0] == outputs[1]


def test_terminal_table():
    text = table4_text(make_summary())
    assert "conclusion under test: A>B" in text
    assert "Corpus: conll2000, 600 sentences" in text
    assert any(line.startswith("ST ") for line in text.splitlines())
    assert "Verdict rule:" in text and "verdicts: ST " in text
    assert "mean F1 90.12 F1 points" in text
    assert "warning: B (crf:scheme=IOBES) scored F1 = 0 on every fold" in text


def _write_run(directory, strategy, repetition, estimates):
    directory.mkdir(parents=True)
    (directory / "split.json").write_text(json.dumps({"repetition": repetition, "seed": 1}))
    (directory / "estimates.json").write_text(json.dumps(
        {"models": {"A": "crf:a", "B": "crf:b"}, "strategy": strategy, **estimates}))


def test_one_repetition_is_an_error_naming_the_comparison_never_an_empty_table(tmp_path):
    _write_run(tmp_path / "st0", "holdout", 0,
               {"holdout": 0.01, "per_model": {"A": {"holdout": 0.9}, "B": {"holdout": 0.89}}})
    with pytest.raises(UserError, match=r"A = crf:a vs B = crf:b: ST has 1 repetition.*at least 2"):
        summarize_runs([tmp_path / "st0"])
    _write_run(tmp_path / "st1", "holdout", 1,
               {"holdout": 0.02, "per_model": {"A": {"holdout": 0.91}, "B": {"holdout": 0.89}}})
    summary = summarize_runs([tmp_path / "st0", tmp_path / "st1"])
    assert [r["estimator"] for r in table4_rows({"p": summary})] == ["ST"]


def require_pdflatex():
    """Skip loudly where pdflatex is missing; under CI (which `make test` gives pdflatex through
    tests/system-packages.sh) a missing pdflatex is a failure, never a skip."""
    if shutil.which("pdflatex") is not None:
        return
    message = ("LATEX NOT CHECKED: pdflatex is not installed; install it with "
               "`apt-get install texlive-latex-base texlive-latex-recommended` (booktabs)")
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def _compile(tmp_path, name, body):
    """pdflatex of ``body`` in a two-column article (a conference paper's layout)."""
    (tmp_path / f"{name}.tex").write_text(body)
    document = tmp_path / f"doc_{name}.tex"
    document.write_text("\\documentclass[twocolumn]{article}\n\\usepackage{booktabs}\n"
                        f"\\begin{{document}}\n\\input{{{name}.tex}}\n\\end{{document}}\n")
    return subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                           document.name], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)


def assert_compiles_and_fits(tmp_path, name, body):
    """It compiles, and nothing runs into the margin or the other column."""
    result = _compile(tmp_path, name, body)
    assert result.returncode == 0, result.stdout[-2000:]
    assert (tmp_path / f"doc_{name}.pdf").read_bytes()[:4] == b"%PDF"
    log = (tmp_path / f"doc_{name}.log").read_text(errors="replace")
    assert "Missing character" not in log
    overfull = [line for line in log.splitlines() if line.startswith("Overfull \\hbox")]
    assert not overfull, f"{name}: {overfull}"


@pytest.mark.slow
def test_latex_tables_compile_standalone(tmp_path):
    require_pdflatex()
    summaries = {LABEL: make_summary(), "second pair": make_summary(
        models={"A": r"odd\spec_{1}%", "B": "b~^#$&"}, degenerate=["A"])}
    for name, body in (("table4", table4_latex(table4_rows(summaries))),
                       ("table4-wide", table4_wide_latex(table4_rows(summaries))),
                       ("table3", table3_latex(table3_rows(summaries)))):
        assert_compiles_and_fits(tmp_path, name, body)


def _claims():
    reps = [{"paired_t_mx2": Claim("paired_t_mx2", 3.0, p, d),
             "combined_f_mx2": Claim("combined_f_mx2", 9.0, p, d)}
            for p, d in [(0.01, 1), (0.2, 1), (0.04, -1), (0.03, 1)]]
    return {LABEL: {k: v.as_dict() for k, v in claim_reproducibility(reps).items()}}


def test_claims_table_in_three_formats(tmp_path):
    rows = claims_rows(_claims(), {LABEL: make_summary()})
    parsed = list(csv.DictReader(io.StringIO(to_csv(rows, CLAIMS_COLUMNS))))
    assert [(r["test"], r["strategy"], r["a_better"], r["b_better"]) for r in parsed] == [
        ("paired_t_mx2", "5x2 BCV", "2", "1"), ("combined_f_mx2", "5x2 BCV", "2", "1")]
    assert float(parsed[0]["share"]) == 0.5 and parsed[0]["model_a"] == "crf:scheme=IOB2"
    markdown = claims_markdown(rows)
    assert "| 5x2 BCV | m x 2 paired t (Dietterich) | 2 of 4 | 0.500 [0.068, 0.932] | 1 of 4 |" \
        in markdown
    assert "How to read" in markdown and "alpha = 0.05, two-sided" in markdown
    # what reproduces (Table 4's verdicts) beside how often a test calls it significant
    assert "Verdicts (Table 4): ST " in markdown and "Vote A > B reproduces" in markdown
    latex = claims_latex(rows)
    assert "Verdicts (Table 4): ST " in latex
    assert r"\label{tab:claims-crf-50-a-b-on-conll2000}" in latex
    assert r"\label{tab:claims-crf-50-a-b-on-conll2000-wide}" in claims_wide_latex(rows)
    require_pdflatex()
    assert_compiles_and_fits(tmp_path, "claims", latex)
    assert_compiles_and_fits(tmp_path, "claims-wide", claims_wide_latex(rows))
