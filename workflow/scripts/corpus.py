# Thin adapter: read, validate and subsample one corpus (reprocompare.pipeline.jobs.prepare_corpus).
from reprocompare.pipeline.guard import job

with job(snakemake.log[0]):
    # imported inside the guard: an interrupt while importing ends in one line too
    from reprocompare.pipeline.jobs import prepare_corpus

    prepare_corpus(
        snakemake.input[0], snakemake.params.settings, snakemake.output.conll, snakemake.output.info
    )
