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

import conftest
from conftest import ROOT

PROFILES = ROOT / "profiles"
# rules whose jobs can ask for a GPU (workflow/rules: compare_gpu, uses_gpu)
GPU_RULES = {"compare", "search_trials", "learning_curve_runs", "seed_runs"}


def profile(name: str) -> dict:
    return yaml.safe_load((PROFILES / name / "config.yaml").read_text())


def effective(*argv: str):
    """The arguments Snakemake runs with, profiles applied (from the repository root)."""
    from snakemake.cli import parse_args

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


# ---- GPUs on a cluster (issue 36, item 6; docs/cluster.md, "GPUs") --------------------------

#: A cluster with a CPU and a GPU partition, as the plugin's partition config describes it
#: (--slurm-partition-config): a job goes to the partition that fits it best.
PARTITIONS = {"partitions": {
    "cpu": {"max_runtime": 2880, "max_mem_mb": 256000, "max_threads": 64},
    "gpu": {"max_runtime": 2880, "max_mem_mb": 512000, "max_threads": 64, "max_gpu": 4,
            "available_gpu_models": ["a100", "h100"]}}}

# The login node that plans a study has no GPU; its jobs will. The workflow checks the device
# only for runs on the machine itself, so the dry run is given a torch that sees one.
SEES_A_GPU = ("import reprocompare.models.devices as devices\n"
              "devices.cuda_devices = lambda: ['the GPU of a compute node']\n")


class _Resources(dict):
    __getattr__ = dict.__getitem__


class _Job:
    """What the SLURM plugin reads of a job to build its sbatch call: resources and threads."""

    def __init__(self, name: str, resources: dict):
        self.name, self.threads = name, int(resources.get("_cores", 1))
        self.resources = _Resources(
            {key: int(value) if value.isdigit() else value for key, value in resources.items()
             if not value.startswith("<")})


