"""Growth without retraining: more repetitions, comparisons and corpora plan only the new work.

A finished tiny study (conftest.SMALL: one comparison on one corpus, every strategy, R = 2; a copy
of the session's conftest.small_study) grows to R = 3 and a second comparison on a second corpus.
The dry run must plan exactly the new jobs (and the summaries and reports that read them), and
the real run must leave every existing corpus copy, split and comparison output as it was: same
bytes, same modification time to the nanosecond. (A corpus added to an existing comparison plans
only that corpus's jobs: tests/test_provenance.py, comparisons.<name>.corpora.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

import conftest
from conftest import SMALL as STUDY
from conftest import TEST_DATA, copy_study, planned

pytestmark = pytest.mark.slow


def snakemake(workdir: Path, config: dict, *extra: str) -> str:
    result = conftest.snakemake(workdir, *extra, config=config)
    return result.stdout + result.stderr


def snapshot(workdir: Path) -> dict[str, tuple[int, bytes]]:
    """Every file the corpus and compare jobs wrote (splits included): (mtime in ns, bytes)."""
    results = workdir / "results"
    files = [p for stage in ("corpora", "compare")
             for p in (results / stage).rglob("*") if p.is_file()]
    return {str(p.relative_to(results)): (p.stat().st_mtime_ns, p.read_bytes())
            for p in sorted(files)}


def test_more_repetitions_comparisons_and_corpora_add_jobs_and_touch_nothing(small_study,
                                                                               tmp_path):
    workdir = copy_study(small_study, tmp_path / "study")  # STUDY, finished
    before = snapshot(workdir)
    assert len([p for p in before if p.endswith("estimates.json")]) == 6  # 3 strategies x R = 2

    grown = yaml.safe_load(yaml.safe_dump(STUDY))
    grown["repetitions"] = 3
    # the new comparison, of the two majority baselines (the cheapest to train), on the new
    # corpus only: 9 jobs, where p2 on tiny and p1 on wsj too took 18
    grown["comparisons"]["p2"] = {"a": "maj", "b": "maj2", "corpora": ["wsj"]}
    grown["corpora"]["wsj"] = {"path": str(TEST_DATA / "tiny.conll")}
    grown["strategies"]["repeated_holdout"]["k"] = [1, 2, 3]  # a k below max(k): no training

    # new: wsj's corpus (1); p1 on tiny rep2 (3), p2 on wsj (9), each with its split; the two
    # summaries; the reports
    assert planned(snakemake(workdir, grown, "-n", "--quiet", "rules")) == {
        "corpus": 1, "compare": 12, "summarize": 2, "tables": 1, "figures": 1, "front_page": 1,
        "checklist": 1, "all": 1}
    snakemake(workdir, grown)
    after = snapshot(workdir)
    changed = [path for path, record in before.items() if after.get(path) != record]
    assert changed == [], "rewritten: " + ", ".join(changed)
    assert len([p for p in after if p.endswith("estimates.json")]) == 6 + 12
    assert planned(snakemake(workdir, grown, "-n", "--quiet", "rules")) == {}


RS_ONLY = {**STUDY, "strategies": {"repeated_holdout": {"k": [2, 3], "table4_k": 3}},
           "significance": {"resamples": 100}}
RS_FILES = ("estimates.json", "scores.json", "counts.tsv.gz", "split.json", "settings.json")


def rs_outputs(workdir: Path, repetition: int) -> dict[str, bytes]:
    run = workdir / "results/compare/tiny/p1/repeated-holdout" / f"rep{repetition}"
    return {name: (run / name).read_bytes() for name in (*RS_FILES, "runtime.json")}


def test_raising_max_k_trains_only_the_new_hold_outs(small_study, tmp_path):
    """max(k) 3 -> 5 reruns each random-splits job, which keeps its three trained hold-outs and
    trains two; 5 -> 4 trains none. Either way the outputs are those of a run made from scratch
    with the new k (every byte but the training times). Any other change keeps nothing."""
    # the random-splits jobs of RS_ONLY are STUDY's (the same settings): a copy of the finished
    # STUDY holds them, and with RS_ONLY as its config it plans no training
    first, fresh = copy_study(small_study, tmp_path / "grown"), tmp_path / "fresh"
    fresh.mkdir()
    assert "compare" not in planned(snakemake(first, RS_ONLY, "-n", "--quiet", "rules"))
    before = [rs_outputs(first, r) for r in range(2)]

    for ks, kept, trained in (([2, 3, 5], 3, 2), ([2, 4], 4, 0)):
        config = yaml.safe_load(yaml.safe_dump(RS_ONLY))
        config["strategies"]["repeated_holdout"]["k"] = ks
        assert planned(snakemake(first, config, "-n", "--quiet", "rules")) == {
            "compare": 2, "summarize": 1, "tables": 1, "figures": 1, "front_page": 1, "checklist": 1, "all": 1}
        snakemake(first, config, "--until", "compare")
        snakemake(fresh, config, "--forceall", "--until", "compare")
        for r in range(2):
            log = (first / f"logs/compare/tiny/p1/repeated-holdout/rep{r}.log").read_text()
            assert f"{kept} of {max(ks)} hold-outs kept from the earlier run" in log, log
            assert log.count("kept from the previous run") == kept
            assert log.count("trained on") == 2 * trained  # A and B of each new hold-out
            grown, scratch = rs_outputs(first, r), rs_outputs(fresh, r)
            for name in RS_FILES:
                assert grown[name] == scratch[name], name
            # the kept hold-outs' training times are the first run's: they did not train again
            seconds = [json.loads(b["runtime.json"])["folds"] for b in (before[r], grown)]
            assert seconds[1][:3] == seconds[0][:3]

    # a changed model: the earlier hold-outs were trained with the old one
    config["models"]["crf"]["max_iterations"] = 6
    config["strategies"]["repeated_holdout"]["k"] = [2, 5]
    snakemake(first, config, "--until", "compare")
    log = (first / "logs/compare/tiny/p1/repeated-holdout/rep0.log").read_text()
    assert "kept" not in log and log.count("trained on") == 2 * 5, log

