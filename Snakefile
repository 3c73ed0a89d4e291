# reprocompare: will "model A beats model B" on this corpus reproduce?
# The workflow lives in workflow/Snakefile (the snakemake-workflows layout, and what the
# installed package ships); this file lets `snakemake` run it from the repository's root.


include: "workflow/Snakefile"


# Snakemake never takes the default target from an included file: name the workflow's own
workflow.default_target = "all"
