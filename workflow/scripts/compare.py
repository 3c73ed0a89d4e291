# Thin adapter: one comparison, corpus, strategy and repetition (reprocompare.pipeline.jobs.compare).
from pathlib import Path

from reprocompare.pipeline.guard import job

with job(snakemake.log[0]):
    # imported inside the guard: an interrupt while importing ends in one line too
    from reprocompare.pipeline.jobs import compare

    compare(snakemake.input.conll, snakemake.input.info, snakemake.params.settings,
            int(snakemake.wildcards.repetition), str(Path(snakemake.output.estimates).parent),
            threads=snakemake.threads, best_paths=list(snakemake.input.best))
