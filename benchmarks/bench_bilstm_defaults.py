"""Do the BiLSTM's settings transfer? Chunk F1 of a spec on every corpus we have (issue 24).

    nice .venv/bin/python benchmarks/bench_bilstm_defaults.py [SPEC ...]   # Markdown to stdout

For each spec and each corpus (the shipped CoNLL-2000 chunking, typed, and CoNLL-2002 Spanish NER
from ../shared, typed and untyped; a 600-sentence sample as the demo uses and the whole training
set), one seeded 8:1 hold-out: train, score conlleval's chunk F1 on the validation sentences, and
report the epochs run (early stopping keeps the best epoch on a development split held back
from the training sentences). Markdown to stdout; seconds are wall-clock on this shared machine.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from reprocompare.corpora.conll import read_conll, task_corpus
from reprocompare.corpora.scoring import count_chunks
from reprocompare.models import build_model, parse_spec
from reprocompare.pipeline.jobs import subsample
from reprocompare.splitters import split_document

ROOT = Path(__file__).resolve().parents[1]
CORPORA = {  # name: path, reading options, typed
    "CoNLL-2000 chunking": (ROOT / "data/conll2000/train.txt.gz", {}, True),
    "CoNLL-2002 esp NER, typed": (ROOT / "data/conll2002/esp.train.gz",
                                  {"ill_formed": "repair"}, True),
    "CoNLL-2002 esp NER, untyped": (ROOT / "data/conll2002/esp.train.gz",
                                    {"ill_formed": "repair"}, False),
}
SIZES = (600, None)  # the demo's sample, and the whole corpus


def _sample(corpus, size):
    # as the workflow draws corpora.<name>.subsample (subsample_seed 0)
    return corpus if size is None or size >= len(corpus) else subsample(corpus, size, 0)


def main(specs: list[str]) -> None:
    print("| spec | corpus | sentences | chunk F1 | epochs run (best) | fit (s) |")
    print("|---|---|---|---|---|---|")
    for name, (path, options, typed) in CORPORA.items():
        whole = task_corpus(read_conll(path, **options), typed=typed)
        for size in SIZES:
            corpus = _sample(whole, size)
            fold = split_document("holdout", len(corpus), seed=2026, repetition=0,
                                  corpus_sha256=corpus.sha256)["folds"][0]
            train, validation = (np.asarray(fold[k], dtype=np.int64)
                                 for k in ("train", "validation"))
            for text in specs:
                model = build_model(parse_spec(text), random_state=0)
                features = model.featurize(corpus.sentences)
                started = time.perf_counter()
                model.fit(features.take(train), [corpus.tags[i] for i in train],
                          corpus_scheme=corpus.scheme)
                seconds = time.perf_counter() - started
                f1 = count_chunks([corpus.tags[i] for i in validation],
                                  model.predict(features.take(validation)), typed=typed).f1()
                epochs = f"{model.n_epochs_} ({model.best_epoch_})"
                print(f"| `{text}` | {name} | {len(corpus)} | {100 * f1:.2f} | {epochs} | "
                      f"{seconds:.0f} |", flush=True)
                print(f"{text} {name} {len(corpus)}: {100 * f1:.2f}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:] or ["bilstm", "bilstm:epochs=10,validation_fraction=0",
                          "bilstm:word_dim=20,hidden_size=32,epochs=3"])
