# Thin adapter: the fixed train/validation split of one corpus (reprocompare.pipeline.search_jobs).
from reprocompare.pipeline.jobs import job
from reprocompare.pipeline.search_jobs import fixed_split

with job(snakemake.log[0]):
    fixed_split(snakemake.input.conll, snakemake.input.info, snakemake.params.settings,
                snakemake.output[0])
