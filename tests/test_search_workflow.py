"""The search, seed-variance, learning-curve and checklist stages end to end on tests/data/tiny.conll.

One Snakemake run (in its own --directory, as in test_workflow.py) with a tiny search of both CRFs
of a comparison fed into it (search.feed_best), seed variance and a BiLSTM learning curve; the
tests check its outputs against the library, that the comparison trained the best
configurations, and that a larger budget only adds trials.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from conftest import TEST_DATA, build_once, copy_study
from test_workflow import job_counts, snakemake

pytestmark = pytest.mark.slow  # every test here runs the workflow

SPACE = {"c1": {"distribution": "uniform", "low": 0.0, "high": 1.0},
         "c2": {"distribution": "log_uniform", "low": 0.01, "high": 10.0}}
STUDY = {
    "corpora": {"tiny": {"path": str(TEST_DATA / "tiny.conll")}},
    "models": {"crf_iob2": {"type": "crf", "scheme": "IOB2", "max_iterations": 10},
               "crf_iobes": {"type": "crf", "scheme": "IOBES", "max_iterations": 10},
               "lstm": {"type": "bilstm", "word_dim": 8, "feature_dim": 4, "hidden_size": 8,
                        "char_dim": 0, "epochs": 3}},
    "comparisons": {"crf": {"a": "crf_iob2", "b": "crf_iobes", "corpora": ["tiny"]}},
    "strategies": {"holdout": {}},
    "repetitions": 2,
    "seed": 3,
    "search": {"enabled": True, "trials_per_job": 3, "target_f1": 0.86, "feed_best": True,
               "seed": 5, "models": {"crf_iob2": {"trials": 4, "space": SPACE},
                                     "crf_iobes": {"trials": 3, "space": SPACE}}},
    "seed_variance": {"enabled": True, "seeds": 2, "failure_f1": 0.5},
    "learning_curves": {"enabled": True, "models": ["lstm"], "seeds": 2},
}


@pytest.fixture(scope="session")
def run(tmp_path_factory) -> Path:
    """The finished study's results/, built once a session (conftest.build_once): worksteal may
    hand this module's tests to both xdist workers. Read only; the tests that run snakemake
    again work on a copy. Its Figures 1 and 2 and front page are left out (``--omit-from``):
    they read the comparison's summary as in any study, and no test here reads them."""
    return build_once(tmp_path_factory, "search", lambda workdir: snakemake(
        workdir, STUDY, "--omit-from", "figures", "front_page")) / "results"


def validated():
    from reprocompare.study.config import validate

    return validate(STUDY, "study.yaml")


def test_trials_are_the_declared_draws_and_the_budget_is_the_library(run):
    from reprocompare.search.budget import analyse, markdown
    from reprocompare.search.config import space_of
    from reprocompare.search.space import draws
    from reprocompare.search.trials import read_trials_csv

    config = validated()
    trials = read_trials_csv(run / "search" / "tiny" / "trials.csv")
    assert [(t["model"], t["trial"]) for t in trials] == \
        [("crf_iob2", i) for i in range(4)] + [("crf_iobes", i) for i in range(3)]
    for model, n in (("crf_iob2", 4), ("crf_iobes", 3)):
        assert [t["config"] for t in trials if t["model"] == model] == \
            draws(space_of(config, model), 5, model, n)
    assert all(0 < t["f1"] <= 1 and t["seconds"] > 0 for t in trials)
    analysis = analyse(trials, target_f1=0.86, order=["crf_iob2", "crf_iobes"])
    assert json.loads((run / "search" / "tiny" / "budget.json").read_text()) == analysis
    assert (run / "tables" / "budget.md").read_text() == markdown(analysis)
    for stem in ("budget", "learning_curve"):
        assert (run / "figures" / f"{stem}.png").read_bytes()[:4] == b"\x89PNG"
        assert (run / "figures" / f"{stem}.pdf").read_bytes()[:4] == b"%PDF"


