# Thin adapter: the best configuration of one searched model (reprocompare.pipeline.search_jobs).
from reprocompare.pipeline.jobs import job
from reprocompare.pipeline.search_jobs import best_config

with job(snakemake.log[0]):
    best_config(list(snakemake.input), snakemake.wildcards.corpus, snakemake.params.settings,
                snakemake.output[0])
