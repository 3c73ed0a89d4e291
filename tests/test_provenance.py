"""Provenance-exact reruns: changing one config value reruns exactly the jobs it affects.

One tiny study runs once (module fixture); then, for every key of the config schema, the key's
value is changed and ``snakemake -n`` must plan exactly the jobs listed here, rule by rule. The
cases are checked to cover every key the schema declares, so a key added to the schema without
a case here fails :func:`test_every_schema_key_has_a_case`.

The study: two comparisons on one corpus of 8 documents (p1: CRF vs majority, p2: majority vs
majority), every strategy, R = 2, with the search (2 CRF trials) and seed variance switched on, so
that their keys change something too. Learning curves need a BiLSTM and stay off: their keys must
then plan nothing.
"""

from __future__ import annotations

import copy
import os
import shutil
import time
from pathlib import Path

import pytest
import yaml

import conftest
from conftest import ROOT, TEST_DATA, build_once, copy_study, planned
from reprocompare.study.config import SCHEMA_PATH

pytestmark = pytest.mark.slow


def documents_corpus(path: Path) -> Path:
    """tests/data/tiny.conll with a -DOCSTART- line before every 15th sentence (8 documents)."""
    sentences = [s for s in (TEST_DATA / "tiny.conll").read_text().split("\n\n") if s.strip()]
    parts = []
    for i, sentence in enumerate(sentences):
        if i % 15 == 0:
            parts.append("-DOCSTART- -X- O")
        parts.append(sentence.strip("\n"))
    path.write_text("\n\n".join(parts) + "\n")
    return path


def study(corpus: Path) -> dict:
    return {
        "corpora": {"tiny": {"path": str(corpus)}},
        "models": {"crf": {"type": "crf", "scheme": "IOB2", "max_iterations": 5},
                   "maj": {"type": "majority"},
                   "maj2": {"type": "majority", "scheme": "IOBES"}},
        "comparisons": {"p1": {"a": "crf", "b": "maj", "corpora": ["tiny"]},
                        "p2": {"a": "maj", "b": "maj2", "corpora": ["tiny"]}},
        "strategies": {"holdout": {}, "repeated_holdout": {"k": [2, 3], "table4_k": 3},
                       "bcv": {"m": 2}},
        "repetitions": 2,
        "seed": 3,
        "search": {"enabled": True, "trials_per_job": 2,
                   "models": {"crf": {"trials": 2, "space": {
                       "c1": {"distribution": "uniform", "low": 0.0, "high": 0.5}}}}},
        "seed_variance": {"enabled": True, "seeds": 2},
    }


def dry_run(workdir: Path, config: dict) -> dict[str, int]:
    """The jobs ``snakemake -n`` plans, as {rule: count} (empty: nothing to be done)."""
    result = conftest.snakemake(workdir, "-n", "--quiet", "rules", config=config, cores=None)
    return planned(result.stdout + result.stderr)


