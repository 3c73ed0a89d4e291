"""The claims table's issue-25 additions: ASO rows per strategy and the partial-conjunction count
of a comparison run on several corpora; every line the table had before stays as it was."""

from __future__ import annotations

import csv
import io
import json

import pytest
from scipy import stats

from reprocompare.estimators import aso
from reprocompare.estimators.claims import calibration_note
from reprocompare.estimators.replicability import replicability
from reprocompare.pipeline.significance_jobs import (CLAIMS_CSV_COLUMNS, _holm, _reproducibility,
                                            claims_tables)
from reprocompare.reports import tables as t

AVG = {"c1": [0.010, 0.012, 0.009, 0.011, 0.013],   # far ahead: tiny p
       "c2": [0.004, -0.001, 0.006, 0.002, 0.003],  # ahead, p about 0.03
       "c3": [0.001, -0.002, 0.0, 0.002, -0.001]}   # no difference


def _claims_record(corpus: str, comparison: str = "x", aso_written: bool = True) -> dict:
    test = {"test": "paired_t_mx2", "statistic": 2.0, "p_value": 0.04, "difference": 1.0}
    other = {"test": "combined_f_mx2", "statistic": 2.0, "p_value": 0.3, "difference": 1.0}
    record = {"comparison": comparison, "corpus": corpus, "alpha": 0.05, "resamples": 100,
              "repetitions": {"bcv": [{"paired_t_mx2": test, "combined_f_mx2": other}] * 5}}
    if aso_written:
        record["aso"] = {"bcv": {"repetitions": 5, "confidence": 0.95, "n_bootstrap": 1000,
                                 "eps_min": 0.25, "violation_ratio": 0.1,
                                 "eps_min_b_over_a": 1.0, "violation_ratio_b_over_a": 0.9}}
    return record


def _summary_record(corpus: str, comparison: str = "x") -> dict:
    avg = AVG[corpus]
    summary = {"models": {"A": "crf:scheme=IOB2", "B": "crf:scheme=IOBES"}, "conclusion": "A>B",
               "corpus": corpus, "sentences": 100, "typed": True,
               "strategies": {"bcv": {"m": 3}}, "table4_k": 6}
    return {"comparison": comparison, "corpus": corpus, "summary": summary,
            "values": {"Avg": avg, "Vote": avg, "Mixture": [abs(v) for v in avg]}}


def _run(tmp_path, records, summaries) -> tuple[str, str]:
    paths = []
    for i, record in enumerate(records + summaries):
        path = tmp_path / f"{i}.json"
        path.write_text(json.dumps(record))
        paths.append(str(path))
    outputs = {kind: str(tmp_path / f"claims.{kind}") for kind in ("csv", "md", "html", "tex",
                                                                    "wide_tex")}
    claims_tables(paths[:len(records)], paths[len(records):], outputs)
    return (tmp_path / "claims.csv").read_text(), (tmp_path / "claims.md").read_text()


def _before(records, summaries) -> tuple[str, str]:
    """The claims table as it was written before issue 25 (the same rows, no additions)."""
    labels = [f"{r['comparison']} on {r['corpus']}" for r in records]
    plain = {label: _reproducibility(r, 0.05) for label, r in zip(labels, records)}
    context = {f"{s['comparison']} on {s['corpus']}": s["summary"] for s in summaries}
    holm = {label: _reproducibility(r, 0.05) for label, r in zip(labels, _holm(records, 0.05))} \
        if len(records) > 1 else None
    rows = [{**row, "calibration": calibration_note(row["test"])}
            for row in t.claims_rows(plain, context, holm=holm)]
    return t.to_csv(rows, (*t.CLAIMS_COLUMNS, "calibration")), t.claims_markdown(rows)


