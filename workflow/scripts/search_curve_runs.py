# Thin adapter: one BiLSTM's learning curves over several seeds (reprocompare.search_jobs).
from reprocompare.jobs import job
from reprocompare.search_jobs import curve_runs

with job(snakemake.log[0]):
    curve_runs(snakemake.input.conll, snakemake.input.info, snakemake.input.split,
               snakemake.wildcards.corpus, snakemake.params.settings, list(snakemake.input.best),
               snakemake.output[0], threads=snakemake.threads)
