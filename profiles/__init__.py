"""The Snakemake profiles (default, local, slurm), installed as reprocompare.profiles: data of
the package, found by reprocompare.pipeline.workflow_files."""
