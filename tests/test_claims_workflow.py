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
import re

import numpy as np
import pytest

import conftest
from conftest import ROOT, TEST_DATA, build_once, copy_study, statsmodels_holm
from reprocompare.base.seeds import derive_seed
from reprocompare.estimators import aso
from reprocompare.reports.tables import far_below
from reprocompare.estimators.claims import calibration_note, read_counts
from reprocompare.strategies import TESTS, of_test, repetition_tests, strategy as strategy_of
from reprocompare.estimators.significance import corpus_f1
from reprocompare.pipeline.significance_jobs import ASO_TEST as ASO_SEED_PURPOSE, CLAIM_TESTS
from reprocompare.reports.tables import ASO_TEST, TEST_NAMES

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
#: the strategies it runs (a registered strategy it leaves out has no claims)
RUN = [strategy_of(key).name for key in STUDY["strategies"]]


LOCAL = ["--profile", str(ROOT / "profiles" / "local")]


@pytest.fixture(scope="session")
def study(tmp_path_factory):
    """The finished study's results/, built once a session (conftest.build_once): every test
    here only reads it, and worksteal may hand them to both xdist workers."""
    workdir = build_once(tmp_path_factory, "claims",
                         lambda workdir: conftest.snakemake(workdir, *LOCAL, config=STUDY))
    return workdir / "results"


def test_every_repetition_test_is_recomputed_from_the_counts(study):
    for comparison in STUDY["comparisons"]:
        record = json.loads((study / "summaries" / "tiny" /
                             f"{comparison}.claims.json").read_text())
        assert record["alpha"] == 0.2 and record["resamples"] == 300
        assert sorted(record["repetitions"]) == sorted(RUN)
        assert all(tuple(rep) == strategy_of("bcv").tests for rep in record["repetitions"]["bcv"])
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
                seed = derive_seed(STUDY["seed"], "tiny", comparison, strategy_of(strategy).code,
                                   r, CLAIM_TESTS, below=2**31 - 1)
                expected = repetition_tests(folds, strategy, n_train=n_train,
                                            n_resamples=300, random_state=seed)
                assert written == {name: c.as_dict() for name, c in expected.items()}
                # each model's score in the repetition: the mean F1 over the folds the tests saw
                for name in ("A", "B"):
                    assert record["scores"][strategy][name][r] == pytest.approx(
                        np.mean([corpus_f1(fold[name]) for fold in folds]), abs=1e-15)
            # the almost stochastic order of the R scores, both ways, at confidence 1 - alpha
            seed = derive_seed(STUDY["seed"], "tiny", comparison, strategy_of(strategy).code,
                               ASO_SEED_PURPOSE, below=2**31 - 1)
            scores = record["scores"][strategy]
            forward = aso.almost_stochastic_order(scores["A"], scores["B"],
                                                  confidence_level=0.8, random_state=seed)
            backward = aso.almost_stochastic_order(scores["B"], scores["A"],
                                                   confidence_level=0.8, random_state=seed)
            assert record["aso"][strategy] == {
                "repetitions": 2, "confidence": 0.8, "n_bootstrap": 1000,
                "eps_min": forward.eps_min, "violation_ratio": forward.violation_ratio,
                "eps_min_b_over_a": backward.eps_min,
                "violation_ratio_b_over_a": backward.violation_ratio}


