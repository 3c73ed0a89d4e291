"""Block-regularized m x 2 BCV (issue 51): what it costs, and how far it lowers the divergence.

    nice -n 19 .venv/bin/python benchmarks/bench_regularized_bcv.py --cost --seeds 5
    nice -n 19 .venv/bin/python benchmarks/bench_regularized_bcv.py --divergence \
        --json benchmarks/runs/regularized_bcv.json

--cost: seconds to split the whole CoNLL-2000 training set (8,936 sentences) into a 3 x 2 BCV,
plain and regularized, each with its own seed (the tags' features included, as every job computes
them); wall and CPU time of this process, median over the seeds.

--divergence: on the same split seeds (repetition_seed(0, "bcv", r), r = 0 .. R - 1), the mean
over the 6 folds of the train/validation divergence (:mod:`reprocompare.strategies.regularized_bcv`:
JS divergence of the positional-tag distributions plus that of the sentence lengths, bits), and
of its tag part alone, for plain and regularized BCV: mean and 90th percentile over the R
repetitions, on CoNLL-2000 chunking (data/conll2000/train.txt.gz) and CoNLL-2002 Spanish NER
(data/conll2002/esp.train.gz, research-only, read where it lies), each at 1,200 sentences
(subsample seed 0, the size studies' sample) and whole. Nothing was tuned on CoNLL-2002: the
search's settings were fixed on CoNLL-2000 before it was read.

--study DIR: a study with both strategies (config/study-regularized-chunking.yaml): the SNR of
Avg, Vote and the mixture and of rAvg, rVote and rMixture, and the ratio of each pair's variances
(regularized over plain) with a 95% interval, paired by repetition (bootstrap over the R pairs,
10,000 resamples, seed 0; the two strategies' splits are drawn from independent seeds, so the
pairing is by index, and the F interval of two independent samples is given beside it).

--calibration STUDIES: the size of the 3 x 2 BCV's tests on fold differences correlated as the
plain and as the regularized BCV's (issue 51, item 4), by bench_calibration.py's simulation.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from scipy import stats

from reprocompare.base.files import read_json
from reprocompare.base.paths import CLAIMS_SUFFIX, SUMMARIES
from reprocompare.base.run_records import read_repetitions
from reprocompare.corpora.conll import read_conll
from reprocompare.corpora.subsample import subsample
from reprocompare.estimators.reproducibility import snr
from reprocompare.splitters.document import repetition_seed
from reprocompare.splitters.drawing import bcv_layout
from reprocompare.strategies.regularized_bcv import Balance, regularized_layout

ROOT = Path(__file__).resolve().parents[1]
CORPORA = {"CoNLL-2000 chunking": ROOT / "data" / "conll2000" / "train.txt.gz",
           "CoNLL-2002 Spanish NER": ROOT / "data" / "conll2002" / "esp.train.gz"}


def cost(seeds: int) -> dict:
    corpus = read_conll(CORPORA["CoNLL-2000 chunking"])
    tags = corpus.tags
    out = {"sentences": len(tags), "plain": [], "regularized": []}
    for seed in range(seeds):
        for what in ("plain", "regularized"):
            wall, cpu = time.perf_counter(), time.process_time()
            if what == "plain":
                bcv_layout(len(tags), m=3, random_state=seed)
            else:
                regularized_layout(len(tags), m=3, tags=tags, random_state=seed)
            out[what].append({"wall_s": time.perf_counter() - wall,
                              "cpu_s": time.process_time() - cpu})
    for what in ("plain", "regularized"):
        out[f"{what}_median_wall_s"] = statistics.median(r["wall_s"] for r in out[what])
        out[f"{what}_median_cpu_s"] = statistics.median(r["cpu_s"] for r in out[what])
        out[f"{what}_max_cpu_s"] = max(r["cpu_s"] for r in out[what])
    return out


def _summary(values) -> dict:
    values = np.asarray(values)
    return {"mean": float(values.mean()), "p90": float(np.quantile(values, 0.9))}


def divergence(repetitions: dict[str, int], only: str | None = None) -> list[dict]:
    rows = []
    for name, path in CORPORA.items():
        if only and only not in name:
            continue
        # repaired as the studies read it (one ill-formed IOB2 sentence in CoNLL-2002 Spanish)
        whole = read_conll(path, ill_formed="repair")
        for size, corpus in (("1,200", subsample(whole, 1200, 0)), ("whole", whole)):
            tags = corpus.tags
            balance = Balance(tags)
            n = len(tags)
            found = {f"{what}_{part}": [] for what in ("plain", "regularized")
                     for part in ("total", "tags")}
            seconds = []
            for r in range(repetitions[size]):
                seed = repetition_seed(0, "bcv", r)
                plain = bcv_layout(n, m=3, random_state=seed)[1]
                started = time.process_time()
                regularized = regularized_layout(n, m=3, tags=tags, random_state=seed,
                                                 balance=balance)[1]
                seconds.append(time.process_time() - started)
                for what, folds in (("plain", plain), ("regularized", regularized)):
                    found[f"{what}_total"].append(
                        np.mean([balance.divergence(t, v) for t, v in folds]))
                    found[f"{what}_tags"].append(
                        np.mean([balance.tag_divergence(t, v) for t, v in folds]))
            row = {"corpus": name, "size": size, "sentences": n,
                   "repetitions": repetitions[size],
                   "search_cpu_s_median": statistics.median(seconds),
                   **{key: _summary(values) for key, values in found.items()}}
            for part in ("total", "tags"):
                row[f"ratio_{part}"] = (row[f"regularized_{part}"]["mean"]
                                        / row[f"plain_{part}"]["mean"])
            rows.append(row)
            print(json.dumps(row), flush=True)
    return rows


def markdown(rows: list[dict]) -> str:
    lines = ["| corpus | sentences | R | plain: mean / p90 | regularized: mean / p90 | ratio "
             "| tags alone: plain / regularized (mean) | ratio |",
             "|---|---:|---:|---|---|---:|---|---:|"]
    for r in rows:
        lines.append(
            f"| {r['corpus']} | {r['sentences']:,} | {r['repetitions']} "
            f"| {r['plain_total']['mean']:.2e} / {r['plain_total']['p90']:.2e} "
            f"| {r['regularized_total']['mean']:.2e} / {r['regularized_total']['p90']:.2e} "
            f"| {r['ratio_total']:.3f} "
            f"| {r['plain_tags']['mean']:.2e} / {r['regularized_tags']['mean']:.2e} "
            f"| {r['ratio_tags']:.3f} |")
    return "\n".join(lines)


#: the plain BCV's Table 4 estimators beside the regularized one's, in table order
PAIRS = (("Avg", "rAvg"), ("Vote", "rVote"), ("Mixture", "rMixture"))


def comparisons(directory: Path) -> list[tuple[str, dict, Path]]:
    """A study's comparisons: "corpus/comparison", its summary record and its compare folder,
    all read from what a clean clone holds (the summaries and each strategy's records.jsonl)."""
    found = []
    for path in sorted(directory.glob(f"{SUMMARIES}/*/*.json")):
        if path.name.endswith(CLAIMS_SUFFIX):
            continue
        corpus, comparison = path.parent.name, path.stem
        found.append((f"{corpus}/{comparison}", read_json(path),
                      directory / "results" / "compare" / corpus / comparison))
    return found


def variance_ratios(name: str, record: dict, rng: np.random.Generator) -> list[dict]:
    """Each pair's SNRs and the ratio of its variances (regularized over plain) with the F
    interval of two independent samples and a bootstrap over the R repetition pairs."""
    rows = []
    for plain, regular in PAIRS:
        a, b = (np.asarray(record["values"][e], dtype=float) for e in (plain, regular))
        r = min(len(a), len(b))
        a, b = a[:r], b[:r]
        ratio = np.var(b, ddof=1) / np.var(a, ddof=1)
        picks = rng.integers(0, r, size=(10_000, r))
        boot = np.var(b[picks], axis=1, ddof=1) / np.var(a[picks], axis=1, ddof=1)
        f_low, f_high = (ratio / stats.f.ppf(0.975, r - 1, r - 1),
                         ratio / stats.f.ppf(0.025, r - 1, r - 1))
        rows.append({"comparison": name, "plain": plain, "regularized": regular, "R": r,
                     "mean_plain": float(a.mean()), "mean_regularized": float(b.mean()),
                     "sd_plain": float(a.std(ddof=1)), "sd_regularized": float(b.std(ddof=1)),
                     "snr_plain": float(snr(a, "A>B")), "snr_regularized": float(snr(b, "A>B")),
                     "variance_ratio": float(ratio),
                     "bootstrap_95": [float(np.quantile(boot, 0.025)),
                                      float(np.quantile(boot, 0.975))],
                     "f_95": [float(f_low), float(f_high)]})
    return rows


def fold_correlations(name: str, where: Path) -> list[dict]:
    """Item 4's question: the correlation of the 6 fold differences of a 3 x 2 BCV over the
    repetitions, within a 2-fold CV (rho1: folds 2r and 2r + 1) and between two (rho2), from the
    6 x 6 covariance over the R repetitions (each pair's covariance over the mean variance)."""
    rows = []
    for strategy in ("bcv", "regularized-bcv"):
        found = read_repetitions(where / strategy)
        folds = np.array([found[r]["estimates.json"]["fold_differences"] for r in sorted(found)])
        if len(folds) < 3:
            continue
        covariance = np.cov(folds, rowvar=False)
        scale = np.mean(np.diag(covariance))
        within = [covariance[2 * r, 2 * r + 1] for r in range(3)]
        between = [covariance[i, j] for i in range(6) for j in range(i + 1, 6) if i // 2 != j // 2]
        rows.append({"comparison": name, "strategy": strategy, "R": len(folds),
                     "fold_sd": float(np.sqrt(scale)),
                     "rho1": float(np.mean(within) / scale), "rho2": float(np.mean(between) / scale)})
    return rows


def study(directory: Path) -> list[dict]:
    """--study DIR: every comparison's fold correlations, then its pairs' variance ratios (one
    bootstrap generator per comparison, seed 0), each row printed as JSON as it comes."""
    rows = []
    for name, record, where in comparisons(directory):
        found = fold_correlations(name, where) + variance_ratios(name, record,
                                                                 np.random.default_rng(0))
        for row in found:
            print(json.dumps(row), flush=True)
        rows.extend(found)
    return rows


def calibration(studies: int) -> list[dict]:
    """Item 4: the size at alpha 0.05 of the 3 x 2 BCV's tests on fold differences correlated as
    the plain BCV's (rho1 = -0.2, rho2 = 0) and as the regularized BCV's were measured (rho1 =
    0.2, rho2 = 0), by benchmarks/bench_calibration.py's own simulation."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_calibration  # noqa: E402 (a script beside this one, not a package)

    rows = []
    for rho1, rho2 in ((-0.2, 0.0), (0.2, 0.0)):
        for law in ("normal", "skewed"):
            row = {"rho1": rho1, "rho2": rho2, "law": law,
                   **bench_calibration.bcv_tests(studies, law, 0.0, rho1, rho2)}
            rows.append(row)
            print(json.dumps(row), flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cost", action="store_true")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--divergence", action="store_true")
    parser.add_argument("--repetitions", type=int, nargs=2, default=[100, 20],
                        metavar=("AT_1200", "WHOLE"))
    parser.add_argument("--corpus", help="only the corpora whose name holds this")
    parser.add_argument("--study", type=Path, metavar="DIR")
    parser.add_argument("--calibration", type=int, metavar="STUDIES", default=0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    result = {}
    if args.cost:
        result["cost"] = cost(args.seeds)
        print(json.dumps({k: v for k, v in result["cost"].items()
                          if not isinstance(v, list)}), flush=True)
    if args.divergence:
        result["divergence"] = divergence({"1,200": args.repetitions[0],
                                           "whole": args.repetitions[1]}, args.corpus)
        print(markdown(result["divergence"]))
    if args.study:
        result["study"] = study(args.study)
    if args.calibration:
        result["calibration"] = calibration(args.calibration)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
