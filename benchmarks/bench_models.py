"""Benchmark the taggers of models/: accuracy, interface overhead, throughput and peak memory.

1. Accuracy: the default CRF (IOB2 and IOBES), the default BiLSTM and the majority baseline,
   trained on CoNLL-2000's official training set and scored on its test set (conlleval chunk F1),
   with featurization and training times.
2. Overhead: CRF training through the interface (featurize once, fit on ``take(fold)``) against
   python-crfsuite called directly on the same precomputed ItemSequences and tags, with identical
   trainer parameters; alternated, the median ratio interface/direct is reported (target <= 1.05).
3. BiLSTM training throughput (sentences/s, tokens/s) and each model's peak resident memory.

Every measurement runs in a fresh subprocess so that ``ru_maxrss`` is that model's peak (corpus
reading included) and one run's allocations never slow the next. The machine is shared, so the load
average around each measurement is reported too.

Usage::

    nice .venv/bin/python benchmarks/bench_models.py --write benchmarks/RESULTS.md
    .venv/bin/python benchmarks/bench_models.py --quick      # a smoke run on 300 sentences
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


# --------------------------------------------------------------------------- child tasks


def _load(data: Path, quick: bool):
    from reprocompare.corpora.conll import read_conll
    train = read_conll(data / "train.txt.gz")
    test = read_conll(data / "test.txt.gz")
    if quick:
        train_sentences, test_sentences = train.sentences[:300], test.sentences[:100]
    else:
        train_sentences, test_sentences = train.sentences, test.sentences
    return train.scheme, list(train_sentences), list(test_sentences)


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def task_accuracy(spec_text: str, data: Path, quick: bool, seed: int) -> dict:
    from reprocompare.corpora.scoring import count_chunks
    from reprocompare.models import build_model, parse_spec

    scheme, train, test = _load(data, quick)
    spec = parse_spec(spec_text)
    if quick and spec.type == "bilstm":
        spec = parse_spec(f"{spec}," + "epochs=2")
    elif quick and spec.type == "crf":
        spec = parse_spec(f"{spec}," + "max_iterations=10")
    model = build_model(spec, random_state=seed)
    load = os.getloadavg()[0]
    started = time.perf_counter()
    train_features = model.featurize(train)
    test_features = model.featurize(test)
    featurize_s = time.perf_counter() - started
    y_train = [list(s.tags) for s in train]
    started = time.perf_counter()
    model.fit(train_features, y_train, corpus_scheme=scheme)
    fit_s = time.perf_counter() - started
    started = time.perf_counter()
    predicted = model.predict(test_features)
    predict_s = time.perf_counter() - started
    score = count_chunks([s.tags for s in test], predicted).score()
    result = {"spec": str(spec), "f1": score.f1, "precision": score.precision,
              "recall": score.recall, "featurize_s": featurize_s, "fit_s": fit_s,
              "predict_s": predict_s, "n_train": len(train), "n_test": len(test),
              "train_tokens": sum(len(s) for s in train), "peak_mb": _peak_mb(),
              "load_before": load, "load_after": os.getloadavg()[0]}
    if spec.type == "bilstm":
        epochs = model.n_epochs_
        result.update(epochs=epochs, torch_threads=model.num_threads,
                      sentences_per_s=len(train) * epochs / fit_s,
                      tokens_per_s=result["train_tokens"] * epochs / fit_s)
    return result


def task_threads(data: Path, quick: bool, seed: int, epochs: int) -> dict:
    """BiLSTM training speed with 1 and 2 torch threads, alternated: 1, 2, 2, 1."""
    from reprocompare.models import BiLSTMTagger

    scheme, train, _ = _load(data, quick)
    features = BiLSTMTagger().featurize(train)
    y = [list(s.tags) for s in train]
    runs = []
    for threads in (1, 2, 2, 1):
        load = os.getloadavg()[0]
        started = time.perf_counter()
        BiLSTMTagger(epochs=epochs, num_threads=threads, random_state=seed).fit(
            features, y, corpus_scheme=scheme)
        seconds = time.perf_counter() - started
        runs.append({"threads": threads, "fit_s": seconds,
                     "sentences_per_s": len(train) * epochs / seconds, "load": load})
    return {"epochs": epochs, "n_train": len(train), "runs": runs}


def task_overhead(data: Path, quick: bool, repeats: int, iterations: int, seed: int) -> dict:
    import numpy as np
    import pycrfsuite

    from reprocompare.corpora.schemes import convert
    from reprocompare.models import CRFTagger

    scheme, train, _ = _load(data, quick)
    model = CRFTagger(max_iterations=iterations)
    features = model.featurize(train)  # once, as the workflow does
    rng = np.random.default_rng(seed)
    fold = np.sort(rng.choice(len(train), size=len(train) // 2, replace=False))
    y_fold = [list(train[i].tags) for i in fold]
    # the direct call gets tags already in the model's scheme and rows already selected: it does
    # strictly less work than the interface, which converts, detects and selects on every fit
    y_direct = [convert(tags, model.scheme) for tags in y_fold]
    rows_direct = [features.rows[i] for i in fold]
    params = model._trainer_params()

    def interface() -> float:
        started = time.perf_counter()
        CRFTagger(max_iterations=iterations).fit(features.take(fold), y_fold)
        return time.perf_counter() - started

    def direct() -> float:
        started = time.perf_counter()
        trainer = pycrfsuite.Trainer(algorithm="lbfgs", verbose=False)
        trainer.set_params(params)
        for items, tags in zip(rows_direct, y_direct):
            trainer.append(items, tags)
        with tempfile.TemporaryDirectory() as directory:
            trainer.train(os.path.join(directory, "model.crfsuite"))
        return time.perf_counter() - started

    def own_work() -> float:
        """What fit does besides crfsuite's append and train: measurable without training noise."""
        started = time.perf_counter()
        tagger = CRFTagger(max_iterations=iterations)
        tagger._check_params()
        taken = tagger._featurized(features.take(fold))
        tagger._resolve_corpus_scheme(y_fold, None)
        tagger._to_model_scheme(y_fold)
        assert len(taken) == len(y_fold)
        reader = pycrfsuite.Tagger()
        reader.open_inmemory(model_bytes)
        reader.labels()
        return time.perf_counter() - started

    model_bytes = CRFTagger(max_iterations=2).fit(features.take(fold), y_fold).model_bytes_
    own_s = statistics.median(own_work() for _ in range(5))
    load = os.getloadavg()[0]
    interface_s, direct_s = [], []
    for r in range(repeats):
        # alternate which goes first, so drifts in machine load hit both sides alike
        if r % 2 == 0:
            interface_s.append(interface())
            direct_s.append(direct())
        else:
            direct_s.append(direct())
            interface_s.append(interface())
    ratios = [a / b for a, b in zip(interface_s, direct_s)]
    return {"fold_sentences": len(fold), "max_iterations": iterations, "repeats": repeats,
            "interface_s": interface_s, "direct_s": direct_s, "ratios": ratios,
            "median_ratio": statistics.median(ratios),
            "ratio_of_medians": statistics.median(interface_s) / statistics.median(direct_s),
            "own_work_s": own_s, "own_work_fraction": own_s / statistics.median(direct_s),
            "load_before": load, "load_after": os.getloadavg()[0]}


