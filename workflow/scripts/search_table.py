# Thin adapter: every trial of a corpus's search in one CSV (reprocompare.pipeline.search_jobs).
from reprocompare.pipeline.jobs import job
from reprocompare.pipeline.search_jobs import collect_trials

with job(snakemake.log[0]):
    collect_trials(list(snakemake.input), snakemake.params.settings, snakemake.output[0])
