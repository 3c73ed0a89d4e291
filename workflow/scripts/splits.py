# Thin adapter: every repetition's split of one strategy on one corpus (reprocompare.jobs).
from reprocompare.jobs import job, make_splits

with job(snakemake.log[0]):
    make_splits(snakemake.input.conll, snakemake.input.info, snakemake.wildcards.corpus,
                snakemake.wildcards.strategy, snakemake.config, list(snakemake.output))
