# Tables 3 and 4 (CSV, Markdown, LaTeX) and Figures 1 and 2 (PNG, PDF) of every comparison.


rule tables:
    input:
        summaries=summary_files(),
        claims=claims_files(),
    output:
        table4_csv=paths.table("table4.csv"),
        table4_md=paths.table("table4.md"),
        table4_html=report(
            paths.table("table4.html"),
            category="Tables",
            caption="../report/table4.rst",
        ),
        table4_tex=paths.table("table4.tex"),
        table4_wide_tex=paths.table("table4-wide.tex"),
        table3_csv=paths.table("table3.csv"),
        table3_md=paths.table("table3.md"),
        table3_html=report(
            paths.table("table3.html"),
            category="Tables",
            caption="../report/table3.rst",
        ),
        table3_tex=paths.table("table3.tex"),
        claims_csv=paths.table("claims.csv"),
        claims_md=paths.table("claims.md"),
        claims_html=report(
            paths.table("claims.html"),
            category="Tables",
            caption="../report/claims.rst",
        ),
        claims_tex=paths.table("claims.tex"),
        claims_wide_tex=paths.table("claims-wide.tex"),
    log:
        "logs/report/tables.log",
    benchmark:
        "results/benchmarks/report/tables.tsv"
    conda:
        "../envs/reprocompare.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        settings=lambda wildcards: provenance.reports(pairs()),
        library=REPORT_LIBRARY,
    script:
        "../scripts/tables.py"


rule figures:
    input:
        summary_files(),
    output:
        figure1=report(
            paths.figure("figure1.png"),
            category="Figures",
            caption="../report/figure1.rst",
        ),
        figure1_pdf=paths.figure("figure1.pdf"),
        figure2=report(
            paths.figure("figure2.png"),
            category="Figures",
            caption="../report/figure2.rst",
        ),
        figure2_pdf=paths.figure("figure2.pdf"),
    log:
        "logs/report/figures.log",
    benchmark:
        "results/benchmarks/report/figures.tsv"
    conda:
        "../envs/reprocompare.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        settings=lambda wildcards: provenance.reports(pairs()),
        library=REPORT_LIBRARY,
    script:
        "../scripts/figures.py"


# The report's front page: the answer, the warnings, then how the study was run (the Snakefile's
# report statement opens on it once it exists).
rule front_page:
    input:
        summaries=summary_files(),
        claims=claims_files(),
        # of this workflow, wherever it runs from (an installed package, a module)
        description=workflow.source_path("../report/workflow.rst"),
    output:
        paths.FRONT_PAGE,
    log:
        "logs/report/front_page.log",
    conda:
        "../envs/reprocompare.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        settings=lambda wildcards: provenance.reports(pairs()),
        library=REPORT_LIBRARY,
    script:
        "../scripts/front_page.py"


# With variation.decompose: the share of Var(A - B) from the data sample, the split and the
# training seed (estimators.variance), as a table and a figure.
rule variance:
    input:
        summary_files(),
    output:
        csv=paths.table("variance.csv"),
        md=paths.table("variance.md"),
        html=report(
            paths.table("variance.html"),
            category="Tables",
            caption="../report/variance.rst",
        ),
        tex=paths.table("variance.tex"),
        figure=report(
            paths.figure("variance.png"),
            category="Figures",
            caption="../report/variance.rst",
        ),
        figure_pdf=paths.figure("variance.pdf"),
    log:
        "logs/report/variance.log",
    benchmark:
        "results/benchmarks/report/variance.tsv"
    conda:
        "../envs/reprocompare.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        settings=lambda wildcards: provenance.reports(pairs()),
    script:
        "../scripts/variance.py"
