# One job per repetition: adding repetitions adds jobs and never rewrites an existing split (a
# rewritten split would make Snakemake retrain every comparison that reads it).


rule splits:
    input:
        conll="results/corpora/{corpus}/corpus.conll",
        info="results/corpora/{corpus}/corpus.json",
    output:
        "results/splits/{corpus}/{strategy}/rep{repetition}.json",
    log:
        "logs/splits/{corpus}/{strategy}/rep{repetition}.log",
    benchmark:
        "results/benchmarks/splits/{corpus}/{strategy}/rep{repetition}.tsv"
    conda:
        "../envs/reprocompare.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        settings=split_params,
    script:
        "../scripts/splits.py"
