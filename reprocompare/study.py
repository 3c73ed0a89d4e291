"""Resume a study from its committed results: `reprocompare resume`.

A study (config/study-*.yaml) runs in its own working directory (studies/NAME/) and its
per-repetition results are committed as they grow, so that anyone can check the numbers and a
later session, on another machine, goes on where the last one stopped. A fresh clone has the
results but not Snakemake's records of them (.snakemake/ is never committed), and git gives every
file the time of the checkout: Snakemake would see inputs newer than outputs and train the whole
study again. Snakemake's own answer, ``--touch``, marks outputs current without asking whether they
belong to the config, which would turn a stale result into a current one.

So :func:`resume` first checks every complete repetition against the config: the settings it
recorded (settings.json, the job's params) must equal what the config asks for now
(:func:`reprocompare.provenance.compare`), and its split must be of the corpus the config prepares
(sha256). One that does not ends the command with one line naming it, before anything is changed.
Then it prepares the corpora (the corpus job: a corpus is never committed, CoNLL-2002 may not be)
and lets Snakemake ``--touch`` the checked repetitions, which also records them in its metadata,
so that from then on a config change reruns them as in any run. The next ``snakemake`` run trains
only the missing repetitions and rebuilds the summaries, tables and figures from all of them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from reprocompare import provenance
from reprocompare.config import STRATEGY_NAMES, load_yaml, validate
from reprocompare.errors import UserError

#: what a complete compare job wrote (estimates.json last)
OUTPUTS = ("split.json", "settings.json", "scores.json", "counts.tsv.gz", "runtime.json",
           "estimates.json")


def planned_runs(config: dict) -> list[tuple[str, str, str, int]]:
    """(corpus, comparison, strategy, repetition) of every compare job the config plans."""
    strategies = [STRATEGY_NAMES[key] for key in config["strategies"]]
    return [(corpus, name, strategy, r)
            for name, comparison in config["comparisons"].items()
            for corpus in comparison["corpora"]
            for strategy in strategies
            for r in range(config["repetitions"])]


def run_directory(directory: Path, corpus: str, comparison: str, strategy: str,
                  repetition: int) -> Path:
    return directory / "results" / "compare" / corpus / comparison / strategy / f"rep{repetition}"


def _first_difference(recorded, expected, key: str = "") -> str:
    """The first key whose value differs, as a dotted path with both values."""
    if isinstance(recorded, dict) and isinstance(expected, dict):
        for name in [*expected, *(k for k in recorded if k not in expected)]:
            if recorded.get(name) != expected.get(name):
                return _first_difference(recorded.get(name), expected.get(name),
                                         f"{key}.{name}" if key else name)
    return f"{key or 'settings'} is {json.dumps(recorded)} in the results, " \
           f"{json.dumps(expected)} in the config"


def check_results(config: dict, directory: Path) -> tuple[list[Path], int]:
    """The complete repetitions whose recorded settings are the config's, and how many the
    config plans; a complete repetition that belongs to another config is a UserError."""
    complete, planned = [], planned_runs(config)
    for corpus, comparison, strategy, r in planned:
        run = run_directory(directory, corpus, comparison, strategy, r)
        if not all((run / name).is_file() for name in OUTPUTS):
            continue  # missing or cut off: the run trains it
        try:
            recorded = json.loads((run / "settings.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise UserError(f"cannot be read ({error}); delete its directory to train it again",
                            path=run / "settings.json") from None
        expected = json.loads(json.dumps(provenance.compare(config, corpus, comparison, strategy)))
        if recorded != expected:
            raise UserError(
                f"these results belong to another config: {_first_difference(recorded, expected)}"
                "; restore that value, or move the study's results away to train them again",
                path=run)
        complete.append(run)
    return complete, len(planned)


def check_corpora(config: dict, directory: Path, complete: list[Path]) -> None:
    """Every complete repetition split the corpus the corpus job prepared (same sha256)."""
    sha256 = {}
    for corpus in config["corpora"]:
        info = directory / "results" / "corpora" / corpus / "corpus.json"
        if info.is_file():
            sha256[corpus] = json.loads(info.read_text(encoding="utf-8"))["sha256"]
    for run in complete:
        corpus = run.relative_to(directory / "results" / "compare").parts[0]
        split = json.loads((run / "split.json").read_text(encoding="utf-8"))
        if split.get("corpus_sha256") != sha256.get(corpus):
            raise UserError(f"split another corpus than the one {corpus} is now (sha256 "
                            f"{split.get('corpus_sha256')}, now {sha256.get(corpus)}): the "
                            "corpus file or its reading settings changed", path=run / "split.json")


def snakefile() -> Path:
    """The workflow's Snakefile: resume runs the workflow, which lives in a clone of the project
    (the installed package holds the library, not the workflow)."""
    path = Path(__file__).resolve().parents[1] / "Snakefile"
    if not path.is_file():
        raise UserError("resume runs the study's workflow, and this reprocompare is installed "
                        "without it: run it from a clone of the project (`pip install -e .` "
                        "there, or `make env`), where the Snakefile is")
    return path


def _snakemake(config_path: Path, directory: Path, *arguments: str) -> None:
    command = [sys.executable, "-m", "snakemake", "--snakefile", str(snakefile()),
               "--configfile", str(config_path.resolve()), "--directory", str(directory),
               "--cores", "1", *arguments, "--quiet", "rules"]  # --quiet takes values: last
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-15:])
        raise UserError(f"snakemake {' '.join(arguments)} failed:\n{tail}", path=directory)


def resume(config_path: str | Path, directory: str | Path, say=print) -> dict:
    """Check a study's results against its config and make them current for Snakemake."""
    config_path, directory = Path(config_path), Path(directory)
    snakefile()  # before anything is checked or changed
    if not directory.is_dir():
        raise UserError("no such study directory", path=directory)
    config = validate(load_yaml(config_path), source=str(config_path))
    complete, planned = check_results(config, directory)
    # the prepared copies, where missing: a job that later needs one would otherwise make it
    # then, newer than every repetition of its corpus, and Snakemake would rerun them all
    corpora = [f"results/corpora/{name}/corpus.conll" for name in config["corpora"]]
    _snakemake(config_path, directory, *corpora)
    check_corpora(config, directory, complete)
    if complete:
        _snakemake(config_path, directory, "--touch",
                   *(str((run / "estimates.json").relative_to(directory)) for run in complete))
    say(f"{directory}: {len(complete)} of {planned} repetitions are complete and belong to "
        f"{config_path}; snakemake trains the other {planned - len(complete)} and rebuilds the "
        "summaries, tables and figures")
    return {"complete": len(complete), "planned": planned}
