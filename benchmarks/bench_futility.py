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

from reprocompare.base.markdown import md_table
from reprocompare.estimators.planning import DESIGNS, futility_rule, simulate, truth_of_snr

from markers import cpu_name, replace_between

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "sequential.md"
SNRS = (0.0, 0.3, 0.6, 0.84, 1.0, 1.5, 2.0, 4.0, 12.0)
#: the skewed law on fewer SNRs: each of its rows costs minutes (the share path's looks)
LAWS = {"normal": SNRS, "skewed": (0.0, 0.84, 1.5, 4.0)}
WAVE, MAXIMUM = 5, 200
#: the level the tables run beside "off" (the schema's stopping.futility is off by default;
#: 0.2 is the level a user who wants to save trainings near a tie tries first)
LEVEL = 0.2
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


def _se(studies: int) -> str:
    """The Monte Carlo standard error of a share over ``studies``, at its largest (a share of
    50%), as the notes say it."""
    return f"a share's Monte Carlo standard error at most {50 / studies ** 0.5:.1f} points; "


def table(studies: int, jobs: int = 1, designs: tuple[str, ...] = ("anytime",)) -> str:
    """The Markdown table, the laws computed in ``jobs`` processes, a design column when
    ``designs`` holds more than one."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        parts = list(pool.map(rows_of, LAWS, [studies] * len(LAWS), [designs] * len(LAWS)))
    header, rows = _with_design(HEADER, [r for part in parts for r in part], designs)
    machine = (f"{cpu_name()}, {os.cpu_count()} cores, Python {platform.python_version()}, numpy "
               f"{np.__version__}")
    note = (f"{studies} studies per row ({_se(studies)}seed {SEED}), waves of {WAVE} up to "
            f"{MAXIMUM}, one "
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
    note = (f"{studies} studies per row ({_se(studies)}seed {SEED}, the studies of the table "
            f"above), {design}; "
            f"`benchmarks/bench_futility.py --{kind} {' '.join(f'{v:g}' for v in values)} "
            f"--studies {studies} --jobs {jobs}{_designs_text(designs)}` on {cpu_name()}, "
            f"{os.cpu_count()} cores, beside other work.")
    header, rows = _with_design(HEADER if kind == "levels" else ["wave", *HEADER[1:]],
                                [r for part in parts for r in part], designs)
    return "\n".join(md_table(header, rows)) + "\n\n" + note + "\n"


def _write(made: str, marker: str) -> None:
    replace_between(DOCS, f"<!-- {marker}:begin -->\n", f"<!-- {marker}:end -->", made)


def _committed_rows(marker: str) -> dict:
    """(law, SNR, futility level) -> row of docs/sequential.md's ``marker`` table."""
    text = DOCS.read_text(encoding="utf-8")
    block = text.split(f"<!-- {marker}:begin -->\n", 1)[1].split(f"<!-- {marker}:end -->", 1)[0]
    rows = [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in block.split("\n\n", 1)[0].splitlines()[2:] if line.startswith("|")]
    return {(r[0], r[1], r[3]): r for r in rows}


def _readers(table: dict):
    mean = lambda snr, level=f"{LEVEL:g}": table[("normal", snr, level)][4]  # noqa: E731
    decided = lambda snr, level=f"{LEVEL:g}": table[("normal", snr, level)][7]  # noqa: E731
    futile = lambda snr, level: table[("normal", snr, level)][8]  # noqa: E731
    return mean, decided, futile


NEAR = ("0.6", "0.84", "1")


def _span(table: dict, level: str, column: int = 4, digits: int = 1) -> str:
    values = [float(table[("normal", snr, level)][column].rstrip("%")) for snr in NEAR]
    low, high = f"{min(values):.{digits}f}", f"{max(values):.{digits}f}"
    return low if low == high else f"{low}-{high}"


