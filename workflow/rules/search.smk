# Random hyperparameter search (Dodge et al. 2019), seed variance and learning curves (Potts), all
# on one fixed train/validation split per corpus; and the reporting checklist (Text Box 1).
from reprocompare.search.config import curves_corpus, search_corpus
from reprocompare.pipeline.search_workflow import (
    best_configs_of,
    checklist_inputs,
    curve_files,
    seed_run_files,
    trial_files,
    uses_gpu,
)

SEARCH_CORPUS = search_corpus(config)
CURVES_CORPUS = curves_corpus(config)


rule fixed_split:
    input:
        conll=paths.CORPUS,
        info=paths.CORPUS_INFO,
    output:
        paths.FIXED_SPLIT,
    log:
        "logs/splits/{corpus}/fixed.log",
    benchmark:
        "results/benchmarks/splits/{corpus}/fixed.tsv"
    conda:
        "../envs/reprocompare.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        settings=lambda wildcards: provenance.fixed_split(config, wildcards.corpus),
    script:
        "../scripts/search_split.py"


# trials first..last (0-based, inclusive) of one model: a larger budget adds jobs, keeps these
rule search_trials:
    input:
        conll=paths.CORPUS,
        info=paths.CORPUS_INFO,
        split=paths.FIXED_SPLIT,
    output:
        paths.TRIALS,
    log:
        "logs/search/{corpus}/{model}/{first}-{last}.log",
    benchmark:
        "results/benchmarks/search/{corpus}/{model}/{first}-{last}.tsv"
    wildcard_constraints:
        model=r"[A-Za-z0-9_.-]+",
        first=r"\d+",
        last=r"\d+",
    conda:
        "../envs/reprocompare.yaml"
    threads: 1
    resources:
        mem_mb=lambda wildcards: 4000 if uses_gpu(config, wildcards.model) else 2000,
        runtime=lambda wildcards: 240 if uses_gpu(config, wildcards.model) else 60,
        gpu=lambda wildcards: int(
            config["device"] == "cuda" and uses_gpu(config, wildcards.model)
        ),
    params:
        settings=lambda wildcards: provenance.search_trials(
            config, wildcards.corpus, wildcards.model
        ),
    script:
        "../scripts/search_trials.py"


rule search_table:
    input:
        lambda wildcards: trial_files(config, wildcards.corpus),
    output:
        paths.TRIALS_TABLE,
    log:
        "logs/search/{corpus}/trials.log",
    benchmark:
        "results/benchmarks/search/{corpus}/trials.tsv"
    conda:
        "../envs/reprocompare.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        settings=lambda wildcards: provenance.search_table(
            config, wildcards.corpus, trial_files(config, wildcards.corpus)
        ),
    script:
        "../scripts/search_table.py"


rule budget:
    input:
        paths.TRIALS_TABLE.format(corpus=SEARCH_CORPUS),
    output:
        json=paths.BUDGET.format(corpus=SEARCH_CORPUS),
        table=paths.table("budget.md"),
        figure=report(
            paths.figure("budget.png"),
            category="Search",
            caption="../report/budget.rst",
        ),
        figure_pdf=paths.figure("budget.pdf"),
    log:
        "logs/search/budget.log",
    benchmark:
        "results/benchmarks/search/budget.tsv"
    conda:
        "../envs/reprocompare.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        settings=provenance.budget(config),
    script:
        "../scripts/search_budget.py"


# only in the DAG with search.feed_best: the comparisons then train these configurations
rule search_best:
    input:
        lambda wildcards: trial_files(config, wildcards.corpus, [wildcards.model]),
    output:
        paths.BEST,
    log:
        "logs/search/{corpus}/{model}/best.log",
    wildcard_constraints:
        model=r"[A-Za-z0-9_.-]+",
    conda:
        "../envs/reprocompare.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        settings=lambda wildcards: provenance.search_best(
            config,
            wildcards.model,
            trial_files(config, wildcards.corpus, [wildcards.model]),
        ),
    script:
        "../scripts/search_best.py"


rule seed_runs:
    input:
        conll=paths.CORPUS,
        info=paths.CORPUS_INFO,
        split=paths.FIXED_SPLIT,
        best=BEST_CONFIGS,
    output:
        paths.SEED_RUNS,
    log:
        "logs/seed_variance/{corpus}/{comparison}.log",
    benchmark:
        "results/benchmarks/seed_variance/{corpus}/{comparison}.tsv"
    conda:
        "../envs/reprocompare.yaml"
    threads: 1
    resources:
        mem_mb=compare_mem_mb,
        runtime=COMPARE_RUNTIME,
        gpu=COMPARE_GPU,
    params:
        settings=lambda wildcards: provenance.seed_runs(
            config, wildcards.corpus, wildcards.comparison
        ),
    script:
        "../scripts/search_seed_runs.py"


rule seed_variance:
    input:
        seed_run_files(config),
    output:
        csv=paths.table("seed_variance.csv"),
        md=paths.table("seed_variance.md"),
    log:
        "logs/seed_variance/table.log",
    benchmark:
        "results/benchmarks/seed_variance/table.tsv"
    conda:
        "../envs/reprocompare.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        settings=provenance.seed_variance(config),
    script:
        "../scripts/search_seed_variance.py"


rule learning_curve_runs:
    input:
        conll=paths.CORPUS,
        info=paths.CORPUS_INFO,
        split=paths.FIXED_SPLIT,
        best=lambda wildcards: best_configs_of(config, [wildcards.model]),
    output:
        paths.CURVE_RUNS,
    log:
        "logs/learning_curves/{corpus}/{model}.log",
    benchmark:
        "results/benchmarks/learning_curves/{corpus}/{model}.tsv"
    wildcard_constraints:
        model=r"[A-Za-z0-9_.-]+",
    conda:
        "../envs/reprocompare.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=240,
        gpu=int(config["device"] == "cuda"),
    params:
        settings=lambda wildcards: provenance.learning_curve_runs(
            config, wildcards.corpus, wildcards.model
        ),
    script:
        "../scripts/search_curve_runs.py"


rule learning_curve:
    input:
        curve_files(config),
    output:
        csv=paths.table("learning_curve.csv"),
        figure=report(
            paths.figure("learning_curve.png"),
            category="Search",
            caption="../report/learning_curve.rst",
        ),
        figure_pdf=paths.figure("learning_curve.pdf"),
    log:
        "logs/learning_curves/figure.log",
    benchmark:
        "results/benchmarks/learning_curves/figure.tsv"
    conda:
        "../envs/reprocompare.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/search_curve_figure.py"


rule checklist:
    input:
        unpack(lambda wildcards: checklist_inputs(config)),
    output:
        report(
            paths.CHECKLIST,
            category="Checklist",
            caption="../report/checklist.rst",
        ),
    log:
        "logs/report/checklist.log",
    benchmark:
        "results/benchmarks/report/checklist.tsv"
    conda:
        "../envs/reprocompare.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        settings=lambda wildcards: provenance.checklist(config, CONFIG_SOURCE),
        library=REPORT_LIBRARY,
    script:
        "../scripts/checklist.py"
