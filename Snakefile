# reprocompare: will "model A beats model B" on this corpus reproduce?
# corpus -> comparisons (split, train A and B on every fold) -> summaries -> tables, figures
import os

from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


# The report opens on the answer once the study has run (results/report/front.rst, the rule
# front_page: the verdicts, the warnings, then workflow.rst), else on how the study runs.
FRONT_PAGE = os.path.abspath("results/report/front.rst")


report: FRONT_PAGE if os.path.exists(FRONT_PAGE) else "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/corpora.smk"
include: "workflow/rules/compare.smk"
include: "workflow/rules/report.smk"
include: "workflow/rules/search.smk"


rule all:
    default_target: True
    input:
        final_outputs(),
