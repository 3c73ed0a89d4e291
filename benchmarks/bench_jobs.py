"""Per-job figures for cluster users, and the projected cost of config/paper.yaml.

A training job of the study trains A and B on every fold of one repetition: a 3x2 BCV job trains
12 models on halves of the corpus, a random-splits job 2k models on 8/9 of it, a standard-split
job 2. This script measures, in a fresh process per model type (so peak memory is that model's),
the wall time and peak resident memory of one training (featurize, fit, predict the rest) on a
random half and on a random 8/9 of CoNLL-2000's training set (8,936 sentences), then projects the
core-hours of config/paper.yaml and its wall-clock time on a 100-core cluster.

    .venv/bin/python benchmarks/bench_jobs.py --json benchmarks/runs/jobs.json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FRACTIONS = {"half": 0.5, "eight_ninths": 8 / 9}


def child(spec: str, fraction: float) -> dict:
    import numpy as np

    from reprocompare.corpora.conll import read_conll
    from reprocompare.corpora.scoring import count_chunks
    from reprocompare.models import build_model, parse_spec

    corpus = read_conll(ROOT / "data" / "conll2000" / "train.txt.gz")
    order = np.random.default_rng(0).permutation(len(corpus))
    cut = round(fraction * len(corpus))
    train, rest = np.sort(order[:cut]), np.sort(order[cut:])
    model = build_model(parse_spec(spec), random_state=0)
    started = time.perf_counter()
    features = model.featurize(corpus.sentences)
    model.fit(features.take(train), [corpus.tags[i] for i in train],
              corpus_scheme=corpus.scheme)
    predicted = model.predict(features.take(rest))
    seconds = time.perf_counter() - started
    f1 = count_chunks([corpus.tags[i] for i in rest], predicted).score().f1
    return {"model": spec, "train_sentences": int(cut), "seconds": round(seconds, 1),
            "f1": round(f1, 4)}


def measure(model_type: str, fraction: float) -> dict:
    process = subprocess.Popen([sys.executable, __file__, "--child", model_type, str(fraction)],
                               cwd=ROOT, stdout=subprocess.PIPE)
    output = process.stdout.read().decode()
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise SystemExit(f"{model_type} failed")
    return {**json.loads(output), "peak_rss_mb": round(usage.ru_maxrss / 1024, 1)}


#: config/paper.yaml's comparisons: (model A, model B, corpus size relative to CoNLL-2000 train).
#: CoNLL-2002 Spanish train has 264,715 tokens to CoNLL-2000's 211,727: training time scales
#: with tokens for both models, so its jobs are projected 1.25 times as long.
PAPER_PAIRS = {
    "chunking: CRF IOB2 vs IOBES on CoNLL-2000": ("crf", "crf:scheme=IOBES", 1.0),
    "NER: CRF IOBES vs IOB2 on CoNLL-2002": ("crf:scheme=IOBES", "crf", 264715 / 211727),
    "SRL stand-in: BiLSTM 20 vs 10 on CoNLL-2000": ("bilstm:word_dim=20", "bilstm:word_dim=10",
                                                    1.0),
}


def project(figures: dict, repetitions: int = 1000, k: int = 10, cores: int = 100) -> dict:
    """Core-hours of config/paper.yaml from the per-training figures.

    Per repetition and comparison: one BCV job (6 folds, A and B each trained on a half), one RS
    job (k hold-outs, A and B on 8/9), one ST job (A and B on 8/9).
    """
    per_job, seconds = {}, 0.0
    for name, (a, b, scale) in PAPER_PAIRS.items():
        if a not in figures or b not in figures:
            continue
        half = (figures[a]["half"]["seconds"] + figures[b]["half"]["seconds"]) * scale
        most = (figures[a]["eight_ninths"]["seconds"] +
                figures[b]["eight_ninths"]["seconds"]) * scale
        job = {"bcv_job_s": round(6 * half, 1), "rs_job_s": round(k * most, 1),
               "st_job_s": round(most, 1),
               "peak_rss_mb": max(figures[m][size]["peak_rss_mb"] for m in (a, b)
                                  for size in FRACTIONS)}
        per_job[name] = job
        seconds += repetitions * (job["bcv_job_s"] + job["rs_job_s"] + job["st_job_s"])
    core_hours = seconds / 3600
    longest = max((max(job["bcv_job_s"], job["rs_job_s"]) for job in per_job.values()),
                  default=0.0)
    return {"per_job": per_job, "core_hours": round(core_hours, 1),
            # 9,000 jobs on 100 cores pack well: the bound is the total, or the longest job
            "wall_hours_on_cores": round(max(core_hours / cores, longest / 3600), 1),
            "cores": cores, "repetitions": repetitions}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", nargs="+", metavar="SPEC",
                        default=["crf", "crf:scheme=IOBES", "bilstm:word_dim=20",
                                 "bilstm:word_dim=10", "majority"])
    parser.add_argument("--json", type=Path)
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child[0], float(args.child[1]))))
        return
    figures: dict = {}
    for model in args.models:
        for size, fraction in FRACTIONS.items():
            figures.setdefault(model, {})[size] = measure(model, fraction)
            print(json.dumps(figures[model][size]), flush=True)
    result = {"figures": figures, "projection": project(figures)}
    print(json.dumps(result["projection"], indent=1))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
