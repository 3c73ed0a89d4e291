# reprocompare: will "model A beats model B" on this corpus reproduce?
# corpus -> comparisons (split, train A and B on every fold) -> summaries -> tables, figures
from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/corpora.smk"
include: "workflow/rules/compare.smk"
include: "workflow/rules/report.smk"
include: "workflow/rules/search.smk"


rule all:
    default_target: True
    input:
        final_outputs(),
