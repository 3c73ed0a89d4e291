# Thin adapter: the variance decomposition's table and figure (reprocompare.pipeline.jobs.variance).
from reprocompare.pipeline.jobs import job, variance

with job(snakemake.log[0]):
    variance(list(snakemake.input), dict(snakemake.output.items()))
