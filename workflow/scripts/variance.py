# Thin adapter: the variance decomposition's table and figure
# (reprocompare.pipeline.report_jobs.variance).
from reprocompare.pipeline.guard import job

with job(snakemake.log[0]):
    # imported inside the guard: an interrupt while importing ends in one line too
    from reprocompare.pipeline.report_jobs import variance

    variance(list(snakemake.input), dict(snakemake.output.items()))
