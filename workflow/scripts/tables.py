# Thin adapter: Tables 3 and 4 (reprocompare.pipeline.report_jobs.tables) and the significance
# claims (reprocompare.pipeline.significance_jobs.claims_tables) in CSV, Markdown and LaTeX
# (column and full width).
from reprocompare.pipeline.guard import job

with job(snakemake.log[0]):
    # imported inside the guard: an interrupt while importing ends in one line too
    from reprocompare.pipeline.report_jobs import tables
    from reprocompare.pipeline.significance_jobs import claims_tables

    outputs = dict(snakemake.output.items())
    tables(list(snakemake.input.summaries), outputs, list(snakemake.input.claims))
    claims_tables(list(snakemake.input.claims), list(snakemake.input.summaries),
                  {kind: outputs[f"claims_{kind}"] for kind in ("csv", "md", "html", "tex", "wide_tex")})
