"""Calibration of the correlated Bayesian t-test, its rho measured, and a worked example
(estimators.bayesian; issue 52): benchmarks/RESULTS.md, docs/bayesian.md, docs/statistics.md
and docs/bayesian_calibration.png.

    nice -n 19 .venv/bin/python benchmarks/bench_bayesian.py            # print the blocks
    nice -n 19 .venv/bin/python benchmarks/bench_bayesian.py --write    # and write them, the figure
    .venv/bin/python benchmarks/bench_bayesian.py --check               # the blocks as written?

1. **Calibration** (seeded, vectorized; seconds). A study holds R per-repetition estimates of
   A - B that share one corpus: d_r = mu + c + e_r, the corpus's own luck c ~ N(0, rho) common
   to the study, the split's e_r independent with variance 1 - rho (total variance 1, so mu and
   the rope are in units of one repetition's sd). e_r is normal, or the skewed family of
   docs/statistics.md (a negated standardized Gamma(2), skewness -1.41: a tail against A > B, as
   occasional failed trainings give), scaled. rho is ST's (1/9, 8:1) or BCV's Avg's (6/7), the
   values :func:`repetition_rho` derives. The rope is half a repetition's sd. Each study's
   posterior (:func:`correlated_t_probabilities`, the module's own formula) is read as "A is
   practically better" when P(A > B) > 0.95. The table gives how often that happens when mu is
   0, at the rope's edge (mu = rope: the posterior's error rate, 5% if calibrated), and clearly
   outside (mu = rope + 2 sd: its power), with the true rho assumed, and at the edge with rho = 0
   assumed (the ordinary Bayesian t, right for "this corpus" but not for "corpora like it") and
   with half the true rho assumed (a rho derived too small: the caveat's direction of harm).
   The same draws serve every mu (common random numbers); Monte Carlo SEs sqrt(p (1 - p) / N).

2. **rho measured** on the committed size studies (three disjoint samples of 300 and of 1,200
   sentences, three overlapping ones of 4,800, each 10 repetitions, git's HEAD version of each
   summary's ``values``): the one-way ICC(1) of each estimator with its F interval
   (:func:`intraclass_correlation`), beside the rho derived.

3. **The rope**: the size of the differences the committed studies measure (every estimator's
   |mean A - B| of every committed summary), against the schema's default
   ``verdict.posterior_rope``.

4. **A worked example**: the correlated t on two committed studies' values per estimator (the
   full-corpus NER study, 10 repetitions; the 300-sentence chunking study, 200), rope 0.5 F1
   points, both rhos; and the signed-rank test across the size studies' samples.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import scipy

from markers import replace_between
from reprocompare.estimators.bayesian import (POSTERIOR_ROPE, correlated_t_probabilities,
                                              correlated_ttest, intraclass_correlation,
                                              signed_rank)
from reprocompare.strategies import ESTIMATORS, of_estimator, repetition_rho

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "RESULTS.md"
DOCS = ROOT / "docs" / "bayesian.md"
STATISTICS = ROOT / "docs" / "statistics.md"
FIGURE = ROOT / "docs" / "bayesian_calibration.png"
CALIBRATION = ("<!-- bayesian-calibration:begin -->\n", "<!-- bayesian-calibration:end -->")
MEASURED = ("<!-- bayesian-rho:begin -->\n", "<!-- bayesian-rho:end -->")
EXAMPLE = ("<!-- bayesian-example:begin -->\n", "<!-- bayesian-example:end -->")
ROPE_SIZES = ("<!-- bayesian-rope:begin -->\n", "<!-- bayesian-rope:end -->")

REPETITIONS = (5, 10, 20, 50, 100, 200)
STUDIES = 10_000
ROPE = 0.5                      # in units of one repetition's sd
OUTSIDE = ROPE + 2.0
DECIDED = 0.95
TRUE_RHOS = {"ST (1/9)": repetition_rho("ST"), "BCV Avg (6/7)": repetition_rho("Avg")}
LAWS = ("normal", "skewed")

#: (task, corpus, comparison) of the size studies, and their samples per size
SIZE_STUDIES = (("chunking", "conll2000", "crf_iob2_vs_iobes"),
                ("ner", "conll2002_esp", "crf_iobes_vs_iob2"))
SAMPLES = {300: ("s0", "s0_p1", "s0_p2"), 1200: ("s0", "s0_p1", "s0_p2"),
           4800: ("s0", "s1", "s2")}
EXAMPLE_SUMMARIES = ("studies/ner-full/results/summaries/conll2002_esp/crf_iobes_vs_iob2.json",
                     "studies/chunking/results/summaries/conll2000/crf_iob2_vs_iobes.json")
#: the rope of the worked example, in F1 points: the schema's default
EXAMPLE_ROPE = POSTERIOR_ROPE


def committed(path: str) -> dict:
    """A summary as git's HEAD holds it (the working tree may be mid-rebuild)."""
    text = subprocess.run(["git", "show", f"HEAD:{path}"], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout
    return json.loads(text)


def noise(rng, law: str, shape) -> np.ndarray:
    """Standardized draws of the law (mean 0, variance 1)."""
    if law == "normal":
        return rng.standard_normal(shape)
    return -(rng.gamma(2.0, 1.0, shape) - 2.0) / np.sqrt(2.0)


def cell(rho: float, law: str, repetitions: int) -> dict:
    """Shares of studies with P(A > B) > 0.95 at mu = 0, the edge, outside; and at the edge with
    rho = 0 assumed."""
    rng = np.random.default_rng([2026, 52, round(rho * 1000), LAWS.index(law), repetitions])
    corpus = np.sqrt(rho) * rng.standard_normal((STUDIES, 1))
    draws = corpus + np.sqrt(1 - rho) * noise(rng, law, (STUDIES, repetitions))
    mean, sd = draws.mean(axis=1), draws.std(axis=1, ddof=1)
    shares = {}
    for name, mu, assumed in (("zero", 0.0, rho), ("edge", ROPE, rho),
                              ("outside", OUTSIDE, rho), ("edge, rho = 0", ROPE, 0.0),
                              ("edge, rho / 2", ROPE, rho / 2)):
        p_a, _, _ = correlated_t_probabilities(mean + mu, sd, repetitions, rope_share=ROPE,
                                               rho=assumed)
        shares[name] = float(np.mean(p_a > DECIDED))
    return shares


def simulate() -> dict:
    return {(label, law, r): cell(rho, law, r)
            for label, rho in TRUE_RHOS.items() for law in LAWS for r in REPETITIONS}


def percent(share: float) -> str:
    return f"{100 * share:.1f} ± {100 * np.sqrt(share * (1 - share) / STUDIES):.1f}%"


def calibration_block(cells: dict) -> str:
    lines = [
        f"Computed with `nice -n 19 .venv/bin/python benchmarks/bench_bayesian.py --write` "
        f"(seeded; numpy {np.__version__}, scipy {scipy.__version__}); {STUDIES:,} studies per "
        f"cell, ± one Monte Carlo SE. Share of studies in which P(A > B) > {DECIDED}, rope = "
        f"{ROPE} sd of one repetition, the true mean difference mu at 0, at the rope's edge and "
        f"at the edge + 2 sd, the true rho assumed; the last two columns assume rho = 0 (the "
        f"ordinary Bayesian t) or half the true rho while the repetitions share the corpus:",
        "",
        "| true rho (strategy) | law | R | mu = 0 | mu = rope (edge) | mu = rope + 2 sd "
        "| edge, rho = 0 assumed | edge, rho / 2 assumed |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for (label, law, r), shares in cells.items():
        lines.append(f"| {label} | {law} | {r} | " + " | ".join(
            percent(shares[name])
            for name in ("zero", "edge", "outside", "edge, rho = 0", "edge, rho / 2"))
            + " |")
    return "\n".join(lines) + "\n"


def measured_block() -> str:
    lines = ["rho measured as the ICC(1) of each estimator's per-repetition values across a size "
             "study's three samples (10 repetitions each; 95% F interval), against the rho "
             "derived (`repetition_rho`):", "",
             "| task | sentences | samples | ST | Avg | Vote | Mixture |",
             "|---|---|---|---|---|---|---|"]
    for task, corpus, comparison in SIZE_STUDIES:
        for size, names in SAMPLES.items():
            values = [committed(f"studies/size-{task}/results/summaries/{corpus}_n{size}_{name}/"
                                f"{comparison}.json")["values"] for name in names]
            cells = []
            for estimator in ("ST", "Avg", "Vote", "Mixture"):
                icc, low, high = intraclass_correlation([v[estimator] for v in values])
                cells.append(f"{icc:.2f} [{low:.2f}, {high:.2f}]")
            kind = "disjoint" if size < 4800 else "overlapping"
            lines.append(f"| {task} | {size:,} | 3 {kind} | " + " | ".join(cells) + " |")
    lines.append("| derived | | | " + " | ".join(
        f"{repetition_rho(e):.2f}" for e in ("ST", "Avg", "Vote", "Mixture")) + " |")
    return "\n".join(lines) + "\n"


def committed_summaries() -> list[str]:
    """Every committed study's summaries (git's HEAD), in path order."""
    listed = subprocess.run(["git", "ls-files", "studies/*/results/summaries/*/*.json"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split()
    return sorted(path for path in listed if not path.endswith(".claims.json"))


def rope_block() -> str:
    """The size of the differences the committed studies measure, against the default rope."""
    by_study: dict = {}
    for path in committed_summaries():
        for row in committed(path)["summary"]["estimators"].values():
            by_study.setdefault(path.split("/")[1], []).append(
                (100 * abs(row["mean"]), 100 * row["sd"]))
    means = np.array([m for rows in by_study.values() for m, _ in rows])
    sds = np.array([sd for rows in by_study.values() for _, sd in rows])
    inside = float(np.mean(means <= POSTERIOR_ROPE))
    lines = [f"The {means.size} Table 4 estimates of the {len(committed_summaries())} committed "
             f"summaries (every estimator of every comparison and corpus): |mean A - B| median "
             f"{np.median(means):.2f} F1 points (quartiles {np.percentile(means, 25):.2f} and "
             f"{np.percentile(means, 75):.2f}, largest {means.max():.2f}); a repetition's sd "
             f"median {np.median(sds):.2f}; {100 * inside:.0f}% of the means lie within the "
             f"default rope of {POSTERIOR_ROPE} points. Per study, the smallest and largest "
             f"|mean A - B|:", "", "| study | estimates | smallest | largest |", "|---|---|---|---|"]
    for study, rows in by_study.items():
        sizes = [m for m, _ in rows]
        lines.append(f"| {study} | {len(rows)} | {min(sizes):.2f} | {max(sizes):.2f} |")
    return "\n".join(lines) + "\n"


def example_block() -> str:
    lines = []
    for path in EXAMPLE_SUMMARIES:
        summary = committed(path)
        strategies = summary["summary"]["strategies"]
        estimates = summary["summary"]["estimators"]
        lines += [f"`{path}` ({summary['repetitions']} repetitions, A = "
                  f"{summary['model_names']['A']}, B = {summary['model_names']['B']}), rope "
                  f"{EXAMPLE_ROPE} F1 points; P(A > B) / P(rope) / P(B > A):", "",
                  f"| estimator | mean A - B (points) | sd | reproducibility of "
                  f"{summary['summary']['conclusion']} (Eq. 1) | this corpus (rho = 0) "
                  f"| corpora like it (rho) |", "|---|---|---|---|---|---|"]
        for estimator, values in summary["values"].items():
            if estimator not in ESTIMATORS:
                continue
            rho = repetition_rho(estimator, strategies.get(of_estimator(estimator).name),
                                 summary["summary"]["table4_k"])
            answers = []
            for assumed in (0.0, rho):
                post = correlated_ttest(values, rope=EXAMPLE_ROPE, rho=assumed)
                answers.append(f"{post.p_a_better:.3f} / {post.p_rope:.3f} / "
                               f"{post.p_b_better:.3f}")
            lines.append(f"| {estimator} | {100 * np.mean(values):+.2f} | "
                         f"{100 * np.std(values, ddof=1):.2f} | "
                         f"{estimates[estimator]['reproducibility']:.2f} | {answers[0]} | "
                         f"{answers[1]} (rho = {rho:.3f}) |")
        lines.append("")
    lines += [f"Across corpora: the Bayesian signed-rank test (seed 0, 50,000 samples) on the "
              f"size studies' per-sample mean of Avg, rope {EXAMPLE_ROPE} F1 points:", "",
              "| task | sentences | per-sample mean A - B (points) | P(A > B) / P(rope) / "
              "P(B > A) |", "|---|---|---|---|"]
    for task, corpus, comparison in SIZE_STUDIES:
        for size, names in SAMPLES.items():
            means = [float(np.mean(committed(
                f"studies/size-{task}/results/summaries/{corpus}_n{size}_{name}/"
                f"{comparison}.json")["values"]["Avg"])) for name in names]
            post = signed_rank(means, rope=EXAMPLE_ROPE)
            lines.append(f"| {task} | {size:,} | "
                         + ", ".join(f"{100 * m:+.2f}" for m in means)
                         + f" | {post.p_a_better:.3f} / {post.p_rope:.3f} / "
                           f"{post.p_b_better:.3f} |")
    return "\n".join(lines) + "\n"


def figure(cells: dict) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(TRUE_RHOS), figsize=(9, 3.6), sharey=True)
    for ax, label in zip(axes, TRUE_RHOS):
        for law, style in zip(LAWS, ("-", "--")):
            for name, colour in (("edge", "C0"), ("edge, rho = 0", "C3")):
                ys = [100 * cells[label, law, r][name] for r in REPETITIONS]
                assumed = "true rho" if name == "edge" else "rho = 0"
                ax.plot(REPETITIONS, ys, style, color=colour, marker="o", markersize=3,
                        label=f"{law}, {assumed} assumed")
        ax.axhline(5, color="grey", linewidth=0.8)
        ax.set_xscale("log")
        ax.set_xticks(REPETITIONS, [str(r) for r in REPETITIONS])
        ax.set_xlabel("repetitions R")
        ax.set_title(f"true rho: {label}")
    axes[0].set_ylabel("P(A > B) > 0.95 at the rope's edge (%)")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(FIGURE, dpi=120, metadata={"Software": None})
    plt.close(fig)


def blocks() -> dict:
    cells = simulate()
    return {"cells": cells, CALIBRATION: calibration_block(cells), MEASURED: measured_block(),
            EXAMPLE: example_block(), ROPE_SIZES: rope_block()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true",
                        help="write the blocks into benchmarks/RESULTS.md and docs/bayesian.md, "
                             "and the figure")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 unless the written blocks are what the bench computes")
    args = parser.parse_args(argv)
    made = blocks()
    places = [(RESULTS, CALIBRATION), (DOCS, CALIBRATION), (STATISTICS, CALIBRATION),
              (DOCS, MEASURED), (DOCS, EXAMPLE), (DOCS, ROPE_SIZES)]
    if args.check:
        wrong = [f"{path.relative_to(ROOT)} {markers[0].strip()}" for path, markers in places
                 if markers[0] + made[markers] + markers[1]
                 not in path.read_text(encoding="utf-8")]
        if wrong:
            print(f"regenerate (benchmarks/bench_bayesian.py --write): {', '.join(wrong)}",
                  file=sys.stderr)
            return 1
        return 0
    for markers in (CALIBRATION, MEASURED, EXAMPLE, ROPE_SIZES):
        sys.stdout.write(made[markers] + "\n")
    if args.write:
        for path, markers in places:
            replace_between(path, markers[0], markers[1], made[markers])
        figure(made["cells"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
