"""The BiLSTM's job sizes on a GPU, beside the same trainings on the CPU of the same machine.

What a cluster user asks sbatch for when a study trains BiLSTMs with ``device: cuda``: one
training (featurize, fit, predict the rest) on a random half of CoNLL-2000's training set (the
3x2 BCV's training size) and on a random 8/9 (the hold-outs'), as benchmarks/bench_jobs.py
measures it on CPU, each in a fresh process: wall time, peak resident memory of the process and
peak GPU memory torch allocated. Specs: the demo's small BiLSTM pair and the default BiLSTM.

    python benchmarks/bench_bilstm_gpu.py [--devices cuda cpu] > bilstm_gpu.md
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPECS = ["bilstm:word_dim=20", "bilstm:word_dim=10", "bilstm"]
FRACTIONS = {"half": 0.5, "eight_ninths": 8 / 9}


def child(spec: str, fraction: float) -> dict:
    import numpy as np
    import torch

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
    gpu_mb = torch.cuda.max_memory_allocated() / 2**20 if torch.cuda.is_available() else 0.0
    return {"model": spec, "train_sentences": int(cut), "seconds": round(seconds, 1),
            "f1": round(f1, 4), "gpu_mb": round(gpu_mb, 1)}


def measure(spec: str, fraction: float) -> dict:
    process = subprocess.Popen([sys.executable, __file__, "--child", spec, str(fraction)],
                               cwd=ROOT, stdout=subprocess.PIPE)
    output = process.stdout.read().decode()
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise SystemExit(f"{spec} failed")
    return {**json.loads(output), "peak_rss_mb": round(usage.ru_maxrss / 1024, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs=2, metavar=("SPEC", "FRACTION"), help=argparse.SUPPRESS)
    parser.add_argument("--devices", nargs="+", default=["cuda", "cpu"])
    parser.add_argument("--json", type=Path, help="also write the rows as JSON")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child[0], float(args.child[1]))))
        return
    import torch

    gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "none"
    rows = []
    print(f"Python {platform.python_version()}, torch {torch.__version__}, GPU: {gpu}, "
          f"{os.cpu_count()} CPU cores\n")
    print("| model | device | trained on | wall time (s) | peak memory (MB) | peak GPU memory "
          "(MB) | chunk F1 on the rest |")
    print("|---|---|---|---|---|---|---|")
    for spec in SPECS:
        for device in args.devices:
            for fraction in FRACTIONS.values():
                row = measure(f"{spec}{',' if ':' in spec else ':'}device={device}", fraction)
                rows.append({**row, "device": device})
                print(f"| `{spec}` | {device} | {row['train_sentences']:,} | {row['seconds']} | "
                      f"{row['peak_rss_mb']:.0f} | {row['gpu_mb']:.0f} | {row['f1']} |",
                      flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