def test_feed_best_makes_the_comparison_train_the_best_configuration(run):
    from reprocompare.search.trials import best_trial, read_trials_csv

    trials = read_trials_csv(run / "search" / "tiny" / "trials.csv")
    specs = {}
    for side, model in (("A", "crf_iob2"), ("B", "crf_iobes")):
        best = json.loads((run / "search" / "tiny" / "best" / f"{model}.json").read_text())
        expected = best_trial(t for t in trials if t["model"] == model)
        assert (best["trial"], best["spec"]) == (expected["trial"], expected["spec"])
        assert "c1=" in best["spec"] and "c2=" in best["spec"]
        specs[side] = best["spec"]
    for estimates in (run / "compare" / "tiny" / "crf").glob("*/rep*/estimates.json"):
        assert json.loads(estimates.read_text())["models"] == specs
    seed_runs = json.loads((run / "seed_variance" / "tiny" / "crf.json").read_text())
    assert {side: m["spec"] for side, m in seed_runs["models"].items()} == specs


def test_seed_variance_and_learning_curve_tables(run):
    with open(run / "tables" / "seed_variance.csv") as stream:
        rows = list(csv.DictReader(stream))
    assert [(r["side"], r["model"], r["random"], r["runs"]) for r in rows] == \
        [("A", "crf_iob2", "no", "1"), ("B", "crf_iobes", "no", "1")]
    seed_runs = json.loads((run / "seed_variance" / "tiny" / "crf.json").read_text())
    for row in rows:
        assert float(row["mean"]) == seed_runs["models"][row["side"]]["runs"][0]["f1"]
    assert "# Seed variance" in (run / "tables" / "seed_variance.md").read_text()
    with open(run / "tables" / "learning_curve.csv") as stream:
        curve = list(csv.DictReader(stream))
    assert [int(r["epoch"]) for r in curve] == [1, 2, 3]
    assert all(r["runs"] == "2" and r["model"] == "lstm" for r in curve)
    runs = json.loads((run / "learning_curves" / "tiny" / "lstm.json").read_text())["runs"]
    assert len({r["seed"] for r in runs}) == 2
    last = sum(r["curve"][-1][1] for r in runs) / 2
    assert float(curve[-1]["mean"]) == pytest.approx(last)


def test_checklist_of_the_run(run):
    from reprocompare.reports.checklist import SECTIONS

    text = (run / "checklist.md").read_text()
    for heading in SECTIONS:
        assert heading + "\n" in text
    assert "feed_best: true" in text
    assert "| crf_iob2 | 4 | 4 |" in text and "| crf_iobes | 3 | 3 |" in text
    best = json.loads((run / "search" / "tiny" / "best" / "crf_iob2.json").read_text())
    assert f"| crf_iob2 | {best['trial']} | {best['f1']:.4f} | `{best['spec']}` |" in text
    split = json.loads((run / "splits" / "tiny" / "fixed.json").read_text())
    assert f"| tiny | 8:1 | {split['seed']} | 120 |" in text


def test_a_larger_budget_only_adds_trials(run, tmp_path):
    more = json.loads(json.dumps(STUDY))
    more["search"]["models"]["crf_iob2"]["trials"] = 7  # jobs 0-2, 3-5, 6-6 (was 0-2, 3-3)
    result = snakemake(copy_study(run.parent, tmp_path / "study"), more, "-n")
    counts = job_counts(result.stdout + result.stderr)
    assert counts["search_trials"] == 2 and counts["search_table"] == 1
    planned = set(re.findall(r"output: results/search/tiny/trials/(\S+)\.json", result.stdout))
    assert planned == {"crf_iob2/3-5", "crf_iob2/6-6"}


def test_a_bad_search_space_stops_before_any_job(tmp_path):
    bad = json.loads(json.dumps(STUDY))
    bad["search"]["models"]["crf_iob2"]["space"]["word_dim"] = {"distribution": "int",
                                                                "low": 1, "high": 3}
    result = snakemake(tmp_path, bad, "-n", check=False)
    output = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in output
    assert "study.yaml: search.models.crf_iob2.space.word_dim: unknown hyperparameter" in output
    assert not (tmp_path / "results").exists()


def test_rerun_trials_give_the_same_bytes_except_the_times(run, tmp_path):
    run = copy_study(run.parent, tmp_path / "study") / "results"  # the shared run stays as it is
    def without_seconds(path: Path) -> list[list[str]]:
        with open(path) as stream:
            rows = list(csv.reader(stream))
        assert rows[0][-1] == "seconds"
        return [row[:-1] for row in rows]

    table = run / "search" / "tiny" / "trials.csv"
    before = without_seconds(table), (run / "search" / "tiny" / "budget.json").read_bytes()
    snakemake(run.parent, STUDY, "--forcerun", "search_trials", "--until", "budget", "--cores", "1")
    assert (without_seconds(table), (run / "search" / "tiny" / "budget.json").read_bytes()) == before
