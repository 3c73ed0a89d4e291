# Thin adapter: read, validate and subsample one corpus (reprocompare.pipeline.jobs.prepare_corpus).
from reprocompare.pipeline.jobs import job, prepare_corpus

with job(snakemake.log[0]):
    prepare_corpus(
        snakemake.input[0], snakemake.params.settings, snakemake.output.conll, snakemake.output.info
    )
