# Thin adapter: the seed-variance table (reprocompare.pipeline.search_jobs).
from reprocompare.pipeline.guard import job

with job(snakemake.log[0]):
    # imported inside the guard: an interrupt while importing ends in one line too
    from reprocompare.pipeline.search_jobs import seed_variance_table

    seed_variance_table(list(snakemake.input), snakemake.params.settings, snakemake.output.csv,
                        snakemake.output.md)
