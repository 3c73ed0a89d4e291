"""The config schema (config.schema.yaml), installed as ``reprocompare.schemas``.

It sits beside the workflow because Snakemake's ``validate`` reads it there; the wheel carries it
so that an installed ``reprocompare`` checks a config exactly as the workflow does.
"""
