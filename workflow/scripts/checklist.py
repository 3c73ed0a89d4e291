# Thin adapter: results/checklist.md from the run's records (reprocompare.pipeline.search_jobs).
from reprocompare.pipeline.guard import job


def paths(value):
    return [value] if isinstance(value, str) else list(value)


with job(snakemake.log[0]):
    # imported inside the guard: an interrupt while importing ends in one line too
    from reprocompare.pipeline.provenance import checklist_config
    from reprocompare.pipeline.search_jobs import checklist

    config, source = checklist_config(snakemake.params.settings)
    checklist(config,
              {key: paths(getattr(snakemake.input, key)) for key in snakemake.input.keys()},
              snakemake.output[0], config_source=source)