def test_aso_rows_and_partial_conjunction_in_the_claims_table(tmp_path):
    corpora = ("c1", "c2", "c3")
    records = [_claims_record(c) for c in corpora]
    summaries = [_summary_record(c) for c in corpora]
    written_csv, markdown = _run(tmp_path, records, summaries)
    old_csv, old_markdown = _before(records, summaries)

    # CSV: the test rows as before (three empty ASO fields after them), then one ASO row each
    rows = list(csv.DictReader(io.StringIO(written_csv)))
    assert list(rows[0]) == list(CLAIMS_CSV_COLUMNS)
    old_lines = old_csv.splitlines()
    new_lines = written_csv.splitlines()
    assert [line for line in new_lines[1:len(old_lines)]] == [
        line + "," * len(t.ASO_COLUMNS) for line in old_lines[1:]]
    added = rows[len(old_lines) - 1:]
    assert [(r["comparison"], r["test"], r["strategy"]) for r in added] == [
        (f"x on {c}", "almost_stochastic_order", "3x2 BCV") for c in corpora]
    assert all(float(r["eps_min"]) == 0.25 and float(r["eps_min_b_over_a"]) == 1.0
               and float(r["confidence"]) == 0.95 and r["calibration"] ==
               aso.calibration_note(5) for r in added)

    # Markdown: removing the added lines gives back the table as it was, line for line
    new = markdown.splitlines()
    aso_header = "| Strategy | Almost stochastic order of chunk F1, 95% confidence |"
    kept, skip = [], 0
    for i, line in enumerate(new):
        if skip:
            skip -= 1
            continue
        if line.startswith(aso_header):  # blank line before, header, rule, 1 row, blank, note
            kept.pop()
            skip = 4
            continue
        if line.startswith("Replicability across corpora"):
            kept.pop()  # its blank line
            continue
        kept.append(line)
    assert kept == old_markdown.splitlines()
    assert markdown.count("| 3x2 BCV | 5 scores per model | 0.250 | 1.000 |") == 3
    assert markdown.count(t.ASO_NOTE) == 3

    # the partial-conjunction count, by hand: one-sided t p-values of Avg per corpus
    p = [stats.ttest_1samp(AVG[c], 0.0, alternative="greater").pvalue for c in corpora]
    assert p[0] < 1e-4 and 0.02 < p[1] < 0.05 and p[2] > 0.3
    # Bonferroni: 3 * p_(1) <= 0.05; 2 * p_(2) > 0.05 (p_(2) > 0.025): k-hat = 1
    expected = replicability(p, 0.05)
    assert expected.count_bonferroni == 1
    line = next(x for x in new if x.startswith("Replicability across corpora"))
    assert ("partial conjunction over the 3 corpora c1, c2, c3; family-wise error alpha = 0.05"
            in line)
    assert ("A > B can be claimed on ST" not in line and
            f"Avg 1 / {expected.count_fisher}, Vote 1 / {expected.count_fisher} of 3 corpora "
            "(Bonferroni / Fisher)" in line)
    # each corpus's block names its own p-value
    for corpus, value in zip(corpora, p):
        block = markdown.split(f"### Significance claims: x on {corpus}")[1].split("###")[0]
        assert f"Avg {value:.3g}, Vote {value:.3g}." in block


def test_one_corpus_and_claims_written_before_issue_25_add_nothing(tmp_path):
    records = [_claims_record("c1", aso_written=False), _claims_record("c2", "y", False)]
    summaries = [_summary_record("c1"), _summary_record("c2", "y")]
    written_csv, markdown = _run(tmp_path, records, summaries)
    old_csv, old_markdown = _before(records, summaries)
    assert markdown == old_markdown
    assert written_csv.splitlines()[1:] == [line + "," * len(t.ASO_COLUMNS)
                                            for line in old_csv.splitlines()[1:]]


def test_replicability_sentence():
    results = {"Avg": {"count_bonferroni": 1, "count_fisher": 2}}
    text = t.replicability_sentence(["a", "b"], "B>A", 0.1, results, {"Avg": 0.0123})
    assert text == ("Replicability across corpora (Dror et al. 2017, partial conjunction over the "
                    "2 corpora a, b; family-wise error alpha = 0.1): B > A can be claimed on "
                    "Avg 1 / 2 of 2 corpora (Bonferroni / Fisher); this corpus's p-value "
                    "(one-sided Student t over its repetitions): Avg 0.0123.")


@pytest.mark.parametrize("conclusion", ["A>B", "B>A"])
def test_the_count_follows_the_conclusion_under_test(tmp_path, conclusion):
    corpora = ("c1", "c2")
    records = [_claims_record(c) for c in corpora]
    summaries = [_summary_record(c) for c in corpora]
    for s in summaries:
        s["summary"]["conclusion"] = conclusion
    _, markdown = _run(tmp_path, records, summaries)
    line = next(x for x in markdown.splitlines() if x.startswith("Replicability"))
    assert ("A > B can be claimed on Avg 2 / 2" in line) == (conclusion == "A>B")
    assert ("B > A can be claimed on Avg 0 / 0" in line) == (conclusion == "B>A")
