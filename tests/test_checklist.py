"""The reporting checklist (Dodge et al. 2019, Text Box 1): every section, and its numbers are the
run's records. Records are written by hand into a temporary results tree (the workflow test
checks the checklist of a real run)."""

from __future__ import annotations

import importlib.metadata
import json
import os
from pathlib import Path

import pytest

from conftest import TEST_DATA
from reprocompare.reports.checklist import SECTIONS, collect, cpu_model, infrastructure, render
from reprocompare.search.budget import analyse
from reprocompare.search.seed_variance import CURVE_COLUMNS, curve_band, to_csv
from reprocompare.search.trials import fixed_split, trials_csv

MACHINE = {"cpu": "Test CPU 9000", "cores": 64, "usable_cores": 2, "memory_gb": 31.4,
           "gpus": [], "os": "TestOS-1", "python": "3.11.7",
           "versions": {"numpy": "1.0", "torch": "2.0", "python-crfsuite": "0.9"}}
CRF = {"type": "crf", "max_iterations": 10}
SPACE = {"c1": {"distribution": "uniform", "low": 0.0, "high": 0.5},
         "c2": {"distribution": "log_uniform", "low": 0.01, "high": 10.0}}
TRIAL_F1 = [0.61, 0.74, 0.69]
FOLD_SECONDS = [{"A": 1.5, "B": 2.5}, {"A": 0.5, "B": 3.5}]


def study(search: bool = True) -> dict:
    from reprocompare.study.config import validate

    config = {"corpora": {"tiny": {"path": str(TEST_DATA / "tiny.conll")}},
              "models": {"crf": CRF, "crf_b": {**CRF, "scheme": "IOBES"},
                         "lstm": {"type": "bilstm", "word_dim": 10, "epochs": 2}},
              "comparisons": {"pair": {"a": "crf", "b": "crf_b", "corpora": ["tiny"]}},
              "strategies": {"holdout": {}}, "repetitions": 2, "seed": 4}
    if search:
        config |= {"search": {"enabled": True, "target_f1": 0.7,
                              "models": {"crf": {"trials": 3, "space": SPACE}}},
                   "seed_variance": {"enabled": True, "seeds": 3, "failure_f1": 0.65},
                   "learning_curves": {"enabled": True, "models": ["lstm"], "seeds": 2}}
    return validate(config, "study.yaml")


def put(path: Path, content) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


