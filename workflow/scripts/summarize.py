# Thin adapter: SNR, reproducibility and per-model intervals of one comparison on one corpus.
from reprocompare.jobs import job, summarize

with job(snakemake.log[0]):
    summarize(list(snakemake.input), snakemake.params.settings, snakemake.output[0])