def _build(workdir: Path) -> None:
    config = study(documents_corpus(workdir / "docs.conll"))
    conftest.snakemake(workdir, config=config)
    assert dry_run(workdir, config) == {}


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished run of the study: (its directory, its config); this worker's copy.

    The run is made once a session (conftest.build_once): with worksteal both xdist workers may
    take cases of this module, and each used to run the study itself. Each works on its own
    copy, since every case writes its config into the directory. The copy's config file has
    another path, which the checklist names: that job alone reruns, once, here."""
    shared = build_once(tmp_path_factory, "provenance", _build)
    workdir = copy_study(shared, tmp_path_factory.mktemp("provenance") / "study")
    config = yaml.safe_load((workdir / "study.yaml").read_text())
    assert dry_run(workdir, config) == {"checklist": 1, "all": 1}
    conftest.snakemake(workdir, config=config)
    assert dry_run(workdir, config) == {}
    return workdir, config


# ---- the expected plans ------------------------------------------------------------------------

#: after any change that reaches a summary: the summaries' readers
REPORTS = {"tables": 1, "figures": 1, "front_page": 1, "checklist": 1, "all": 1}
CHECKLIST = {"checklist": 1, "all": 1}
NOTHING: dict[str, int] = {}
#: seed variance on the fixed split: p1 and p2 on tiny, then its table
SEED_VARIANCE = {"seed_runs": 2, "seed_variance": 1}
#: the search: one trial job (2 trials), the trials table, the budget
SEARCH = {"search_trials": 1, "search_table": 1, "budget": 1}


#: the study's R = 2 as 2 data samples of 30 sentences, one split each
DESIGN = {"samples": 2, "sample_size": 30, "splits": 1}


def plan(**counts: int) -> dict[str, int]:
    return {rule: n for rule, n in counts.items() if n}


def everything_after_the_corpus(**extra: int) -> dict[str, int]:
    """A new prepared corpus: every split, comparison, summary, the fixed split and its users."""
    return plan(corpus=1, compare=12, summarize=2, fixed_split=1, **SEARCH,
                **SEED_VARIANCE, **REPORTS, **extra)


def comparisons(n_jobs: int, n_summaries: int) -> dict[str, int]:
    return plan(compare=n_jobs, summarize=n_summaries, **REPORTS)


def resplit(n_jobs: int) -> dict[str, int]:
    """New splits: the comparisons that train on them (each derives its split) and what follows."""
    return plan(compare=n_jobs, summarize=2, **REPORTS)


def summaries(n: int) -> dict[str, int]:
    return plan(summarize=n, **REPORTS)


def set_key(config: dict, dotted: str, value) -> None:
    *parents, last = dotted.split(".")
    node = config
    for part in parents:
        node = node.setdefault(part, {})
    node[last] = value


def change(dotted: str, value):
    def apply(config: dict, workdir: Path) -> None:
        set_key(config, dotted, value)
    return apply


def copy_of_corpus(config: dict, workdir: Path) -> None:
    """Same sentences, another file with a newer time: nothing reruns (identity by content)."""
    copy = workdir / "docs-copy.conll"
    shutil.copy(config["corpora"]["tiny"]["path"], copy)
    config["corpora"]["tiny"]["path"] = str(copy)


def untyped_trained_typed(config: dict, workdir: Path) -> None:
    config["corpora"]["tiny"].update(typed=False, train_typed=True)


def other_corpus(config: dict, workdir: Path) -> None:
    """Another file with one sentence less: the corpus job and everything after it rerun."""
    other = workdir / "docs-other.conll"
    text = Path(config["corpora"]["tiny"]["path"]).read_text()
    other.write_text(text.rsplit("\n\n", 2)[0] + "\n")
    config["corpora"]["tiny"]["path"] = str(other)


def space(dotted: str, value):
    return change(f"search.models.crf.space.c1.{dotted}", value)


def dimension(value: dict):
    return change("search.models.crf.space.c1", value)


def second_corpus(config: dict, workdir: Path) -> None:
    # named after tiny: the config is written with sorted keys, and the search's corpus is the
    # first one
    tiny = config["corpora"]["tiny"]["path"]
    copy_of_corpus(config, workdir)
    config["corpora"] = {"tiny": {"path": tiny},
                         "wsj": {"path": config["corpora"]["tiny"]["path"]}}
    config["comparisons"]["p2"]["corpora"] = ["tiny", "wsj"]


def decomposed(config: dict, workdir: Path) -> None:
    config["repetitions"] = 4
    config["variation"] = {**DESIGN, "splits": 2, "decompose": True}


def learning_curves(config: dict, workdir: Path) -> None:
    config["models"]["bilstm"] = {"type": "bilstm", "word_dim": 5, "hidden_size": 4,
                                  "char_dim": 0, "epochs": 1}
    config["learning_curves"] = {"enabled": True, "models": ["bilstm"], "seeds": 2}


#: a new search space: the trials, their table and the budget
TRIALS = {"search_trials": 1, "search_table": 1, "budget": 1, "checklist": 1, "all": 1}


#: schema key (with <name> for any name) -> [(description, change, planned jobs)]
CASES = {
    # a corpus is known by its content (sha256), never its path
    "corpora.<name>.path": [("a copy of the file", copy_of_corpus, NOTHING),
                            ("a file with other sentences", other_corpus,
                             everything_after_the_corpus())],
    # a display name: the summaries that print it (both comparisons on tiny) and the reports
    "corpora.<name>.label": [("tiny labelled", change("corpora.tiny.label", "Tiny CoNLL"),
                              plan(summarize=2, **REPORTS))],
    "corpora.<name>.token_column": [("the POS column as tokens", change(
        "corpora.tiny.token_column", 1), everything_after_the_corpus())],
    "corpora.<name>.tag_column": [("the same column counted from the start", change(
        "corpora.tiny.tag_column", 2), everything_after_the_corpus())],
    "corpora.<name>.scheme": [("IOB2 asserted", change("corpora.tiny.scheme", "IOB2"),
                               everything_after_the_corpus())],
    "corpora.<name>.ill_formed": [("repair", change("corpora.tiny.ill_formed", "repair"),
                                   everything_after_the_corpus())],
    # scoring only: the comparisons, seed runs and search trials score; the corpus and splits stay
    "corpora.<name>.typed": [("untyped", change("corpora.tiny.typed", False),
                              plan(compare=12, summarize=2, seed_runs=2, seed_variance=1,
                                   **SEARCH, **REPORTS))],
    # with typed: false only (on a typed corpus it is refused): typed training, untyped scores
    "corpora.<name>.train_typed": [("untyped scoring of typed training", untyped_trained_typed,
                                    plan(compare=12, summarize=2, seed_runs=2, seed_variance=1,
                                         **SEARCH, **REPORTS))],
    "corpora.<name>.subsample": [("100 sentences", change("corpora.tiny.subsample", 100),
                                  everything_after_the_corpus())],
    # without a subsample its seed changes nothing
    "corpora.<name>.subsample_seed": [("no subsample", change("corpora.tiny.subsample_seed", 7),
                                       NOTHING)],
    # likewise its part (tests/test_subsample.py: part 0 keeps a subsample's settings, so its
    # results; a part from 1 on is another sample)
    "corpora.<name>.subsample_part": [("no subsample", change("corpora.tiny.subsample_part", 2),
                                       NOTHING)],
    # the fixed split keeps documents whole too
    "corpora.<name>.keep_documents": [("documents whole", change(
        "corpora.tiny.keep_documents", True), plan(compare=12, summarize=2,
                                                   fixed_split=1, **SEARCH, **SEED_VARIANCE,
                                                   **REPORTS))],
    "models.<name>.type": [("maj2 (B of p2) a CRF", change("models.maj2.type", "crf"),
                            plan(compare=6, summarize=1, seed_runs=1, seed_variance=1,
                                 **REPORTS))],
    # what a model's jobs ask a scheduler for: no result changes; the checklist prints the config
    "models.<name>.resources.mem_mb": [("maj2 asks 4 GB", change("models.maj2.resources",
                                                                 {"mem_mb": 4000}), CHECKLIST)],
    "models.<name>.resources.runtime": [("maj2 asks 2 h", change("models.maj2.resources",
                                                                 {"runtime": 120}), CHECKLIST)],
    # a design of data samples (issue 25): every repetition draws its sample, so every
    # comparison job reruns; seeds > 1 need a seeded model (tests/test_variation.py)
    "variation.samples": [("2 samples", change("variation", DESIGN), resplit(12))],
    "variation.sample_size": [("samples of 30", change("variation", DESIGN), resplit(12))],
    "variation.splits": [("1 split a sample", change("variation", DESIGN), resplit(12))],
    "variation.seeds": [("1 (the default, given)", change("variation.seeds", 1), NOTHING)],
    # the decomposition reads the summaries: it adds its own table and figure, and its
    # samples and splits train as without it (toggled on a finished design, it retrains
    # nothing: tests/test_variance.py)
    "variation.decompose": [("2 samples x 2 splits, decomposed", decomposed,
                             plan(compare=24, summarize=2, variance=1, **REPORTS))],
    # a label names a model in tables and figures: its summary and the reports, no training
    "models.<name>.label": [("maj2 (B of p2) labelled", change("models.maj2.label", "Majority"),
                             plan(summarize=1, **REPORTS))],
    "comparisons.<name>.a": [("p1.a crf -> maj2", change("comparisons.p1.a", "maj2"),
                              plan(compare=6, summarize=1, seed_runs=1, seed_variance=1,
                                   **REPORTS))],
    "comparisons.<name>.b": [("p2.b maj2 -> crf", change("comparisons.p2.b", "crf"),
                              plan(compare=6, summarize=1, seed_runs=1, seed_variance=1,
                                   **REPORTS))],
    # growth: only p2's work on the new corpus, and its fixed split for the seed runs; the
    # verdicts' family grows by one pair (Bonferroni, issue 33), so every summary is
    # rewritten, never retrained
    "comparisons.<name>.corpora": [("p2 on tiny and a second corpus", second_corpus,
                                    plan(corpus=1, compare=6, summarize=3,
                                         fixed_split=1, seed_runs=1, seed_variance=1,
                                         **REPORTS))],
    "comparisons.<name>.conclusion": [("p1 B>A", change("comparisons.p1.conclusion", "B>A"),
                                       summaries(1))],
    "strategies.holdout.ratio": [("4:1", change("strategies.holdout.ratio", "4:1"),
                                  resplit(4))],
    "strategies.repeated_holdout.k": [
        ("a larger max(k)", change("strategies.repeated_holdout.k", [2, 3, 4]), resplit(4)),
        ("a k below max(k)", change("strategies.repeated_holdout.k", [1, 2, 3]), summaries(2)),
    ],
    "strategies.repeated_holdout.ratio": [("4:1", change("strategies.repeated_holdout.ratio",
                                                         "4:1"), resplit(4))],
    "strategies.repeated_holdout.table4_k": [("2", change("strategies.repeated_holdout.table4_k",
                                                          2), summaries(2))],
    "strategies.bcv.m": [("3", change("strategies.bcv.m", 3), resplit(4))],
    "strategies.bcv.voting": [("token", change("strategies.bcv.voting", "token"),
                               comparisons(4, 2))],
    # the regularized BCV is not run unless listed: a value of it lists it, and it runs
    "strategies.regularized_bcv.m": [("3", change("strategies.regularized_bcv.m", 3),
                                      resplit(4))],
    "strategies.regularized_bcv.voting": [("token", change("strategies.regularized_bcv.voting",
                                                           "token"), resplit(4))],
    "repetitions": [("3", change("repetitions", 3), plan(compare=6, summarize=2,
                                                         **REPORTS))],
    "seed": [("4", change("seed", 4), resplit(12))],
    "keep_predictions": [("true", change("keep_predictions", True), comparisons(12, 2))],
    # the tests run in the summarize jobs, from the counts the comparisons wrote
    "significance.alpha": [("0.1", change("significance.alpha", 0.1), summaries(2))],
    "significance.resamples": [("200", change("significance.resamples", 200), summaries(2))],
    # the verdicts are computed in the summaries
    "verdict.threshold": [("0.9", change("verdict.threshold", 0.9), summaries(2))],
    "verdict.confidence": [("0.99", change("verdict.confidence", 0.99), summaries(2))],
    "verdict.rope": [("0.5 F1 points", change("verdict.rope", 0.5), summaries(2))],
    # the posteriors beside the verdicts are computed in the summaries too
    "verdict.posterior_rope": [("1 F1 point", change("verdict.posterior_rope", 1.0),
                                summaries(2))],
    # stopping is off: its values change nothing; on, the verdicts read confidence sequences
    "stopping.enabled": [("on", change("stopping.enabled", True), summaries(2))],
    # the deciding estimators make the verdicts' family (Bonferroni), stopping on or off
    "stopping.estimators": [("[Avg, Mixture]", change("stopping.estimators", ["Avg", "Mixture"]),
                             summaries(2))],
    "stopping.wave": [("10", change("stopping.wave", 10), NOTHING)],
    "stopping.max_repetitions": [("100", change("stopping.max_repetitions", 100), NOTHING)],
    "stopping.design": [("planned", change("stopping.design", "planned"), NOTHING)],
    # the futility level is judged in the summaries, and only when stopping is on
    "stopping.futility": [("0.5", change("stopping.futility", 0.5), NOTHING)],
    # no model of the study trains on a device; the checklist prints the setting
    "device": [("cuda", change("device", "cuda"), CHECKLIST)],
    "search.enabled": [("off", change("search.enabled", False), CHECKLIST)],
    # the corpus it searched already (null means the first)
    "search.corpus": [("tiny named", change("search.corpus", "tiny"), NOTHING)],
    "search.ratio": [("4:1", change("search.ratio", "4:1"),
                      plan(fixed_split=1, **SEARCH, **SEED_VARIANCE, **CHECKLIST))],
    "search.seed": [("1", change("search.seed", 1),
                     plan(fixed_split=1, **SEARCH, **SEED_VARIANCE, **CHECKLIST))],
    # two jobs of one trial each instead of one of two
    "search.trials_per_job": [("1", change("search.trials_per_job", 1),
                               plan(search_trials=2, search_table=1, budget=1, **CHECKLIST))],
    "search.target_f1": [("0.5", change("search.target_f1", 0.5), plan(budget=1, **CHECKLIST))],
    "search.feed_best": [("on", change("search.feed_best", True),
                          plan(search_best=1, compare=6, summarize=1, seed_runs=1,
                               seed_variance=1, **REPORTS))],
    "search.models.<name>.trials": [("3", change("search.models.crf.trials", 3),
                                     plan(search_trials=1, search_table=1, budget=1,
                                          **CHECKLIST))],
    "search.models.<name>.space.<name>.distribution": [
        ("log_uniform", dimension({"distribution": "log_uniform", "low": 0.01, "high": 0.5}),
         TRIALS)],
    "search.models.<name>.space.<name>.low": [("0.1", space("low", 0.1), TRIALS)],
    "search.models.<name>.space.<name>.high": [("0.4", space("high", 0.4), TRIALS)],
    "search.models.<name>.space.<name>.values": [
        ("a choice", dimension({"distribution": "choice", "values": [0.1, 0.2]}), TRIALS)],
    "seed_variance.enabled": [("off", change("seed_variance.enabled", False), CHECKLIST)],
    "seed_variance.seeds": [("3", change("seed_variance.seeds", 3),
                             plan(**SEED_VARIANCE, **CHECKLIST))],
    "seed_variance.failure_f1": [("0.9", change("seed_variance.failure_f1", 0.9),
                                  plan(seed_variance=1, **CHECKLIST))],
    # learning curves are off: their values change nothing
    "learning_curves.enabled": [("on, with a BiLSTM", learning_curves,
                                 plan(learning_curve_runs=1, learning_curve=1, **CHECKLIST))],
    "learning_curves.models": [("[]", change("learning_curves.models", []), NOTHING)],
    "learning_curves.corpus": [("tiny", change("learning_curves.corpus", "tiny"), NOTHING)],
    "learning_curves.seeds": [("4", change("learning_curves.seeds", 4), NOTHING)],
    "learning_curves.record_every": [("2", change("learning_curves.record_every", 2),
                                      NOTHING)],
}


#: not schema keys (a model's hyperparameters are its type's), checked all the same
EXTRA_CASES = {
    "models.<name>.<hyperparameter>": [
        ("crf (A of p1, searched) max_iterations 6", change("models.crf.max_iterations", 6),
         plan(compare=6, summarize=1, seed_runs=1, seed_variance=1, **SEARCH, **REPORTS))],
    # growth: a model no comparison uses trains nothing; the checklist lists every model
    "models.<new name>": [("an unused CRF", change("models.crf2", {"type": "crf", "c1": 0.5}),
                           CHECKLIST)],
    # growth: a comparison of models already compared elsewhere: its own trainings only; the
    # others' summaries are rewritten, as their verdicts' family grows (issue 33)
    "comparisons.<new name>": [("p3: crf vs maj2", change("comparisons.p3", {
        "a": "crf", "b": "maj2", "corpora": ["tiny"]}), plan(
            compare=6, summarize=3, seed_runs=1, seed_variance=1, **REPORTS))],
}


def schema_keys() -> list[str]:
    """Every key the schema declares, with ``<name>`` for the keys a user names."""
    keys = []

    def walk(schema: dict, prefix: str) -> None:
        for key, sub in schema.get("properties", {}).items():
            keys.append(f"{prefix}{key}")
            walk(sub, f"{prefix}{key}.")
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            walk(extra, f"{prefix}<name>.")

    walk(yaml.safe_load(SCHEMA_PATH.read_text()), "")
    # a key whose value is a mapping of keys listed here is covered by those keys
    return [k for k in keys if not any(other.startswith(k + ".") for other in keys)]


def test_every_schema_key_has_a_case():
    assert sorted(set(CASES) - set(EXTRA_CASES)) == sorted(schema_keys())


CASES.update(EXTRA_CASES)
CASE_IDS = [(key, i) for key in CASES for i in range(len(CASES[key]))]


@pytest.mark.parametrize("key,i", CASE_IDS, ids=[f"{k}-{i}" for k, i in CASE_IDS])
def test_changing_a_key_reruns_exactly_its_jobs(finished, key, i):
    workdir, base = finished
    description, apply, expected = CASES[key][i]
    config = copy.deepcopy(base)
    apply(config, workdir)
    try:
        assert dry_run(workdir, config) == expected, description
    finally:
        (workdir / "study.yaml").write_text(yaml.safe_dump(base))


def test_a_workflow_script_newer_than_every_output_reruns_nothing(finished):
    """The profiles leave Snakemake's "code" trigger out: for a rule that runs a script it
    compares only the script's file time, which every install, upgrade or edit of reprocompare
    renews, and every study would train again (what an output depends on is in its params)."""
    workdir, base = finished
    scripts = sorted((ROOT / "workflow" / "scripts").glob("*.py"))
    before = {script: script.stat() for script in scripts}
    later = time.time() + 3600
    try:
        for script in scripts:
            os.utime(script, (later, later))
        assert dry_run(workdir, base) == NOTHING
    finally:
        for script, stat in before.items():
            os.utime(script, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def test_a_passed_corpus_check_is_kept_by_what_it_depends_on(tmp_path):
    """The key under which the workflow keeps a corpus check that passed (common.smk): the same
    for the same bytes at another path, another for other bytes or a setting the check reads."""
    from reprocompare.pipeline.provenance import corpus_check
    from reprocompare.study.config import validate

    corpus = documents_corpus(tmp_path / "a.conll")
    config = validate(study(corpus), source="study.yaml")
    key = corpus_check(config, "tiny")
    moved = tmp_path / "b.conll"
    shutil.copy(corpus, moved)
    config["corpora"]["tiny"]["path"] = str(moved)
    assert corpus_check(config, "tiny") == key
    config["corpora"]["tiny"]["subsample"] = 20
    assert corpus_check(config, "tiny") != key
    config["corpora"]["tiny"]["subsample"] = None
    config["strategies"]["bcv"]["m"] = 3
    assert corpus_check(config, "tiny") != key
    config["strategies"]["bcv"]["m"] = 2
    moved.write_text(corpus.read_text() + "\n")
    assert corpus_check(config, "tiny") != key


def test_the_library_a_summary_computes_with_is_a_param_of_its_jobs(tmp_path, monkeypatch):
    """An upgrade of reprocompare reruns the summaries and reports it would compute otherwise:
    the digest of a package's sources changes with any of its files, subpackages included, and
    stays put otherwise; the summarize and report rules carry it as a param."""
    from conftest import ROOT
    from reprocompare.pipeline import provenance

    package = tmp_path / "libpkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "maths.py").write_text("def snr(x):\n    return x\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    first = provenance.library_code(["libpkg"])
    assert provenance.library_code(["libpkg"]) == first
    (package / "sub" / "maths.py").write_text("def snr(x):\n    return 2 * x\n")
    assert provenance.library_code(["libpkg"]) != first
    rules = {name: (ROOT / "workflow" / "rules" / f"{name}.smk").read_text()
             for name in ("compare", "report", "search")}
    assert "library=SUMMARY_LIBRARY" in rules["compare"].split("rule summarize:")[1].split(
        "rule ")[0]
    for rule, where in (("tables", "report"), ("figures", "report"), ("front_page", "report"),
                        ("checklist", "search")):
        assert "library=REPORT_LIBRARY" in rules[where].split(f"rule {rule}:")[1].split(
            "\nrule ")[0], rule


def test_every_module_a_summary_or_report_script_calls_is_in_its_library():
    """The summarize and tables scripts call reprocompare.pipeline's job modules, which choose
    what a summary, a claims record and the tables gather (the corpora pooled across corpora,
    say): each module a workflow script imports from reprocompare lies inside SUMMARY_CODE or
    REPORT_CODE, or a change to it would leave their outputs as they were."""
    import re

    from conftest import ROOT
    from reprocompare.pipeline import provenance

    covered = provenance.REPORT_CODE
    for name in ("summarize", "tables", "figures", "front_page"):
        text = (ROOT / "workflow" / "scripts" / f"{name}.py").read_text()
        for module in re.findall(r"from (reprocompare\.[\w.]+) import", text):
            if module == "reprocompare.pipeline.guard":  # the job's guard: no output's words
                continue
            assert any(module == c or module.startswith(c + ".") for c in covered), (name, module)