@pytest.fixture()
def records(tmp_path):
    """A results tree as a run with search, seed variance and learning curves leaves it."""
    from reprocompare.corpora.conll import read_conll
    from reprocompare.pipeline.search_jobs import seed_variance_table
    from reprocompare.splitters import dumps

    results = tmp_path / "results"
    corpus = read_conll(TEST_DATA / "tiny.conll")
    info = {"source": "tests/data/tiny.conll", "source_sha256": "f" * 64,
            "source_sentences": 120, "sentences": 120, "tokens": 2869, "scheme": "IOB2",
            "sha256": corpus.sha256, "subsample": None, "subsample_seed": 0}
    inputs = {"infos": [put(results / "corpora/tiny/corpus.json", info)],
              "summaries": [put(results / "summaries/tiny/pair.json", {
                  "comparison": "pair", "corpus": "tiny", "summary": {
                      "models": {"A": "crf:scheme=IOB2,max_iterations=10",
                                 "B": "crf:scheme=IOBES,max_iterations=10"},
                      "per_model": {"A": {"repetitions": 2, "mean": 0.812345, "low": 0.8,
                                          "high": 0.824},
                                    "B": {"repetitions": 2, "mean": 0.798765, "low": 0.79,
                                          "high": 0.81}}}})],
              "scores": [], "runtimes": []}
    for r, seconds in enumerate(FOLD_SECONDS):
        run = results / f"compare/tiny/pair/holdout/rep{r}"
        inputs["scores"].append(put(run / "scores.json", {
            "models": {"A": "crf:scheme=IOB2,max_iterations=10",
                       "B": "crf:scheme=IOBES,max_iterations=10"},
            "folds": [{"n_train": 107, "n_validation": 13}]}))
        inputs["runtimes"].append(put(run / "runtime.json", {"folds": [seconds]}))
    inputs["fixed_splits"] = [put(results / "splits/tiny/fixed.json",
                                  dumps(fixed_split(corpus, ratio="8:1", seed=99)))]
    trials = [{"model": "crf", "trial": i, "f1": f, "precision": f, "recall": f,
               "spec": f"crf:scheme=IOB2,c1=0.{i + 1},max_iterations=10",
               "config": {"c1": 0.1 * (i + 1), "c2": 0.5}, "seconds": 2.0 + i}
              for i, f in enumerate(TRIAL_F1)]
    inputs["trials"] = [put(results / "search/tiny/trials.csv", trials_csv(trials))]
    inputs["budget"] = [put(results / "search/tiny/budget.json",
                            analyse(trials, target_f1=0.7, order=["crf"]))]
    inputs["budget_figure"] = ["results/figures/budget.png"]
    seed_runs = put(results / "seed_variance/tiny/pair.json", {
        "corpus": "tiny", "comparison": "pair", "models": {
            "A": {"name": "crf", "spec": "crf:scheme=IOB2,max_iterations=10", "random": False,
                  "runs": [{"run": 0, "seed": None, "f1": 0.8, "seconds": 4.0}]},
            "B": {"name": "crf_b", "spec": "crf:scheme=IOBES,max_iterations=10",
                  "random": True, "runs": [{"run": i, "seed": i, "f1": f, "seconds": 1.0}
                                           for i, f in enumerate([0.7, 0.6, 0.8])]}}})
    inputs["seed_runs"] = [seed_runs]
    inputs["seed_variance"] = [str(results / "tables/seed_variance.csv")]
    seed_variance_table([seed_runs], {"failure_f1": study()["seed_variance"]["failure_f1"]},
                        inputs["seed_variance"][0],
                        str(results / "tables/seed_variance.md"))
    band = curve_band([[[1, 0.3], [2, 0.5]], [[1, 0.4], [2, 0.7]]])
    inputs["learning_curve"] = [put(results / "tables/learning_curve.csv", to_csv(
        [{"corpus": "tiny", "model": "lstm", **row} for row in band], CURVE_COLUMNS))]
    inputs["learning_curve_figure"] = ["results/figures/learning_curve.png"]
    return inputs


def section(text: str, heading: str) -> str:
    """The text under ``heading`` up to the next heading of the same or a higher level."""
    level = heading.split()[0]
    start = text.index(heading + "\n") + len(heading) + 1
    ends = [text.find("\n" + h + " ", start) for h in ("#", "##", "###")[:len(level)]]
    ends = [e for e in ends if e >= 0]
    return text[start:min(ends) if ends else len(text)]


def test_every_section_in_order(records):
    text = render(collect(study(), records, machine=MACHINE, config_source="study.yaml"))
    positions = [text.index(heading + "\n") for heading in SECTIONS]
    assert positions == sorted(positions)
    for heading in SECTIONS:
        assert section(text, heading).strip(), f"{heading} is empty"


