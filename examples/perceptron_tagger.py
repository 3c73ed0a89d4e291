#!/usr/bin/env python3
"""A standalone sequence tagger: greedy averaged perceptron, pure Python, reading CoNLL.

It knows nothing about reprocompare; it is what a tagger from any framework looks like to
``type: command``::

    python examples/perceptron_tagger.py train TRAIN.conll MODEL_DIR [--seed N] [--iterations N]
    python examples/perceptron_tagger.py predict MODEL_DIR INPUT.conll OUTPUT.conll

``train`` reads "token, extra columns..., tag" lines (a blank line between sentences) and writes
MODEL_DIR/model.json; ``predict`` reads "token, extra columns..." lines and writes "token tag"
lines. Left-to-right greedy decoding with the previous two tags as features (Collins 2002;
averaging as in Honnibal's "A good part-of-speech tagger in about 200 lines of Python").

Used in a comparison::

    reprocompare compare data.conll --strategy bcv --out out/ \\
      --a crf \\
      --b 'command:train="python examples/perceptron_tagger.py train {train} {model_dir} --seed {seed}",predict="python examples/perceptron_tagger.py predict {model_dir} {input} {output}"'
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections import defaultdict


def read_conll(path: str, *, tagged: bool) -> list[tuple[list[list[str]], list[str]]]:
    """Sentences as (rows of columns without the tag, tags or [])."""
    sentences, rows, tags = [], [], []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            fields = line.split()
            if not fields:
                if rows:
                    sentences.append((rows, tags))
                    rows, tags = [], []
                continue
            if tagged:
                rows.append(fields[:-1])
                tags.append(fields[-1])
            else:
                rows.append(fields)
    if rows:
        sentences.append((rows, tags))
    return sentences


def _shape(word: str) -> str:
    shape = "".join("X" if c.isupper() else "x" if c.islower() else "d" if c.isdigit() else c
                    for c in word)
    squeezed = []
    for c in shape:
        if not squeezed or squeezed[-1] != c:
            squeezed.append(c)
    return "".join(squeezed)


def features(rows: list[list[str]], i: int, prev: str, prev2: str) -> list[str]:
    word = rows[i][0]
    lower = word.lower()
    out = ["bias", f"w={lower}", f"suf3={lower[-3:]}", f"pre1={lower[:1]}", f"shape={_shape(word)}",
           f"t-1={prev}", f"t-2,t-1={prev2},{prev}", f"t-1,w={prev},{lower}",
           f"w-1={rows[i - 1][0].lower() if i else '<s>'}",
           f"w+1={rows[i + 1][0].lower() if i + 1 < len(rows) else '</s>'}"]
    for j, value in enumerate(rows[i][1:]):  # extra columns (POS): the value and its neighbours
        out.append(f"c{j}={value}")
        out.append(f"c{j}-1={rows[i - 1][j + 1] if i else '<s>'}")
        out.append(f"c{j}+1={rows[i + 1][j + 1] if i + 1 < len(rows) else '</s>'}")
    return out


class Perceptron:
    def __init__(self, labels: list[str]):
        self.labels = labels
        self.weights: dict[str, dict[str, float]] = defaultdict(dict)
        self._totals: dict[tuple[str, str], float] = defaultdict(float)
        self._stamps: dict[tuple[str, str], int] = defaultdict(int)
        self.step = 0

    def best(self, feats: list[str]) -> str:
        scores = dict.fromkeys(self.labels, 0.0)
        for f in feats:
            for label, weight in self.weights.get(f, {}).items():
                scores[label] += weight
        return max(self.labels, key=lambda label: (scores[label], label))

    def update(self, truth: str, guess: str, feats: list[str]) -> None:
        self.step += 1
        if truth == guess:
            return
        for f in feats:
            for label, delta in ((truth, 1.0), (guess, -1.0)):
                key = (f, label)
                weight = self.weights[f].get(label, 0.0)
                self._totals[key] += (self.step - self._stamps[key]) * weight
                self._stamps[key] = self.step
                self.weights[f][label] = weight + delta

    def average(self) -> None:
        for f, by_label in self.weights.items():
            for label, weight in list(by_label.items()):
                key = (f, label)
                total = self._totals[key] + (self.step - self._stamps[key]) * weight
                by_label[label] = round(total / max(self.step, 1), 6)


def tag(model: Perceptron, rows: list[list[str]]) -> list[str]:
    prev, prev2, tags = "<s>", "<s>", []
    for i in range(len(rows)):
        guess = model.best(features(rows, i, prev, prev2))
        tags.append(guess)
        prev2, prev = prev, guess
    return tags


def train(args) -> None:
    sentences = read_conll(args.train, tagged=True)
    if not sentences:
        sys.exit(f"{args.train}: no sentences")
    labels = sorted({t for _, tags in sentences for t in tags})
    model = Perceptron(labels)
    rng = random.Random(args.seed)
    order = list(range(len(sentences)))
    for _ in range(args.iterations):
        rng.shuffle(order)
        for s in order:
            rows, gold = sentences[s]
            prev, prev2 = "<s>", "<s>"
            for i in range(len(rows)):
                feats = features(rows, i, prev, prev2)
                model.update(gold[i], model.best(feats), feats)
                prev2, prev = prev, gold[i]  # gold history while training (teacher forcing)
    model.average()
    weights = {f: {k: v for k, v in w.items() if v} for f, w in model.weights.items()}
    with open(os.path.join(args.model_dir, "model.json"), "w", encoding="utf-8") as out:
        json.dump({"labels": labels, "weights": {f: w for f, w in weights.items() if w}}, out)


def predict(args) -> None:
    with open(os.path.join(args.model_dir, "model.json"), encoding="utf-8") as handle:
        saved = json.load(handle)
    model = Perceptron(saved["labels"])
    model.weights.update(saved["weights"])
    with open(args.output, "w", encoding="utf-8") as out:
        for rows, _ in read_conll(args.input, tagged=False):
            for row, label in zip(rows, tag(model, rows)):
                out.write(f"{row[0]} {label}\n")
            out.write("\n")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train")
    t.add_argument("train")
    t.add_argument("model_dir")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--iterations", type=int, default=5)
    p = sub.add_parser("predict")
    p.add_argument("model_dir")
    p.add_argument("input")
    p.add_argument("output")
    args = parser.parse_args(argv)
    train(args) if args.command == "train" else predict(args)


if __name__ == "__main__":
    main()
