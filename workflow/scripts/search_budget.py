# Thin adapter: expected validation performance against budget (reprocompare.pipeline.search_jobs).
from pathlib import Path

from reprocompare.pipeline.guard import job

with job(snakemake.log[0]):
    # imported inside the guard: an interrupt while importing ends in one line too
    from reprocompare.pipeline.search_jobs import budget

    budget(snakemake.input[0], snakemake.params.settings, snakemake.output.json,
           snakemake.output.table,
           str(Path(snakemake.output.figure).with_suffix("")))
