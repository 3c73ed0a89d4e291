# Thin adapter: a comparison's models trained with several seeds (reprocompare.pipeline.search_jobs).
from reprocompare.pipeline.guard import job

with job(snakemake.log[0]):
    # imported inside the guard: an interrupt while importing ends in one line too
    from reprocompare.pipeline.search_jobs import seed_runs

    seed_runs(snakemake.input.conll, snakemake.input.info, snakemake.input.split,
              snakemake.wildcards.corpus, snakemake.wildcards.comparison,
              snakemake.params.settings,
              list(snakemake.input.best), snakemake.output[0], threads=snakemake.threads)