# --------------------------------------------------------------------------- parent


def machine() -> dict:
    cpu = "unknown"
    with open("/proc/cpuinfo") as handle:
        for line in handle:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    memory_gb = 0.0
    with open("/proc/meminfo") as handle:
        for line in handle:
            if line.startswith("MemTotal"):
                memory_gb = int(line.split()[1]) / 1024 / 1024
    import torch
    return {"cpu": cpu, "cores": os.cpu_count(), "memory_gb": memory_gb,
            "python": platform.python_version(), "torch": torch.__version__,
            "torch_threads": torch.get_num_threads(),
            "python_crfsuite": version("python-crfsuite")}


def run_child(args: list[str]) -> dict:
    command = [sys.executable, str(Path(__file__).resolve()), "--child", *args]
    print("+", " ".join(shlex.quote(a) for a in command[2:]), file=sys.stderr, flush=True)
    output = subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT).stdout
    return json.loads(output.strip().splitlines()[-1])


def render(results: dict, command: str) -> str:
    m = results["machine"]
    lines = [
        "## Models",
        "",
        f"Measured {results['date']} with `{command}` (about {results['total_s'] / 60:.0f} min).",
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['memory_gb']:.0f} GiB RAM, shared with other "
        f"jobs (1-minute load average at each measurement below); Python {m['python']}, torch "
        f"{m['torch']} (CPU, {m['torch_threads']} threads), python-crfsuite "
        f"{m['python_crfsuite']}.",
        "",
        "### Accuracy on CoNLL-2000 (official split: train "
        f"{results['accuracy'][0]['n_train']} sentences, test {results['accuracy'][0]['n_test']})",
        "",
        "Chunk F1 is conlleval's (corpora.scoring). Featurization covers train and test; "
        "peak memory is the process's maximum resident set (corpus reading included).",
        "",
        "| model spec | chunk F1 | precision | recall | featurize (s) | fit (s) | predict (s) "
        "| peak RSS (MB) | load |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results["accuracy"]:
        lines.append(f"| `{r['spec']}` | {r['f1']:.4f} | {r['precision']:.4f} | "
                     f"{r['recall']:.4f} | {r['featurize_s']:.1f} | {r['fit_s']:.1f} | "
                     f"{r['predict_s']:.2f} | {r['peak_mb']:.0f} | "
                     f"{r['load_before']:.1f}-{r['load_after']:.1f} |")
    bilstm = [r for r in results["accuracy"] if "epochs" in r]
    if bilstm:
        lines += ["", "### BiLSTM training throughput", ""]
        for r in bilstm:
            lines.append(f"- `{r['spec']}`: {r['epochs']} epochs over {r['n_train']} sentences "
                         f"({r['train_tokens']} tokens) in {r['fit_s']:.1f} s: "
                         f"**{r['sentences_per_s']:.0f} sentences/s** "
                         f"({r['tokens_per_s']:.0f} tokens/s), {r['torch_threads']} torch "
                         f"thread(s) (the default).")
    t = results["threads"]
    lines += ["", f"Torch threads (default `bilstm`, {t['epochs']} epoch(s) over {t['n_train']} "
              "sentences per run, alternated):", "",
              "| threads | fit (s) | sentences/s | load |", "|---|---|---|---|"]
    for run in t["runs"]:
        lines.append(f"| {run['threads']} | {run['fit_s']:.1f} | {run['sentences_per_s']:.0f} | "
                     f"{run['load']:.1f} |")
    lines += ["", "Why `num_threads=1` is the BiLSTM's default: on this shared machine the second "
              "thread's gain, if any, is small next to what it loses whenever the other core is "
              "busy. A workflow runs jobs side by side instead."]
    o = results["overhead"]
    lines += [
        "",
        "### CRF interface overhead",
        "",
        f"One fold (a random half of train: {o['fold_sentences']} sentences), "
        f"max_iterations={o['max_iterations']}, featurized once. *Interface*: "
        "`CRFTagger.fit(features.take(fold), y_fold)` (scheme detection, conversion, row "
        "selection, training, reading the model back and opening it). *Direct*: "
        "`pycrfsuite.Trainer` with the same parameters, `append` of the same ItemSequences and "
        "tags, `train`. Alternated, each "
        f"{o['repeats']} times.",
        "",
        "| run | interface (s) | direct (s) | ratio |",
        "|---|---|---|---|",
    ]
    for k, (a, b, ratio) in enumerate(zip(o["interface_s"], o["direct_s"], o["ratios"]), 1):
        lines.append(f"| {k} | {a:.2f} | {b:.2f} | {ratio:.3f} |")
    verdict = "within" if o["median_ratio"] <= 1.05 else "OVER"
    lines += ["", f"Median ratio interface/direct: **{o['median_ratio']:.3f}** ({verdict} the "
              f"1.05 budget; ratio of medians {o['ratio_of_medians']:.3f}; load "
              f"{o['load_before']:.1f}-{o['load_after']:.1f}). Measured alone, what the interface does "
              "besides crfsuite's append and train (checking parameters, selecting rows, "
              "detecting the corpus scheme, converting the fold's tags, opening the trained model "
              f"from memory) takes {o['own_work_s']:.3f} s (median of 5), "
              f"{100 * o['own_work_fraction']:.1f}% of the median direct time: that is the "
              "overhead without noise. Run-to-run differences on this shared machine are larger, "
              "so single ratios scatter on both sides of 1.", "",
              "Timings vary with what else runs on this shared 2-core machine (the load column): "
              "compare figures within one run, not across runs.", ""]
    return "\n".join(lines)


