"""Do the BiLSTM's settings transfer? Chunk F1 of a spec on every corpus we have (issues 24, 37).

    nice .venv/bin/python benchmarks/bench_bilstm_defaults.py [SPEC ...]   # Markdown to stdout
    nice -n 19 .venv/bin/python benchmarks/bench_bilstm_defaults.py --grid OUT.jsonl \
        [--sizes 300 1200] [--repeats 3] [--rates 0.002 0.005 0.01] [--corpora ...]
    .venv/bin/python benchmarks/bench_bilstm_defaults.py --table OUT.jsonl   # Markdown

The grid (issue 37, item 5) trains one BiLSTM per (corpus, size, repetition, learning rate)
without stopping, for ``max_epochs(size)`` epochs, recording every epoch's chunk F1 on its
development split (a tenth of the training sentences, as the default) and on the hold-out's
validation sentences. Training up to epoch t does not depend on the stopping rule (same seed, same
batches; scoring draws no random numbers), so one run gives what every rule "at most E epochs,
stop after P epochs without a better development F1" would have kept: ``--table`` replays the
rules on the recorded curves (models/bilstm_torch.py's rule, F1 > 0 before patience counts). The
CRF's default on the same fold is the reference. Each run is one JSON line, written as it ends.

For each spec and each corpus (the shipped CoNLL-2000 chunking, typed, and CoNLL-2002 Spanish NER
from ../shared, typed and untyped; a 600-sentence sample as the demo uses and the whole training
set), one seeded 8:1 hold-out: train, score conlleval's chunk F1 on the validation sentences, and
report the epochs run (early stopping keeps the best epoch on a development split held back
from the training sentences). Markdown to stdout; seconds are wall-clock on this shared machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from reprocompare.corpora.conll import read_conll, task_corpus
from reprocompare.corpora.scoring import count_chunks
from reprocompare.models import build_model, parse_spec
from reprocompare.corpora.subsample import subsample
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


def max_epochs(size: int) -> int:
    """Epochs a grid run trains: enough to see every rule's stop at this size (small samples take
    more epochs, a whole corpus converges in fewer)."""
    return 100 if size <= 400 else 60 if size <= 2000 else 40


def _fold(corpus, repetition):
    fold = split_document("holdout", len(corpus), seed=2026, repetition=repetition,
                          corpus_sha256=corpus.sha256)["folds"][0]
    return tuple(np.asarray(fold[k], dtype=np.int64) for k in ("train", "validation"))


def grid(out: Path, sizes: list[int], repeats: int, rates: list[float], corpora: list[str],
         batch_size: int, extra: str = "") -> None:
    """Train the grid's runs, appending one JSON line per run to ``out`` (see the module
    docstring); runs already in ``out`` are skipped, so an interrupted grid resumes."""
    done = set()
    if out.exists():
        for line in out.read_text().splitlines():
            row = json.loads(line)
            done.add((row["corpus"], row["size"], row["repetition"], row["spec"]))
    for name in corpora:
        path, options, typed = CORPORA[name]
        whole = task_corpus(read_conll(path, **options), typed=typed)
        for size in sizes:
            for repetition in range(repeats if size < len(whole) else 1):
                # a sample per repetition, as the workflow draws one per subsample_seed
                corpus = (whole if size >= len(whole) else subsample(whole, size, repetition))
                train, validation = _fold(corpus, repetition)
                y_train = [corpus.tags[i] for i in train]
                y_val = [corpus.tags[i] for i in validation]
                epochs = max_epochs(len(corpus))
                specs = ["crf"] + [f"bilstm:learning_rate={rate},batch_size={batch_size},"
                                   f"epochs={epochs},patience={epochs}{extra}" for rate in rates]
                for text in specs:
                    if (name, len(corpus), repetition, text) in done:
                        continue
                    model = build_model(parse_spec(text), random_state=repetition)
                    features = model.featurize(corpus.sentences)
                    started = time.process_time()
                    if text == "crf":
                        model.fit(features.take(train), y_train, corpus_scheme=corpus.scheme)
                    else:
                        model.fit(features.take(train), y_train, corpus_scheme=corpus.scheme,
                                  eval_set=(features.take(validation), y_val))
                    seconds = time.process_time() - started
                    row = {"corpus": name, "size": len(corpus), "repetition": repetition,
                           "spec": text, "cpu_s": round(seconds, 2)}
                    if text == "crf":
                        predicted = model.predict(features.take(validation))
                        row["f1"] = count_chunks(y_val, predicted, typed=typed).f1()
                    else:
                        row["dev"] = [f1 for _, f1 in model.validation_curve_]
                        row["eval"] = [f1 for _, f1 in model.learning_curve_]
                    with out.open("a") as handle:
                        handle.write(json.dumps(row) + "\n")
                    print(f"{name} {len(corpus)} r{repetition} {text}: {seconds:.0f} CPU s",
                          file=sys.stderr, flush=True)


def replay(dev: list[float], epochs: int, patience: int) -> tuple[int, int]:
    """(epochs run, best epoch) of the rule "at most ``epochs``, stop after ``patience`` epochs
    without a better development F1, counted once it is above 0" on a recorded curve (1-based)."""
    best_f1, best, since = -1.0, 0, 0
    for epoch, f1 in enumerate(dev[:epochs], start=1):
        if f1 > best_f1:
            best_f1, best, since = f1, epoch, 0
        else:
            since += 1
            if best_f1 > 0 and since >= patience:
                return epoch, best
    return min(epochs, len(dev)), best


