"""Which stopping design to run? Each design against one fixed look at the maximum, as the
workflow runs it.

    nice -n 19 .venv/bin/python benchmarks/bench_designs.py [--studies N] [--write]

Seeded. The baseline a statistician would use is one look at the most repetitions the user can
afford (the maximum R), with the exact noncentral t interval of the SNR at 95%
(``stopping.design: fixed``). Each design is simulated by ``reprocompare plan``'s own code
(estimators/planning.py's ``simulate``: waves of 5, the normality check at every look, the first
decision kept, futility off as by default, one deciding estimator) on the same seeded normal
studies, at the maxima our users run:

- ``fixed``: one look, at the maximum;
- ``planned`` (the default): the repeated confidence intervals of estimators/group_sequential.py;
- ``anytime``: confidence sequences (valid at every R: for a study that may grow).

Each cell: the share of studies decided, and the mean R at the stop (the fixed design always
runs the maximum); "wrong" is the largest share of wrong verdicts over the SNRs (at the
threshold, SNR 0.84, for every design). The anytime design runs its slow exact path
(``--anytime-studies``). Prints the Markdown table (``--write``: into docs/sequential.md between
the ``designs`` markers and into benchmarks/RESULTS.md); progress goes to stderr.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
import scipy

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reprocompare.estimators import planning  # noqa: E402

SNRS = (0.0, 0.6, 0.84, 1.0, 1.5, 2.0, 3.0, 4.0)
MAXIMA = (10, 20, 200)
DESIGNS = ("fixed", "planned", "anytime")
SEED = 47


def cell(design: str, maximum: int, snr: float, studies: int) -> tuple[float, float, float]:
    plan = planning.simulate(planning.normal_source(snr), ["Avg"], studies=studies, seed=SEED,
                             wave=5, max_repetitions=maximum, design=design,
                             truth={"Avg": planning.truth_of_snr(snr)})
    s = plan.summary()
    return 100 * s["decided_share"], s["mean_repetitions"], 100 * s["wrong_share"]


LAWS = ("left-skewed", "t3")


def law_source(law: str, snr: float):
    """docs/statistics.md's laws off the normal model: a negated standardized Gamma(2) (a tail
    against the conclusion, as occasional failed trainings give) and Student's t with 3 degrees
    of freedom, standardized; each shifted to the SNR."""
    if law == "left-skewed":
        return lambda rng, n: {"Avg": snr - (rng.gamma(2.0, 1.0, n) - 2.0) / math.sqrt(2.0)}
    return lambda rng, n: {"Avg": snr + rng.standard_t(3, n) / math.sqrt(3.0)}


def law_truth(law: str, snr: float) -> str:
    """The right verdict: the law's own P(x > 0) (Eq. 1) against the threshold 0.8."""
    x = law_source(law, snr)(np.random.default_rng(99), 2_000_000)["Avg"]
    return "A>B" if np.mean(x > 0) >= 0.8 else "B>A" if np.mean(x < 0) >= 0.8 else "none"


def laws_table(studies: int) -> str:
    """The default design's wrong and decided shares off the normal model."""
    rows = []
    for law in LAWS:
        for maximum in MAXIMA:
            cells = []
            for snr in (0.0, 0.3, 0.6, 0.84, 1.0, 2.0):
                plan = planning.simulate(law_source(law, snr), ["Avg"], studies=studies,
                                         seed=SEED, wave=5, max_repetitions=maximum,
                                         truth={"Avg": law_truth(law, snr)})
                s = plan.summary()
                cells.append(f"{100 * s['wrong_share']:.1f}% / {100 * s['decided_share']:.1f}%")
            rows.append(f"| {law} | {maximum} | " + " | ".join(cells) + " |")
            print(rows[-1], file=sys.stderr, flush=True)
    return ("| law | maximum | SNR 0 | SNR 0.3 | SNR 0.6 | SNR 0.84 | SNR 1 | SNR 2 |\n"
            "|---|---|---|---|---|---|---|---|\n" + "\n".join(rows))


