# Thin adapter: every trial of a corpus's search in one CSV (reprocompare.pipeline.search_jobs).
from reprocompare.pipeline.guard import job

with job(snakemake.log[0]):
    # imported inside the guard: an interrupt while importing ends in one line too
    from reprocompare.pipeline.search_jobs import collect_trials

    collect_trials(list(snakemake.input), snakemake.params.settings, snakemake.output[0])
