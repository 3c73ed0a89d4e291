# Thin adapter: the best configuration of one searched model (reprocompare.search_jobs).
from reprocompare.jobs import job
from reprocompare.search_jobs import best_config

with job(snakemake.log[0]):
    best_config(list(snakemake.input), snakemake.wildcards.corpus, snakemake.params.settings,
                snakemake.output[0])
