# The unit of work: one comparison, corpus, strategy and repetition. Derives the repetition's
# split (split.json, the same bytes as `reprocompare split`; cheap, so no job of its own: a job
# costs seconds of start-up and the DAG 2.4 ms per job), featurizes once, trains A and B on every
# fold, writes sentence-level counts and the estimates, and records its params (settings.json).


rule compare:
    input:
        conll=paths.CORPUS,
        info=paths.CORPUS_INFO,
        best=BEST_CONFIGS,  # search.feed_best: the searched models' best configurations
    # update: Snakemake keeps a job's earlier outputs while it reruns (and restores them if it
    # fails), so that a random-splits job rerun for a larger max(k) trains only the new
    # hold-outs (reprocompare.pipeline.jobs); every other job rewrites all of them.
    output:
        estimates=update(f"{RUN}/{paths.ESTIMATES_FILE}"),
        scores=update(f"{RUN}/{paths.SCORES_FILE}"),
        counts=update(f"{RUN}/{paths.COUNTS_FILE}"),
        runtime=update(f"{RUN}/{paths.RUNTIME_FILE}"),
        split=update(f"{RUN}/{paths.SPLIT_FILE}"),
        settings=update(f"{RUN}/{paths.SETTINGS_FILE}"),
    log:
        "logs/compare/{corpus}/{comparison}/{strategy}/rep{repetition}.log",
    benchmark:
        "results/benchmarks/compare/{corpus}/{comparison}/{strategy}/rep{repetition}.tsv"
    # repetitions in order, so an interrupted (or partly committed) study has whole repetitions
    priority: compare_priority
    conda:
        "../envs/reprocompare.yaml"
    threads: 1
    resources:
        mem_mb=compare_mem_mb,
        runtime=COMPARE_RUNTIME,
        gpu=COMPARE_GPU,
    params:
        settings=compare_params,
    script:
        "../scripts/compare.py"


# Table 3/4 material and, from the per-sentence counts, the significance tests of every
# repetition (one job per comparison: tests are cheap next to training).
rule summarize:
    input:
        estimates=estimates_of,
        counts=compare_outputs(paths.COUNTS_FILE),
    output:
        summary=SUMMARY,
        claims=CLAIMS,
    log:
        "logs/summaries/{corpus}/{comparison}.log",
    benchmark:
        "results/benchmarks/summaries/{corpus}/{comparison}.tsv"
    conda:
        "../envs/reprocompare.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        settings=summary_params,
        library=SUMMARY_LIBRARY,
    script:
        "../scripts/summarize.py"
