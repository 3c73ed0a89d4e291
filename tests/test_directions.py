"""Issue 20, "Right in every direction": the directional mixture, null offsets, untyped training.

- Eq. 8 picks the larger of Vote and Avg in the direction of the conclusion under test, so a
  "B > A" study keeps the smaller A - B (checked against a hand computation from the runs'
  stored vote and avg values).
- Every estimator's null offset (its reproducibility and SNR when A and B do not differ) is
  checked by hand from centred repetitions and, for the mixture's closed form, against a seeded
  simulation of jointly normal Vote and Avg.
- ``typed: false`` trains taggers on boundary tags; ``train_typed`` keeps typed training.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from conftest import TEST_DATA
from reprocompare.base.errors import UserError
from reprocompare.corpora.conll import read_conll, task_corpus
from reprocompare.corpora.schemes import chunks, strip_types
from reprocompare.estimators.difference import mixture
from reprocompare.estimators.null import (centred_mixture, mixture_null_normal,
                                          mixture_null_offset, null_offset, null_offsets)
from reprocompare.pipeline import provenance
from reprocompare.reports import tables as t
from reprocompare.reports.latex import table4_wide_latex
from reprocompare.study.config import validate
from test_cli import assert_user_error, run

TINY = TEST_DATA / "tiny.conll"
A = "crf:scheme=IOB2,max_iterations=10"
B = "crf:scheme=IOBES,max_iterations=10"


# ---- the directional mixture (Eq. 8) -------------------------------------------------------------

def test_mixture_takes_the_larger_estimate_in_the_direction_of_the_conclusion():
    assert mixture(0.02, 0.01) == (0.02, "vote")
    assert mixture(0.02, 0.01, "B>A") == (0.01, "avg")
    assert mixture(-0.03, -0.01, "B>A") == (-0.03, "vote")  # B ahead by more: Case I for B
    assert mixture(0.01, 0.01, "B>A") == (0.01, "avg")  # Delta = 1 only when strictly larger
    with pytest.raises(ValueError, match="conclusion"):
        mixture(0.0, 0.0, "A=B")


@pytest.fixture(scope="module")
def bcv_runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("directions")
    directories = []
    for repetition in range(4):
        out = root / f"rep{repetition}"
        run("compare", TINY, "--a", A, "--b", B, "--strategy", "bcv", "--repetition",
            repetition, "--out", out, "--no-predictions")
        directories.append(out)
    return directories


@pytest.mark.slow
def test_a_B_over_A_summary_uses_the_directional_mixture(bcv_runs):
    estimates = [json.loads((d / "estimates.json").read_text()) for d in bcv_runs]
    vote = np.array([e["vote"] for e in estimates])
    avg = np.array([e["avg"] for e in estimates])
    # the check means something only if the two directions pick differently somewhere
    assert np.any(np.maximum(vote, avg) != np.minimum(vote, avg))
    for conclusion, pick, sign in (("A>B", np.maximum, 1), ("B>A", np.minimum, -1)):
        summary = json.loads(run("summarize", *bcv_runs, "--json", "--conclusion",
                                 conclusion).stdout)
        mixed = summary["estimators"]["Mixture"]
        by_hand = pick(vote, avg)  # the larger A - B for "A > B", the smaller for "B > A"
        assert mixed["mean"] == pytest.approx(by_hand.mean(), abs=1e-12)
        assert mixed["snr"] == pytest.approx(sign * by_hand.mean() / by_hand.std(ddof=1))
        assert mixed["reproducibility"] == pytest.approx(np.mean(sign * by_hand > 0))
        chose_vote = (vote > avg) if conclusion == "A>B" else (vote < avg)
        assert summary["mixture_chose_vote"] == pytest.approx(chose_vote.mean())


# ---- null offsets ---------------------------------------------------------------------------

def test_single_estimator_offset_by_hand():
    values = [0.1, 0.2, 0.3, 0.9]  # mean 0.375: one value above it
    assert null_offset(values).as_dict() == {"reproducibility": 0.25, "snr": 0.0,
                                             "reproducibility_normal": 0.5, "snr_normal": 0.0}
    assert null_offset(values, "B>A").reproducibility == 0.75


def test_mixture_offset_from_centred_repetitions_by_hand():
    vote, avg = [0.3, 0.1, 0.2, 0.0], [0.2, 0.2, 0.0, 0.0]
    # centred: vote - 0.15 = [.15, -.05, .05, -.15]; avg - 0.1 = [.1, .1, -.1, -.1]
    expected_ab = np.array([0.15, 0.1, 0.05, -0.1])  # the larger of each pair
    expected_ba = np.array([0.1, -0.05, -0.1, -0.15])  # the smaller of each pair
    assert centred_mixture(vote, avg) == pytest.approx(expected_ab)
    assert centred_mixture(vote, avg, "B>A") == pytest.approx(expected_ba)
    offset = mixture_null_offset(vote, avg)
    assert offset.reproducibility == 0.75
    assert offset.snr == pytest.approx(expected_ab.mean() / expected_ab.std(ddof=1))
    flipped = mixture_null_offset(vote, avg, "B>A")
    assert flipped.reproducibility == 0.75  # three of four below zero
    assert flipped.snr == pytest.approx(-expected_ba.mean() / expected_ba.std(ddof=1))


@pytest.mark.parametrize("sd_vote,sd_avg,rho", [(1.0, 1.0, 0.65), (0.3, 0.2, 0.9),
                                                (1.0, 2.0, -0.3), (0.5, 0.5, 0.0)])
def test_mixture_closed_form_matches_a_seeded_simulation(sd_vote, sd_avg, rho):
    covariance = [[sd_vote**2, rho * sd_vote * sd_avg], [rho * sd_vote * sd_avg, sd_avg**2]]
    draws = np.random.default_rng(20).multivariate_normal([0, 0], covariance, size=400_000)
    larger = draws.max(axis=1)
    share, ratio = mixture_null_normal(sd_vote, sd_avg, rho)
    assert share == pytest.approx(np.mean(larger > 0), abs=0.003)
    assert ratio == pytest.approx(larger.mean() / larger.std(), abs=0.006)


def test_mixture_closed_form_at_the_issue_value_and_edges():
    # 3/4 - arcsin(rho) / (2 pi) = 0.64 at rho = 0.65 (issue 20)
    assert mixture_null_normal(1, 1, 0.65)[0] == pytest.approx(0.75 - math.asin(0.65) / (2 * math.pi))
    assert mixture_null_normal(1, 1, 1.0) == (0.5, 0.0)
    assert mixture_null_normal(1, 0, 0.0)[0] == 0.5  # max(X, 0) > 0 iff X > 0
    assert mixture_null_normal(0, 0, 0.0) == (0.0, 0.0)
    with pytest.raises(ValueError):
        mixture_null_normal(-1, 1, 0.0)


def test_offsets_of_a_study_reach_table4_in_every_format():
    rng = np.random.default_rng(4)
    avg = rng.normal(0.01, 0.01, 30)
    vote = avg + rng.normal(0.0, 0.008, 30)
    offsets = null_offsets({"ST": list(rng.normal(0, 1, 30)), "Avg": list(avg),
                            "Vote": list(vote)})
    assert set(offsets) == {"ST", "Avg", "Vote", "Mixture"}
    assert offsets["Mixture"].reproducibility > 0.55  # it leans towards the conclusion
    summary = {"models": {"A": "a", "B": "b"}, "conclusion": "A>B", "corpus": "c",
               "sentences": 300, "typed": True, "estimators": {}, "per_model": {},
               "null_offsets": {name: o.as_dict() for name, o in offsets.items()}}
    for name, values in (("Avg", avg), ("Vote", vote), ("Mixture", np.maximum(avg, vote))):
        from reprocompare.estimators.reproducibility import summarize
        summary["estimators"][name] = summarize(values).as_dict()
    rows = t.table4_rows({"x": summary})
    mix = next(r for r in rows if r["estimator"] == "Mixture")
    assert mix["null_reproducibility"] == offsets["Mixture"].reproducibility
    markdown, latex = t.table4_markdown(rows), table4_wide_latex(rows)
    row = next(line for line in markdown.splitlines()
               if line.startswith("| If A = B: reproducibility / SNR (null offset) |"))
    # the row: the closed form (what the verdict reads); single differences 1/2 and 0
    mixture = offsets["Mixture"]
    assert row.endswith(f"| {mixture.reproducibility_normal:.3f} / {mixture.snr_normal:.3f} |")
    assert row.count("0.500 / 0.000") == 2  # Avg and Vote (the table has no ST here)
    # the note: the closed form and the centred repetitions
    assert f"{mixture.reproducibility:.3f} / {mixture.snr:.3f} on its repetitions centred" \
        in markdown
    assert "If $A=B$: reproducibility" in latex
    csv = t.to_csv(rows, t.TABLE4_COLUMNS)
    assert "null_reproducibility,null_snr" in csv.splitlines()[0]
    assert "0.500" in t.table4_text(summary)  # the terminal table of a single difference


# ---- untyped training ---------------------------------------------------------------------------

def test_strip_types_keeps_every_boundary():
    assert strip_types(["B-PER", "I-PER", "B-LOC", "O"], "IOB2") == ["B", "I", "B", "O"]
    # IOB1: two adjacent chunks of different types stay two chunks
    assert strip_types(["I-PER", "I-LOC", "O"], "IOB1") == ["I", "B", "O"]
    corpus = read_conll(TINY)
    untyped = task_corpus(corpus, typed=False)
    assert {tag for tags in untyped.tags for tag in tags} <= {"B", "I", "O"}
    for typed_tags, untyped_tags in zip(corpus.tags, untyped.tags):
        assert [c[:2] for c in chunks(typed_tags)] == [c[:2] for c in chunks(untyped_tags)]
    assert untyped.sha256 == corpus.sha256  # the same sentences: the same splits
    assert task_corpus(corpus, typed=False, train_typed=True) is corpus


@pytest.mark.slow
def test_untyped_compare_trains_boundary_taggers(tmp_path):
    for extra, typed_predictions in (([], False), (["--train-typed"], True)):
        out = tmp_path / ("typed" if extra else "untyped")
        run("compare", TINY, "--a", A, "--b", B, "--strategy", "holdout", "--untyped", *extra,
            "--out", out)
        predicted = {line.split()[-1] for line in (out / "fold0" / "A.conll").read_text()
                     .splitlines() if line}
        assert any("-" in tag for tag in predicted) == typed_predictions, predicted
        estimates = json.loads((out / "estimates.json").read_text())
        assert estimates["typed"] is False and estimates["train_typed"] is typed_predictions
    assert_user_error(run("compare", TINY, "--a", A, "--b", B, "--strategy", "holdout",
                          "--train-typed", "--out", tmp_path / "x", ok=False), "--train-typed")


def test_train_typed_needs_an_untyped_corpus():
    config = {"corpora": {"tiny": {"path": str(TINY), "train_typed": True}},
              "models": {"a": {"type": "majority"}, "b": {"type": "crf"}},
              "comparisons": {"p": {"a": "a", "b": "b", "corpora": ["tiny"]}}}
    with pytest.raises(UserError) as error:
        validate(config, "study.yaml")
    assert error.value.key == "corpora.tiny.train_typed"
    config["corpora"]["tiny"]["typed"] = False
    assert validate(config, "study.yaml")["corpora"]["tiny"]["train_typed"] is True


def test_training_is_in_the_params_only_of_untyped_corpora():
    config = validate({"corpora": {"tiny": {"path": str(TINY)}},
                       "models": {"a": {"type": "majority"}, "b": {"type": "crf"}},
                       "comparisons": {"p": {"a": "a", "b": "b", "corpora": ["tiny"]}}})
    # a typed corpus's params are what they were: its committed studies do not rerun
    assert provenance.compare(config, "tiny", "p", "holdout")["typed"] is True
    assert "train_typed" not in provenance.compare(config, "tiny", "p", "holdout")
    config["corpora"]["tiny"]["typed"] = False
    untyped = provenance.compare(config, "tiny", "p", "holdout")
    config["corpora"]["tiny"]["train_typed"] = True
    assert untyped["train_typed"] is False
    assert provenance.compare(config, "tiny", "p", "holdout") != untyped


@pytest.mark.slow
def test_the_docs_null_offsets_section_is_the_benchmarks_output():
    """docs/statistics.md, "Null offsets": generated by benchmarks/bench_null_offsets.py
    (seeded), from simulations and the committed studies' summaries."""
    import subprocess
    import sys

    from conftest import ROOT

    made = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_null_offsets.py")],
                          capture_output=True, text=True, check=True).stdout
    docs = (ROOT / "docs" / "statistics.md").read_text()
    section = docs.split("<!-- null-offsets:begin -->\n", 1)[1].split(
        "<!-- null-offsets:end -->", 1)[0]
    assert section == made, "regenerate: python benchmarks/bench_null_offsets.py"
