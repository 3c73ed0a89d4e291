# Thin adapter: Figures 1 and 2 as PNG and PDF (reprocompare.pipeline.report_jobs.figures).
from pathlib import Path

from reprocompare.pipeline.guard import job

with job(snakemake.log[0]):
    # imported inside the guard: an interrupt while importing ends in one line too
    from reprocompare.pipeline.report_jobs import figures

    figures(list(snakemake.input), str(Path(snakemake.output.figure1).with_suffix("")),
            str(Path(snakemake.output.figure2).with_suffix("")))
