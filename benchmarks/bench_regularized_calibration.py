"""Calibration of every interval and test under the block-regularized BCV's correlation
(issue 51, item 4): benchmarks/RESULTS.md, docs/statistics.md and docs/regularized_calibration.png.

    nice -n 19 .venv/bin/python benchmarks/bench_regularized_calibration.py --fresh 200  # resumable
    nice -n 19 .venv/bin/python benchmarks/bench_regularized_calibration.py --studies 2000 --write
    .venv/bin/python benchmarks/bench_regularized_calibration.py --check   # the blocks as written?

1. **Correlation** (always; seconds). The 6 fold differences A - B of a 3 x 2 BCV have one
   variance, a correlation rho1 between the two folds of one 2-fold CV (a replication: disjoint
   training sets) and rho2 between folds of two replications (training sets sharing n/4), the
   structure of Wang et al. (2014) that the blocked 3 x 2 t rests on. Estimated from each study's
   records (``records.jsonl``: the fold differences of every repetition) by the 6 x 6 covariance
   over the R repetitions, each pair's covariance over the mean variance, rho1 the mean of the 3
   within-replication pairs and rho2 of the 12 others; kappa = rho1 + 4 rho2, which fixes
   Var(Avg) = sigma^2 (1 + kappa) / 6; C^2 = (1 + kappa) / (5 - kappa), the blocked t's variance
   inflation, also measured directly as Var(Avg) over the mean of sigma_hat^2 over repetitions.
   Intervals: percentile bootstrap over repetitions (4,000 resamples, seed 0; pooled estimates
   resample within each study). Sources: the two committed regularized studies, both arms on
   identical repetition indices, the plain BCV studies of the same samples and comparisons
   (studies/size-*: three 1,200-sentence samples each) and, with ``--fresh R``, a cheap fresh
   comparison (majority taggers trained in IOB2 against IOBES on CoNLL-2000's size-study sample
   of 1,200 sentences, the plain and the regularized 3 x 2 BCV on the same split seeds; the
   majority taggers train in milliseconds, so R can be large). The fresh run appends one JSON
   line per repetition to benchmarks/runs/regularized_fresh.jsonl and skips those already there.

2. **Simulation** (``--studies N``). N simulated studies per cell, vectorized, seeded per cell.
   A repetition draws 6 fold differences d = mu + sigma L g, L the symmetric root of the 3 x 2
   BCV correlation at (rho1, rho2), g independent standardized draws of a law (normal, or a
   Gamma(2) standardized, skewness 1.41, as benchmarks/bench_calibration.py); Avg = mean(d);
   Vote = its measured relation to Avg (correlation, sd ratio and mean offset in Avg's sds,
   measured on the same studies), with an independent draw of the same law; the Mixture is
   Eq. 8 for "A > B". The truth of each estimator (mean, SNR, P(x > 0)) is computed from
   4,000,000 repetitions of the cell's model (seed 99). Per study of R repetitions, every
   interval Table 4 prints at a fixed R (estimators/reproducibility.py, summary.interval_fields):
   the Student t interval of the mean; the exact SNR interval (noncentral t inversion,
   ``snr_exact_interval``), judged by the equivalent event alpha/2 <= F_nct(T; R - 1,
   sqrt(R) theta) <= 1 - alpha/2 (the inversion's own definition, so one cdf per study, not two
   root searches; a few studies per cell are replayed through ``snr_exact_interval`` itself
   as a check); the reproducibility interval Phi(SNR) of estimators.verdict (the SNR interval
   mapped by Phi) against the true P(x > 0); the Clopper-Pearson interval of the share of
   repetitions > 0; the reproducibility interval the verdict prints, Phi(SNR)'s while the
   normal model stands (estimators.normality: Shapiro-Wilk at 0.05 from R = 15) and the
   share's off it. The tests the strategy feeds, on every repetition at SNR 0 and on both BCVs:
   ``regularized_paired_t_mx2`` and ``regularized_combined_f_mx2`` (the m x 2 t and F on its
   folds), ``regularized_blocked_3x2_t`` (the blocked 3 x 2 t with the constant C and degrees of
   freedom of strategies/regularized_bcv.py), beside the authors' blocked t (C = 1, 5 df): size
   at alpha 0.05 over all N R repetitions of the cell (a test reads one repetition, so its size
   does not depend on R; it is printed per R as measured), and the coverage of the claims
   table's Clopper-Pearson interval of the share of repetitions that declare "A significantly
   better" (its truth from the 4,000,000 repetitions).
   Monte Carlo standard errors: sqrt(p (1 - p) / trials).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import sys
import time
from pathlib import Path

import numpy as np
import scipy
from scipy import special, stats

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reprocompare.estimators.normality import SHAPIRO_FROM, SHAPIRO_LEVEL  # noqa: E402
from reprocompare.estimators.reproducibility import snr_exact_interval  # noqa: E402
from reprocompare.estimators.significance import (blocked_3x2_t, combined_f_mx2,  # noqa: E402
                                                  paired_t_mx2)
from reprocompare.strategies import regularized_bcv  # noqa: E402
# bench_calibration.py's 3 x 2 BCV correlation root: the plain BCV's simulation, the same draws
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_calibration import bcv_covariance_root  # noqa: E402 (a script beside this one)

RESULTS = ROOT / "benchmarks" / "RESULTS.md"
DOCS = ROOT / "docs" / "statistics.md"
FIGURE = ROOT / "docs" / "regularized_calibration"
FRESH = ROOT / "benchmarks" / "runs" / "regularized_fresh.jsonl"
BEGIN, END = "<!-- regularized-calibration:begin -->", "<!-- regularized-calibration:end -->"
DOC_BEGIN, DOC_END = ("<!-- regularized-calibration-docs:begin -->",
                      "<!-- regularized-calibration-docs:end -->")
ALPHA, CONFIDENCE = 0.05, 0.95
REPETITIONS = (5, 10, 20, 100, 500, 1000)
SNRS = (0.0, 0.84, 2.0)
LAWS = ("normal", "skewed")
GAMMA_SHAPE = 2.0
BOOTSTRAP = 4000
STUDIES = {"chunking": ROOT / "studies" / "regularized-chunking" / "results" / "compare"
           / "conll2000_n1200_s0" / "crf_iob2_vs_iobes",
           "NER": ROOT / "studies" / "regularized-ner" / "results" / "compare"
           / "conll2002_esp_n1200_s0" / "crf_iobes_vs_iob2"}
SIZE_STUDIES = {"chunking": ROOT / "studies" / "size-chunking" / "results" / "compare",
                "NER": ROOT / "studies" / "size-ner" / "results" / "compare"}


# ---- 1. the correlation of the fold differences ----------------------------------------------

def study_records(strategy_dir: Path) -> list[dict]:
    """Each repetition's estimates.json, in repetition order, from the committed records.jsonl."""
    lines = (strategy_dir / "records.jsonl").read_text().splitlines()
    records = sorted((json.loads(line) for line in lines if line.strip()),
                     key=lambda r: r["repetition"])
    return [r["estimates.json"] for r in records]


