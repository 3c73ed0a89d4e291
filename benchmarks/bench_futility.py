"""Futility stopping measured (issue 39, items 1 and 4): the sequential rule with and without it.

    nice -n 19 .venv/bin/python benchmarks/bench_futility.py [--studies N] [--jobs 2] [--write]
    nice -n 19 .venv/bin/python benchmarks/bench_futility.py --levels 0.3 0.4 [--studies N] ...
    nice -n 19 .venv/bin/python benchmarks/bench_futility.py --waves 5 1 [--studies N] ...
    nice -n 19 .venv/bin/python benchmarks/bench_futility.py --design anytime planned ...

Seeded. For each true SNR of one deciding estimator (Avg) and each law of its estimates (normal;
a standardized Gamma(2), skewness 1.41, as docs/sequential.md's skewed law), N simulated studies
run the rule as `reprocompare sequential` does (the skewed law at 4 of the SNRs) (estimators/planning.py's ``simulate``: waves of
5 up to 200, confidence sequences at the schema's 95%, threshold 0.8), once without futility
stopping and once with the schema's default level (estimators/futility.py). Study i of a cell
draws the same values under both rules, so the two rows differ only by the rule. ``--design
anytime planned`` runs each row under both designs of ``stopping.design`` (confidence sequences;
a planned group-sequential design, futility on its own forecasts) on the same seeded studies,
and the table gets a "design" column. Prints the Markdown table (``--write``: into
docs/sequential.md between the ``futility`` markers, or ``futility-planned`` and the like for
other designs) and the machine; progress goes to stderr.
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
from reprocompare.estimators.planning import DESIGNS, futility_rule, simulate, truth_of_snr

from markers import cpu_name, replace_between

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


def cell(law: str, snr: float, studies: int, level: float, wave: int = WAVE,
         design: str = "anytime") -> dict:
    """One row: the rule on ``studies`` seeded studies of one law and SNR, of one design."""
    futility = (futility_rule(level, wave=wave, max_repetitions=MAXIMUM, design=design)
                if level else None)
    plan = simulate(source(law, snr), ["Avg"], studies=studies, seed=SEED, wave=wave,
                    max_repetitions=MAXIMUM, truth={"Avg": truth_of_snr(snr)},
                    futility=futility, design=design)
    return plan.summary()


def row(law: str, snr: float, level: float, s: dict) -> list[str]:
    pct = lambda x: f"{100 * x:.1f}%"  # noqa: E731
    return [law, f"{snr:g}", truth_of_snr(snr), f"{level:g}" if level else "off",
            f"{s['mean_repetitions']:.1f}", str(s["median_repetitions"]),
            str(s["p90_repetitions"]), pct(s["decided_share"]), pct(s["futility_share"]),
            pct(s["wrong_share"])]


HEADER = ["law", "true SNR", "right verdict", "futility level", "mean R", "median R",
          "90th pct R", "decided", "stopped for futility", "wrong verdict"]
#: where a "design" column goes when the table compares designs (before the futility level)
DESIGN_COLUMN = 3


def _with_design(header: list[str], rows: list[list[str]], designs: tuple[str, ...]):
    """The header and rows, with the design column when more than one design is asked
    (``rows`` then carry each row's design first)."""
    if len(designs) == 1:
        return header, [r[1:] for r in rows]
    place = lambda r: [*r[1:DESIGN_COLUMN + 1], r[0], *r[DESIGN_COLUMN + 1:]]  # noqa: E731
    return place(["design", *header]), [place(r) for r in rows]


def _designs_text(designs: tuple[str, ...]) -> str:
    return "" if designs == ("anytime",) else f" --design {' '.join(designs)}"


def rows_of(law: str, studies: int, designs: tuple[str, ...] = ("anytime",)) -> list[list[str]]:
    """Every row of one law, without and with futility stopping, each design's in turn (a row
    starts with its design)."""
    rows = []
    for snr in LAWS[law]:
        for level in (0.0, LEVEL):
            for design in designs:
                start = time.time()
                rows.append([design, *row(law, snr, level,
                                          cell(law, snr, studies, level, design=design))])
                print(f"{law} {snr:g} {level:g} {design}: {time.time() - start:.0f} s",
                      file=sys.stderr, flush=True)
    return rows


def table(studies: int, jobs: int = 1, designs: tuple[str, ...] = ("anytime",)) -> str:
    """The Markdown table, the laws computed in ``jobs`` processes, a design column when
    ``designs`` holds more than one."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        parts = list(pool.map(rows_of, LAWS, [studies] * len(LAWS), [designs] * len(LAWS)))
    header, rows = _with_design(HEADER, [r for part in parts for r in part], designs)
    machine = (f"{cpu_name()}, {os.cpu_count()} cores, Python {platform.python_version()}, numpy "
               f"{np.__version__}")
    note = (f"{studies} studies per row (seed {SEED}), waves of {WAVE} up to {MAXIMUM}, one "
            f"deciding estimator, 95% confidence, threshold 0.8; `benchmarks/bench_futility.py "
            f"--studies {studies} --jobs {jobs}{_designs_text(designs)}` on {machine}, beside "
            "other work.")
    return "\n".join(md_table(header, rows)) + "\n\n" + note + "\n"


#: the SNRs where the level matters (near the threshold, and the verdicts it may give up), and
#: the clear differences, where it should change nothing
LEVEL_SNRS = (0.0, 0.3, 0.6, 0.84, 1.0, 1.5, 2.0, 4.0)
#: where waves smaller than 5 could save trainings: the verdicts decided within a few waves
WAVE_SNRS = (0.0, 2.0, 4.0, 12.0)


def _variant_rows(kind: str, value: float, studies: int,
                  designs: tuple[str, ...] = ("anytime",)) -> list[list[str]]:
    """The rows of one futility level (``kind`` "levels") or one wave size ("waves"), each
    design's in turn (a row starts with its design)."""
    rows = []
    for snr in LEVEL_SNRS if kind == "levels" else WAVE_SNRS:
        for design in designs:
            start = time.time()
            if kind == "levels":
                rows.append([design, *row("normal", snr, value, cell(
                    "normal", snr, studies, value, design=design))])
            else:
                rows.append([design, str(value), *row("normal", snr, LEVEL, cell(
                    "normal", snr, studies, LEVEL, value, design))[1:]])
            print(f"{kind[:-1]} {value:g}, SNR {snr:g}, {design}: {time.time() - start:.0f} s",
                  file=sys.stderr, flush=True)
    return rows


def variants_table(kind: str, values: list[float], studies: int, jobs: int = 1,
                   designs: tuple[str, ...] = ("anytime",)) -> str:
    """The rule at other futility levels near the threshold (``kind`` "levels") or with other
    wave sizes at the default level ("waves"), normal estimates, one process per value, a
    design column when ``designs`` holds more than one.

    A wave of 1 looks after every repetition: the fewest trainings any wave sizing (by the
    forecast or otherwise) can spend on a study, as the confidence sequence is valid at every
    look (a planned design of waves of 1 up to 200 has more looks than it may: refused)."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        parts = list(pool.map(_variant_rows, [kind] * len(values), values,
                              [studies] * len(values), [designs] * len(values)))
    design = (f"waves of {WAVE} up to {MAXIMUM}" if kind == "levels" else
              f"up to {MAXIMUM} repetitions, futility level {LEVEL:g}")
    note = (f"{studies} studies per row (seed {SEED}, the studies of the table above), {design}; "
            f"`benchmarks/bench_futility.py --{kind} {' '.join(f'{v:g}' for v in values)} "
            f"--studies {studies} --jobs {jobs}{_designs_text(designs)}` on {cpu_name()}, "
            f"{os.cpu_count()} cores, beside other work.")
    header, rows = _with_design(HEADER if kind == "levels" else ["wave", *HEADER[1:]],
                                [r for part in parts for r in part], designs)
    return "\n".join(md_table(header, rows)) + "\n\n" + note + "\n"


def _write(made: str, marker: str) -> None:
    replace_between(DOCS, f"<!-- {marker}:begin -->\n", f"<!-- {marker}:end -->", made)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--studies", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=1, help="processes (one per law at most)")
    parser.add_argument("--levels", type=float, nargs="+",
                        help="instead: these futility levels at the SNRs near the threshold "
                             "(--write: between the futility-levels markers)")
    parser.add_argument("--waves", type=int, nargs="+",
                        help="instead: these wave sizes at SNR 0, 2, 4 and 12 (--write: between "
                             "the futility-waves markers)")
    parser.add_argument("--design", nargs="+", choices=DESIGNS, default=["anytime"],
                        help="the designs (stopping.design) to run each row under, on the same "
                             "seeded studies (anytime; several: a design column)")
    parser.add_argument("--write", action="store_true", help="into docs/sequential.md")
    args = parser.parse_args()
    designs = tuple(dict.fromkeys(args.design))
    # the default design's tables keep their markers; another design's get their own
    other = "" if designs == ("anytime",) else "-" + "-".join(designs)
    for kind in ("waves", "levels"):
        if getattr(args, kind):
            made = variants_table(kind, getattr(args, kind), args.studies, args.jobs, designs)
            if args.write:
                _write(made, f"futility-{kind}{other}")
            break
    else:
        made = table(args.studies, args.jobs, designs)
        if args.write:
            _write(made, f"futility{other}")
    sys.stdout.write(made)


if __name__ == "__main__":
    main()
