"""Throughput of ``type: transformers``: sentences per second trained and predicted.

A BERT built from a configuration (random weights: the throughput of a model does not depend on
what it learnt) with a WordPiece vocabulary learnt from the training sentences, saved to a
temporary folder as ``save_pretrained`` writes a real model, then trained and predicted through
the tagger (``build_model(parse_spec("transformers:..."))``: featurize, fit, predict), as a
workflow job runs it. Nothing is downloaded. Two shapes:

- ``--size tiny``: the tests' model (1 layer, hidden size 32, 2 heads, a vocabulary of 150);
- ``--size small``: a 4-layer BERT (hidden size 256, 4 heads, intermediate 1024, a vocabulary
  of 8,000): the size of Google's BERT-mini/small family, a real model's cost per sentence.

Sentences are CoNLL-2000's first ``--train`` training sentences (trained ``--epochs`` times) and
its first ``--test`` test sentences (predicted). Throughput counts sentences, so training's is
``train * epochs / fit seconds``; featurization (tokenizing) is timed apart. Each row names the
machine: CPU or GPU, torch and CUDA versions, threads.

    .venv/bin/python benchmarks/bench_transformers.py --size tiny --device cpu [--write]
    python benchmarks/bench_transformers.py --size small --device cuda --write
    python benchmarks/bench_transformers.py --size small --device cpu --write

``--write`` puts the row into benchmarks/RESULTS.md ("The transformer tagger's throughput"),
replacing the row of the same model, device and machine and keeping the others.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from markers import replace_between  # noqa: E402

RESULTS = ROOT / "benchmarks" / "RESULTS.md"
BEGIN = "<!-- bench_transformers: begin -->\n"
END = "<!-- bench_transformers: end -->\n"
HEADER = ["model", "device", "machine", "train sentences", "epochs", "featurize (sentences/s)",
          "train (sentences/s)", "predict (sentences/s)", "chunk F1"]
SIZES = {
    "tiny": dict(vocab_size=150, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                 intermediate_size=64),
    "small": dict(vocab_size=8000, hidden_size=256, num_hidden_layers=4, num_attention_heads=4,
                  intermediate_size=1024),
}
SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def build_bert(folder: Path, texts: list[str], *, vocab_size: int, max_position: int = 512,
               **shape) -> None:
    """Save a randomly initialized BERT of ``shape`` and a fast WordPiece tokenizer learnt from
    ``texts`` into ``folder``.

    Parameters
    ----------
    folder : pathlib.Path
        Where to save them.
    texts : list of str
        The sentences the vocabulary is learnt from.
    vocab_size : int
        The vocabulary's size (at most).
    max_position : int, default 512
        Position embeddings.
    **shape
        BertConfig's hidden_size, num_hidden_layers, num_attention_heads, intermediate_size.
    """
    import transformers
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers

    tokenizer = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=False)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.train_from_iterator(texts, trainers.WordPieceTrainer(vocab_size=vocab_size,
                                                                   special_tokens=SPECIAL))
    cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", cls), ("[SEP]", sep)])
    fast = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tokenizer, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]",
        sep_token="[SEP]", mask_token="[MASK]", model_max_length=max_position)
    config = transformers.BertConfig(vocab_size=tokenizer.get_vocab_size(),
                                     max_position_embeddings=max_position, **shape)
    transformers.utils.logging.disable_progress_bar()
    transformers.BertModel(config).save_pretrained(folder)
    fast.save_pretrained(folder)


def machine(device: str, threads: int) -> str:
    """The machine in words: the GPU or the CPU, torch and CUDA versions, threads.

    Parameters
    ----------
    device : str
        "cpu" or "cuda".
    threads : int
        Torch CPU threads.

    Returns
    -------
    str
        One line.
    """
    import torch
    import transformers

    cpu = platform.processor() or platform.machine()
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in
                   Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    where = (f"{torch.cuda.get_device_name(0)}, CUDA {torch.version.cuda}" if device == "cuda"
             else f"{cpu}, {threads} of {os.cpu_count()} cores")
    return (f"{where}; Python {platform.python_version()}, torch {torch.__version__}, "
            f"transformers {transformers.__version__}")


def measure(size: str, device: str, n_train: int, n_test: int, epochs: int, batch_size: int,
            max_length: int, threads: int) -> dict:
    """Build the model, then featurize, fit and predict through the tagger, timed.

    Parameters
    ----------
    size : str
        A key of :data:`SIZES`.
    device : str
        "cpu" or "cuda".
    n_train, n_test : int
        Training and test sentences.
    epochs, batch_size, max_length, threads : int
        The tagger's hyperparameters.

    Returns
    -------
    dict
        The row's values.
    """
    from reprocompare.corpora.conll import read_conll
    from reprocompare.corpora.scoring import count_chunks
    from reprocompare.models import build_model, parse_spec

    train = read_conll(ROOT / "data" / "conll2000" / "train.txt.gz")
    test = read_conll(ROOT / "data" / "conll2000" / "test.txt.gz")
    X, y = train.sentences[:n_train], train.tags[:n_train]
    X_test, y_test = test.sentences[:n_test], test.tags[:n_test]
    with tempfile.TemporaryDirectory() as folder:
        build_bert(Path(folder), [" ".join(s.tokens) for s in X], **SIZES[size])
        model = build_model(parse_spec(
            f"transformers:model={folder},epochs={epochs},batch_size={batch_size},"
            f"max_length={max_length},learning_rate=0.0005,device={device},"
            f"num_threads={threads}"), random_state=0)
        started = time.perf_counter()
        features = model.featurize(X + X_test)
        featurize_seconds = time.perf_counter() - started
        train_rows, test_rows = features.take(range(len(X))), features.take(
            range(len(X), len(X) + len(X_test)))
        started = time.perf_counter()
        model.fit(train_rows, y, corpus_scheme=train.scheme)
        sync(device)
        fit_seconds = time.perf_counter() - started
        started = time.perf_counter()
        predicted = model.predict(test_rows)
        sync(device)
        predict_seconds = time.perf_counter() - started
    f1 = count_chunks(y_test, predicted).f1()
    shape = SIZES[size]
    return {"model": f"{size} ({shape['num_hidden_layers']} x {shape['hidden_size']})",
            "device": device, "machine": machine(device, threads), "train sentences": len(X),
            "epochs": epochs,
            "featurize (sentences/s)": f"{(len(X) + len(X_test)) / featurize_seconds:,.0f}",
            "train (sentences/s)": f"{len(X) * epochs / fit_seconds:,.1f}",
            "predict (sentences/s)": f"{len(X_test) / predict_seconds:,.1f}",
            "chunk F1": f"{f1:.3f}"}


def sync(device: str) -> None:
    """Wait for the GPU's queued work, so that a time covers it.

    Parameters
    ----------
    device : str
        "cpu" or "cuda".
    """
    if device == "cuda":
        import torch

        torch.cuda.synchronize()


def table(rows: list[dict]) -> str:
    """The Markdown table of ``rows``.

    Parameters
    ----------
    rows : list of dict
        Rows keyed by :data:`HEADER`.

    Returns
    -------
    str
        The table, a newline after each line.
    """
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(str(row[h]) for h in HEADER) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def written_rows() -> list[dict]:
    """The rows RESULTS.md holds between the markers (none before the first ``--write``).

    Returns
    -------
    list of dict
        Rows keyed by :data:`HEADER`.
    """
    text = RESULTS.read_text(encoding="utf-8")
    if BEGIN not in text:
        return []
    body = text.split(BEGIN, 1)[1].split(END, 1)[0]
    rows = []
    for line in body.splitlines()[2:]:
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == len(HEADER):
            rows.append(dict(zip(HEADER, cells)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", choices=sorted(SIZES), default="tiny")
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--train", type=int, default=1000, help="training sentences (1000)")
    parser.add_argument("--test", type=int, default=500, help="test sentences (500)")
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--max-length", type=int, default=128)
    parser.add_argument("--threads", type=int, default=1,
                        help="torch CPU threads (1, as a workflow job on one core)")
    parser.add_argument("--write", action="store_true", help="update benchmarks/RESULTS.md")
    parser.add_argument("--job-size", action="store_true",
                        help="also print what a job needs: wall seconds, the process's peak "
                             "resident memory and the GPU memory torch allocated")
    args = parser.parse_args()
    started = time.perf_counter()
    row = measure(args.size, args.device, args.train, args.test, args.epochs, args.batch_size,
                  args.max_length, args.threads)
    print(table([row]), end="")
    if args.job_size:
        import resource

        import torch

        gpu = torch.cuda.max_memory_allocated() / 2**20 if args.device == "cuda" else 0.0
        print(f"job size: {time.perf_counter() - started:.1f} s in all, peak memory "
              f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB, GPU memory "
              f"{gpu:.0f} MB ({args.train} sentences, {args.epochs} epochs, batches of "
              f"{args.batch_size})")
    if args.write:
        if BEGIN not in RESULTS.read_text(encoding="utf-8"):
            raise SystemExit(f"{RESULTS} has no '{BEGIN.strip()}' marker")
        key = ("model", "device", "machine")
        rows = [r for r in written_rows() if [r[k] for k in key] != [row[k] for k in key]]
        replace_between(RESULTS, BEGIN, END, table(rows + [row]))


if __name__ == "__main__":
    main()