def table(paths: list[Path], rules: list[tuple[int, int]]) -> None:
    """Markdown: per corpus, size and variant (learning rate, and any ``--extra``), the CRF's
    mean F1 and each (epochs, patience) rule's mean F1 and mean epochs run over the repetitions,
    replayed from the grid's curves; ``+`` where a rule would have run past the recorded epochs
    (its F1 then that of the recorded epochs). The CRF's mean is over the same repetitions."""
    rows = [json.loads(line) for path in paths for line in path.read_text().splitlines()]
    cells: dict = {}
    for row in rows:
        cells.setdefault((row["corpus"], row["size"]), []).append(row)
    heads = [f"{e} ep, patience {p}" for e, p in rules]
    print("| corpus | sentences | BiLSTM | reps | CRF | " + " | ".join(heads)
          + " | CPU s / epoch |")
    print("|---|---|---|---|---|" + "---|" * (len(heads) + 1))
    for (corpus, size), runs in sorted(cells.items(), key=lambda item: (item[0][0], item[0][1])):
        crf = {r["repetition"]: r["f1"] for r in runs if r["spec"] == "crf"}
        for variant in sorted({_variant(r["spec"]) for r in runs if r["spec"] != "crf"}):
            mine = [r for r in runs if r["spec"] != "crf" and _variant(r["spec"]) == variant]
            out = []
            for e, p in rules:
                f1s, ran, cut = [], [], False
                for r in mine:
                    n, best = replay(r["dev"], e, p)
                    # a run recorded for fewer epochs than the rule allows answers for it only
                    # where the rule stopped before the recording ended
                    cut = cut or (n == len(r["dev"]) < e)
                    f1s.append(r["eval"][best - 1])
                    ran.append(n)
                out.append(f"{100 * np.mean(f1s):.1f} ({np.mean(ran):.0f}{'+' if cut else ''})")
            per_epoch = np.mean([r["cpu_s"] / len(r["dev"]) for r in mine])
            reference = np.mean([crf[r["repetition"]] for r in mine])
            print(f"| {corpus} | {size} | {variant} | {len(mine)} | {100 * reference:.1f} | "
                  + " | ".join(out) + f" | {per_epoch:.2f} |")


def _variant(spec: str) -> str:
    """A grid spec's learning rate and extra settings (batch size, epochs and patience left
    out: the first is the grid's, the others are replayed)."""
    items = dict(item.split("=") for item in spec.split(":", 1)[1].split(","))
    rest = [f"{k}={v}" for k, v in items.items()
            if k not in ("learning_rate", "batch_size", "epochs", "patience")]
    return ", ".join([f"lr {float(items['learning_rate']):g}", *rest])


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


def cli(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="*")
    parser.add_argument("--grid", type=Path, help="train the grid, JSON lines to this file")
    parser.add_argument("--table", type=Path, nargs="+",
                        help="replay the rules on grids' JSON lines")
    parser.add_argument("--sizes", type=int, nargs="+", default=[300, 1200])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rates", type=float, nargs="+", default=[0.002, 0.005, 0.01])
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--extra", default="", help="more of the grid's spec, e.g. char_dim=30")
    parser.add_argument("--corpora", nargs="+", default=list(CORPORA), choices=list(CORPORA))
    parser.add_argument("--rules", nargs="+", default=["50:3", "50:5", "50:10", "100:10"],
                        help="EPOCHS:PATIENCE rules replayed by --table")
    args = parser.parse_args(argv)
    if args.grid:
        grid(args.grid, args.sizes, args.repeats, args.rates, args.corpora, args.batch_size,
             f",{args.extra}" if args.extra else "")
    elif args.table:
        table(args.table, [tuple(int(x) for x in rule.split(":")) for rule in args.rules])
    else:
        main(args.specs or DEFAULT_SPECS)


DEFAULT_SPECS = ["bilstm", "bilstm:epochs=10,validation_fraction=0",
                 "bilstm:word_dim=20,hidden_size=32,epochs=3"]

if __name__ == "__main__":
    cli(sys.argv[1:])
