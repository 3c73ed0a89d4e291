"""`reprocompare compare`, `summarize` and `expected-max`: the files they write and their meaning."""

from __future__ import annotations

import json

import numpy as np
import pytest

from conftest import TEST_DATA, write
from reprocompare.corpora.conll import read_conll
from reprocompare.corpora.scoring import count_chunks
from reprocompare.estimators.expected_max import expected_max_meanmax, expected_max_unbiased
from test_cli import assert_user_error, run

TINY = TEST_DATA / "tiny.conll"
A = "crf:scheme=IOB2,max_iterations=10"
B = "crf:scheme=IOBES,max_iterations=10"


def read_predictions(path):
    sentences, current = [], []
    for line in path.read_text().splitlines():
        if line:
            current.append(line.split())
        else:
            sentences.append(current)
            current = []
    return sentences


@pytest.fixture(scope="module")
def bcv_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("bcv")
    run("compare", TINY, "--a", A, "--b", B, "--strategy", "bcv", "--seed", "3", "--out", out)
    return out


@pytest.mark.slow
def test_compare_writes_the_split_as_split_does(bcv_run, tmp_path):
    run("split", TINY, "--strategy", "bcv", "--seed", "3", "--out", tmp_path / "split.json")
    assert (bcv_run / "split.json").read_bytes() == (tmp_path / "split.json").read_bytes()


def test_a_and_b_see_identical_folds_and_scores_are_right(bcv_run):
    corpus = read_conll(TINY)
    split = json.loads((bcv_run / "split.json").read_text())
    scores = json.loads((bcv_run / "scores.json").read_text())
    assert scores["models"] == {"A": A, "B": B}
    assert len(scores["folds"]) == 6
    for i, fold in enumerate(split["folds"]):
        gold = [corpus.sentences[j] for j in fold["validation"]]
        for name in ("A", "B"):
            predicted = read_predictions(bcv_run / f"fold{i}" / f"{name}.conll")
            # the fold's validation sentences, in the split's order, for both models
            assert [[row[0] for row in s] for s in predicted] == [list(s.tokens) for s in gold]
            assert [[row[1] for row in s] for s in predicted] == [list(s.tags) for s in gold]
            f1 = count_chunks([[row[1] for row in s] for s in predicted],
                              [[row[2] for row in s] for s in predicted]).score().f1
            assert scores["folds"][i][name]["f1"] == pytest.approx(f1, abs=1e-12)
        assert scores["folds"][i]["n_validation"] == len(fold["validation"])


def test_bcv_estimates_recomputed_from_predictions(bcv_run):
    from reprocompare.estimators.difference import vote_predictions

    corpus = read_conll(TINY)
    split = json.loads((bcv_run / "split.json").read_text())
    scores = json.loads((bcv_run / "scores.json").read_text())
    estimates = json.loads((bcv_run / "estimates.json").read_text())
    differences = [f["A"]["f1"] - f["B"]["f1"] for f in scores["folds"]]
    assert estimates["fold_differences"] == pytest.approx(differences, abs=1e-12)
    assert estimates["avg"] == pytest.approx(np.mean(differences), abs=1e-12)
    vote = {}
    for name in ("A", "B"):
        basis = [[] for _ in corpus.sentences]
        for i, fold in enumerate(split["folds"]):
            predicted = read_predictions(bcv_run / f"fold{i}" / f"{name}.conll")
            for j, rows in zip(fold["validation"], predicted):
                basis[j].append([row[2] for row in rows])
        assert all(len(b) == 3 for b in basis)  # each sentence validated by m = 3 basis models
        voted = vote_predictions(basis, corpus.scheme)
        vote[name] = count_chunks(corpus.tags, voted).score().f1
        assert estimates["per_model"][name]["vote"] == pytest.approx(vote[name], abs=1e-12)
    assert estimates["vote"] == pytest.approx(vote["A"] - vote["B"], abs=1e-12)
    # Eq. 8: vote when vote > avg, else avg
    assert estimates["mixture"] == (estimates["vote"] if estimates["vote"] > estimates["avg"]
                                    else estimates["avg"])
    assert estimates["mixture_chose"] == ("vote" if estimates["vote"] > estimates["avg"] else "avg")