def structure(folds: np.ndarray) -> dict:
    """rho1, rho2, kappa and C^2 (both ways) of fold differences of shape (R, 6)."""
    covariance = np.cov(folds, rowvar=False)
    scale = float(np.mean(np.diag(covariance)))
    within = np.mean([covariance[2 * r, 2 * r + 1] for r in range(3)]) / scale
    between = np.mean([covariance[i, j] for i in range(6) for j in range(i + 1, 6)
                       if i // 2 != j // 2]) / scale
    avg = folds.mean(axis=1)
    sigma2 = ((folds - avg[:, None]) ** 2).mean(axis=1)
    kappa = within + 4 * between
    return {"rho1": float(within), "rho2": float(between), "kappa": float(kappa),
            "c2": float((1 + kappa) / (5 - kappa)),
            "c2_direct": float(np.var(avg, ddof=1) / sigma2.mean())}


def correlation(groups: list[np.ndarray], seed: int = 0) -> dict:
    """The pooled structure of one or more studies' fold differences (each (R, 6)), with
    bootstrap intervals (repetitions resampled within each study; a study's covariance is
    scaled by its own mean variance, and the pooled rho is the R - 1 weighted mean)."""
    def pooled(samples):
        found = [structure(s) for s in samples]
        weights = np.array([len(s) - 1 for s in samples], dtype=float)
        out = {k: float(np.average([f[k] for f in found], weights=weights))
               for k in ("rho1", "rho2", "c2_direct")}
        out["kappa"] = out["rho1"] + 4 * out["rho2"]
        out["c2"] = (1 + out["kappa"]) / (5 - out["kappa"])
        return out

    point = pooled(groups)
    rng = np.random.default_rng(seed)
    draws = {k: [] for k in point}
    for _ in range(BOOTSTRAP):
        found = pooled([g[rng.integers(0, len(g), len(g))] for g in groups])
        for k, v in found.items():
            draws[k].append(v)
    kappa = np.array(draws["kappa"])
    ends = []
    for low, high in ((0.02, 0.03), (0.97, 0.98)):
        # the ends of kappa's interval, as (rho1, rho2) pairs the bootstrap drew there
        band = (kappa >= np.quantile(kappa, low)) & (kappa <= np.quantile(kappa, high))
        rho1, rho2 = (float(np.mean(np.array(draws[k])[band])) for k in ("rho1", "rho2"))
        ends.append({"rho1": rho1, "rho2": rho2, "kappa": rho1 + 4 * rho2})
    return {"R": int(sum(len(g) for g in groups)), **point,
            **{f"{k}_95": [float(np.quantile(v, 0.025)), float(np.quantile(v, 0.975))]
               for k, v in draws.items()}, "ends": ends}


def vote_relation(records: list[dict]) -> dict:
    """Vote against Avg over repetitions: their correlation, Vote's sd and mean offset in
    Avg's sds."""
    avg = np.array([r["avg"] for r in records])
    vote = np.array([r["vote"] for r in records])
    sd = avg.std(ddof=1)
    return {"corr": float(np.corrcoef(avg, vote)[0, 1]), "sd_ratio": float(vote.std(ddof=1) / sd),
            "offset": float((vote.mean() - avg.mean()) / sd)}


def fresh_records() -> dict[str, np.ndarray]:
    if not FRESH.is_file():
        return {}
    rows = [json.loads(line) for line in FRESH.read_text().splitlines() if line.strip()]
    return {what: np.array([r[what]["fold_differences"] for r in rows])
            for what in ("bcv", "regularized-bcv")} | {
        "records": {what: [r[what] for r in rows] for what in ("bcv", "regularized-bcv")}}


def measure_correlations() -> dict:
    """Every source's structure, the pooled regularized and plain ones the simulation uses."""
    rows, groups, votes = [], {"bcv": [], "regularized-bcv": []}, {"bcv": [], "regularized-bcv": []}
    for task, where in STUDIES.items():
        for strategy in ("bcv", "regularized-bcv"):
            records = study_records(where / strategy)
            folds = np.array([r["fold_differences"] for r in records])
            groups[strategy].append(folds)
            votes[strategy].append(records)
            rows.append({"source": f"{task} (studies/regularized-{task.lower()})",
                         "strategy": strategy, **correlation([folds]),
                         "vote": vote_relation(records)})
    size, size_votes = [], []
    for task, compare in SIZE_STUDIES.items():
        records = [study_records(d) for d in sorted(compare.glob("*_n1200_*/*/bcv"))]
        found = [np.array([r["fold_differences"] for r in rs]) for rs in records]
        size.extend(found)
        size_votes.extend(records)
        rows.append({"source": f"{task} (studies/size-{task.lower()}, {len(found)} samples of "
                               "1,200)", "strategy": "bcv", **correlation(found)})
    fresh = fresh_records()
    if fresh:
        for strategy in ("bcv", "regularized-bcv"):
            rows.append({"source": "fresh: majority IOB2 vs IOBES, CoNLL-2000 1,200",
                         "strategy": strategy, **correlation([fresh[strategy]]),
                         "vote": vote_relation(fresh["records"][strategy])})
    # the simulation's models: the regularized BCV's from its two studies, the plain BCV's
    # from the six 1,200-sentence samples of the size studies (the first of each is the plain
    # arm of the regularized study, the same records)
    pooled = {"regularized-bcv": correlation(groups["regularized-bcv"]), "bcv": correlation(size)}
    for strategy, relations in (("regularized-bcv", votes["regularized-bcv"]),
                                ("bcv", size_votes)):
        weights = [len(v) - 1 for v in relations]
        pooled[strategy]["vote"] = {
            k: float(np.average([vote_relation(v)[k] for v in relations], weights=weights))
            for k in ("corr", "sd_ratio", "offset")}
    return {"rows": rows, "pooled": pooled}


def fresh(repetitions: int) -> None:
    """Item 1's fresh measurement: majority taggers (IOB2 against IOBES) on CoNLL-2000's size-study
    sample of 1,200 sentences, plain and regularized 3 x 2 BCV on the same split seeds
    (repetition_seed(0, "bcv", r)); one JSON line per repetition, resumable."""
    from reprocompare.corpora.conll import read_conll
    from reprocompare.corpora.scoring import count_chunks
    from reprocompare.corpora.subsample import subsample
    from reprocompare.estimators.difference import bcv_estimates, vote_predictions
    from reprocompare.models.majority import MajorityTagger
    from reprocompare.splitters.document import repetition_seed
    from reprocompare.splitters.drawing import bcv_layout

    corpus = subsample(read_conll(ROOT / "data" / "conll2000" / "train.txt.gz"), 1200, 0)
    tags, n = corpus.tags, len(corpus.tags)
    scheme = corpus.scheme
    balance = regularized_bcv.Balance(tags)
    models = {"A": MajorityTagger(scheme="IOB2"), "B": MajorityTagger(scheme="IOBES")}
    features = models["A"].featurize(corpus.sentences)
    done = set()
    if FRESH.is_file():
        done = {json.loads(line)["repetition"] for line in FRESH.read_text().splitlines()
                if line.strip()}
    FRESH.parent.mkdir(parents=True, exist_ok=True)
    for r in range(repetitions):
        if r in done:
            continue
        seed = repetition_seed(0, "bcv", r)
        row = {"repetition": r, "seed": seed}
        for what in ("bcv", "regularized-bcv"):
            if what == "bcv":
                folds = bcv_layout(n, m=3, random_state=seed)[1]
            else:
                folds = regularized_bcv.regularized_layout(n, m=3, tags=tags, random_state=seed,
                                                           balance=balance)[1]
            f1 = {"A": [], "B": []}
            basis = {"A": [[] for _ in range(n)], "B": [[] for _ in range(n)]}
            for train, validation in folds:
                gold = [tags[i] for i in validation]
                for name, model in models.items():
                    model.fit(features.take(train), [tags[i] for i in train],
                              corpus_scheme=scheme)
                    predicted = model.predict(features.take(validation))
                    f1[name].append(count_chunks(gold, predicted).f1())
                    for i, p in zip(validation, predicted):
                        basis[name][i].append(p)
            vote = {name: count_chunks(tags, vote_predictions(basis[name], scheme)).f1()
                    for name in models}
            row[what] = bcv_estimates(f1, vote).as_dict()
        with FRESH.open("a") as out:
            out.write(json.dumps(row) + "\n")
        print(f"fresh repetition {r}: avg {row['bcv']['avg']:+.4f} / "
              f"{row['regularized-bcv']['avg']:+.4f}", file=sys.stderr, flush=True)


# ---- 2. the simulation -----------------------------------------------------------------------

def law_draws(law: str, shape, rng) -> np.ndarray:
    if law == "normal":
        return rng.standard_normal(shape)
    return (rng.gamma(GAMMA_SHAPE, 1.0, shape) - GAMMA_SHAPE) / math.sqrt(GAMMA_SHAPE)


def repetitions(model: dict, law: str, theta: float, shape, rng) -> dict:
    """Simulated repetitions of one strategy's model: fold differences (..., 6), Avg, Vote and
    the Mixture, Avg's SNR ``theta``."""
    rho1, rho2 = model["rho1"], model["rho2"]
    sd_avg = math.sqrt((1 + rho1 + 4 * rho2) / 6)
    mu = theta * sd_avg
    folds = mu + law_draws(law, (*shape, 6), rng) @ bcv_covariance_root(rho1, rho2).T
    avg = folds.mean(axis=-1)
    vote_model = model["vote"]
    c = vote_model["corr"]
    z = (avg - mu) / sd_avg
    vote = (mu + vote_model["offset"] * sd_avg + vote_model["sd_ratio"] * sd_avg
            * (c * z + math.sqrt(1 - c * c) * law_draws(law, shape, rng)))
    return {"folds": folds, "Avg": avg, "Vote": vote, "Mixture": np.where(vote > avg, vote, avg)}


def blocked_constant() -> tuple[float, float]:
    """The constant C and degrees of freedom of strategies/regularized_bcv.py's blocked t
    (1 and 5, the authors' 2014 test, where the module has none)."""
    return (float(getattr(regularized_bcv, "BLOCKED_T_CONSTANT", 1.0)),
            float(getattr(regularized_bcv, "BLOCKED_T_DF", 5.0)))


def tests(folds: np.ndarray) -> dict:
    """Two-sided rejection and "A significantly better" of each test, per repetition (the
    formulas of estimators.significance, vectorized over the leading axes)."""
    p = folds.reshape(*folds.shape[:-1], 3, 2)
    s2 = ((p[..., 0] - p[..., 1]) ** 2) / 2  # (p1 - pbar)^2 + (p2 - pbar)^2
    t_mx2 = p[..., 0, 0] / np.sqrt(s2.mean(axis=-1))
    f = (p ** 2).sum(axis=(-1, -2)) / (2 * s2.sum(axis=-1))
    mean = folds.mean(axis=-1)
    t_blocked = mean / np.sqrt(((folds - mean[..., None]) ** 2).mean(axis=-1))
    constant, df = blocked_constant()
    out = {"paired_t_mx2": (2 * stats.t.sf(np.abs(t_mx2), 3), t_mx2),
           "combined_f_mx2": (stats.f.sf(f, 6, 3), mean),
           "blocked_3x2_t (C = 1, 5 df)": (2 * stats.t.sf(np.abs(t_blocked), 5), t_blocked)}
    if constant != 1.0 or df != 5.0:
        out[f"blocked_3x2_t (C = {constant:.3f}, {df:.2f} df)"] = (
            2 * stats.t.sf(np.abs(t_blocked / constant), df), t_blocked)
    return {name: (pvalue <= ALPHA, (pvalue <= ALPHA) & (direction > 0))
            for name, (pvalue, direction) in out.items()}


def truth(model: dict, law: str, theta: float, draws: int = 4_000_000) -> dict:
    """Each estimator's mean, SNR and P(x > 0), and each test's size and rate of "A
    significantly better", from ``draws`` repetitions (seed 99)."""
    rng = np.random.default_rng(99)
    sums = {}
    chunk = 500_000
    for start in range(0, draws, chunk):
        found = repetitions(model, law, theta, (min(chunk, draws - start),), rng)
        for name in ("Avg", "Vote", "Mixture"):
            x = found[name]
            s = sums.setdefault(name, np.zeros(3))
            s += (x.sum(), (x * x).sum(), (x > 0).sum())
        if theta == 0:
            for name, (reject, better) in tests(found["folds"]).items():
                s = sums.setdefault(name, np.zeros(2))
                s += (reject.sum(), better.sum())
    out = {}
    for name, s in sums.items():
        if len(s) == 3:
            mean = s[0] / draws
            sd = math.sqrt((s[1] - draws * mean * mean) / (draws - 1))
            out[name] = {"mean": mean, "snr": mean / sd, "share": s[2] / draws}
        else:
            out[name] = {"size": s[0] / draws, "a_better": s[1] / draws}
    return out


def covered_cp(k: np.ndarray, r: int, p: float) -> np.ndarray:
    """Whether the 95% Clopper-Pearson interval of k successes in r holds p."""
    a = (1 - CONFIDENCE) / 2
    low = np.where(k > 0, special.betaincinv(np.maximum(k, 1), r - k + 1, a), 0.0)
    high = np.where(k < r, special.betaincinv(k + 1, np.maximum(r - k, 1), 1 - a), 1.0)
    return (low <= p) & (p <= high)


def covered_snr(t: np.ndarray, r: int, theta: float) -> np.ndarray:
    """Whether snr_exact_interval of a study with statistic T = sqrt(R) mean / sd holds theta:
    the interval is every theta whose noncentral t puts T in its central 95%, and its cdf falls
    as theta grows, so the event is alpha/2 <= F(T; R - 1, sqrt(R) theta) <= 1 - alpha/2."""
    a = (1 - CONFIDENCE) / 2
    if not math.isfinite(theta):
        return np.zeros(t.shape, bool)
    cdf = stats.nct.cdf(t, r - 1, math.sqrt(r) * theta)
    return (a <= cdf) & (cdf <= 1 - a)


def cell(model: dict, law: str, theta: float, r: int, studies: int, seed, truth_: dict) -> dict:
    """Coverage of every interval and the tests' sizes in ``studies`` studies of ``r``
    repetitions."""
    rng = np.random.default_rng(seed)
    hits: dict[str, np.ndarray] = {}
    replay = []
    per = max(1, 200_000 // r)
    for start in range(0, studies, per):
        n = min(per, studies - start)
        found = repetitions(model, law, theta, (n, r), rng)
        for name in ("Avg", "Vote", "Mixture"):
            x, true = found[name], truth_[name]
            mean, sd = x.mean(axis=1), x.std(axis=1, ddof=1)
            t = math.sqrt(r) * mean / sd
            half = stats.t.ppf(0.5 + CONFIDENCE / 2, r - 1) * sd / math.sqrt(r)
            phi_theta = stats.norm.ppf(min(max(true["share"], 1e-300), 1 - 1e-16))
            phi = covered_snr(t, r, phi_theta)
            share = covered_cp((x > 0).sum(axis=1), r, true["share"])
            # the verdict's reproducibility interval: Phi(SNR)'s while the normal model stands
            # (estimators.normality: Shapiro-Wilk at 0.05 from R = 15), the share's off it
            rejected = ((stats.shapiro(x, axis=1).pvalue < SHAPIRO_LEVEL) if r >= SHAPIRO_FROM
                        else np.zeros(n, bool))
            for key, flags in ((f"{name} mean", np.abs(mean - true["mean"]) <= half),
                               (f"{name} SNR", covered_snr(t, r, true["snr"])),
                               (f"{name} Phi(SNR)", phi),
                               (f"{name} verdict's", np.where(rejected, share, phi)),
                               (f"{name} share", share)):
                hits.setdefault(key, []).append(flags)
            if start == 0 and name == "Avg":
                replay.extend((x[i], bool(hits[f"{name} SNR"][0][i])) for i in range(3))
        if theta == 0:
            for name, (reject, better) in tests(found["folds"]).items():
                hits.setdefault(f"{name} size", []).append(reject.ravel())
                hits.setdefault(f"{name} claims", []).append(
                    covered_cp(better.sum(axis=1), r, truth_[name]["a_better"]))
    for values, covered in replay:  # the shortcut against the interval itself
        low, high = snr_exact_interval(values, "A>B")
        assert (low <= truth_["Avg"]["snr"] <= high) == covered, (low, high, covered)
    out = {}
    for key, flags in hits.items():
        flags = np.concatenate(flags)
        p = float(flags.mean())
        out[key] = {"rate": p, "se": math.sqrt(max(p * (1 - p), 1e-12) / flags.size),
                    "trials": int(flags.size)}
    return out


KINDS = ("mean", "SNR", "Phi(SNR)", "verdict's", "share")
POINTS = ("point", "low end", "high end")
LABELS = {"bcv": "plain", "regularized-bcv": "regularized"}


def models(measured: dict) -> dict:
    """(strategy, point) -> the model a cell simulates: the pooled (rho1, rho2) or one end of
    kappa's interval, with the strategy's measured Vote."""
    out = {}
    for strategy, found in measured["pooled"].items():
        low, high = found["ends"]
        for point, where in zip(POINTS, ({"rho1": found["rho1"], "rho2": found["rho2"]},
                                         low, high)):
            out[strategy, point] = {"rho1": where["rho1"], "rho2": where["rho2"],
                                    "kappa": where["rho1"] + 4 * where["rho2"],
                                    "vote": found["vote"]}
    return out


def simulate(measured: dict, studies: int, only_r=REPETITIONS) -> list[dict]:
    cells = []
    for i, ((strategy, point), model) in enumerate(models(measured).items()):
        for j, law in enumerate(LAWS):
            for k, theta in enumerate(SNRS):
                started = time.perf_counter()
                truth_ = truth(model, law, theta)
                for r in only_r:
                    found = cell(model, law, theta, r, studies, [20261127, i, j, k, r], truth_)
                    cells.append({"strategy": strategy, "point": point, "law": law,
                                  "theta": theta, "R": r, "model": model, "truth": truth_,
                                  "results": found})
                print(f"{strategy} {point} {law} SNR {theta}: "
                      f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    return cells


# ---- 3. tables, figure, blocks ---------------------------------------------------------------

def _interval(value: float, pair) -> str:
    return f"{value:+.2f} [{pair[0]:+.2f}, {pair[1]:+.2f}]"


def correlation_table(measured: dict) -> list[str]:
    lines = ["| source | strategy | R | rho1 [95%] | rho2 [95%] | kappa = rho1 + 4 rho2 [95%] "
             "| C^2 = (1 + kappa) / (5 - kappa) [95%] | Var(Avg) / mean sigma_hat^2 [95%] "
             "| Vote: corr with Avg, sd / Avg's |",
             "|---|---|---:|---|---|---|---|---|---|"]
    rows = list(measured["rows"]) + [
        {"source": "**pooled, simulated**", "strategy": s, **measured["pooled"][s]}
        for s in ("bcv", "regularized-bcv")]
    for r in rows:
        vote = r.get("vote")
        said = "" if vote is None else f"{vote['corr']:.2f}, {vote['sd_ratio']:.2f}"
        lines.append(
            f"| {r['source']} | {LABELS[r['strategy']]} | {r['R']} "
            f"| {_interval(r['rho1'], r['rho1_95'])} | {_interval(r['rho2'], r['rho2_95'])} "
            f"| {_interval(r['kappa'], r['kappa_95'])} | {_interval(r['c2'], r['c2_95'])} "
            f"| {_interval(r['c2_direct'], r['c2_direct_95'])} | {said} |")
    return lines


def _pct(result: dict) -> str:
    return f"{100 * result['rate']:.1f} ± {100 * result['se']:.1f}"


def size_rows(cells: list[dict]) -> list[tuple]:
    """(strategy, point, law, test, {R: result}) of every test, in the cells' order."""
    rows: dict = {}
    for c in cells:
        for name, result in c["results"].items():
            if name.endswith(" size"):
                rows.setdefault((c["strategy"], c["point"], c["law"], name[:-5]), {})[c["R"]] = \
                    result
    return [(*key, found) for key, found in rows.items()]


def lowest_coverage(cells: list[dict]) -> dict:
    """(strategy, point, law, kind) -> {R: (result, where)}: the lowest coverage of the kind
    over the estimators and SNRs (claims: over the tests)."""
    out: dict = {}
    for c in cells:
        for name, result in c["results"].items():
            if name.endswith(" size"):
                continue
            kind = "claims share" if name.endswith(" claims") else name.split(" ", 1)[1]
            where = (name[:-7] if kind == "claims share"
                     else f"{name.split(' ')[0]}, SNR {c['theta']:g}")
            slot = out.setdefault((c["strategy"], c["point"], c["law"], kind), {})
            if c["R"] not in slot or result["rate"] < slot[c["R"]][0]["rate"]:
                slot[c["R"]] = (result, where)
    return out


def short(result: dict) -> bool:
    """Coverage below nominal by more than two Monte Carlo standard errors."""
    return result["rate"] < CONFIDENCE - 2 * result["se"]


def outside(result: dict) -> bool:
    """A size outside [alpha / 2, 1.5 alpha]."""
    return not ALPHA / 2 <= result["rate"] <= 1.5 * ALPHA


def _point_label(model: dict, point: str) -> str:
    return (f"{point} (rho1 {model['rho1']:+.2f}, rho2 {model['rho2']:+.2f}, "
            f"kappa {model['kappa']:+.2f})")


def findings(measured: dict, cells: list[dict]) -> list[str]:
    """What the tables say, generated: each test's size range and whether it leaves [alpha/2,
    1.5 alpha]; each interval's lowest coverage and how many of its cells fall short of 95% by
    more than 2 MC SE (the lowest of nine estimator-SNR cells at one R dips below that by
    chance too)."""
    lines = []
    lowest = lowest_coverage(cells)
    every: dict = {}
    for c in cells:
        for name, result in c["results"].items():
            if not name.endswith(" size"):
                kind = "claims share" if name.endswith(" claims") else name.split(" ", 1)[1]
                every.setdefault((c["strategy"], c["point"], kind), []).append(result)
    for strategy in ("regularized-bcv", "bcv"):
        for point in POINTS:
            sizes = [(test, found) for s, p, law, test, found in size_rows(cells)
                     if s == strategy and p == point]
            if not sizes:
                continue
            said = []
            for test in dict.fromkeys(t for t, _ in sizes):
                rates = [r for t, found in sizes if t == test for r in found.values()]
                flag = " (outside)" if any(outside(r) for r in rates) else ""
                said.append(f"{test} {100 * min(r['rate'] for r in rates):.1f}-"
                            f"{100 * max(r['rate'] for r in rates):.1f}%{flag}")
            cover = []
            for kind in (*KINDS, "claims share"):
                found = [(v[0], v[1], law, r) for (s, p, law, k), by_r in lowest.items()
                         if s == strategy and p == point and k == kind
                         for r, v in by_r.items()]
                result, where, law, r = min(found, key=lambda f: f[0]["rate"])
                results = every[strategy, point, kind]
                cover.append(f"{kind} {100 * result['rate']:.1f}% ({where}, {law}, R = {r}; "
                             f"{sum(short(x) for x in results)} of {len(results)} cells short)")
            lines.append(f"- {LABELS[strategy]} BCV, {point}: size over both laws and every R "
                         "(outside [2.5, 7.5] marked): " + "; ".join(said)
                         + ". Lowest coverage: " + "; ".join(cover) + ".")
    return lines


def results_block(measured: dict, cells: list[dict], studies: int, seconds: float) -> str:
    load = " ".join(f"{v:.1f}" for v in os.getloadavg())
    constant, df = blocked_constant()
    rs = sorted({c["R"] for c in cells})
    lines = [BEGIN,
             f"Measured {time.strftime('%Y-%m-%d')} with `nice -n 19 .venv/bin/python "
             f"benchmarks/bench_regularized_calibration.py --studies {studies} --write` on "
             f"{platform.machine()} ({os.cpu_count()} cores, load {load}), Python "
             f"{platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}, "
             f"in {seconds:.0f} s; the raw cells in benchmarks/regularized_calibration.json. "
             "Method: the bench's docstring.", "",
             "**The correlation of the fold differences A - B** (95% bootstrap intervals over "
             "repetitions; 'pooled, simulated' is what the simulation draws: the regularized "
             "BCV's two studies, the plain BCV's six 1,200-sentence samples of the size "
             "studies):", "", *correlation_table(measured), "",
             "**Simulated**: each strategy at its pooled (rho1, rho2) and at the two ends of "
             "kappa's 95% interval (the (rho1, rho2) the bootstrap drew there); the regularized "
             f"blocked t's constant C = {constant:.3f} with {df:.2f} degrees of freedom "
             "(`strategies/regularized_bcv.py`, `blocked_t_calibration`), beside the authors' "
             f"C = 1 with 5. {studies} studies per cell; SNR of Avg "
             f"{', '.join(f'{t:g}' for t in SNRS)}; "
             "the tests at SNR 0.", "",
             "**Size at alpha 0.05, percent ± MC SE** (over the cell's studies x R "
             "repetitions; outside [2.5, 7.5] in bold):", "",
             "| strategy | correlation | law | test | " + " | ".join(f"R = {r}" for r in rs)
             + " |", "|---|---|---|---|" + "---:|" * len(rs)]
    models_ = {(c["strategy"], c["point"]): c["model"] for c in cells}
    for strategy, point, law, test, found in size_rows(cells):
        lines.append(f"| {LABELS[strategy]} | {_point_label(models_[strategy, point], point)} "
                     f"| {law} | {test} | " + " | ".join(
                         (f"**{_pct(found[r])}**" if outside(found[r]) else _pct(found[r]))
                         for r in rs) + " |")
    lines += ["", "**Lowest coverage of each 95% interval, percent ± MC SE** (over Avg, Vote "
              "and the Mixture and the three SNRs; 'claims share' over the tests; below 95% by "
              "more than 2 MC SE in bold, with where):", "",
              "| strategy | correlation | law | interval | " + " | ".join(f"R = {r}" for r in rs)
              + " |", "|---|---|---|---|" + "---:|" * len(rs)]
    for (strategy, point, law, kind), found in lowest_coverage(cells).items():
        lines.append(f"| {LABELS[strategy]} | {point} | {law} | {kind} | " + " | ".join(
            (f"**{_pct(found[r][0])}** ({found[r][1]})" if short(found[r][0])
             else _pct(found[r][0])) for r in rs if r in found) + " |")
    lines += ["", *findings(measured, cells), END]
    return "\n".join(lines)


def docs_block(measured: dict, cells: list[dict]) -> str:
    constant, df = blocked_constant()
    pooled = measured["pooled"]
    lines = [DOC_BEGIN,
             "| BCV | repetitions | rho1 [95%] | rho2 [95%] | kappa [95%] | C [95%] |",
             "|---|---:|---|---|---|---|"]
    for strategy in ("bcv", "regularized-bcv"):
        p = pooled[strategy]
        c_low, c_high = (math.sqrt(v) for v in p["c2_95"])
        lines.append(f"| {LABELS[strategy]} | {p['R']} | {_interval(p['rho1'], p['rho1_95'])} "
                     f"| {_interval(p['rho2'], p['rho2_95'])} "
                     f"| {_interval(p['kappa'], p['kappa_95'])} "
                     f"| {math.sqrt(p['c2']):.2f} [{c_low:.2f}, {c_high:.2f}] |")
    lines += ["", f"Size at alpha = 0.05 in percent (over R = 5 to 1,000; MC SE at most "
                  f"{100 * max(r['se'] for *_, f in size_rows(cells) for r in f.values()):.1f}), "
                  "at each BCV's measured correlation and at the ends of kappa's interval:", "",
              "| BCV | test | normal: point / low end / high end | skewed: point / low end / "
              "high end |", "|---|---|---|---|"]
    rows: dict = {}
    for strategy, point, law, test, found in size_rows(cells):
        rates = [r["rate"] for r in found.values()]
        rows.setdefault((strategy, test), {})[law, point] = float(np.mean(rates))
    for (strategy, test), found in rows.items():
        cells_ = [" / ".join(f"{100 * found[law, point]:.1f}" for point in POINTS
                             if (law, point) in found) for law in LAWS]
        lines.append(f"| {LABELS[strategy]} | {test} | {cells_[0]} | {cells_[1]} |")
    cover = lowest_coverage(cells)
    lines += ["", "Lowest coverage of each 95% interval in percent (over Avg, Vote and the "
                  "Mixture, SNR 0, 0.84 and 2, R = 5 to 1,000, both laws and the three "
                  "correlations):", "",
              "| BCV | mean | SNR | Phi(SNR) | reproducibility (verdict's) | share "
              "| claims share |",
              "|---|---|---|---|---|---|---|"]
    for strategy in ("bcv", "regularized-bcv"):
        lows = []
        for kind in ("mean", "SNR", "Phi(SNR)", "verdict's", "share", "claims share"):
            found = [(v[0], v[1], law, r) for (s, _, law, k), by_r in cover.items()
                     if s == strategy and k == kind for r, v in by_r.items()]
            result, where, law, r = min(found, key=lambda f: f[0]["rate"])
            lows.append(f"{100 * result['rate']:.1f} ({where}, {law}, R = {r})")
        lines.append(f"| {LABELS[strategy]} | " + " | ".join(lows) + " |")
    lines += ["", f"The regularized BCV's blocked t: C = {constant:.3f}, {df:.2f} degrees of "
                  "freedom.", DOC_END]
    return "\n".join(lines)


def figure(cells: list[dict]) -> list[Path]:
    """Size of each test and the lowest coverage of each interval against R, at the measured
    correlations: docs/regularized_calibration.png and .pdf."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    from reprocompare.reports.figures import save

    fig = Figure(figsize=(11, 4.4))
    size_ax, cover_ax = fig.subplots(1, 2)
    styles = {"regularized-bcv": "-", "bcv": ":"}
    for strategy, point, law, test, found in size_rows(cells):
        if point != "point" or law != "normal":
            continue
        rs = sorted(found)
        size_ax.errorbar(rs, [100 * found[r]["rate"] for r in rs],
                         yerr=[200 * found[r]["se"] for r in rs], linestyle=styles[strategy],
                         marker="o", markersize=3, capsize=2,
                         label=f"{LABELS[strategy]}: {test}")
    size_ax.axhspan(100 * ALPHA / 2, 150 * ALPHA, color="0.9", zorder=0)
    size_ax.axhline(100 * ALPHA, color="0.5", linewidth=0.8)
    size_ax.set(xscale="log", xlabel="repetitions R", ylabel="size at alpha 0.05 (%)",
                title="Tests, normal differences, measured correlation")
    size_ax.legend(fontsize=6.5, loc="upper left")
    for (strategy, point, law, kind), found in lowest_coverage(cells).items():
        if point != "point" or law != "normal":
            continue
        rs = sorted(found)
        cover_ax.errorbar(rs, [100 * found[r][0]["rate"] for r in rs],
                          yerr=[200 * found[r][0]["se"] for r in rs], linestyle=styles[strategy],
                          marker="o", markersize=3, capsize=2,
                          label=f"{LABELS[strategy]}: {kind}")
    cover_ax.axhline(100 * CONFIDENCE, color="0.5", linewidth=0.8)
    cover_ax.set(xscale="log", xlabel="repetitions R", ylabel="lowest coverage (%)",
                 title="95% intervals (lowest over estimators and SNRs)")
    cover_ax.legend(fontsize=6.5, loc="lower left", ncol=2)
    fig.tight_layout()
    return save(fig, FIGURE)


def replace_block(path: Path, begin: str, end: str, text: str) -> str:
    """The file's text with its block between ``begin`` and ``end`` replaced by ``text``."""
    current = path.read_text(encoding="utf-8")
    if begin not in current:
        raise SystemExit(f"{path} has no {begin} ... {end} block to fill")
    return re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: text, current, flags=re.S)


def remeasure() -> int:
    """The correlation rows again (the fresh measurement grown), the simulated cells kept: the
    pooled structure the cells were drawn under must be the same."""
    saved = json.loads(RAW.read_text())
    measured = measure_correlations()
    if json.dumps(rounded(measured["pooled"])) != json.dumps(saved["measured"]["pooled"]):
        raise SystemExit("the pooled correlation changed: simulate again")
    saved["measured"] = rounded(measured)
    save_raw(saved)
    write_blocks(saved)
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--studies", type=int, default=2000, help="simulated studies per cell")
    parser.add_argument("--fresh", type=int, metavar="R", default=0,
                        help="first grow the fresh majority-tagger measurement to R repetitions")
    parser.add_argument("--write", action="store_true",
                        help="the blocks of benchmarks/RESULTS.md and docs/statistics.md, the "
                             "figure, benchmarks/regularized_calibration.json")
    parser.add_argument("--check", action="store_true",
                        help="the blocks as written are those benchmarks/regularized_calibration"
                             ".json gives (nothing simulated)")
    parser.add_argument("--remeasure", action="store_true",
                        help="only the correlation rows again, into the saved cells' blocks")
    args = parser.parse_args(argv)
    if args.check:
        return check()
    if args.remeasure:
        return remeasure()
    if args.fresh:
        fresh(args.fresh)
    started = time.perf_counter()
    measured = measure_correlations()
    print(json.dumps(measured["pooled"]), file=sys.stderr, flush=True)
    cells = simulate(measured, args.studies)
    seconds = time.perf_counter() - started
    saved = rounded({"studies": args.studies, "seconds": seconds, "measured": measured,
                     "cells": cells,
                     "stamp": results_block(measured, cells, args.studies,
                                            seconds).splitlines()[1]})
    for text in blocks(saved):
        print(text)
    if args.write:
        save_raw(saved)
        write_blocks(saved)
        figure(saved["cells"])
    return 0


def rounded(data):
    """Floats to 6 significant digits (the blocks print 1 decimal of a percentage): the saved
    cells stay small, and the blocks are rendered from what is saved."""
    if isinstance(data, float):
        return float(f"{data:.6g}")
    if isinstance(data, dict):
        return {k: rounded(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [rounded(v) for v in data]
    return data


def save_raw(saved: dict) -> None:
    RAW.write_text(json.dumps(saved, separators=(",", ":")) + "\n")


RAW = ROOT / "benchmarks" / "regularized_calibration.json"


def blocks(saved: dict) -> tuple[str, str]:
    """The two blocks from the saved cells (the stamp line as measured)."""
    text = results_block(saved["measured"], saved["cells"], saved["studies"], saved["seconds"])
    lines = text.splitlines()
    lines[1] = saved["stamp"]
    return "\n".join(lines), docs_block(saved["measured"], saved["cells"])


def write_blocks(saved: dict) -> None:
    results, docs = blocks(saved)
    RESULTS.write_text(replace_block(RESULTS, BEGIN, END, results),
                       encoding="utf-8")
    DOCS.write_text(replace_block(DOCS, DOC_BEGIN, DOC_END, docs), encoding="utf-8")


def check() -> int:
    """0 when both blocks are what the saved cells give."""
    saved = json.loads(RAW.read_text())
    results, docs = blocks(saved)
    wrong = [str(path) for path, text in ((RESULTS, results), (DOCS, docs))
             if text not in path.read_text(encoding="utf-8")]
    if wrong:
        print(f"not what benchmarks/regularized_calibration.json gives: {', '.join(wrong)}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
