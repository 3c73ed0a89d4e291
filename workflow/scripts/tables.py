# Thin adapter: Tables 3 and 4 in CSV, Markdown and LaTeX (reprocompare.jobs.tables).
from reprocompare.jobs import job, tables

with job(snakemake.log[0]):
    tables(list(snakemake.input), dict(snakemake.output.items()))
