# Thin adapter: the learning-curve table and figure (reprocompare.pipeline.search_jobs).
from pathlib import Path

from reprocompare.pipeline.jobs import job
from reprocompare.pipeline.search_jobs import curve_figure

with job(snakemake.log[0]):
    curve_figure(list(snakemake.input), snakemake.output.csv,
                 str(Path(snakemake.output.figure).with_suffix("")))
