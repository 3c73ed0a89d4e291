"""How much the committed studies' samples of one corpus overlap, and how far their results
spread between samples (issue 38, item 2).

    .venv/bin/python studies/sample_overlap.py        # two Markdown tables to stdout

The samples of a size study are either the disjoint parts of one seed (`subsample_part` 0, 1,
2: no sentence in two of them) or, where the corpus holds no three disjoint samples of a size,
draws of several seeds (`subsample_seed` 0-2): independent draws, not disjoint sets, so two
samples of n of N sentences share about n / N of their sentences. Each corpus.json records what
a reader needs to check it (the source's sha256 and size, the sample's size, seed and part);
this script redraws every sample from those records with the workflow's own draw
(reprocompare.corpora.subsample.subsample) and measures the overlap, and names the studies that
hold the very same sample.

The second table sets the spread of Avg's mean difference between the samples of one size (their
standard deviation) beside one study's own standard error of it (the SD of its R estimates over
sqrt(R), averaged over the samples): a study's intervals describe re-splits of its one sample,
not new data, and where the spread between samples is the larger, a one-corpus study's
conclusion is about its corpus, not about the population of corpora it was drawn from.
"""

from __future__ import annotations

import itertools
import json
import statistics
from collections import defaultdict
from pathlib import Path

from reprocompare.base.markdown import md_table
from reprocompare.base.paths import CLAIMS_SUFFIX
from reprocompare.corpora.conll import Corpus
from reprocompare.corpora.subsample import subsample

HERE = Path(__file__).resolve().parent


def samples() -> dict[tuple[str, str, int, int], dict[tuple[int, int], list[str]]]:
    """(source, its sha256, its sentences, sample size) -> (seed, part) -> the study/corpus
    names of it."""
    found: dict = defaultdict(lambda: defaultdict(list))
    for path in sorted(HERE.glob("*/results/corpora/*/corpus.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        if record.get("subsample"):
            key = (record["source"], record["source_sha256"], record["source_sentences"],
                   record["subsample"])
            drawn_as = (record["subsample_seed"], record.get("subsample_part", 0))
            found[key][drawn_as].append(f"{path.parts[-5]}/{path.parts[-2]}")
    return found


def drawn(total: int, n: int, seed: int, part: int = 0) -> set[int]:
    """The sentence numbers of a sample, drawn as the workflow draws it."""
    return set(subsample(Corpus("", tuple(range(total)), "IOB2", ""), n, seed,
                         part).sentences)


def table() -> str:
    rows = []
    for (source, sha, total, n), by_seed in sorted(samples().items(),
                                                    key=lambda kv: (kv[0][0], kv[0][3])):
        sets = {key: drawn(total, n, *key) for key in by_seed}
        shared = [len(sets[a] & sets[b]) / n for a, b in itertools.combinations(sorted(sets), 2)]
        overlap = ("-" if not shared else f"{100 * min(shared):.1f}%" if min(shared) == max(shared)
                   else f"{100 * min(shared):.1f}-{100 * max(shared):.1f}%")
        same = "; ".join(" = ".join(names) for names in by_seed.values() if len(names) > 1)
        kind, expected = _drawn_as(sorted(by_seed), n, total)
        rows.append([f"`{source}` ({total:,} sentences, sha256 `{sha[:12]}`)", f"{n:,}", kind,
                     overlap, expected, same or "-"])
    return "\n".join(md_table(["source corpus", "sample size", "samples",
                               "shared by two samples (measured)", "expected",
                               "one sample in several studies"], rows)) + "\n"


def _drawn_as(keys: list[tuple[int, int]], n: int, total: int) -> tuple[str, str]:
    """How the samples of one size were drawn, and the share two of them are expected to
    share: none for the parts of one seed, about n / N for draws of several seeds."""
    seeds = sorted({seed for seed, _ in keys})
    if len(keys) == 1:
        return "1", "-"
    if len(seeds) == 1:
        return f"{len(keys)} disjoint parts of seed {seeds[0]}", "0 (disjoint)"
    if len(seeds) == len(keys):
        return (f"{len(keys)} seeds ({', '.join(map(str, seeds))}), overlapping",
                f"{100 * n / total:.1f}% (n / N)")
    return f"{len(keys)} (seed, part): {', '.join(map(str, keys))}", "-"


def spread() -> str:
    """Between-sample SD of Avg's mean A - B against one study's standard error, per size."""
    by_size: dict = defaultdict(list)
    for path in sorted(HERE.glob("size-*/results/summaries/*/*.json")):
        if path.name.endswith(CLAIMS_SUFFIX):
            continue
        summary = json.loads(path.read_text(encoding="utf-8"))["summary"]
        avg = summary["estimators"]["Avg"]
        by_size[(path.parts[-5], summary["sentences"])].append(
            (avg["mean"], avg["sd"] / avg["repetitions"] ** 0.5))
    rows = []
    for (study, n), found in sorted(by_size.items()):
        means = [mean for mean, _ in found]
        between = statistics.stdev(means) if len(means) > 1 else float("nan")
        within = statistics.fmean(se for _, se in found)
        rows.append([study, f"{n:,}", len(found),
                     ", ".join(f"{100 * m:+.2f}" for m in means),
                     f"{100 * between:.3f}", f"{100 * within:.3f}",
                     f"{between / within:.1f}"])
    return "\n".join(md_table(["study", "sentences", "samples", "Avg's mean A - B per sample "
                               "(F1 points)", "SD between samples", "a study's standard error "
                               "(mean over samples)", "ratio"], rows)) + "\n"


if __name__ == "__main__":
    print(table())
    print(spread(), end="")
