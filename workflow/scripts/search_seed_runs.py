# Thin adapter: a comparison's models trained with several seeds (reprocompare.pipeline.search_jobs).
from reprocompare.pipeline.jobs import job
from reprocompare.pipeline.search_jobs import seed_runs

with job(snakemake.log[0]):
    seed_runs(snakemake.input.conll, snakemake.input.info, snakemake.input.split,
              snakemake.wildcards.corpus, snakemake.wildcards.comparison,
              snakemake.params.settings,
              list(snakemake.input.best), snakemake.output[0], threads=snakemake.threads)
