"""The significance stage in the workflow: per-repetition tests and the claims table.

One tiny study (two comparisons, every strategy, R = 2, a 3 x 2 BCV so that the blocked 3x2 t
runs too) runs once. Every test written by the summarize job is recomputed here from the counts
the compare jobs wrote, and the table's counts (plain and after Holm's correction, checked against
statsmodels) are recounted from them.
"""

from __future__ import annotations

import csv
import gzip
import json
import subprocess
import sys

import pytest
import yaml
from statsmodels.stats.multitest import multipletests

from conftest import ROOT, TEST_DATA
from reprocompare.estimators.claims import (TESTS_BY_STRATEGY, calibration_note, read_counts,
                                            repetition_tests)
from reprocompare.reports.tables import TEST_NAMES
from reprocompare.seeds import STRATEGY_CODES, derive_seed
from reprocompare.significance_jobs import CLAIM_TESTS

pytestmark = pytest.mark.slow

STUDY = {
    "corpora": {"tiny": {"path": str(TEST_DATA / "tiny.conll")}},
    "models": {"crf": {"type": "crf", "scheme": "IOB2", "max_iterations": 10},
               "maj": {"type": "majority"}},
    "comparisons": {"crf_vs_maj": {"a": "crf", "b": "maj", "corpora": ["tiny"]},
                    "maj_vs_crf": {"a": "maj", "b": "crf", "corpora": ["tiny"]}},
    "strategies": {"holdout": {}, "repeated_holdout": {"k": [2, 4], "table4_k": 2},
                   "bcv": {"m": 3}},
    "repetitions": 2,
    "seed": 5,
    "significance": {"alpha": 0.2, "resamples": 300},
}


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("claims")
    (workdir / "study.yaml").write_text(yaml.safe_dump(STUDY))
    result = subprocess.run([sys.executable, "-m", "snakemake", "--snakefile",
                             str(ROOT / "Snakefile"), "--configfile", "study.yaml", "--cores",
                             "2", "--profile", str(ROOT / "profiles" / "local")],
                            capture_output=True, text=True, cwd=workdir)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    return workdir / "results"


def test_every_repetition_test_is_recomputed_from_the_counts(study):
    for comparison in STUDY["comparisons"]:
        record = json.loads((study / "summaries" / "tiny" /
                             f"{comparison}.claims.json").read_text())
        assert record["alpha"] == 0.2 and record["resamples"] == 300
        assert sorted(record["repetitions"]) == sorted(STRATEGY_CODES)
        assert all(tuple(rep) == TESTS_BY_STRATEGY["bcv"] for rep in record["repetitions"]["bcv"])
        for strategy, repetitions in record["repetitions"].items():
            assert len(repetitions) == STUDY["repetitions"]
            for r, written in enumerate(repetitions):
                run = study / "compare" / "tiny" / comparison / strategy / f"rep{r}"
                folds = read_counts(gzip.decompress((run / "counts.tsv.gz").read_bytes())
                                    .decode())
                n_train = None
                if strategy == "repeated-holdout":
                    assert len(folds) == 4  # max(k) trained; the tests use table4_k of them
                    folds = folds[:2]
                    n_train = json.loads((run / "scores.json").read_text())["folds"][0][
                        "n_train"]
                seed = derive_seed(STUDY["seed"], "tiny", comparison, STRATEGY_CODES[strategy],
                                   r, CLAIM_TESTS, below=2**31 - 1)
                expected = repetition_tests(folds, strategy, n_train=n_train,
                                            n_resamples=300, random_state=seed)
                assert written == {name: c.as_dict() for name, c in expected.items()}


def test_claims_table_counts_plain_and_after_holm(study):
    records = {c: json.loads((study / "summaries" / "tiny" / f"{c}.claims.json").read_text())
               for c in STUDY["comparisons"]}
    rows = list(csv.DictReader((study / "tables" / "claims.csv").open()))
    # two comparisons, one row per test of the three strategies that the report has a name for
    tested = [test for tests in TESTS_BY_STRATEGY.values() for test in tests]
    assert len(rows) == 2 * sum(test in TEST_NAMES for test in tested)
    for row in rows:
        comparison = row["comparison"].split(" on ")[0]
        strategy = next(s for s, reps in records[comparison]["repetitions"].items()
                        if row["test"] in reps[0])
        claims = [rep[row["test"]] for rep in records[comparison]["repetitions"][strategy]]
        wins = sum(c["p_value"] <= 0.2 and c["difference"] > 0 for c in claims)
        assert int(row["a_better"]) == wins
        assert int(row["b_better"]) == sum(c["p_value"] <= 0.2 and c["difference"] < 0
                                           for c in claims)
        assert int(row["holm_family"]) == 2
        # Holm across the two comparisons, per repetition, as statsmodels computes it
        holm_wins = 0
        for r, claim in enumerate(claims):
            p = [records[c]["repetitions"][strategy][r][row["test"]]["p_value"]
                 for c in STUDY["comparisons"]]
            adjusted = multipletests(p, alpha=0.2, method="holm")[1]
            mine = adjusted[list(STUDY["comparisons"]).index(comparison)]
            holm_wins += bool(mine <= 0.2 and claim["difference"] > 0)
        assert int(row["a_better_holm"]) == holm_wins
        # the calibration column: what the benchmark measured of the test's size
        assert row["calibration"] == calibration_note(row["test"])
    notes = {row["test"]: row["calibration"] for row in rows}
    assert notes["corrected_resampled_t"].startswith("liberal, measured size 9.7% at alpha 0.05")
    assert notes["paired_t_mx2"].startswith("conservative") and notes["mcnemar"] == ""
    text = (study / "tables" / "claims.md").read_text()
    assert "after Holm (2 comparisons)" in text and "alpha = 0.2" in text
    # the corpus size comes from the splits the comparisons trained on
    assert text.count("Corpus: tiny, 120 sentences") == 2
    assert "Corpus: tiny, 120 sentences" in (study / "tables" / "table4.md").read_text()


def test_claims_latex_compiles_structure(study):
    tex = (study / "tables" / "claims.tex").read_text()
    assert tex.count(r"\begin{table}") == 2 and tex.count(r"\end{table}") == 2
    assert r"(Holm)" in tex and r"\label{" in tex
    wide = (study / "tables" / "claims-wide.tex").read_text()
    assert wide.count(r"\begin{table*}") == 2 and r"A better (Holm)" in wide


def test_report_describes_the_study_and_includes_the_claims(study):
    """``snakemake --report``: the workflow description and every caption render (no reST
    warning) from this study's config, and the claims table is in it."""
    workdir = study.parent
    result = subprocess.run([sys.executable, "-m", "snakemake", "--snakefile",
                             str(ROOT / "Snakefile"), "--configfile", "study.yaml", "--profile",
                             str(ROOT / "profiles" / "local"), "--report", "report.html"],
                            capture_output=True, text=True, cwd=workdir)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-3000:]
    assert "WARNING" not in output and "ERROR" not in output, output[-3000:]
    html = (workdir / "report.html").read_text()
    for text in ("What was compared", "crf_vs_maj", "3x2 blocked cross-validation",
                 "alpha = 0.2", "claims.csv", "k in 2, 4"):
        assert text in html, text
