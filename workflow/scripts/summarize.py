# Thin adapter: SNR, reproducibility and per-model intervals of one comparison on one corpus
# (reprocompare.pipeline.report_jobs.summarize), and the significance tests of every repetition
# (reprocompare.pipeline.significance_jobs.claims).
from reprocompare.pipeline.guard import job

with job(snakemake.log[0]):
    # imported inside the guard: an interrupt while importing ends in one line too
    from reprocompare.pipeline.report_jobs import summarize
    from reprocompare.pipeline.significance_jobs import claims

    settings = snakemake.params.settings
    summarize(list(snakemake.input.estimates), settings, snakemake.output.summary)
    claims(list(snakemake.input.counts), settings, snakemake.output.claims)
