# All repetitions of one strategy on one corpus in one job: splits are cheap, jobs are not.


rule splits:
    input:
        conll="results/corpora/{corpus}/corpus.conll",
        info="results/corpora/{corpus}/corpus.json",
    output:
        [f"results/splits/{{corpus}}/{{strategy}}/rep{r}.json" for r in REPETITIONS],
    log:
        "logs/splits/{corpus}/{strategy}.log",
    benchmark:
        "results/benchmarks/splits/{corpus}/{strategy}.tsv"
    conda:
        "../envs/reprocompare.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/splits.py"
