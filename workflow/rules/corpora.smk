# Read, validate and subsample each corpus once; every later job reads the clean copy.


rule corpus:
    input:
        # ancient: the file is known by its sha256 (in params), not its time or path
        lambda wildcards: ancient(config["corpora"][wildcards.corpus]["path"]),
    output:
        conll=paths.CORPUS,
        info=paths.CORPUS_INFO,
    log:
        "logs/corpora/{corpus}.log",
    benchmark:
        "results/benchmarks/corpora/{corpus}.tsv"
    conda:
        "../envs/reprocompare.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        settings=corpus_params,
    script:
        "../scripts/corpus.py"