@pytest.mark.slow
def test_holdout_and_repeated_holdout_estimates(tmp_path):
    run("compare", TINY, "--a", A, "--b", B, "--strategy", "holdout", "--out", tmp_path / "st",
        "--no-predictions")
    st = json.loads((tmp_path / "st" / "estimates.json").read_text())
    scores = json.loads((tmp_path / "st" / "scores.json").read_text())["folds"][0]
    assert st["holdout"] == pytest.approx(scores["A"]["f1"] - scores["B"]["f1"])
    assert not (tmp_path / "st" / "fold0").exists()
    run("compare", TINY, "--a", A, "--b", B, "--strategy", "repeated-holdout", "--k", "3",
        "--out", tmp_path / "rs")
    rs = json.loads((tmp_path / "rs" / "estimates.json").read_text())
    assert len(rs["fold_differences"]) == 3
    assert rs["mean"] == pytest.approx(np.mean(rs["fold_differences"]))


@pytest.mark.slow
def test_compare_is_deterministic(bcv_run, tmp_path):
    run("compare", TINY, "--a", A, "--b", B, "--strategy", "bcv", "--seed", "3", "--out", tmp_path)
    for name in ("split.json", "scores.json", "estimates.json", "counts.tsv.gz",
                 "fold0/A.conll", "fold5/B.conll"):
        assert (tmp_path / name).read_bytes() == (bcv_run / name).read_bytes(), name


def test_compare_spec_errors(tmp_path):
    assert_user_error(run("compare", TINY, "--a", "crf:c9=1", "--b", B, "--strategy", "bcv",
                          "--out", tmp_path,
                          ok=False), "c9")
    assert_user_error(run("compare", TINY, "--a", "svm", "--b", B, "--strategy", "bcv", "--out",
                          tmp_path, ok=False),
                      "svm")


@pytest.mark.slow
def test_summarize(tmp_path):
    directories = []
    for repetition in range(3):
        out = tmp_path / f"rep{repetition}"
        run("compare", TINY, "--a", "majority", "--b", B, "--strategy", "bcv", "--repetition",
            repetition, "--out", out, "--no-predictions")
        directories.append(out)
    summary = json.loads(run("summarize", *directories, "--json").stdout)
    avg = [json.loads((d / "estimates.json").read_text())["avg"] for d in directories]
    assert summary["estimators"]["Avg"]["mean"] == pytest.approx(np.mean(avg))
    assert summary["estimators"]["Avg"]["snr"] == pytest.approx(np.mean(avg) / np.std(avg, ddof=1))
    # the majority baseline is far worse than a CRF: B > A in every repetition
    assert summary["estimators"]["Avg"]["reproducibility"] == 0.0
    flipped = json.loads(run("summarize", *directories, "--json", "--conclusion", "B>A").stdout)
    assert flipped["estimators"]["Avg"]["reproducibility"] == 1.0
    assert "Avg" in run("summarize", *directories).stdout
    assert_user_error(run("summarize", tmp_path / "nothing", ok=False), "nothing",
                      "estimates.json")


@pytest.mark.slow
def test_expected_max(tmp_path):
    scores = [0.81, 0.85, 0.79, 0.90, 0.84]
    path = write(tmp_path / "trials.txt", "# score runtime\n" +
                 "".join(f"{s} {10 + i}\n" for i, s in enumerate(scores)))
    rows = json.loads(run("expected-max", path, "--json").stdout)
    assert [r["n"] for r in rows] == [1, 2, 3, 4, 5]
    assert [r["expected_max"] for r in rows] == pytest.approx(
        expected_max_unbiased(scores)[0].tolist())
    assert rows[0]["expected_max"] == pytest.approx(np.mean(scores))
    assert rows[-1]["expected_max"] == pytest.approx(max(scores))
    meanmax = json.loads(run("expected-max", path, "--json", "--estimator", "meanmax").stdout)
    assert [r["expected_max"] for r in meanmax] == pytest.approx(
        expected_max_meanmax(scores)[0].tolist())
    assert "expected_max" in run("expected-max", path).stdout
    bad = write(tmp_path / "bad.txt", "0.8\nabc\n")
    assert_user_error(run("expected-max", bad, ok=False), "bad.txt:2")


