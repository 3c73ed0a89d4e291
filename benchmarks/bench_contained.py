"""What containing a user's Python tagger costs per fold (issue 34): the engine's fit and
predict of a fold run in a fork of their own (reprocompare.models.processes.run_contained)
against the same in the job's process.

The tagger is a plain class on the tiny test corpus (120 sentences) that learns one tag: the
fold's own work is next to nothing, so what is measured is the fork, the pipe, the pickled
predictions and the scan of /proc for processes left running. The job is as heavy as a compare
job (numpy, scikit-learn and scipy imported), since a fork copies its page tables.

    .venv/bin/python benchmarks/bench_contained.py [--folds 200]

prints the Markdown table of benchmarks/RESULTS.md, "Containing the user's taggers".
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import scipy.stats  # noqa: F401 (a compare job's imports: what a fork copies)
import sklearn.base  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reprocompare.corpora.conll import read_conll  # noqa: E402
from reprocompare.models import engine  # noqa: E402
from reprocompare.models.specs import build_model, parse_spec  # noqa: E402

TAGGER = '''
class First:
    def fit(self, sentences, tags):
        self.tag = next(t for s in tags for t in s if t != "O")
        return self

    def predict(self, sentences):
        return [[self.tag] + ["O"] * (len(s) - 1) for s in sentences]
'''


def fold_seconds(model, features, corpus, train, validation, folds: int) -> list[float]:
    times = []
    for _ in range(folds):
        started = time.perf_counter()
        engine.train_fold(model, features, train, validation, corpus.tags,
                          scheme=corpus.scheme, typed=True, where="bench")
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folds", type=int, default=200)
    args = parser.parse_args()
    corpus = read_conll(ROOT / "tests" / "data" / "tiny.conll")
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "bench_first.py").write_text(TAGGER)
        model = build_model(parse_spec(f"python:class=bench_first:First,path={folder}"))
        features = engine.Features(corpus.sentences).of(model)
        order = np.random.default_rng(0).permutation(len(corpus))
        train, validation = order[:107], order[107:]
        results = {}
        for contained in (False, True):
            type(model).contained = contained
            fold_seconds(model, features, corpus, train, validation, 10)  # warm up
            results[contained] = fold_seconds(model, features, corpus, train, validation,
                                              args.folds)
    inside, forked = (statistics.median(results[c]) * 1e3 for c in (False, True))
    print("| fit and predict of one fold | median ms per fold | p90 ms |")
    print("|---|---|---|")
    for contained, label in ((False, "in the job's process (as before)"),
                             (True, "in a fork of its own (now)")):
        values = sorted(results[contained])
        print(f"| {label} | {statistics.median(values) * 1e3:.2f} | "
              f"{values[int(0.9 * len(values))] * 1e3:.2f} |")
    print(f"\nOverhead: {forked - inside:.2f} ms per fold ({args.folds} folds each).")


if __name__ == "__main__":
    main()
