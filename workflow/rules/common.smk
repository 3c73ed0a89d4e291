# Helpers shared by the rules: the validated config, the targets, and job resources.
import os
import sys

from snakemake.common import get_function_params, overwrite_function_params

from reprocompare.study.config import (
    blame_command_line,
    check_corpora,
    check_device,
    load_yaml,
    validate as validate_config,
)
from reprocompare.base.errors import UserError
from reprocompare.base import paths
from reprocompare.base.paths import CLAIMS, RUN, SUMMARY
from reprocompare.strategies import NAMES, strategy as strategy_of
from reprocompare.pipeline import provenance
from reprocompare.pipeline.search_workflow import (
    comparison_best_configs,
    feed_best,
    search_outputs,
    uses_gpu,
)

# The file the config came from, so errors can name it (the profiles set
# replace-workflow-config: a --configfile replaces config/config.yaml instead of extending it).
CONFIG_SOURCE = (
    ", ".join(map(str, workflow.overwrite_configfiles)) or "config/config.yaml"
)

# The library the summaries and the reports compute with, as params of their rules: a summary or
# a table made by another version of reprocompare is made again (Snakemake's own code trigger
# sees only a rule's script, not the package it imports).
SUMMARY_LIBRARY = provenance.library_code(provenance.SUMMARY_CODE)
REPORT_LIBRARY = provenance.library_code(provenance.REPORT_CODE)

# Validate before any job: one message naming the key, no traceback (see reprocompare.study.config).
# The config files are read once more for what Snakemake's reader lets pass: a key given twice.
try:
    for configfile in workflow.overwrite_configfiles:
        load_yaml(configfile)
    validated = validate_config(config, source=CONFIG_SOURCE)
except UserError as error:
    # a value given with --config is the command line's, not the file's
    error = blame_command_line(error, workflow.config_settings.config)
    sys.exit(f"reprocompare: config error: {error}")
# The schema's defaults go into the config object itself, as snakemake.utils.validate puts them:
# Snakemake renders the report's front page from the config it holds (workflow.config; in a
# module, the caller's config given as `config: config`), not from a name rebound here.
config.clear()
config.update(validated)

# A bad corpus, too, stops the run before any job (jobs on a cluster skip the re-check). A check
# that passed is kept under .snakemake/ by what it depends on (provenance.corpus_check: the file's
# content, the settings it reads, the checking code), so planning again, as each wave of a
# sequential study does, reads no corpus whose check cannot have changed.
CHECKED_CORPORA = os.path.join(".snakemake", "reprocompare", "checked-corpora")

if workflow.is_main_process:
    for name, settings in config["corpora"].items():
        # a path that is not a readable file has no key: the check below says what is wrong
        try:
            passed = os.path.join(
                CHECKED_CORPORA, provenance.corpus_check(config, name)
            )
        except OSError:
            passed = None
        if passed is not None and os.path.exists(passed):
            continue
        try:
            check_corpora({**config, "corpora": {name: settings}})
        except UserError as error:
            sys.exit(f"reprocompare: corpus error: {error}")
        if passed is None:
            continue
        try:
            os.makedirs(CHECKED_CORPORA, exist_ok=True)
            open(passed, "w").close()
        except OSError:  # a read-only folder: check again next time
            pass

    # a sequential study's R is the wave it has reached, which `reprocompare sequential` passes
    # with --config: run alone on the config, the summaries would shrink back to its first wave
    if (
        config["stopping"]["enabled"]
        and "repetitions" not in workflow.config_settings.config
    ):
        stopping = config["stopping"]
        beyond = (
            f", more than stopping.max_repetitions = {stopping['max_repetitions']}"
            if config["repetitions"] > stopping["max_repetitions"]
            else ""
        )
        # the two commands that run waves, as the guide gives them: `run` for a study folder
        # (init's), `sequential` for a config kept elsewhere; each passes the R reached
        print(
            f"reprocompare: warning: stopping.enabled: this run takes repetitions = "
            f"{config['repetitions']} from {CONFIG_SOURCE}{beyond}, not the R the study has "
            f"reached; a sequential study grows in waves of {stopping['wave']}, which "
            f"`reprocompare run DIR` (a study folder with its config.yaml) or `reprocompare "
            f"sequential --configfile {CONFIG_SOURCE} --directory DIR` runs, passing that R",
            file=sys.stderr,
        )

REPETITIONS = range(config["repetitions"])
STRATEGY_RUN = [strategy_of(key).name for key in config["strategies"]]


wildcard_constraints:
    corpus=r"[A-Za-z0-9_-][A-Za-z0-9_.-]*",
    comparison=r"[A-Za-z0-9_-][A-Za-z0-9_.-]*",
    strategy="|".join(NAMES),
    repetition=r"\d+",


def pairs():
    """(corpus, comparison) of every comparison on every corpus it names, ordered by name (the
    tables' order): the same config in another key order gives the same outputs."""
    return [
        (corpus, name)
        for name, comparison in sorted(config["comparisons"].items())
        for corpus in sorted(comparison["corpora"])
    ]


def comparison_uses_gpu(comparison):
    pair = config["comparisons"][comparison]
    return any(uses_gpu(config, pair[s]) for s in ("a", "b"))


