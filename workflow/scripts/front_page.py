# Thin adapter: the report's front page (reprocompare.pipeline.report_jobs.front_page).
from reprocompare.pipeline.guard import job

with job(snakemake.log[0]):
    # imported inside the guard: an interrupt while importing ends in one line too
    from reprocompare.pipeline.report_jobs import front_page

    front_page(list(snakemake.input.summaries), list(snakemake.input.claims),
               snakemake.input.description, snakemake.output[0])