def table(studies: int, anytime_studies: int) -> tuple[str, float]:
    started = time.time()
    rows = []
    for maximum in MAXIMA:
        for design in DESIGNS:
            count = anytime_studies if design == "anytime" else studies
            cells, wrong = [], 0.0
            for snr in SNRS:
                decided, mean_r, wrong_here = cell(design, maximum, snr, count)
                wrong = max(wrong, wrong_here)
                cells.append(f"{decided:.1f}% / {mean_r:.1f}")
            rows.append(f"| {maximum} | {design} ({count}) | " + " | ".join(cells)
                        + f" | {wrong:.1f}% |")
            print(rows[-1], file=sys.stderr, flush=True)
    head = ("| maximum | design (studies) | " + " | ".join(f"SNR {s:g}" for s in SNRS)
            + " | wrong, at most |\n|---|---|" + "---|" * (len(SNRS) + 1))
    return head + "\n" + "\n".join(rows), time.time() - started


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--studies", type=int, default=2000)
    parser.add_argument("--anytime-studies", type=int, default=300)
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--laws", action="store_true",
                        help="instead: the default design off the normal model (designs-laws)")
    args = parser.parse_args(argv)
    if args.laws:
        started = time.time()
        made = laws_table(args.studies)
        text = (f"Measured {time.strftime('%Y-%m-%d')} with `nice -n 19 .venv/bin/python "
                f"benchmarks/bench_designs.py --laws --studies {args.studies}` on "
                f"{platform.machine()} ({os.cpu_count()} cores), in {time.time() - started:.0f} "
                "s: the default (planned) design, waves of 5, threshold 0.8, 95%, seed "
                f"{SEED}; truth: each law's P(x > 0) against 0.8. Each cell: wrong verdicts / "
                f"decided.\n\n{made}")
        print(text)
        if args.write:
            _write(text, "designs-laws", (ROOT / "docs" / "statistics.md",))
        return 0
    made, seconds = table(args.studies, args.anytime_studies)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    text = (f"Measured {time.strftime('%Y-%m-%d')} with `nice -n 19 .venv/bin/python "
            f"benchmarks/bench_designs.py --studies {args.studies} --anytime-studies "
            f"{args.anytime_studies}` on {platform.machine()} ({os.cpu_count()} cores, load "
            f"{load}), Python {platform.python_version()}, numpy {np.__version__}, scipy "
            f"{scipy.__version__}, in {seconds:.0f} s: normal estimates, waves of 5, threshold "
            "0.8, 95%, one deciding estimator, futility off, seed "
            f"{SEED}. Each cell: decided % / mean R at the stop.\n\n{made}")
    print(text)
    if args.write:
        _write(text, "designs", (ROOT / "docs" / "sequential.md", ROOT / "benchmarks" / "RESULTS.md"))
        _write(sentence(made), "designs-readme", (ROOT / "README.md",))
    return 0


def cells(block: str) -> dict:
    """(maximum, design, SNR) -> (decided %, mean R) from the table this script writes."""
    out = {}
    for line in block.splitlines():
        parts = [p.strip() for p in line.strip().strip("|").split("|")]
        if len(parts) != len(SNRS) + 3 or not parts[0].isdigit():
            continue
        design = parts[1].split(" (")[0]
        for snr, cell in zip(SNRS, parts[2:]):
            decided, mean_r = cell.split(" / ")
            out[int(parts[0]), design, snr] = (decided, mean_r)
    return out


def sentence(block: str) -> str:
    """README's sentence on the designs, made from the table (docs/sequential.md)."""
    c = cells(block)
    return (f"With the default design (`stopping.design: planned`) a study of at most 10 "
            f"repetitions decides a difference of SNR 2 in {c[10, 'planned', 2.0][0]} of "
            f"simulated studies, against {c[10, 'fixed', 2.0][0]} for one look at R = 10 and "
            f"{c[10, 'anytime', 2.0][0]} with confidence sequences, and stops SNR 4 at a mean R "
            f"of {c[10, 'planned', 4.0][1]}; at a maximum of 200 it decides SNR 1 in "
            f"{c[200, 'planned', 1.0][0]} (one look at R = 200: {c[200, 'fixed', 1.0][0]}; "
            f"confidence sequences, which let a study grow past its plan: "
            f"{c[200, 'anytime', 1.0][0]}) and stops SNR 4 at a mean R of "
            f"{c[200, 'planned', 4.0][1]}.")


def _write(text: str, marker: str, paths) -> None:
    for path in paths:
        page = path.read_text()
        begin, end = f"<!-- {marker}:begin -->", f"<!-- {marker}:end -->"
        if begin not in page or end not in page:
            raise SystemExit(f"{path}: no {begin} ... {end} markers")
        before, rest = page.split(begin, 1)
        path.write_text(before + begin + "\n" + text.strip() + "\n" + end
                        + rest.split(end, 1)[1])


if __name__ == "__main__":
    raise SystemExit(main())
