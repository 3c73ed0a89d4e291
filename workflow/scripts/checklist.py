# Thin adapter: results/checklist.md from the run's records (reprocompare.pipeline.search_jobs).
from reprocompare.pipeline.jobs import job
from reprocompare.pipeline.provenance import checklist_config
from reprocompare.pipeline.search_jobs import checklist


def paths(value):
    return [value] if isinstance(value, str) else list(value)


with job(snakemake.log[0]):
    config, source = checklist_config(snakemake.params.settings)
    checklist(config,
              {key: paths(getattr(snakemake.input, key)) for key in snakemake.input.keys()},
              snakemake.output[0], config_source=source)
