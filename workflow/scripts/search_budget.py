# Thin adapter: expected validation performance against budget (reprocompare.pipeline.search_jobs).
from pathlib import Path

from reprocompare.pipeline.jobs import job
from reprocompare.pipeline.search_jobs import budget

with job(snakemake.log[0]):
    budget(snakemake.input[0], snakemake.params.settings, snakemake.output.json,
           snakemake.output.table,
           str(Path(snakemake.output.figure).with_suffix("")))