def _submissions(tmp_path, *argv: str) -> dict[str, list[str]]:
    """{comparison: [sbatch arguments of each of its training jobs]} as the SLURM plugin builds
    them from a dry run of a two-comparison study on device: cuda under profiles/slurm: the
    CRF against the majority baseline (no model on a GPU) and the CRF against a BiLSTM."""
    import subprocess
    import sys

    from snakemake_executor_plugin_slurm.partitions import get_best_partition, \
        read_partition_file
    from snakemake_executor_plugin_slurm.submit_string import get_submit_command
    from snakemake_executor_plugin_slurm.utils import set_gres_string

    from conftest import TEST_DATA

    (tmp_path / "study.yaml").write_text(yaml.safe_dump({
        "corpora": {"tiny": {"path": str(TEST_DATA / "tiny.conll")}},
        "models": {"crf": {"type": "crf", "max_iterations": 5}, "majority": {"type": "majority"},
                   "lstm": {"type": "bilstm", "epochs": 1}},
        "comparisons": {"cpu": {"a": "crf", "b": "majority", "corpora": ["tiny"]},
                        "gpu": {"a": "crf", "b": "lstm", "corpora": ["tiny"]}},
        "strategies": {"holdout": {}}, "repetitions": 2, "device": "cuda"}))
    (tmp_path / "partitions.yaml").write_text(yaml.safe_dump(PARTITIONS))
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(SEES_A_GPU)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(tmp_path / "site"), *filter(None, [os.environ.get("PYTHONPATH")])])}
    result = subprocess.run(
        [sys.executable, "-m", "snakemake", "--snakefile", str(ROOT / "Snakefile"), "--directory",
         str(tmp_path), "--configfile", "study.yaml", "--profile", str(PROFILES / "slurm"),
         "-n", *argv], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    partitions = read_partition_file(tmp_path / "partitions.yaml")
    jobs, rule, wildcards = {}, None, {}
    for line in result.stdout.splitlines():
        if line.startswith(("rule ", "localrule ")):
            rule, wildcards = line.split()[1].rstrip(":"), {}
        elif line.strip().startswith("wildcards:"):
            wildcards = dict(item.split("=", 1) for item in
                             line.split(":", 1)[1].strip().split(", "))
        elif line.strip().startswith("resources:") and rule == "compare":
            job = _Job(rule, dict(item.split("=", 1) for item in
                                  line.split(":", 1)[1].strip().split(", ")))
            partition = job.resources.get("slurm_partition") or get_best_partition(
                partitions, job, logger=_Quiet())
            params = {"run_uuid": "RUN", "slurm_logfile": tmp_path / "%j.log",
                      "comment_str": "rule_compare", "account": "",
                      "partition": f"-p {partition}", "workdir": str(tmp_path)}
            call = get_submit_command(job, params) + set_gres_string(job)
            jobs.setdefault(wildcards["comparison"], []).append(call.split())
    return jobs


class _Quiet:
    def info(self, *args):
        pass

    debug = warning = info


@pytest.mark.slow
def test_only_the_jobs_that_train_a_gpu_model_ask_for_a_gpu_on_the_gpu_partition(tmp_path):
    """device: cuda: a training job with a BiLSTM asks sbatch for one GPU (--gpus=1) and one CPU
    and lands on the GPU partition; the CRF pair's jobs ask for none and stay on the CPU
    partition; both keep the measured sizes (1,000 MB, 45 minutes)."""
    jobs = _submissions(tmp_path, "--slurm-partition-config", str(tmp_path / "partitions.yaml"))
    assert len(jobs["gpu"]) == len(jobs["cpu"]) == 2  # two repetitions of the hold-out
    for call in jobs["gpu"]:
        assert "--gpus=1" in call and "--cpus-per-task=1" in call, call
        assert call[call.index("-p") + 1] == "gpu", call
    for call in jobs["cpu"]:
        assert not any(arg.startswith("--gpus") or arg.startswith("--gres") for arg in call)
        assert call[call.index("-p") + 1] == "cpu", call
        assert "--cpus-per-task=1" in call, call
    for call in jobs["gpu"] + jobs["cpu"]:
        assert call[call.index("--mem") + 1] == "1000" and call[call.index("-t") + 1] == "45"


@pytest.mark.slow
def test_a_gpu_type_for_the_gpu_jobs_of_a_run(tmp_path):
    """--set-resources compare:gpu_model=h100 names the GPU type (--gpus=h100:1); the plugin
    adds the type to every job of the rule, a job that trains no GPU model included, so a run
    names one only when each of its comparisons trains a GPU model (docs/cluster.md)."""
    jobs = _submissions(tmp_path, "--slurm-partition-config", str(tmp_path / "partitions.yaml"),
                        "--set-resources", "compare:gpu_model=h100")
    for call in jobs["gpu"]:
        assert "--gpus=h100:1" in call and call[call.index("-p") + 1] == "gpu", call
    for call in jobs["cpu"]:
        assert "--gpus=h100:0" in call, call  # why the docs say: only a run of GPU comparisons


@pytest.mark.slow
def test_a_login_node_without_a_gpu_plans_a_cuda_study_for_the_cluster(tmp_path):
    import sys

    from conftest import TEST_DATA
    from reprocompare.models.devices import cuda_devices

    if cuda_devices():
        pytest.skip("this machine has a GPU")
    (tmp_path / "study.yaml").write_text(yaml.safe_dump({
        "corpora": {"tiny": {"path": str(TEST_DATA / "tiny.conll")}},
        "models": {"crf": {"type": "crf"}, "lstm": {"type": "bilstm", "epochs": 1}},
        "comparisons": {"gpu": {"a": "crf", "b": "lstm", "corpora": ["tiny"]}},
        "strategies": {"holdout": {}}, "repetitions": 2, "device": "cuda"}))
    result = conftest.run(
        [sys.executable, "-m", "snakemake", "--snakefile", str(ROOT / "Snakefile"), "--directory",
         str(tmp_path), "--configfile", "study.yaml", "--profile", str(PROFILES / "slurm"), "-n"],
        cwd=tmp_path, timeout=300)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
