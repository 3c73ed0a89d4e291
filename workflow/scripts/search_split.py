# Thin adapter: the fixed train/validation split of one corpus (reprocompare.pipeline.search_jobs).
from reprocompare.pipeline.guard import job

with job(snakemake.log[0]):
    # imported inside the guard: an interrupt while importing ends in one line too
    from reprocompare.pipeline.search_jobs import fixed_split

    fixed_split(snakemake.input.conll, snakemake.input.info, snakemake.params.settings,
                snakemake.output[0])
