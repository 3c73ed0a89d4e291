"""Sequential studies: `reprocompare sequential` runs waves of repetitions until the verdicts are
decided (issue 22).

A study with ``stopping.enabled`` adds ``stopping.wave`` repetitions at a time through the same
Snakemake workflow (``--config repetitions=R``: every wave only adds repetitions, so the
provenance and growth guarantees hold as in any run) and stops when every estimator of
``stopping.estimators`` has a verdict on every comparison, or when ``stopping.max_repetitions``
is reached. The verdicts then read confidence sequences (:mod:`reprocompare.estimators.sequential`),
whose coverage holds however early the study stops; the summaries record the rule, the waves run
and where the study stopped, and every table prints it.

Interrupted, the same command resumes: it starts at the last whole wave the results hold. On a
fresh clone (results committed, no Snakemake records beside them) it first runs
:func:`reprocompare.commands.resume.resume`, which checks them against the config and records
them, so that nothing committed is trained again. Any profile works (``-- --profile
profiles/slurm ...`` passes its arguments to every snakemake run).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from reprocompare.base.errors import UserError
from reprocompare.base.records import read_json
from reprocompare.commands.resume import planned_runs, resume, run_directory, snakefile
from reprocompare.study.config import load_yaml, validate, widest


def _complete(config: dict, directory: Path) -> int:
    """How many leading repetitions are complete for every planned (corpus, comparison,
    strategy), up to the maximum."""
    complete = {}
    for corpus, comparison, strategy, r in planned_runs(widest(config)):
        done = (run_directory(directory, corpus, comparison, strategy, r)
                / "estimates.json").is_file()
        key = (corpus, comparison, strategy)
        if done and complete.get(key, 0) == r:
            complete[key] = r + 1
    return min(complete.values(), default=0) if complete else 0


def _summaries(config: dict, directory: Path) -> list[dict]:
    paths = [directory / "results" / "summaries" / corpus / f"{name}.json"
             for name, comparison in sorted(config["comparisons"].items())
             for corpus in comparison["corpora"]]
    try:
        return [read_json(path)["summary"] for path in paths]
    except KeyError as error:
        raise UserError(f"the wave's summaries cannot be read ({error})", path=directory) \
            from None


def _snakemake(config_path: Path, directory: Path, repetitions: int,
               arguments: list[str]) -> None:
    command = [sys.executable, "-m", "snakemake", "--snakefile", str(snakefile()),
               "--configfile", str(config_path.resolve()), "--directory", str(directory),
               *arguments, "--config", f"repetitions={repetitions}"]
    if subprocess.run(command).returncode != 0:  # its output went to the terminal as it ran
        raise UserError(f"the wave at R = {repetitions} failed (snakemake's messages above); "
                        "run the same command again to resume", path=directory)


def run_waves(config_path: str | Path, directory: str | Path = ".",
              arguments: list[str] | None = None, say=print) -> dict:
    """Run waves until the stopping rule is met; return where the study stopped and why."""
    config_path, directory = Path(config_path), Path(directory)
    config = validate(load_yaml(config_path), source=str(config_path))
    stopping = config["stopping"]
    if not stopping["enabled"]:
        raise UserError("a sequential study needs `stopping: {enabled: true}` (and its wave, "
                        "maximum and deciding estimators)", path=config_path,
                        key="stopping.enabled")
    wave, maximum = stopping["wave"], stopping["max_repetitions"]
    arguments = list(arguments or ["--profile", "profiles/local"])
    done = _complete(config, directory)
    # resume at the last whole wave the results hold (a wave is never smaller than 2 repetitions)
    repetitions = min(max(2, wave, done - done % wave), maximum)
    if done and not (directory / ".snakemake" / "metadata").is_dir():
        # a clone: git gave every file the checkout's time, and Snakemake, with no records of
        # them, would train the whole study again
        resume(config_path, directory, say=say)
    if done:
        say(f"{directory}: {done} complete repetitions found; resuming at R = {repetitions}")
    while True:
        say(f"wave to R = {repetitions} (waves of {wave}, at most {maximum})")
        _snakemake(config_path, directory, repetitions, arguments)
        summaries = _summaries(config, directory)
        for summary in summaries:
            verdicts = summary.get("verdicts", {})
            say("  " + "; ".join(f"{name}: {verdicts[name]['text']}"
                                 for name in stopping["estimators"] if name in verdicts))
        if all(s["stopping"]["decided"] for s in summaries):
            reason = "every deciding estimator decided"
            break
        if repetitions >= maximum:
            reason = f"the maximum of {maximum} repetitions reached, still undecided"
            break
        repetitions = min(repetitions + wave, maximum)
    say(f"stopped at R = {repetitions}: {reason}")
    return {"repetitions": repetitions, "reason": reason,
            "decided": all(s["stopping"]["decided"] for s in summaries)}