def futility_reading() -> str:
    """What the confidence sequences' futility table says (the futility block), made from it."""
    rows = _committed_rows("futility")
    level = f"{LEVEL:g}"
    cell = lambda snr, lvl, column, law="normal": rows[(law, snr, lvl)][column]  # noqa: E731
    span = lambda lvl, column: _span(rows, lvl, column)  # noqa: E731
    far = ("0", "2", "4", "12")
    same = [snr for snr in far if cell(snr, "off", 4) == cell(snr, level, 4)
            and cell(snr, level, 8) == "0.0%"]
    wrong = lambda lvl: max(float(r[9].rstrip("%")) for k, r in rows.items()  # noqa: E731
                            if k[0] == "normal" and k[2] == lvl)
    return (
        f"What it says (normal estimates): near the threshold (true SNR 0.6-1) futility at "
        f"{level} brings the mean R from {span('off', 4)} to {span(level, 4)} and the median "
        f"from {_span(rows, 'off', 5, 0)} to {_span(rows, level, 5, 0)}; {span(level, 8)}% of "
        "those studies stop "
        f"for futility, and the share decided falls from {cell('0.6', 'off', 7)} to "
        f"{cell('0.6', level, 7)} at SNR 0.6 and from {cell('1', 'off', 7)} to "
        f"{cell('1', level, 7)} at SNR 1, the price of stopping the rest early. At SNR "
        f"{', '.join(same)} the mean R is the same with and without it and no study stops for "
        f"futility; at SNR 0.3 and 1.5, {cell('0.3', level, 8)} and {cell('1.5', level, 8)} of "
        f"the studies stop first. Wrong verdicts: at most {wrong('off'):.1f}% without it and "
        f"{wrong(level):.1f}% with it (at SNR 0.84, where the right answer, \"none\", sits on the "
        "threshold). The predictive probability stays above the level while the posterior of "
        "the SNR still straddles the threshold, which takes tens of repetitions; a higher level "
        "stops earlier and gives up more verdicts (the table below). Skewed estimates mostly "
        "leave the normal model (Shapiro-Wilk), and an estimator on Eq. 1's shares is not "
        f"judged: at SNR 0.84 {cell('0.84', level, 8, 'skewed')} of the skewed studies stop for "
        "futility.")


def levels_reading() -> str:
    """What the confidence sequences' higher futility levels say (the futility-levels block),
    made from it and the futility block."""
    base, levels = _committed_rows("futility"), _committed_rows("futility-levels")
    mean, decided, _ = _readers(base)
    lmean, ldecided, lfutile = _readers(levels)
    tried = sorted({key[2] for key in levels}, key=float)
    top, *_ = tried[::-1]
    same = all(lmean(snr, level) == mean(snr) for snr in ("2", "4") for level in tried)
    return (f"At level {top} the mean R near the threshold (SNR 0.6, 0.84 and 1) is "
            f"{', '.join(lmean(snr, top) for snr in NEAR)}, against "
            f"{', '.join(mean(snr) for snr in NEAR)} at {LEVEL:g}; the price is verdicts given up "
            f"that would have come: at SNR 0.3 {lfutile('0.3', top)} of the studies stop "
            f"without their \"neither\" ({'; '.join(f'level {v}: ' + lfutile('0.3', v) for v in tried[:-1])}"
            f"; {LEVEL:g}: {base[('normal', '0.3', f'{LEVEL:g}')][8]}), at SNR 1.5 "
            f"{lfutile('1.5', top)} without their \"A > B\" "
            f"({'; '.join(f'level {v}: ' + lfutile('1.5', v) for v in tried[:-1])}; {LEVEL:g}: "
            f"{base[('normal', '1.5', f'{LEVEL:g}')][8]}), and at SNR 0 {lfutile('0', top)} "
            f"({'; '.join(f'level {v}: ' + lfutile('0', v) for v in tried[:-1])}). "
            + ("At SNR 2 and 4 the mean R is that of level "
               f"{LEVEL:g} at every level tried." if same else
               "At SNR 2 and 4 the mean R changes with the level.")
            + " A study that would rather save trainings than wait for a late verdict raises "
            "`stopping.futility`; `reprocompare plan --futility P` measures any level first.")


