"""Resume a study from its committed results: `reprocompare resume`.

A study (config/study-*.yaml) runs in its own working directory (studies/NAME/) and its
per-repetition results are committed as they grow, so that anyone can check the numbers and a
later session, on another machine, goes on where the last one stopped. A fresh clone has the
results but not Snakemake's records of them (.snakemake/ is never committed), and git gives every
file the time of the checkout: Snakemake would see inputs newer than outputs and train the whole
study again. Snakemake's own answer, ``--touch``, marks outputs current without asking whether they
belong to the config, which would turn a stale result into a current one.

A committed study holds what cannot be derived, in as few files as serve (.gitignore; issue
35): each repetition's counts.tsv.gz, and a table per strategy (records.jsonl,
:func:`reprocompare.base.run_records.tabulate_repetitions`, written by :func:`tabulate` after every
run of `make study-NAME`) of its settings.json, scores.json, runtime.json and estimates.json,
never its split.json, which its seed gives back byte for byte. Once every repetition's settings
(its settings.json, else its table's) are checked against the config and the corpus is
prepared, resume writes the files back as the job wrote them: the JSON records from the table
(:func:`reprocompare.base.run_records.restore_tabulated`) and the split (:func:`restore_splits`,
from the prepared corpus as the job derived it; a restored split is of the corpus the study's
committed corpus.json names, or resume stops), before anything reads them. A line of a table
that is not a whole record (not JSON, a NaN, a record its reader refuses) restores nothing: resume
names its file, line and repetition, and the repetition is one the next run trains again, as a
repetition whose files are damaged is.

So :func:`resume` first reads every repetition that claims to be complete (its estimates.json,
written last, exists) as a rerun would, and checks it against itself
(:func:`reprocompare.study.verify.run_problem`, the check the summaries' reader makes too): every
output present, the JSON files parse, the counts a whole gzip of counts within their bounds, of
the sentences its split validated, and scores.json and every estimate what those counts imply.
One that is not (truncated, emptied, a file deleted, an estimate edited in range) is trained
again: its estimates.json is removed, which is what Snakemake asks for (the summaries need it),
and its summary is marked out of date (older than its inputs), without which Snakemake would
read the missing estimates.json under a summary that stands as a file it can do without and
plan nothing; a missing scores.json alone would not do, as no job asks for it.
Then it checks every complete repetition against the config: the settings it
recorded (settings.json, the job's params) must equal what the config asks for now
(:func:`reprocompare.pipeline.provenance.compare`), and its split must be of the corpus the config prepares
(sha256). One that does not ends the command with one line naming it, before anything is changed.
Then it prepares the corpora (the corpus job: a corpus is never committed, CoNLL-2002 may not be)
and lets Snakemake ``--touch`` the checked repetitions, which also records them in its metadata,
so that from then on a config change reruns them as in any run. The next ``snakemake`` run trains
only the missing repetitions and rebuilds the summaries, tables and figures from all of them.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from reprocompare.base import paths
from reprocompare.base.errors import UserError
from reprocompare.base.paths import ESTIMATES_FILE, SETTINGS_FILE, SPLIT_FILE
from reprocompare.base.files import read_json
from reprocompare.base.run_records import (ESTIMATES, SETTINGS, DamagedLine, finished, read_split,
                                           read_tabulated, restore_tabulated,
                                           tabulate_repetitions, unfinish, write_split)
from reprocompare.strategies import TABULATED_RECORDS, strategy as strategy_of
from reprocompare.study.verify import run_problem
from reprocompare.pipeline import jobs, provenance
from reprocompare.pipeline.workflow_files import snakefile, snakemake_command
from reprocompare.splitters import dumps
from reprocompare.study.config import load_yaml, validate, widest


def planned_runs(config: dict) -> list[tuple[str, str, str, int]]:
    """(corpus, comparison, strategy, repetition) of every compare job the config plans.

    Parameters
    ----------
    config : dict
        The validated config.

    Returns
    -------
    list of (str, str, str, int)
    """
    strategies = [strategy_of(key).name for key in config["strategies"]]
    return [(corpus, name, strategy, r)
            for name, comparison in config["comparisons"].items()
            for corpus in comparison["corpora"]
            for strategy in strategies
            for r in range(config["repetitions"])]


def _first_difference(recorded, expected, key: str = "") -> str:
    """The first key whose value differs, as a dotted path with both values."""
    if isinstance(recorded, dict) and isinstance(expected, dict):
        for name in [*expected, *(k for k in recorded if k not in expected)]:
            if recorded.get(name) != expected.get(name):
                return _first_difference(recorded.get(name), expected.get(name),
                                         f"{key}.{name}" if key else name)
    return f"{key or 'settings'} is {json.dumps(recorded)} in the results, " \
           f"{json.dumps(expected)} in the config"


def _another_config(recorded: dict, expected: dict, config: dict) -> str:
    """Why a repetition's recorded settings are not the config's, and what to do about it: a
    value of the config can be restored; a model type's version (its defaults changed in this
    reprocompare, so a spec that names only the values set trains another network) cannot."""
    difference = _first_difference(recorded, expected)
    for side in ("A", "B"):
        then, now = (settings.get(side, {}) for settings in (recorded, expected))
        if isinstance(then, dict) and isinstance(now, dict) and then != now \
                and {k: v for k, v in then.items() if k != "version"} \
                == {k: v for k, v in now.items() if k != "version"}:
            model = config["models"].get(now.get("name"), {})
            return (f"these results were trained by an older reprocompare: {difference} "
                    f"(model {now.get('name')!r}, type {model.get('type')!r}: its defaults "
                    "changed since, docs/models.md); move this comparison's results away to "
                    "train it again at the new defaults")
    return (f"these results belong to another config: {difference}; restore that value, or "
            "move the study's results away to train them again")


def tabulate(directory: str | Path) -> list[Path]:
    """Write the records.jsonl of every strategy of the study in ``directory`` from its
    complete repetitions: what the study commits of their JSON records (`make study-NAME`
    runs it last).

    Parameters
    ----------
    directory : str or os.PathLike
        The study's directory.

    Returns
    -------
    list of pathlib.Path
        The records.jsonl written.
    """
    strategies = sorted(Path(directory).glob(
        paths.STRATEGY.format(corpus="*", comparison="*", strategy="*")))
    return [path for path in map(tabulate_repetitions, strategies) if path]


def _strategies(config: dict, directory: Path) -> list[Path]:
    """The strategy directories of every repetition the config plans."""
    return list(dict.fromkeys(paths.run_directory(*planned, root=directory).parent
                              for planned in planned_runs(config)))


def restore_records(config: dict, directory: Path) -> list[Path]:
    """The JSON records of every repetition the config plans, written back from its strategy's
    records.jsonl where the directory lacks them (a clone); the run directories written. A
    damaged line writes nothing (:func:`damaged_records` says which).

    Parameters
    ----------
    config : dict
        The validated config.
    directory : pathlib.Path
        The study's directory.

    Returns
    -------
    list of pathlib.Path
        The run directories written to.
    """
    return [run for path in _strategies(config, directory)
            for run in restore_tabulated(path, TABULATED_RECORDS)[0]]


def damaged_records(config: dict, directory: Path) -> list[tuple[DamagedLine, list[Path]]]:
    """Each line of the study's records.jsonl that is not a whole record, and the repetitions
    that the next run trains for it: the one it names, or, where the line names none, every
    repetition of its strategy that has neither a whole line nor a finished directory.

    Parameters
    ----------
    config : dict
        The validated config.
    directory : pathlib.Path
        The study's directory.

    Returns
    -------
    list of (DamagedLine, list of pathlib.Path)
    """
    planned: dict[Path, list[Path]] = {}
    for key in planned_runs(config):
        run = paths.run_directory(*key, root=directory)
        planned.setdefault(run.parent, []).append(run)
    found = []
    for strategy_dir, runs in planned.items():
        whole, damaged = read_tabulated(strategy_dir, TABULATED_RECORDS)
        for line in damaged:
            if line.repetition is not None:
                trained = [strategy_dir / f"rep{line.repetition}"]
            else:
                trained = [run for run in runs if not finished(run)
                           and int(run.name.removeprefix("rep")) not in whole]
            found.append((line, [run for run in trained if not finished(run)]))
    return found


def check_settings(config: dict, directory: Path) -> tuple[list[Path], int]:
    """The repetitions that claim to be complete (estimates.json, written last, exists, or its
    strategy's records.jsonl holds it) and how many the config plans; a repetition whose
    readable settings (its settings.json, else its table's) belong to another config is a
    UserError (before anything is changed).

    Parameters
    ----------
    config : dict
        The validated config.
    directory : pathlib.Path
        The study's directory.

    Returns
    -------
    (list of pathlib.Path, int)
        The repetitions claiming to be complete, and the number planned.
    """
    claimed, planned, tables = [], planned_runs(config), {}
    for corpus, comparison, strategy, r in planned:
        run = paths.run_directory(corpus, comparison, strategy, r, root=directory)
        if run.parent not in tables:  # its whole lines: a damaged one claims nothing
            tables[run.parent] = read_tabulated(run.parent, TABULATED_RECORDS)[0]
        tabulated = tables[run.parent].get(r, {})
        if not finished(run) and ESTIMATES_FILE not in tabulated:
            continue  # never finished, or cut off: Snakemake plans it as it is
        if (run / SETTINGS_FILE).is_file():
            try:
                recorded = SETTINGS.read(run)
            except UserError:  # unreadable: the check of its records trains it again
                recorded = None
        else:
            recorded = tabulated.get(SETTINGS_FILE)
        expected = json.loads(json.dumps(provenance.compare(config, corpus, comparison, strategy)))
        if recorded is not None and recorded != expected:
            raise UserError(_another_config(recorded, expected, config), path=run)
        claimed.append(run)
    return claimed, len(planned)


def _run_key(directory: Path, run: Path) -> tuple[str, str, str, int]:
    corpus, comparison, strategy, rep = run.relative_to(directory / paths.COMPARE).parts
    return corpus, comparison, strategy, int(rep.removeprefix("rep"))


def restore_splits(config: dict, directory: Path, runs: list[Path]) -> list[Path]:
    """Write the split.json of every repetition in ``runs`` that lacks it, derived as its compare
    job derived it (:func:`reprocompare.pipeline.jobs.compare`: the prepared corpus, the config's
    split settings, the repetition's seed), and return those written. The corpus must be
    prepared (results/corpora/NAME/corpus.conll).

    Parameters
    ----------
    config : dict
        The validated config.
    directory : pathlib.Path
        The study's directory.
    runs : list of pathlib.Path
        The repetitions' directories.

    Returns
    -------
    list of pathlib.Path
        The split.json written.
    """
    corpora: dict[str, object] = {}
    restored = []
    for run in runs:
        if (run / SPLIT_FILE).is_file():
            continue
        corpus, comparison, strategy, r = _run_key(directory, run)
        conll = directory / paths.CORPUS.format(corpus=corpus)
        if corpus not in corpora:
            corpora[corpus] = jobs.load_prepared(
                str(conll), str(directory / paths.CORPUS_INFO.format(corpus=corpus)))
        settings = provenance.compare(config, corpus, comparison, strategy)
        # the job's own derivation (a design of samples included), not a copy of it
        _, split = jobs._repetition(corpora[corpus], str(conll), settings, r)
        write_split(run, dumps(split))
        restored.append(run)
    return restored


def check_results(runs: list[Path]) -> tuple[list[Path], list[tuple[Path, str]]]:
    """The repetitions of ``runs`` a rerun can trust, and those it cannot (with why:
    :func:`run_problem`).

    Parameters
    ----------
    runs : list of pathlib.Path
        The repetitions' directories.

    Returns
    -------
    (list of pathlib.Path, list of (pathlib.Path, str))
    """
    complete, broken = [], []
    for run in runs:
        problem = run_problem(run)
        if problem is None:
            complete.append(run)
        else:
            broken.append((run, problem))
    return complete, broken


def corpus_sha256(config: dict, directory: Path) -> dict[str, str | None]:
    """The sha256 of each corpus as the study's corpus.json records it (None where absent).

    Parameters
    ----------
    config : dict
        The validated config.
    directory : pathlib.Path
        The study's directory.

    Returns
    -------
    dict of str to str or None
        The sha256, by corpus.
    """
    sha256 = {}
    for corpus in config["corpora"]:
        info = directory / paths.CORPUS_INFO.format(corpus=corpus)
        sha256[corpus] = read_json(info).get("sha256") if info.is_file() else None
    return sha256


def check_corpora(config: dict, directory: Path, complete: list[Path],
                  committed: dict[str, str | None], restored: list[Path]) -> None:
    """Every complete repetition split the corpus the corpus job prepared (same sha256): its
    split.json says which, or, for a split restored from the seed (which splits the corpus as
    it is now), the corpus.json committed with it (``committed``, read before the corpus job).

    Parameters
    ----------
    config : dict
        The validated config.
    directory : pathlib.Path
        The study's directory.
    complete : list of pathlib.Path
        The complete repetitions.
    committed : dict of str to str or None
        Each corpus's sha256 as committed (:func:`corpus_sha256`).
    restored : list of pathlib.Path
        The split.json restored from the seed.
    """
    sha256 = corpus_sha256(config, directory)
    for run in dict.fromkeys([*restored, *complete]):  # a restored split checks nothing else
        corpus = run.relative_to(directory / paths.COMPARE).parts[0]
        if run in set(restored):
            recorded, path = committed.get(corpus), \
                directory / paths.CORPUS_INFO.format(corpus=corpus)
        else:
            recorded, path = read_split(run).get("corpus_sha256"), run / SPLIT_FILE
        if recorded != sha256.get(corpus):
            raise UserError(f"split another corpus than the one {corpus} is now (sha256 "
                            f"{recorded}, now {sha256.get(corpus)}): the corpus file or its "
                            "reading settings changed", path=path)


def _stale_summaries(config: dict, directory: Path, complete: list[Path],
                     broken: list[tuple[Path, str]], sequential: bool) -> list[Path]:
    """The summaries (and claims) that cannot stand: those of a comparison on a corpus with a
    repetition to train.

    Snakemake runs a job only when a target or a job that runs needs it: a summary that exists
    and is newer than every input it still has is up to date, and the repetition whose
    estimates.json is missing under it is then a file it can do without (as a temp() file used
    and removed). Resume promised "trains the other 1" and snakemake planned none (issue 34).
    A summary older than its inputs is out of date: its job runs, and with it every
    repetition it lacks, and then the tables. A sequential study's missing repetitions are its
    later waves, which the driver asks for with their R: there only a broken one counts."""
    done = set(complete)
    if sequential:
        missing = [run for run, _ in broken]
    else:
        missing = [paths.run_directory(*planned, root=directory) for planned in planned_runs(config)]
        missing = [run for run in missing if run not in done]
    pairs = dict.fromkeys(run.relative_to(directory / paths.COMPARE).parts[:2]
                          for run in missing)
    found = [directory / pattern.format(corpus=corpus, comparison=comparison)
             for corpus, comparison in pairs for pattern in (paths.SUMMARY, paths.CLAIMS)]
    return [path for path in found if path.is_file()]


def _snakemake(config_path: Path, directory: Path, *arguments: str) -> None:
    command = snakemake_command("--configfile", str(config_path.resolve()),
                                "--directory", str(directory), "--cores", "1", *arguments,
                                "--quiet", "rules")  # --quiet takes values: last
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-15:])
        raise UserError(f"snakemake {' '.join(arguments)} failed:\n{tail}", path=directory)


def resume(config_path: str | Path, directory: str | Path, say=print) -> dict:
    """Check a study's results against its config and make them current for Snakemake.

    Parameters
    ----------
    config_path : str or os.PathLike
        The study's config.
    directory : str or os.PathLike
        The study's directory.
    say : callable, default print
        Called with each line of progress.

    Returns
    -------
    dict
        How many repetitions are complete, planned and rebuilt.
    """
    config_path, directory = Path(config_path), Path(directory)
    snakefile()  # before anything is checked or changed
    if not directory.is_dir():
        raise UserError("no such study directory", path=directory)
    config = validate(load_yaml(config_path), source=str(config_path))
    sequential = config["stopping"]["enabled"]
    config = widest(config)  # its waves went past the config's first R: up to the maximum
    claimed, planned = check_settings(config, directory)
    committed = corpus_sha256(config, directory)  # what the committed repetitions split
    # the prepared copies, where missing: a job that later needs one would otherwise make it
    # then, newer than every repetition of its corpus, and Snakemake would rerun them all
    corpora = [paths.CORPUS.format(corpus=name) for name in config["corpora"]]
    _snakemake(config_path, directory, *corpora)
    written = restore_records(config, directory)
    try:
        restored = restore_splits(config, directory, claimed)
    except BaseException:
        # a repetition restored without its split would pass for finished: every later run
        # would stop in its summary; without its estimates.json it is one to restore again
        for run in written:
            if not (run / SPLIT_FILE).is_file():
                unfinish(run)
        raise
    if written or restored:
        say(f"{directory}: the records of {len(written)} repetitions restored from their "
            f"strategies' records.jsonl, the {SPLIT_FILE} of {len(restored)} from their seeds")
    complete, broken = check_results(claimed)
    check_corpora(config, directory, complete, committed, restored)
    for run, problem in broken:  # only now: nothing is changed before every check passed
        unfinish(run)
        say(f"{run}: {problem}; its {ESTIMATES_FILE} is removed, so snakemake trains this "
            "repetition again")
    retrained = []
    for line, runs in damaged_records(config, directory):
        retrained += [(run, str(line)) for run in runs]
        again = (f"snakemake trains {', '.join(run.name for run in runs)} again (and the "
                 "next `make study-NAME` writes the table anew)") if runs else \
            "the repetition's own files stand in for it"
        say(f"{line}; nothing is restored from this line, so {again}")
    stale = _stale_summaries(config, directory, complete, [*broken, *retrained], sequential)
    for path in stale:
        os.utime(path, (0, 0))  # older than any input: out of date, as Snakemake reads times
    if stale:
        say(f"{directory}: {', '.join(str(p.relative_to(directory)) for p in stale)} "
            f"{'lack' if len(stale) > 1 else 'lacks'} a repetition to train and "
            f"{'are' if len(stale) > 1 else 'is'} marked out of date, so that snakemake "
            "trains it and rebuilds them")
    if complete:
        _snakemake(config_path, directory, "--touch",
                   *(str(ESTIMATES.path(run).relative_to(directory)) for run in complete))
    if sequential:
        say(f"{directory}: {len(complete)} repetitions (of at most {planned}) are complete and "
            f"belong to {config_path}; `reprocompare sequential` goes on from the last whole "
            "wave they hold")
    else:
        say(f"{directory}: {len(complete)} of {planned} repetitions are complete and belong to "
            f"{config_path}; snakemake trains the other {planned - len(complete)} and rebuilds "
            "the summaries, tables and figures")
    return {"complete": len(complete), "planned": planned, "rebuilt": len(broken)}
