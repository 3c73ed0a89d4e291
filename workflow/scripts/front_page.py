# Thin adapter: the report's front page (reprocompare.pipeline.jobs.front_page).
from reprocompare.pipeline.jobs import front_page, job

with job(snakemake.log[0]):
    front_page(list(snakemake.input.summaries), list(snakemake.input.claims),
               snakemake.input.description, snakemake.output[0])