# Per-job figures measured on CoNLL-2000-sized corpora (benchmarks/RESULTS.md, bench_jobs.py):
# peak memory 0.54-0.68 GB for either model type; the longest job, a random-splits job of the
# CRF pair, 18 min (projected 22 min on CoNLL-2002). The defaults leave about 3x headroom.
# A training job's size (benchmarks/RESULTS.md, "Per-job figures"): measured peak 0.68 GB + 45%,
# twice the longest projected job (RS on CoNLL-2002, 22 minutes). A model's `resources:` raises
# them for the jobs that train it; its second attempt gets twice the memory.
COMPARE_MEM_MB, COMPARE_MINUTES = 1000, 45


def _job_models(wildcards):
    if hasattr(wildcards, "comparison"):
        pair = config["comparisons"][wildcards.comparison]
        return [pair["a"], pair["b"]]
    return [wildcards.model]


def _model_resource(wildcards, name, default):
    given = [
        config["models"][model].get("resources", {}).get(name)
        for model in _job_models(wildcards)
    ]
    return max([default, *(value for value in given if value is not None)])


def compare_mem_mb(wildcards, attempt):
    return _model_resource(wildcards, "mem_mb", COMPARE_MEM_MB) * attempt


def compare_runtime(wildcards):
    # minutes
    return _model_resource(wildcards, "runtime", COMPARE_MINUTES)


def compare_priority(wildcards):
    """Earlier repetitions first (Snakemake runs higher priorities first)."""
    return len(REPETITIONS) - int(wildcards.repetition)


def compare_gpu(wildcards):
    return int(config["device"] == "cuda" and comparison_uses_gpu(wildcards.comparison))


# Snakemake calls a rule's functions once for each job (9,000 at R = 1000): where the config makes
# a value the same for every job, the rules get the value instead of the function.
COMPARE_RUNTIME = (
    compare_runtime
    if any(
        model.get("resources", {}).get("runtime") is not None
        for model in config["models"].values()
    )
    else COMPARE_MINUTES
)
COMPARE_GPU = compare_gpu if config["device"] == "cuda" else 0


# Each rule's one params value (reprocompare.pipeline.provenance): exactly the config values its outputs
# depend on, so that changing one reruns the jobs it affects and no other.
def corpus_params(wildcards):
    return provenance.corpus(config, wildcards.corpus)


# the same for every repetition: computed once per corpus, comparison and strategy, not once
# for each of the DAG's thousands of jobs
_COMPARE_PARAMS = {}


def compare_params(wildcards):
    key = (wildcards.corpus, wildcards.comparison, wildcards.strategy)
    if key not in _COMPARE_PARAMS:
        _COMPARE_PARAMS[key] = provenance.compare(config, *key)
    return _COMPARE_PARAMS[key]


# Snakemake reads a function's signature (inspect.signature) each time it calls it, two or three
# times for each of the 9,000 training jobs; as its own wrappers (snakemake.ioutils) do, the
# functions of every training job carry theirs, read once.
for _function in (compare_params, compare_mem_mb, compare_priority):
    overwrite_function_params(_function, get_function_params(_function))


def summary_params(wildcards):
    return provenance.summary(config, wildcards.corpus, wildcards.comparison)


def summary_files():
    return [
        SUMMARY.format(corpus=corpus, comparison=comparison)
        for corpus, comparison in pairs()
    ]


def compare_outputs(name):
    """The file ``name`` of every repetition of every strategy of one comparison on one corpus."""

    def of(wildcards):
        return [
            os.path.join(
                RUN.format(
                    corpus=wildcards.corpus,
                    comparison=wildcards.comparison,
                    strategy=strategy,
                    repetition=r,
                ),
                name,
            )
            for strategy in STRATEGY_RUN
            for r in REPETITIONS
        ]

    return of


estimates_of = compare_outputs(paths.ESTIMATES_FILE)


def claims_files():
    return [
        CLAIMS.format(corpus=corpus, comparison=comparison)
        for corpus, comparison in pairs()
    ]


def best_configs(wildcards):
    """With search.feed_best: the best configurations of the comparison's searched models."""
    return comparison_best_configs(config, wildcards.comparison)


BEST_CONFIGS = best_configs if feed_best(config) else []


def final_outputs():
    """rule all's targets, named by the rules that write them (called once every rule is
    defined); str() drops the outputs' flags (report, update)."""
    return [
        str(rules.tables.output.table3_csv),
        str(rules.tables.output.table4_csv),
        str(rules.figures.output.figure1),
        str(rules.figures.output.figure2),
        str(rules.checklist.output[0]),
        str(rules.front_page.output[0]),
        # search, seed variance and learning curves, when the config switches them on
        *search_outputs(config),
        # the variance by source, when a design of samples and seeds asks for it
        *(
            [str(rules.variance.output.md), str(rules.variance.output.figure)]
            if config["variation"]["decompose"]
            else []
        ),
    ]


onstart:
    # device: cuda without a GPU, when the jobs run on this machine. Known only once Snakemake
    # has chosen its executor: while the Snakefile is read every run looks local, a cluster's
    # too, and a login node without a GPU could not plan a study for the GPU nodes. onstart
    # runs before the first job, and never in a dry run.
    if workflow.executor_plugin.common_settings.local_exec:
        try:
            check_device(config, CONFIG_SOURCE)
        except UserError as error:
            sys.exit(f"reprocompare: config error: {error}")
