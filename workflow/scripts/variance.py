# Thin adapter: the variance decomposition's table and figure (reprocompare.jobs.variance).
from reprocompare.jobs import job, variance

with job(snakemake.log[0]):
    variance(list(snakemake.input), dict(snakemake.output.items()))