@pytest.mark.slow
def test_expected_max_bias_command_reproduces_tang_et_al():
    rows = json.loads(run("expected-max-bias", "--trials", "20", "--simulations", "800",
                          "--json").stdout)
    at_n = {(r["estimator"], r["n"]): r for r in rows}
    meanmax, unbiased = at_n[("meanmax", 20)], at_n[("unbiased", 20)]
    assert meanmax["bias"] + 3 * meanmax["mc_se"] < 0  # biased low at n = N
    assert abs(unbiased["bias"]) < 3 * unbiased["mc_se"]
    assert_user_error(run("expected-max-bias", "--trials", "5", "--budgets", "9", ok=False),
                      "budgets")


# ---- issue 11: summarize pools only runs that belong together; records typed ---------------------

@pytest.fixture(scope="module")
def majority_runs(tmp_path_factory):
    """R = 3 hold-out and repeated hold-out (k = 4) runs of majority vs majority:IOBES, typed."""
    root = tmp_path_factory.mktemp("majority")
    runs = {}
    for strategy, extra in (("holdout", []), ("repeated-holdout", ["--k", "4"])):
        for r in range(3):
            out = root / strategy / f"rep{r}"
            run("compare", TINY, "--a", "majority", "--b", "majority:scheme=IOBES",
                "--strategy", strategy, *extra, "--repetition", r, "--out", out,
                "--no-predictions")
            runs[strategy, r] = out
    return root, runs


def _untyped_and_other_corpus(root, tmp_path):
    untyped = tmp_path / "untyped"
    run("compare", TINY, "--a", "majority", "--b", "majority:scheme=IOBES", "--strategy",
        "holdout", "--repetition", "3", "--untyped", "--out", untyped, "--no-predictions")
    other_corpus = write(tmp_path / "other.conll", "\n\n".join(
        TINY.read_text().split("\n\n")[:100]) + "\n")
    other = tmp_path / "other"
    run("compare", other_corpus, "--a", "majority", "--b", "majority:scheme=IOBES",
        "--strategy", "holdout", "--repetition", "3", "--out", other, "--no-predictions")
    return untyped, other


@pytest.mark.slow
def test_summarize_refuses_to_pool_runs_that_differ(majority_runs, tmp_path):
    root, runs = majority_runs
    holdouts = [runs["holdout", r] for r in range(3)]
    summary = json.loads(run("summarize", *holdouts, "--json").stdout)
    assert summary["typed"] is True and summary["strategies"] == {"holdout": {"ratio": "8:1"}}
    assert summary["degenerate"] == []
    untyped, other = _untyped_and_other_corpus(root, tmp_path)
    assert json.loads((untyped / "estimates.json").read_text())["typed"] is False
    assert_user_error(run("summarize", *holdouts, untyped, ok=False), "cannot pool",
                      str(holdouts[0]), str(untyped), "typed")
    assert_user_error(run("summarize", *holdouts, other, ok=False), "cannot pool",
                      str(other), "corpus")
    different_specs = tmp_path / "specs"
    run("compare", TINY, "--a", "majority", "--b", "majority:scheme=IOB1", "--strategy",
        "holdout", "--repetition", "3", "--out", different_specs, "--no-predictions")
    assert_user_error(run("summarize", *holdouts, different_specs, ok=False), "cannot pool",
                      "specs")
    ratio = tmp_path / "ratio"
    run("compare", TINY, "--a", "majority", "--b", "majority:scheme=IOBES", "--strategy",
        "holdout", "--ratio", "4:1", "--repetition", "3", "--out", ratio, "--no-predictions")
    assert_user_error(run("summarize", *holdouts, ratio, ok=False), "cannot pool",
                      "holdout settings")