def write_section(path: Path, section: str) -> None:
    text = path.read_text() if path.exists() else "# Benchmark results\n"
    pattern = re.compile(r"^## Models\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(text):
        text = pattern.sub(lambda _: section.rstrip("\n") + "\n\n", text).rstrip("\n") + "\n"
    else:
        text = text.rstrip("\n") + "\n\n" + section.rstrip("\n") + "\n"
    path.write_text(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT / "data" / "conll2000")
    parser.add_argument("--quick", action="store_true", help="300 sentences, few iterations")
    parser.add_argument("--repeats", type=int, default=6, help="overhead runs (alternating)")
    parser.add_argument("--iterations", type=int, default=50, help="CRF iterations (overhead)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--thread-epochs", type=int, default=1,
                        help="BiLSTM epochs per run of the 1-vs-2-threads comparison")
    parser.add_argument("--specs", nargs="+",
                        default=["crf", "crf:scheme=IOBES", "bilstm", "majority"])
    parser.add_argument("--write", type=Path, help="replace the '## Models' section of this file")
    parser.add_argument("--json", type=Path, help="also write the raw figures here")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.child:
        kind, *rest = args.child
        if kind == "accuracy":
            result = task_accuracy(rest[0], args.data, args.quick, args.seed)
        elif kind == "threads":
            result = task_threads(args.data, args.quick, args.seed, args.thread_epochs)
        else:
            result = task_overhead(args.data, args.quick, args.repeats, args.iterations, args.seed)
        print(json.dumps(result))
        return 0

    common = ["--data", str(args.data), "--seed", str(args.seed)] + (["--quick"] if args.quick
                                                                      else [])
    started = time.time()
    results = {"date": time.strftime("%Y-%m-%d %H:%M"), "machine": machine(), "accuracy": []}
    for spec in args.specs:
        results["accuracy"].append(run_child(["accuracy", spec, *common]))
        print(json.dumps(results["accuracy"][-1]), file=sys.stderr, flush=True)
    results["threads"] = run_child(["threads", *common, "--thread-epochs",
                                    str(args.thread_epochs)])
    print(json.dumps(results["threads"]), file=sys.stderr, flush=True)
    results["overhead"] = run_child(["overhead", *common, "--repeats", str(args.repeats),
                                     "--iterations", str(args.iterations)])
    print(json.dumps(results["overhead"]), file=sys.stderr, flush=True)
    results["total_s"] = time.time() - started
    command = "nice .venv/bin/python benchmarks/bench_models.py " + " ".join(
        shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))
    section = render(results, command.strip())
    print(section)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    if args.write:
        write_section(args.write, section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
