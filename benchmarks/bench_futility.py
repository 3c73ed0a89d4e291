"""Futility stopping measured (issue 39, items 1 and 4): the sequential rule with and without it.

    nice -n 19 .venv/bin/python benchmarks/bench_futility.py [--studies N] [--jobs 2] [--write]

Seeded. For each true SNR of one deciding estimator (Avg) and each law of its estimates (normal;
a standardized Gamma(2), skewness 1.41, as docs/sequential.md's skewed law), N simulated studies
run the rule as `reprocompare sequential` does (the skewed law at 4 of the SNRs) (estimators/planning.py's ``simulate``: waves of
5 up to 200, confidence sequences at the schema's 95%, threshold 0.8), once without futility
stopping and once with the schema's default level (estimators/futility.py). Study i of a cell
draws the same values under both rules, so the two rows differ only by the rule. Prints the
Markdown table (``--write``: into docs/sequential.md between the ``futility`` markers) and the
machine; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

from reprocompare import schemas
from reprocompare.base.markdown import md_table
from reprocompare.estimators.planning import futility_rule, simulate, truth_of_snr

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "sequential.md"
SNRS = (0.0, 0.3, 0.6, 0.84, 1.0, 1.5, 2.0, 4.0, 12.0)
#: the skewed law on fewer SNRs: each of its rows costs minutes (the share path's looks)
LAWS = {"normal": SNRS, "skewed": (0.0, 0.84, 1.5, 4.0)}
WAVE, MAXIMUM = 5, 200
LEVEL = schemas.default("stopping.futility")
SEED = 39


def source(law: str, snr: float):
    """Avg's values: mean ``snr``, sd 1, normal or a standardized Gamma(2)."""
    if law == "normal":
        return lambda rng, n: {"Avg": snr + rng.standard_normal(n)}
    return lambda rng, n: {"Avg": snr + (rng.gamma(2.0, 1.0, n) - 2.0) / np.sqrt(2.0)}


def cell(law: str, snr: float, studies: int, level: float) -> dict:
    """One row: the rule on ``studies`` seeded studies of one law and SNR."""
    futility = futility_rule(level, wave=WAVE, max_repetitions=MAXIMUM) if level else None
    plan = simulate(source(law, snr), ["Avg"], studies=studies, seed=SEED, wave=WAVE,
                    max_repetitions=MAXIMUM, truth={"Avg": truth_of_snr(snr)},
                    futility=futility)
    return plan.summary()


def row(law: str, snr: float, level: float, s: dict) -> list[str]:
    pct = lambda x: f"{100 * x:.1f}%"  # noqa: E731
    return [law, f"{snr:g}", truth_of_snr(snr), f"{level:g}" if level else "off",
            f"{s['mean_repetitions']:.1f}", str(s["median_repetitions"]),
            str(s["p90_repetitions"]), pct(s["decided_share"]), pct(s["futility_share"]),
            pct(s["wrong_share"])]


HEADER = ["law", "true SNR", "right verdict", "futility level", "mean R", "median R",
          "90th pct R", "decided", "stopped for futility", "wrong verdict"]


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def rows_of(law: str, studies: int) -> list[list[str]]:
    """Every row of one law, without and with futility stopping."""
    rows = []
    for snr in LAWS[law]:
        for level in (0.0, LEVEL):
            start = time.time()
            rows.append(row(law, snr, level, cell(law, snr, studies, level)))
            print(f"{law} {snr:g} {level:g}: {time.time() - start:.0f} s", file=sys.stderr,
                  flush=True)
    return rows


def table(studies: int, jobs: int = 1) -> str:
    """The Markdown table, the laws computed in ``jobs`` processes."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        parts = list(pool.map(rows_of, LAWS, [studies] * len(LAWS)))
    rows = [r for part in parts for r in part]
    machine = (f"{_cpu()}, {os.cpu_count()} cores, Python {platform.python_version()}, numpy "
               f"{np.__version__}")
    note = (f"{studies} studies per row (seed {SEED}), waves of {WAVE} up to {MAXIMUM}, one "
            f"deciding estimator, 95% confidence, threshold 0.8; `benchmarks/bench_futility.py "
            f"--studies {studies} --jobs 2` on {machine}, beside other work.")
    return "\n".join(md_table(HEADER, rows)) + "\n\n" + note + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--studies", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=1, help="processes (one per law at most)")
    parser.add_argument("--write", action="store_true", help="into docs/sequential.md")
    args = parser.parse_args()
    made = table(args.studies, args.jobs)
    if args.write:
        text = DOCS.read_text()
        head, rest = text.split("<!-- futility:begin -->\n", 1)
        _, tail = rest.split("<!-- futility:end -->", 1)
        DOCS.write_text(head + "<!-- futility:begin -->\n" + made + "<!-- futility:end -->" + tail)
    sys.stdout.write(made)


if __name__ == "__main__":
    main()
