"""``reprocompare plan``: what a sequential study will cost, before it runs.

``--snr S`` simulates the stopping rule (:mod:`reprocompare.estimators.planning`) on studies
whose estimator has the true SNR S; ``--study DIR`` on studies drawn from a pilot study's own
repetitions by the smoothed bootstrap (its summary's per-repetition values), and adds the core-hours and wall time
from the pilot's measured runtimes (each repetition's ``runtime.json``, or its strategy's
``records.jsonl`` in a committed study). ``--design`` chooses the verdicts' intervals: a
planned group-sequential design (``planned``), one look at the maximum (``fixed``) or
confidence sequences (``anytime``).
Defaults come from the config schema (``--design``'s, with ``--study``, from the design the
pilot's summary records, if it records one).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from reprocompare import schemas
from reprocompare.base.errors import UserError
from reprocompare.base.paths import CLAIMS_SUFFIX, COMPARE, RUNTIME_FILE, SUMMARIES
from reprocompare.base.files import dumps_json
from reprocompare.base.run_records import RUNTIME, SUMMARY, read_repetitions
from reprocompare.commands.options import bounded, shown_range
from reprocompare.estimators.designs import design_named, of_stopping
from reprocompare.strategies import ESTIMATORS, MIXED

#: what --study does with an option not given: a study like the pilot is planned with the
#: pilot's own stopping plan and verdict settings, not the schema's
PILOT_OWN = "with --study, the pilot's if it records one"

def add_parser(sub) -> None:
    """``reprocompare plan``, registered on the CLI's subcommands.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The CLI's subcommands.
    """
    wave, maximum = schemas.default("stopping.wave"), schemas.default("stopping.max_repetitions")
    threshold, confidence = (schemas.default("verdict.threshold"),
                             schemas.default("verdict.confidence"))
    deciding = ", ".join(schemas.default("stopping.estimators"))
    futility = schemas.default("stopping.futility")
    design = schemas.default("stopping.design")
    plan = sub.add_parser(
        "plan", help="simulate a sequential study's stopping rule: repetitions, verdicts, cost",
        description="Simulate the sequential stopping rule as `reprocompare sequential` runs it "
                    "(waves up to a maximum, confidence sequences or a planned design's "
                    "repeated confidence intervals, stop when every deciding estimator is "
                    "decided or a verdict by the maximum has become unlikely) on seeded "
                    "studies: the R at the stop (mean, median, "
                    "10th-90th percentile), the shares decided, stopped for futility and "
                    "decided wrong. --snr S: estimates with true SNR S; --study DIR: "
                    "estimates drawn from a pilot study's repetitions (smoothed bootstrap), with "
                    "its measured "
                    "runtimes turned into core-hours and wall time.")
    source = plan.add_mutually_exclusive_group(required=True)
    source.add_argument("--snr", type=bounded("--snr"), metavar="S",
                        help="true SNR of A - B (mean over standard deviation; finite, "
                             f"{shown_range('--snr')})")
    source.add_argument("--study", type=Path, metavar="DIR",
                        help="a pilot study's directory (its results/summaries)")
    plan.add_argument("--comparison", metavar="CORPUS/NAME",
                      help="with --study, the comparison to plan when it has several")
    # with --study, a value not given is the pilot's own (PILOT_OWN): a default here would hide
    # whether the user typed it
    plan.add_argument("--max-repetitions", type=bounded("--max-repetitions"), metavar="N",
                      help=f"the most repetitions ({maximum}; {shown_range('--max-repetitions')}"
                           f"; {PILOT_OWN})")
    plan.add_argument("--wave", type=bounded("--wave"), metavar="W",
                      help=f"repetitions per wave ({wave}; {shown_range('--wave')}; {PILOT_OWN})")
    plan.add_argument("--estimator", action="append", choices=ESTIMATORS, metavar="E",
                      help=f"a deciding estimator, repeatable ({deciding}; one of "
                           f"{', '.join(ESTIMATORS)}; --snr: one single difference; {PILOT_OWN})")
    plan.add_argument("--threshold", type=bounded("--threshold"),
                      help=f"tau on the reproducibility ({threshold:g}; {PILOT_OWN})")
    plan.add_argument("--confidence", type=bounded("--confidence"),
                      help=f"confidence of the verdicts together ({confidence:g}; {PILOT_OWN}: "
                           "its verdicts' level for the comparison planned)")
    plan.add_argument("--design", choices=schemas.choices("stopping.design"),
                      help=f"the verdicts' intervals: a planned group-sequential design's, valid "
                           f"at its looks only (planned), one look at the maximum (fixed), or "
                           f"confidence sequences, valid at every R (anytime) ({design}; with "
                           f"--study, the pilot's if it records one)")
    plan.add_argument("--futility", type=bounded("--futility"), metavar="P",
                      help=f"stop without a verdict once one by the maximum is less likely than "
                           f"P ({futility:g}; {shown_range('--futility')}; 0: off; {PILOT_OWN})")
    plan.add_argument("--studies", type=bounded("--studies"), default=200, metavar="K",
                      help=f"simulated studies (200; {shown_range('--studies')})")
    plan.add_argument("--seed", type=bounded("--seed"), default=0,
                      help="the simulation's seed (0)")
    slots = plan.add_mutually_exclusive_group()
    slots.add_argument("--cores", type=bounded("--cores"), metavar="C",
                       help="with --study: wall time on C cores of one machine (1)")
    slots.add_argument("--jobs", type=bounded("--jobs"), metavar="N",
                       help="with --study: wall time on a cluster running N jobs at once")
    plan.add_argument("--json", action="store_true", help="print JSON")
    plan.set_defaults(run=cmd_plan)


def _summaries(directory: Path) -> dict[str, Path]:
    root = directory / SUMMARIES
    return {f"{path.parent.name}/{path.stem}": path
            for path in sorted(root.glob("*/*.json")) if not path.name.endswith(CLAIMS_SUFFIX)}


def pilot(directory: Path, comparison: str | None = None) -> tuple[str, Path, dict]:
    """A pilot study's summary: (CORPUS/NAME, its path, its record), or one UserError naming
    the cause (no summaries, several and none chosen, an unknown one).

    Parameters
    ----------
    directory : pathlib.Path
        The study's directory.
    comparison : str, optional
        CORPUS/NAME of the summary to read, required when there are several.

    Returns
    -------
    (str, pathlib.Path, dict)
    """
    if not directory.is_dir():
        raise UserError("no such study directory", path=directory)
    found = _summaries(directory)
    if not found:
        raise UserError("no summaries under results/summaries: the pilot has no finished "
                        "repetitions (run it first)", path=directory)
    if comparison is None:
        if len(found) > 1:
            raise UserError(f"{len(found)} comparisons: choose one with --comparison "
                            f"({', '.join(found)})", path=directory)
        comparison = next(iter(found))
    if comparison not in found:
        raise UserError(f"no summary {comparison!r} (it has {', '.join(found)})",
                        path=directory)
    return comparison, found[comparison], SUMMARY.read_file(found[comparison])


def pilot_settings(summary: dict, estimators: list[str] | None = None) -> dict:
    """What a study like the pilot would run with: its stopping plan (wave, max_repetitions,
    estimators, futility, design) when it was sequential, and its verdicts' threshold and confidence.
    The confidence is its verdicts' level for this comparison, Bonferroni over the deciding
    estimators given back (``1 - (1 - each) * k``), so that each planned verdict is read at the
    level the pilot read its own.

    Parameters
    ----------
    summary : dict
        The pilot summary's ``summary``.
    estimators : list of str, optional
        The deciding estimators the command line names, if any.

    Returns
    -------
    dict
        Whichever of ``wave``, ``max_repetitions``, ``estimators``, ``futility``, ``design``,
        ``threshold`` and ``confidence`` the pilot records.
    """
    own: dict = {}
    made = summary.get("stopping") or {}
    if made.get("enabled"):
        own.update({key: made[key] for key in ("wave", "max_repetitions", "estimators",
                                               "futility") if made.get(key) is not None})
        # its design (one from before stopping.design read sequences)
        own["design"] = of_stopping(made).name
    deciding = estimators or own.get("estimators") or schemas.default("stopping.estimators")
    read = (summary.get("verdicts") or {}).get(deciding[0]) or {}
    if read.get("threshold") is not None:
        own["threshold"] = float(read["threshold"])
    if read.get("confidence") is not None:
        own["confidence"] = 1 - (1 - float(read["confidence"])) * len(deciding)
    return own


def job_seconds(directory: Path, comparison: str) -> tuple[dict[str, float], int]:
    """Mean seconds of one repetition's job per strategy, from the pilot's runtime.json files
    (or its strategies' records.jsonl), and how many repetitions they were measured on.

    A job's seconds are the sum over its folds of both models' (``runtime.json``: the folds'
    training and prediction seconds of A and of B).

    Parameters
    ----------
    directory : pathlib.Path
        The study's directory.
    comparison : str
        CORPUS/NAME.

    Returns
    -------
    (dict of str to float, int)
        Mean seconds per strategy (empty when nothing was measured), and the fewest
        repetitions measured of any strategy.
    """
    corpus, name = comparison.split("/", 1)
    base = directory / COMPARE / corpus / name
    means, counts = {}, []
    for strategy_dir in sorted(p for p in base.glob("*") if p.is_dir()):
        runtimes = {n: record[RUNTIME_FILE] for n, record in
                    read_repetitions(strategy_dir).items() if RUNTIME_FILE in record}
        for path in strategy_dir.glob(f"rep*/{RUNTIME_FILE}"):
            number = path.parent.name.removeprefix("rep")
            if number.isdigit():
                runtimes[int(number)] = RUNTIME.read(path.parent)
        seconds = []
        for runtime in runtimes.values():
            try:
                seconds.append(sum(float(fold["A"]) + float(fold["B"])
                                   for fold in runtime["folds"]))
            except (KeyError, TypeError, ValueError):
                raise UserError("a runtime record without its folds' seconds of A and B",
                                path=strategy_dir) from None
        if seconds:
            means[strategy_dir.name] = sum(seconds) / len(seconds)
            counts.append(len(seconds))
    return means, min(counts, default=0)


def _hours(seconds: float) -> str:
    return f"{seconds / 3600:.2f} h" if seconds >= 360 else f"{seconds / 60:.1f} min"


def cmd_plan(args: argparse.Namespace) -> int:
    """``reprocompare plan``: simulate the stopping rule and print what it costs.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit status (0).
    """
    import numpy as np  # lazy: numpy, for this command only

    from reprocompare.estimators import planning  # lazy: scipy, for this command only

    own, found = {}, None  # with --study: the pilot's settings, and its summary
    if args.study is not None:
        found = pilot(args.study, args.comparison)
        own = pilot_settings(found[2].get("summary") or {}, args.estimator)
    for key, name in (("max_repetitions", "stopping.max_repetitions"),
                      ("wave", "stopping.wave"), ("threshold", "verdict.threshold"),
                      ("confidence", "verdict.confidence"), ("futility", "stopping.futility")):
        if getattr(args, key) is None:
            setattr(args, key, own.get(key, schemas.default(name)))
    if args.max_repetitions < args.wave:
        raise UserError(f"the maximum ({args.max_repetitions}) is below one wave "
                        f"({args.wave}): --max-repetitions must be at least --wave",
                        path="the command line")
    estimators = args.estimator or own.get("estimators") or schemas.default("stopping.estimators")
    if len(set(estimators)) != len(estimators):
        raise UserError(f"--estimator given twice: {', '.join(estimators)}",
                        path="the command line")
    if args.study is None and (args.cores or args.jobs or args.comparison):
        raise UserError("--cores, --jobs and --comparison need --study (the runtimes are a "
                        "pilot's)", path="the command line")
    extra: dict = {}
    if args.snr is not None:
        if len(estimators) != 1 or estimators[0] not in planning.SINGLE:
            raise UserError(f"--snr simulates one single difference ({', '.join(planning.SINGLE)})"
                            f", got {', '.join(estimators)}: plan the mixture from a pilot with "
                            "--study", path="the command line")
        source = planning.normal_source(args.snr, estimators[0])
        truth = {estimators[0]: planning.truth_of_snr(args.snr, args.threshold)}
        conclusion, extra["snr"] = "A>B", args.snr
    else:
        comparison, path, record = found
        values = record.get("values") or {}
        needed = [*estimators, *(part for name in estimators for part in MIXED.get(name, ()))]
        lengths = {name: len(values.get(name) or ()) for name in needed}
        if min(lengths.values()) < 2:
            short = ", ".join(f"{n}: {k}" for n, k in lengths.items() if k < 2)
            raise UserError(f"too few finished repetitions to resample ({short}; at least 2)",
                            path=path)
        if len(set(lengths.values())) != 1:
            raise UserError(f"the estimators' values differ in length ({lengths})", path=path)
        pilot_values = {name: values[name] for name in dict.fromkeys(needed)}
        conclusion = record.get("summary", {}).get("conclusion", "A>B")
        try:  # the smoothed bootstrap: the pilot's law without the ties resampling makes
            source = planning.smoothed_source(pilot_values)
        except ValueError as error:
            raise UserError(str(error), path=path) from None
        truth = planning.truth_of_values(pilot_values, estimators, conclusion, args.threshold)
        extra.update(study=str(args.study), comparison=comparison,
                     pilot_repetitions=lengths[estimators[0]])
    chosen = args.design or own.get("design") or schemas.default("stopping.design")
    taken = len(planning.planned_looks(args.wave, args.max_repetitions))
    if design_named(chosen).planned and taken > planning.MAX_LOOKS:
        raise UserError(f"a planned design spends its error over at most {planning.MAX_LOOKS} "
                        f"looks, and waves of {args.wave} up to {args.max_repetitions} make "
                        f"{taken}: give a larger --wave, a smaller --max-repetitions or "
                        "--design anytime", path="the command line")
    design = dict(wave=args.wave, max_repetitions=args.max_repetitions,
                  threshold=args.threshold, confidence=args.confidence, design=chosen)
    futility = (planning.futility_rule(args.futility, wave=args.wave,
                                       max_repetitions=args.max_repetitions, design=chosen)
                if args.futility > 0 else None)
    plan = planning.simulate(source, estimators, studies=args.studies, seed=args.seed,
                             conclusion=conclusion, truth=truth, futility=futility, **design)
    summary = {**plan.summary(), **extra, "futility": args.futility}
    if args.study is not None:
        seconds, measured = job_seconds(args.study, summary["comparison"])
        summary["runtime_repetitions"] = measured
        if seconds:
            per = sum(seconds.values())
            core_hours = plan.repetitions * per / 3600
            slots = args.jobs or args.cores or 1
            wall = planning.wall_times(plan.repetitions, args.wave, seconds, slots) / 3600
            summary.update(
                job_seconds=seconds, core_hours_per_repetition=per / 3600,
                mean_core_hours=float(core_hours.mean()),
                p90_core_hours=float(np.quantile(core_hours, 0.9, method="higher")),
                parallel={"jobs" if args.jobs else "cores": slots},
                mean_wall_hours=float(wall.mean()),
                p90_wall_hours=float(np.quantile(wall, 0.9, method="higher")))
    if args.json:
        sys.stdout.write(dumps_json(summary))
        return 0
    sys.stdout.write(_table(summary) + "\n")
    return 0


def _table(s: dict) -> str:
    """The human summary: a short table."""
    pct = lambda x: f"{100 * x:.1f}%"  # noqa: E731
    given = (f"true SNR {s['snr']:g}" if "snr" in s else
             f"pilot {s['study']} ({s['comparison']}, {s['pilot_repetitions']} repetitions, "
             "smoothed bootstrap)")
    truth = ", ".join(f"{n}: {d}" for n, d in s["truth"].items())
    rows = [
        f"{s['studies']} simulated studies, {given}: {design_named(s['design']).words}, waves of "
        f"{s['wave']} up to {s['max_repetitions']}, deciding {', '.join(s['estimators'])}, "
        f"threshold {s['threshold']:g}, confidence {s['confidence']:g}, seed {s['seed']}",
        f"  {'repetitions at the stop':<26} mean {s['mean_repetitions']:.1f}, median "
        f"{s['median_repetitions']}, 10th-90th percentile {s['p10_repetitions']}-"
        f"{s['p90_repetitions']}",
        f"  {'decided':<26} {pct(s['decided_share'])}",
        f"  {'stopped for futility':<26} {pct(s['futility_share'])} "
        + (f"(a verdict by R = {s['max_repetitions']} less likely than {s['futility']:g})"
           if s["futility"] else "(futility stopping off)"),
        f"  {'wrong verdict':<26} {pct(s['wrong_share'])} (against {truth}"
        + (", the pilot's own point verdict)" if "study" in s else ")")]
    if "core_hours_per_repetition" in s:
        (kind, slots), = s["parallel"].items()
        rows += [
            f"  {'cost per repetition':<26} {s['core_hours_per_repetition']:.3f} core-hours "
            f"({len(s['job_seconds'])} jobs, measured on {s['runtime_repetitions']} "
            "repetitions)",
            f"  {'core-hours at the stop':<26} mean {s['mean_core_hours']:.2f}, 90th "
            f"percentile {s['p90_core_hours']:.2f}",
            f"  {'wall time on ' + str(slots) + ' ' + kind:<26} mean "
            f"{_hours(3600 * s['mean_wall_hours'])}, 90th percentile "
            f"{_hours(3600 * s['p90_wall_hours'])} (perfect packing, no overhead)"]
    elif "study" in s:
        rows.append(f"  {'cost':<26} no {RUNTIME_FILE} in the pilot: not known")
    return "\n".join(rows)