def test_numbers_are_the_records(records):
    text = render(collect(study(), records, machine=MACHINE, config_source="study.yaml"))
    infra = section(text, "## Computing infrastructure")
    assert "Test CPU 9000 (64 logical cores, 2 usable)" in infra and "31.4 GB" in infra
    assert "- torch: 2.0" in infra and "GPU: none" in infra

    runtime = section(text, "## Average runtime per model")
    # comparisons: A's folds took 1.5 and 0.5 s, B's 2.5 and 3.5 s
    assert "| crf | `crf:scheme=IOB2,max_iterations=10` | comparisons (one fold: fit + predict) " \
           "| 2 | 1.000 | 2.0 |" in runtime
    assert "| 2 | 3.000 | 6.0 |" in runtime
    assert "| 3 | 3.000 | 9.0 |" in runtime  # search trials: 2, 3 and 4 s

    splits = section(text, "## Train/validation/test splits")
    fixed = json.loads(Path(records["fixed_splits"][0]).read_text())
    assert f"| tiny | 8:1 | {fixed['seed']} | 120 | {len(fixed['folds'][0]['train'])} | " \
           f"{len(fixed['folds'][0]['validation'])} |" in splits
    info = json.loads(Path(records["infos"][0]).read_text())
    assert info["sha256"] in splits and "f" * 64 in splits and "| 2869 |" in splits
    assert "R = 2" in splits and "base seed 4" in splits and "107 / 13" in splits

    validation = section(text, "## Validation performance")
    assert "| 0.8123 | [0.8000, 0.8240] |" in validation
    assert "| 0.7988 | [0.7900, 0.8100] |" in validation
    assert "| crf | 3 | 0.7400 | 1 | 0.6800 |" in validation  # best F1, best trial, mean
    assert "| tiny | pair | B | crf_b | 3 | 0.7000 |" in validation

    bounds = section(text, "### Bounds for each hyperparameter")
    assert "| crf | c1 | uniform-float [0.0, 0.5] | 0.2 |" in bounds
    assert "| crf | c2 | loguniform-float [0.01, 10.0] | 0.5 |" in bounds
    best = section(text, "### Best configuration of each model")
    assert "| crf | 1 | 0.7400 | `crf:scheme=IOB2,c1=0.2,max_iterations=10` |" in best
    assert "feed_best: false" in best
    assert "| crf | 3 | 3 |" in section(text, "### Number of trials")
    method = section(text, "### Method of choosing hyperparameter values and selection criterion")
    assert "uniform random sampling" in method and "i.i.d." in method
    assert "typed chunk F1 on the validation part" in method
    expected = section(text, "### Expected validation performance")
    budget = json.loads(Path(records["budget"][0]).read_text())
    curve = budget["models"]["crf"]["curves"]["unbiased"]["expected"]
    assert "results/figures/budget.png" in expected
    assert f"| crf | {curve[0]:.4f} | 3 | {curve[-1]:.4f} |" in expected
    assert f"| {budget['models']['crf']['budget_to_reach']['unbiased']} |" in expected

    seeds = section(text, "## Seed variance")
    assert "| tiny | pair | crf | 1 (deterministic) | 0.8000 |" in seeds
    assert "| tiny | pair | crf_b | 3 | 0.7000 | 0.1000 | 0.6000 | 0.8000 | 0.33 |" in seeds
    curves = section(text, "## Learning curves")
    assert "| lstm | 2 | 2 | 0.6000 |" in curves


def test_without_a_search_the_checklist_says_so(records):
    inputs = {k: records[k] for k in ("infos", "summaries", "scores", "runtimes")}
    text = render(collect(study(search=False), inputs, machine=MACHINE))
    for heading in SECTIONS:
        assert heading + "\n" in text
    assert "No search: fixed hyperparameters" in section(text,
                                                          "### Bounds for each hyperparameter")
    for spec in ("crf:scheme=IOB2,max_iterations=10", "crf:scheme=IOBES,max_iterations=10",
                 "bilstm:scheme=IOB2,epochs=2,word_dim=10"):
        assert f"`{spec}`" in text
    assert "Not run" in section(text, "## Seed variance")
    assert "Not run" in section(text, "## Learning curves")


def test_infrastructure_is_this_machine():
    machine = infrastructure()
    assert machine["cores"] == os.cpu_count()
    for name in ("numpy", "scipy", "scikit-learn", "python-crfsuite", "torch", "snakemake"):
        assert machine["versions"][name] == importlib.metadata.version(name)
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        names = [line.split(":", 1)[1].strip() for line in cpuinfo.read_text().splitlines()
                 if line.startswith("model name")]
        if names:
            assert machine["cpu"] == names[0]


def test_cpu_model_reads_cpuinfo(tmp_path):
    path = put(tmp_path / "cpuinfo", "processor\t: 0\nmodel name\t: Imaginary 7 CPU @ 3GHz\n")
    assert cpu_model(path) == "Imaginary 7 CPU @ 3GHz"


def test_a_degenerate_model_is_a_warning_under_validation_performance(records, tmp_path):
    """Issue 11: a model with F1 = 0 on every fold is named where its numbers are read."""
    summary = json.loads(Path(records["summaries"][0]).read_text())
    warning = ("model B (crf_b: crf:scheme=IOBES,max_iterations=10) has F1 = 0 on every fold of "
               "every repetition on tiny")
    summary["summary"].update(degenerate=["B"], warnings=[warning])
    path = tmp_path / "degenerate.json"
    path.write_text(json.dumps(summary))
    inputs = {**{k: records[k] for k in ("infos", "scores", "runtimes")}, "summaries": [path]}
    text = render(collect(study(search=False), inputs, machine=MACHINE))
    assert f"**Warning:** {warning}." in section(text, "## Validation performance")
    clean = render(collect(study(search=False), {k: records[k] for k in (
        "infos", "summaries", "scores", "runtimes")}, machine=MACHINE))
    assert "**Warning:**" not in clean
