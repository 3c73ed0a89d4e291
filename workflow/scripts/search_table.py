# Thin adapter: every trial of a corpus's search in one CSV (reprocompare.search_jobs).
from reprocompare.jobs import job
from reprocompare.search_jobs import collect_trials

with job(snakemake.log[0]):
    collect_trials(list(snakemake.input), snakemake.params.settings, snakemake.output[0])
