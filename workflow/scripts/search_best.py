# Thin adapter: the best configuration of one searched model (reprocompare.pipeline.search_jobs).
from reprocompare.pipeline.guard import job

with job(snakemake.log[0]):
    # imported inside the guard: an interrupt while importing ends in one line too
    from reprocompare.pipeline.search_jobs import best_config

    best_config(list(snakemake.input), snakemake.wildcards.corpus, snakemake.params.settings,
                snakemake.output[0])
