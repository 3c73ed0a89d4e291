"""The Snakemake workflow (Snakefile, rules, scripts, report captions, envs), installed as
reprocompare.workflow: data of the package, found by reprocompare.pipeline.workflow_files."""
