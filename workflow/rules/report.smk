# Tables 3 and 4 (CSV, Markdown, LaTeX) and Figures 1 and 2 (PNG, PDF) of every comparison.


rule tables:
    input:
        summaries=summary_files(),
        claims=claims_files(),
    output:
        table4_csv="results/tables/table4.csv",
        table4_md="results/tables/table4.md",
        table4_html=report(
            "results/tables/table4.html",
            category="Tables",
            caption="../report/table4.rst",
        ),
        table4_tex="results/tables/table4.tex",
        table4_wide_tex="results/tables/table4-wide.tex",
        table3_csv="results/tables/table3.csv",
        table3_md="results/tables/table3.md",
        table3_html=report(
            "results/tables/table3.html",
            category="Tables",
            caption="../report/table3.rst",
        ),
        table3_tex="results/tables/table3.tex",
        claims_csv="results/tables/claims.csv",
        claims_md="results/tables/claims.md",
        claims_html=report(
            "results/tables/claims.html",
            category="Tables",
            caption="../report/claims.rst",
        ),
        claims_tex="results/tables/claims.tex",
        claims_wide_tex="results/tables/claims-wide.tex",
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
    script:
        "../scripts/tables.py"


rule figures:
    input:
        summary_files(),
    output:
        figure1=report(
            "results/figures/figure1.png",
            category="Figures",
            caption="../report/figure1.rst",
        ),
        figure1_pdf="results/figures/figure1.pdf",
        figure2=report(
            "results/figures/figure2.png",
            category="Figures",
            caption="../report/figure2.rst",
        ),
        figure2_pdf="results/figures/figure2.pdf",
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
        "results/report/front.rst",
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
    script:
        "../scripts/front_page.py"


# With variation.decompose: the share of Var(A - B) from the data sample, the split and the
# training seed (estimators.variance), as a table and a figure.
rule variance:
    input:
        summary_files(),
    output:
        csv="results/tables/variance.csv",
        md="results/tables/variance.md",
        html=report(
            "results/tables/variance.html",
            category="Tables",
            caption="../report/variance.rst",
        ),
        tex="results/tables/variance.tex",
        figure=report(
            "results/figures/variance.png",
            category="Figures",
            caption="../report/variance.rst",
        ),
        figure_pdf="results/figures/variance.pdf",
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
