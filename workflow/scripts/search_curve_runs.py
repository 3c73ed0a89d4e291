# Thin adapter: one BiLSTM's learning curves over several seeds (reprocompare.pipeline.search_jobs).
from reprocompare.pipeline.guard import job

with job(snakemake.log[0]):
    # imported inside the guard: an interrupt while importing ends in one line too
    from reprocompare.pipeline.search_jobs import curve_runs

    curve_runs(snakemake.input.conll, snakemake.input.info, snakemake.input.split,
               snakemake.wildcards.corpus, snakemake.params.settings, list(snakemake.input.best),
               snakemake.output[0], threads=snakemake.threads)
