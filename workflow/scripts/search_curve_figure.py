# Thin adapter: the learning-curve table and figure (reprocompare.pipeline.search_jobs).
from pathlib import Path

from reprocompare.pipeline.guard import job

with job(snakemake.log[0]):
    # imported inside the guard: an interrupt while importing ends in one line too
    from reprocompare.pipeline.search_jobs import curve_figure

    curve_figure(list(snakemake.input), snakemake.output.csv,
                 str(Path(snakemake.output.figure).with_suffix("")))
