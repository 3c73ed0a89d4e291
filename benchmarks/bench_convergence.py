"""CRF convergence on whole corpora: chunk F1 against the L-BFGS iteration budget (issue 26).

    nice .venv/bin/python benchmarks/bench_convergence.py chunking   # or ner; Markdown to stdout

The full-corpus studies must train converged CRFs. On one seeded 8:1 hold-out of the whole
training corpus (CoNLL-2000 chunking, typed; CoNLL-2002 Spanish NER, untyped as the paper's task,
`typed: false`), each scheme is trained with ``max_iterations`` = 25, 50, 100, 200 and 400
(crfsuite's L-BFGS also stops by itself once the objective changes by less than 1e-5 over 10
iterations) and scored with conlleval's chunk F1 on the validation sentences. The setting where F1
stops changing is the one the studies use. Timings are wall-clock on this shared 2-core machine.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from reprocompare.corpora.conll import read_conll, task_corpus
from reprocompare.corpora.scoring import count_chunks
from reprocompare.models import build_model, parse_spec
from reprocompare.splitters import split_document

ROOT = Path(__file__).resolve().parents[1]
TASKS = {  # path, reading options, typed, the paper's schemes (A, B)
    "chunking": (ROOT / "data/conll2000/train.txt.gz", {}, True, ("IOB2", "IOBES")),
    "ner": (ROOT / "data/conll2002/esp.train.gz", {"ill_formed": "repair"}, False,
            ("IOBES", "IOB2")),
}
BUDGETS = (25, 50, 100, 200, 400)


def main(task: str) -> None:
    path, options, typed, schemes = TASKS[task]
    corpus = task_corpus(read_conll(path, **options), typed=typed)
    fold = split_document("holdout", len(corpus), seed=2026, repetition=0,
                          corpus_sha256=corpus.sha256)["folds"][0]
    train, validation = (np.asarray(fold[key], dtype=np.int64) for key in ("train", "validation"))
    gold = [corpus.tags[i] for i in validation]
    print(f"**{task}**: {path.name}, {len(corpus)} sentences ({'typed' if typed else 'untyped'}),"
          f" one 8:1 hold-out: {len(train)} training, {len(validation)} validation sentences\n")
    print("| scheme | max_iterations | chunk F1 | change from the previous budget | fit (s) |")
    print("|---|---|---|---|---|")
    for scheme in schemes:
        previous, features = None, None
        for budget in BUDGETS:
            model = build_model(parse_spec(f"crf:scheme={scheme},max_iterations={budget}"))
            features = features or model.featurize(corpus.sentences)  # once per scheme
            started = time.perf_counter()
            model.fit(features.take(train), [corpus.tags[i] for i in train],
                      corpus_scheme=corpus.scheme)
            seconds = time.perf_counter() - started
            f1 = count_chunks(gold, model.predict(features.take(validation)), typed=typed).f1()
            change = "" if previous is None else f"{100 * (f1 - previous):+.2f} points"
            print(f"| {scheme} | {budget} | {100 * f1:.2f} | {change} | {seconds:.0f} |",
                  flush=True)
            print(f"{task} {scheme} {budget}: {100 * f1:.2f} ({seconds:.0f} s)", file=sys.stderr)
            previous = f1


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "chunking")
