# Thin adapter: trials first..last of one model's random search (reprocompare.pipeline.search_jobs).
from reprocompare.pipeline.guard import job

with job(snakemake.log[0]):
    # imported inside the guard: an interrupt while importing ends in one line too
    from reprocompare.pipeline.search_jobs import search_trials

    search_trials(snakemake.input.conll, snakemake.input.info, snakemake.input.split,
                  snakemake.wildcards.corpus, int(snakemake.wildcards.first),
                  int(snakemake.wildcards.last), snakemake.params.settings, snakemake.output[0],
                  threads=snakemake.threads)
