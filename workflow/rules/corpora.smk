# Read, validate and subsample each corpus once; every later job reads the clean copy.


rule corpus:
    input:
        lambda wildcards: config["corpora"][wildcards.corpus]["path"],
    output:
        conll="results/corpora/{corpus}/corpus.conll",
        info="results/corpora/{corpus}/corpus.json",
    params:
        settings=lambda wildcards: config["corpora"][wildcards.corpus],
    log:
        "logs/corpora/{corpus}.log",
    benchmark:
        "results/benchmarks/corpora/{corpus}.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/corpus.py"