def planned_reading() -> str:
    """What the planned design's futility tables say against the confidence sequences' (the
    four futility blocks), made from them."""
    anytime, planned = _committed_rows("futility"), _committed_rows("futility-planned")
    levels, planned_levels = _committed_rows("futility-levels"), _committed_rows(
        "futility-levels-planned")
    mean, decided, _ = _readers(anytime)
    pmean, pdecided, _ = _readers(planned)
    lmean, ldecided, lfutile = _readers(planned_levels)
    _, _, afutile = _readers(levels)
    wrong = lambda t, level: t[("normal", "0.84", level)][9]  # noqa: E731
    return (
        "What it says, against the confidence sequences on the same studies (the futility table "
        f"above): the planned design's mean R is {pmean('0')} against {mean('0')} at SNR 0, "
        f"{pmean('0.3')} against {mean('0.3')} at 0.3 and {pmean('1.5')} against {mean('1.5')} "
        f"at 1.5; near the threshold it decides {pdecided('0.6')} against {decided('0.6')} at "
        f"SNR 0.6 and {pdecided('1')} against {decided('1')} at SNR 1, and its mean R there is "
        f"{_span(planned, f'{LEVEL:g}')} against {_span(anytime, f'{LEVEL:g}')}. At SNR 2, 4 "
        f"and 12 its mean R is {pmean('2')}, {pmean('4')} and {pmean('12')} (the confidence "
        f"sequences: {mean('2')}, {mean('4')} and {mean('12')}). Wrong verdicts at SNR 0.84 "
        f"(where the right answer, \"neither\", sits on the threshold) are "
        f"{wrong(planned, f'{LEVEL:g}')} with futility and {wrong(planned, 'off')} without. At "
        f"futility level 0.4 the planned design's mean R near the threshold is "
        f"{_span(planned_levels, '0.4')} while it still decides "
        f"{_span(planned_levels, '0.4', 7)}% of those studies, and it gives up "
        f"{lfutile('0.3', '0.4')} of the verdicts at SNR 0.3 and {lfutile('1.5', '0.4')} at "
        f"1.5, against {afutile('0.3', '0.4')} and {afutile('1.5', '0.4')} for the confidence "
        f"sequences at that level. At level 0.5 its mean R near the threshold is "
        f"{_span(planned_levels, '0.5')} and it decides "
        f"{', '.join(ldecided(snr, '0.5') for snr in NEAR[:2])} and {ldecided('1', '0.5')} of "
        f"the studies at SNR 0.6, 0.84 and 1 (the confidence sequences at {LEVEL:g}: "
        f"{', '.join(decided(snr) for snr in NEAR[:2])} and {decided('1')}), at the price of "
        f"{lfutile('0.3', '0.5')} and {lfutile('1.5', '0.5')} of the verdicts at SNR 0.3 and "
        f"1.5 (and {lfutile('0', '0.5')} at SNR 0); at SNR 2 and 4 its mean R is "
        f"{lmean('2', '0.5')} and {lmean('4', '0.5')}.")


def waves_reading() -> str:
    """What the wave sizes' table says (the futility-waves block), made from it."""
    text = DOCS.read_text(encoding="utf-8")
    block = text.split("<!-- futility-waves:begin -->\n", 1)[1].split(
        "<!-- futility-waves:end -->", 1)[0]
    rows = {}
    for line in block.split("\n\n", 1)[0].splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows[cells[0], cells[1]] = cells
    mean = lambda wave, snr: rows[wave, snr][4]  # noqa: E731
    p90 = lambda wave, snr: rows[wave, snr][6]  # noqa: E731
    saved = lambda snr: float(mean("5", snr)) - float(mean("1", snr))  # noqa: E731
    return (f"A look after every repetition brings the mean R from {mean('5', '0')} to "
            f"{mean('1', '0')} at SNR 0, from {mean('5', '2')} to {mean('1', '2')} at SNR 2 and "
            f"from {mean('5', '4')} to {mean('1', '4')} at SNR 4 (90th percentile "
            f"{p90('5', '4')} and {p90('1', '4')}; at SNR 12 {mean('5', '12')} and "
            f"{mean('1', '12')}): {min(map(saved, ('0', '2', '4'))):.1f}-"
            f"{max(map(saved, ('0', '2', '4'))):.1f} repetitions of a study, what any sizing of "
            "the waves could save at most. Each look is a round of Snakemake (and of the "
            "cluster's queue), and a planned design's looks are fixed before the study runs: "
            "waves of 5 stay the default, and a study whose trainings are costly can choose "
            "smaller ones (`stopping.wave`), with `reprocompare plan --wave W` to measure them "
            "first.")


def _with_reading(marker: str, reading: str) -> None:
    """Put ``reading`` after the table and note of ``marker``'s block (replacing any)."""
    text = DOCS.read_text(encoding="utf-8")
    block = text.split(f"<!-- {marker}:begin -->\n", 1)[1].split(f"<!-- {marker}:end -->", 1)[0]
    table, rest = block.split("\n\n", 1)
    _write(f"{table}\n\n{rest.split(chr(10) + chr(10), 1)[0].strip()}\n\n{reading}\n", marker)


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
    parser.add_argument("--reading", action="store_true",
                        help="remake the readings of the futility, futility-levels, "
                             "futility-levels-planned and futility-waves blocks from the "
                             "committed tables")
    args = parser.parse_args()
    if args.reading:
        _with_reading("futility", futility_reading())
        _with_reading("futility-levels", levels_reading())
        _with_reading("futility-levels-planned", planned_reading())
        _with_reading("futility-waves", waves_reading())
        return
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
    if args.write:  # the readings are made from the committed tables, this one included
        _with_reading("futility", futility_reading())
        _with_reading("futility-levels", levels_reading())
        _with_reading("futility-levels-planned", planned_reading())
        _with_reading("futility-waves", waves_reading())
    sys.stdout.write(made)


if __name__ == "__main__":
    main()
