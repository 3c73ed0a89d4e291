# Thin adapter: the seed-variance table (reprocompare.pipeline.search_jobs).
from reprocompare.pipeline.jobs import job
from reprocompare.pipeline.search_jobs import seed_variance_table

with job(snakemake.log[0]):
    seed_variance_table(list(snakemake.input), snakemake.params.settings, snakemake.output.csv,
                        snakemake.output.md)
