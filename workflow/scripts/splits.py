# Thin adapter: one repetition's split of one strategy on one corpus (reprocompare.jobs).
from reprocompare.jobs import job, make_split

with job(snakemake.log[0]):
    make_split(snakemake.input.conll, snakemake.input.info, snakemake.params.settings,
               int(snakemake.wildcards.repetition), snakemake.output[0])
