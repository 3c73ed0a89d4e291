"""The Snakemake profiles: every entry takes effect under its own --profile (issue 12).

Snakemake loads profiles/default (the workflow profile) on every run and lets it override the
--profile given key by key; these tests parse the command line as Snakemake does and check that
what each profile file says is what the run gets. The real submission is tests/test_slurm.py.
"""

from __future__ import annotations

import os
import re

import pytest
import yaml
from snakemake.cli import parse_args

from conftest import ROOT

PROFILES = ROOT / "profiles"
# rules whose jobs can ask for a GPU (workflow/rules: compare_gpu, uses_gpu)
GPU_RULES = {"compare", "search_trials", "learning_curve_runs", "seed_runs"}


def profile(name: str) -> dict:
    return yaml.safe_load((PROFILES / name / "config.yaml").read_text())


def effective(*argv: str):
    """The arguments Snakemake runs with, profiles applied (from the repository root)."""
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        return parse_args(["--snakefile", str(ROOT / "Snakefile"), *argv])[1]
    finally:
        os.chdir(cwd)


def test_the_workflow_profile_never_overrides_a_profile():
    workflow_profile = profile("default")
    assert workflow_profile  # replace-workflow-config: the test suite relies on it
    for name in ("local", "slurm"):
        given = profile(name)
        for key, value in workflow_profile.items():
            assert given.get(key) == value, f"profiles/default sets {key}, profiles/{name} not"


@pytest.mark.parametrize("name", ["local", "slurm"])
def test_every_entry_takes_effect(name):
    args = effective("--profile", str(PROFILES / name))
    for key, value in profile(name).items():
        attribute = key.replace("-", "_")
        if key == "set-resources":
            got = {rule: {resource: str(given) for resource, given in resources.items()}
                   for rule, resources in args.set_resources.items()}
            assert {rule: set(resources) for rule, resources in value.items()} == \
                {rule: set(resources) for rule, resources in got.items()}
            continue
        if key == "rerun-triggers":  # parsed into a set of RerunTrigger enums
            got = {trigger.name.lower().replace("_", "-") for trigger in args.rerun_triggers}
            assert got == set(value), (key, got, value)
            continue
        assert getattr(args, attribute) == value, (key, getattr(args, attribute), value)


def test_slurm_profile_settings():
    args = effective("--profile", str(PROFILES / "slurm"))
    assert (args.keep_going, args.latency_wait, args.retries) == (True, 60, 1)
    assert args.executor == "slurm" and args.cores == 1
    # the sizes live in the rules (a command line's --set-resources then adds, never replaces)
    assert "set-resources" not in profile("slurm") and not args.set_resources
    # nothing is bundled (splits are made inside the training jobs), so no rule that can ask for
    # a GPU is ever grouped
    assert not args.groups and not args.group_components
    assert "slurm-array-jobs" not in profile("slurm")  # arrays: see benchmarks/RESULTS.md


def _planned_resources(tmp_path, models, *argv):
    """{rule: [resources line of each job]} of a dry run under profiles/slurm."""
    from conftest import TEST_DATA, snakemake

    (tmp_path / "study.yaml").write_text(yaml.safe_dump({
        "corpora": {"tiny": {"path": str(TEST_DATA / "tiny.conll")}}, "models": models,
        "comparisons": {"p": {"a": "crf", "b": "other", "corpora": ["tiny"]}},
        "strategies": {"holdout": {}}, "repetitions": 2}))
    result = snakemake(tmp_path, "--configfile", "study.yaml", "--profile",
                       str(PROFILES / "slurm"), "-n", *argv, cores=None, timeout=300)
    planned, rule = {}, None
    for line in result.stdout.splitlines():
        if line.startswith("rule ") or line.startswith("localrule "):
            rule = line.split()[1].rstrip(":")
        elif line.strip().startswith("resources:") and rule:
            planned.setdefault(rule, []).append(dict(
                item.split("=", 1) for item in line.split(":", 1)[1].strip().split(", ")))
    return planned


@pytest.mark.slow
def test_training_jobs_ask_for_the_measured_sizes_or_their_models(tmp_path):
    """1 core, 1,000 MB, 45 minutes (benchmarks/RESULTS.md); a model's resources: raises them
    for its own jobs; --set-resources on the command line adds a partition, sizes kept."""
    crf = {"type": "crf", "max_iterations": 5}
    plain = _planned_resources(tmp_path, {"crf": crf, "other": {"type": "majority"}})
    assert {(r["mem_mb"], r["runtime"]) for r in plain["compare"]} == {("1000", "45")}
    slow = _planned_resources(
        tmp_path, {"crf": crf, "other": {"type": "majority",
                                         "resources": {"runtime": 240, "mem_mb": 4000}}},
        "--set-resources", "compare:slurm_partition=gpu")
    assert {(r["mem_mb"], r["runtime"], r["slurm_partition"]) for r in slow["compare"]} == \
        {("4000", "240", "gpu")}
    assert all("slurm_partition" not in r for r in slow["summarize"])


def test_no_placeholder_account_or_partition_is_ever_submitted():
    for path in PROFILES.glob("*/config.yaml"):
        text = path.read_text()
        assert "CHANGE_ME" not in text, path
        settings = yaml.safe_load(text)
        for resources in [settings.get("default-resources") or {},
                          *(settings.get("set-resources") or {}).values()]:
            names = resources if isinstance(resources, dict) else \
                [re.split("[=:]", item)[0] for item in resources]
            assert not {"slurm_account", "slurm_partition"} & set(names), path


def test_account_and_partition_on_the_command_line_keep_the_rule_sizes():
    args = effective("--profile", str(PROFILES / "slurm"), "--default-resources",
                     "slurm_account=proj", "slurm_partition=cpu")
    assert {"slurm_account", "slurm_partition"} <= set(args.default_resources.keys())
    assert not args.set_resources  # the rules' sizes, untouched