@pytest.mark.slow
def test_summarize_k_and_bad_inputs_are_one_line_errors(majority_runs, tmp_path):
    root, runs = majority_runs
    every = list(runs.values())
    # outside any k a repeated hold-out can run: argparse's range (reprocompare.commands.cli.BOUNDS)
    assert_user_error(run("summarize", *every, "--k", "0", ok=False), "--k", "must be in [1, 100]")
    assert_user_error(run("summarize", *every, "--k", "9", ok=False), "--k", "have 4")
    assert json.loads(run("summarize", *every, "--k", "4", "--json").stdout)["table4_k"] == 4
    file = write(tmp_path / "file.json", "{}")
    assert_user_error(run("summarize", file, ok=False), "file.json", "not a directory")
    tampered = tmp_path / "tampered"
    tampered.mkdir()
    for name in ("split.json", "scores.json"):
        (tampered / name).write_bytes((runs["holdout", 0] / name).read_bytes())
    write(tampered / "estimates.json", json.dumps({"strategy": "holdout", "holdout": "high"}))
    assert_user_error(run("summarize", runs["holdout", 1], tampered, ok=False),
                      "tampered/estimates.json", "'high'")
    write(tampered / "estimates.json", "[1, 2]")
    assert_user_error(run("summarize", runs["holdout", 1], tampered, ok=False),
                      "not a JSON object")


def test_degenerate_model_is_named(majority_runs, tmp_path):
    from reprocompare.study.summary import degenerate_models

    root, runs = majority_runs
    copy = tmp_path / "zero"
    copy.mkdir()
    for name in ("split.json", "estimates.json"):
        (copy / name).write_bytes((runs["holdout", 0] / name).read_bytes())
    scores = json.loads((runs["holdout", 0] / "scores.json").read_text())
    for fold in scores["folds"]:
        fold["B"]["f1"] = 0.0
    write(copy / "scores.json", json.dumps(scores))
    assert degenerate_models([copy]) == ["B"]
    assert degenerate_models([copy, runs["holdout", 1]]) == []  # not 0 on every fold


def test_summary_job_records_the_run_and_warns_of_a_degenerate_model(majority_runs, tmp_path,
                                                                      capsys):
    from reprocompare.pipeline.report_jobs import summarize

    root, runs = majority_runs
    directories = []
    for r in range(3):  # B scores F1 = 0 on every fold
        d = tmp_path / f"rep{r}"
        d.mkdir()
        (d / "split.json").write_bytes((runs["holdout", r] / "split.json").read_bytes())
        scores = json.loads((runs["holdout", r] / "scores.json").read_text())
        for fold in scores["folds"]:
            fold["B"]["f1"] = 0.0
        write(d / "scores.json", json.dumps(scores))
        # the estimates as those scores make them: a record must agree with itself
        estimates = json.loads((runs["holdout", r] / "estimates.json").read_text())
        estimates["holdout"] = scores["folds"][0]["A"]["f1"]
        estimates["per_model"]["B"]["holdout"] = 0.0
        write(d / "estimates.json", json.dumps(estimates))
        directories.append(d / "estimates.json")
    settings = {"comparison": "m", "corpus": "tiny", "source": str(TINY),
                "models": {"A": "majority:scheme=IOB2", "B": "majority:scheme=IOBES"},
                "model_names": {"A": "maj", "B": "maj2"}, "conclusion": "A>B", "typed": True,
                "strategies": {"holdout": {"ratio": "8:1"}}, "repetitions": 3, "seed": 0}
    summarize([str(p) for p in directories], settings, str(tmp_path / "summary.json"))
    record = json.loads((tmp_path / "summary.json").read_text())
    for key in ("corpus", "typed", "strategies", "repetitions", "model_names"):
        assert record[key] == settings[key] == record["summary"][key]
    assert record["summary"]["degenerate"] == ["B"]
    assert "model B (maj2: majority:scheme=IOBES) has F1 = 0 on every fold" in \
        record["summary"]["warnings"][0]
    assert "warning: model B (maj2" in capsys.readouterr().err
