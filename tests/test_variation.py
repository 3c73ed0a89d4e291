"""Sources of variation per repetition (issue 25, item 1): data sample, split, training seed.

reprocompare.study.variation numbers a design of samples x splits x seeds; the compare job draws the
repetition's sample and split from it; the config refuses a design that is not what it says.
The defaults change nothing: the paper's design keeps its params, so no study reruns.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys

import pytest
import yaml

import conftest
from conftest import ROOT, TEST_DATA
from reprocompare.base.errors import UserError
from reprocompare.pipeline import provenance
from reprocompare.study.config import validate
from reprocompare.study.variation import indices

TINY = str(TEST_DATA / "tiny.conll")
LSTM = {"type": "bilstm", "word_dim": 4, "feature_dim": 2, "hidden_size": 4, "epochs": 1,
        "validation_fraction": 0.0}
#: a tagger that trains with a seed and starts in a blink: examples/perceptron_tagger.py as a
#: command tagger (with the BiLSTM, whose 8 jobs each imported torch, the design took 44 CPU s)
TAGGER = shlex.quote(str(ROOT / "examples" / "perceptron_tagger.py"))
PERCEPTRON = {"type": "command",
              "train": f"{shlex.quote(sys.executable)} {TAGGER} train {{train}} {{model_dir}} "
                       "--seed {seed} --iterations 2",
              "predict": f"{shlex.quote(sys.executable)} {TAGGER} predict {{model_dir}} "
                         "{input} {output}"}


def config(variation: dict | None = None, repetitions: int = 8, **extra) -> dict:
    return {"corpora": {"tiny": {"path": TINY}},
            "models": {"lstm": LSTM, "maj": {"type": "majority"}, "crf": {"type": "crf"}},
            "comparisons": {"p": {"a": "lstm", "b": "maj", "corpora": ["tiny"]}},
            "strategies": {"holdout": {}}, "repetitions": repetitions,
            **({"variation": variation} if variation is not None else {}), **extra}


def test_repetitions_number_the_design_seed_fastest():
    design = {"samples": 2, "splits": 3, "seeds": 2, "sample_size": 50}
    # r = (s * 3 + p) * 2 + q, by hand
    assert [tuple(indices(design, r))[:3] for r in (0, 1, 2, 5, 6, 11)] == \
        [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 2, 1), (1, 0, 0), (1, 2, 1)]
    # the split is drawn for repetition s * splits + p: shared by a split's seeds
    assert [indices(design, r).split_key for r in range(12)] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4,
                                                                 5, 5]
    paper = validate(config())["variation"]
    assert [tuple(indices(paper, r)) for r in range(3)] == [(0, r, 0, r) for r in range(3)]


def test_the_paper_design_records_nothing_new():
    """No variation section, or its defaults: the params of every existing study stand."""
    record = provenance.compare(validate(config()), "tiny", "p", "holdout")
    assert "variation" not in record
    assert "variation" not in provenance.summary(validate(config()), "tiny", "p")
    designed = validate(config({"seeds": 2}))
    assert provenance.compare(designed, "tiny", "p", "holdout")["variation"] == {
        "sample_size": None, "seeds": 2}


def test_growing_a_design_by_samples_retrains_nothing_that_exists():
    """Repetition r's sample, split and seed do not depend on how many samples follow it
    (r = (s P + p) Q + q), so the training jobs' record leaves the count out: 2 samples grown
    to 3 train only the third's repetitions (a dry run of the grown study: tests/test_provenance
    covers the planning); one sample's split count is R / Q and leaves it out too."""
    two = {"samples": 2, "sample_size": 50, "splits": 2, "seeds": 2}
    records = [provenance.compare(validate(config({**two, "samples": n}, 4 * n)), "tiny", "p",
                                  "holdout") for n in (2, 3)]
    assert records[0] == records[1]
    assert records[0]["variation"] == {"sample_size": 50, "seeds": 2, "splits": 2}
    design = {**two, "samples": 3}
    assert [indices(design, r) for r in range(8)] == [
        indices(provenance.compare(validate(config({**two, "samples": 2}, 8)), "tiny", "p",
                                   "holdout")["variation"], r) for r in range(8)]
    one = [provenance.compare(validate(config({"seeds": 2, "splits": r // 2}, r)), "tiny", "p",
                              "holdout") for r in (4, 6)]
    assert one[0] == one[1]


@pytest.mark.parametrize("variation, repetitions, key, message", [
    ({"samples": 2, "splits": 4}, 8, "variation.sample_size", "give sample_size"),
    ({"sample_size": 50}, 8, "variation.sample_size", "needs samples >= 2"),
    ({"samples": 2, "sample_size": 50}, 8, "variation.splits", "grows by samples"),
    ({"samples": 2, "sample_size": 50, "splits": 3}, 8, "repetitions",
     "is 6 repetitions, not 8"),
    ({"seeds": 3}, 8, "repetitions", "not whole splits of 3 seeds"),
])
def test_an_impossible_design_is_refused_naming_its_key(variation, repetitions, key, message):
    with pytest.raises(UserError, match=message) as error:
        validate(config(variation, repetitions))
    assert error.value.key == key


def test_seeds_for_models_without_a_seed_are_refused():
    crf_only = config({"seeds": 2})
    crf_only["comparisons"]["p"] = {"a": "crf", "b": "maj", "corpora": ["tiny"]}
    with pytest.raises(UserError, match="neither crf nor maj .* trains with a seed") as error:
        validate(crf_only)
    assert error.value.key == "variation.seeds"


def test_a_sequential_design_is_refused():
    with pytest.raises(UserError, match="fixed R") as error:
        validate(config({"seeds": 2}, stopping={"enabled": True, "estimators": ["ST"]}))
    assert error.value.key == "variation"


@pytest.mark.slow
def test_a_design_of_samples_splits_and_seeds_runs(tmp_path):
    """2 samples of 80 sentences x 2 splits x 2 seeds: the seeds of a split share its folds,
    the splits differ, the samples hold other sentences; the summary records the design."""
    study = config({"samples": 2, "sample_size": 80, "splits": 2, "seeds": 2,
                    "decompose": True}, keep_predictions=True)
    study["models"] = {"perceptron": PERCEPTRON, "maj": {"type": "majority"}}
    study["comparisons"]["p"]["a"] = "perceptron"
    (tmp_path / "study.yaml").write_text(yaml.safe_dump(study))

    def snakemake(*targets: str) -> subprocess.CompletedProcess:
        return conftest.run([sys.executable, "-m", "snakemake", "--snakefile",
                             str(ROOT / "Snakefile"), "--configfile", "study.yaml",
                             "--profile", str(ROOT / "profiles" / "local"), "--cores", "2",
                             *targets], cwd=tmp_path)

    result = snakemake("results/tables/variance.md")  # the summaries, then the decomposition
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    runs = tmp_path / "results" / "compare" / "tiny" / "p" / "holdout"
    splits = [json.loads((runs / f"rep{r}" / "split.json").read_text()) for r in range(8)]
    assert [tuple(s["variation"].values()) for s in splits] == [
        (0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 0, 1), (1, 1, 0), (1, 1, 1)]
    assert [s["repetition"] for s in splits] == list(range(8))
    assert all(s["n_sentences"] == 80 for s in splits)
    assert splits[0]["folds"] == splits[1]["folds"] and splits[0]["folds"] != splits[2]["folds"]

    def tokens(r: int) -> str:  # the validation sentences' tokens of repetition r
        text = (runs / f"rep{r}" / "fold0" / "A.conll").read_text()
        return " ".join(line.split()[0] for line in text.splitlines() if line.strip())

    assert tokens(0) == tokens(1)  # one split, two seeds
    assert tokens(0) != tokens(4)  # another sample
    summary = json.loads((tmp_path / "results" / "summaries" / "tiny" / "p.json").read_text())
    assert summary["variation"]["samples"] == 2 and summary["summary"]["sentences"] == 80
    from reprocompare.reports.tables import table4_markdown, table4_rows

    markdown = table4_markdown(table4_rows({"p on tiny": summary["summary"]}))
    assert ("R = 8 independent repetitions of every strategy (2 data samples of 80 sentences x "
            "2 splits each x 2 training seeds per split)") in markdown
    # the decomposition (issue 25, item 2): ST's variance by sample, split and seed
    assert [c["source"] for c in summary["summary"]["variance"]["ST"]["components"]] == [
        "sample", "split", "seed"]
    table = (tmp_path / "results" / "tables" / "variance.md").read_text()
    assert "### Variance of A - B by source: p on tiny" in table and "| ST |" in table
    assert (tmp_path / "results" / "figures" / "variance.png").stat().st_size > 1000
    # asked for no more, the decomposition retrains nothing: the summary and reports rerun
    study["variation"]["decompose"] = False
    (tmp_path / "study.yaml").write_text(yaml.safe_dump(study))
    dry = snakemake("--dry-run", "--quiet", "rules")
    assert dry.returncode == 0, dry.stderr[-2000:]
    assert "compare" not in dry.stdout.split() and "summarize" in dry.stdout.split()


def test_a_sample_no_smaller_than_the_corpus_is_refused_before_any_job():
    from reprocompare.study.config import check_corpora

    too_big = validate(config({"samples": 2, "sample_size": 120, "splits": 4}))
    with pytest.raises(UserError, match="needs a corpus of more than its 120") as error:
        check_corpora(too_big)
    assert error.value.key == "variation.sample_size"
    check_corpora(validate(config({"samples": 2, "sample_size": 119, "splits": 4})))