def test_claims_table_counts_plain_and_after_holm(study):
    records = {c: json.loads((study / "summaries" / "tiny" / f"{c}.claims.json").read_text())
               for c in STUDY["comparisons"]}
    every = list(csv.DictReader((study / "tables" / "claims.csv").open()))
    rows = [row for row in every if row["test"] != ASO_TEST]
    # two comparisons, one row per test of the three strategies that the report has a name for
    tested = [test for test in TESTS if of_test(test).name in RUN]
    assert len(rows) == 2 * sum(test in TEST_NAMES for test in tested)
    # then one almost stochastic order row per comparison and strategy, after the tests
    aso_rows = every[len(rows):]
    assert [row["test"] for row in aso_rows] == [ASO_TEST] * 6
    assert all(not row["eps_min"] for row in rows)
    strategies = {"8:1 hold-out": "holdout", "2 x 8:1 hold-outs": "repeated-holdout",
                  "3x2 BCV": "bcv"}
    for row in aso_rows:
        written = records[row["comparison"].split(" on ")[0]]["aso"][strategies[row["strategy"]]]
        assert float(row["eps_min"]) == pytest.approx(written["eps_min"], abs=1e-6)
        assert float(row["eps_min_b_over_a"]) == pytest.approx(written["eps_min_b_over_a"],
                                                               abs=1e-6)
        assert float(row["confidence"]) == 0.8 and int(row["repetitions"]) == 2
        assert row["a_better"] == row["share"] == row["holm_family"] == ""
        assert row["calibration"] == aso.calibration_note(2)
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
            adjusted = statsmodels_holm(p, alpha=0.2)[1]
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
    assert text.count("| Strategy | Almost stochastic order of chunk F1, 80% confidence |") == 2
    # one corpus per comparison: no partial-conjunction count
    assert "Replicability across corpora" not in text
    # the corpus size comes from the splits the comparisons trained on
    assert text.count("Corpus: tiny, 120 sentences") == 2
    assert "Corpus: tiny, 120 sentences" in (study / "tables" / "table4.md").read_text()


def test_claims_latex_compiles_structure(study):
    tex = (study / "tables" / "claims.tex").read_text()
    assert tex.count(r"\begin{table}") == 2 and tex.count(r"\end{table}") == 2
    assert r"(Holm)" in tex and r"\label{" in tex
    wide = (study / "tables" / "claims-wide.tex").read_text()
    assert wide.count(r"\begin{table*}") == 2 and r"A better (Holm)" in wide


def test_report_describes_the_study_and_includes_the_claims(study, tmp_path):
    """``snakemake --report``: the workflow description and every caption render (no reST
    warning) from this study's config, and the claims table is in it."""
    workdir = copy_study(study.parent, tmp_path / "study")  # the shared study stays unwritten
    result = conftest.snakemake(workdir, "--configfile", "study.yaml", *LOCAL, "--report",
                                "report.html", cores=None)
    output = result.stdout + result.stderr
    assert "WARNING" not in output and "ERROR" not in output, output[-3000:]
    html = (workdir / "report.html").read_text()
    for text in ("What was compared", "crf_vs_maj", "3x2 blocked cross-validation",
                 "alpha = 0.2", "claims.html", "k in 2, 4"):
        assert text in html, text
    # the front page leads with the answer: every comparison's verdicts as a table, the warnings
    # (a model that learned nothing, a liberal test), then how the study was run
    front = json.loads(re.search(r'var workflow_desc = (".*?");\n', html, re.S).group(1))
    assert front.index("The answer") < front.index("What was compared")
    # and starts at the top of the window (Snakemake centres it: a long one lost its top)
    assert "align-items: flex-start" in front
    answer = front[:front.index("What was compared")]
    # per comparison its answer's table, then the posteriors' own table under it
    assert answer.count("<table") == 4 and answer.count("<th class=\"head\">Verdict</th>") == 2
    assert answer.count('class="answer') == answer.count('class="posterior') == 2
    assert answer.count("crf_vs_maj on tiny") == answer.count("maj_vs_crf on tiny") == 1
    assert "A &gt; B reproduces" in answer or "undecided" in answer
    # one warning per comparison whose model learnt nothing or scored far below the other
    # (tests/test_front_page.py, tests/test_far_below.py)
    summaries = [json.loads(path.read_text())["summary"]
                 for path in study.glob("summaries/tiny/*_vs_*[!s].json")]
    warned = sum(bool(s["degenerate"]) or far_below(s) is not None for s in summaries)
    assert answer.count('class="admonition warning"') == warned
    assert 'class="admonition note"' in answer and "corrected resampled t" in answer
    # lists render as lists for any number of comparisons: 2 comparisons, 2 models, 3 strategies
    described = front[front.index("What was compared"):]
    assert described.count("<li>") == 7 and "- <tt" not in described
