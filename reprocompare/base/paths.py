"""Where the workflow writes each output: every path pattern, named once.

The rules (workflow/rules/*.smk) take their ``output:`` paths from here, and so does the Python
that reads or lists what they wrote (the records, ``resume``, ``sequential``). Patterns are
relative to the study's directory and use the rules' wildcards (``{corpus}``, ``{comparison}``,
``{strategy}``, ``{repetition}``, ``{model}``), so that ``PATTERN.format(...)`` is a file of a
study and the pattern itself is a rule's output. The project's root (:data:`PROJECT`) is named
here too, once: records name a file inside it relative to it (:func:`project_path`).
"""

from __future__ import annotations

import os
from pathlib import Path

#: the prepared copy of a corpus (rule corpus): its sentences and what was read
CORPUS = "results/corpora/{corpus}/corpus.conll"
CORPUS_INFO = "results/corpora/{corpus}/corpus.json"

#: a strategy's repetitions of one comparison on one corpus, and one repetition's run directory
#: (rule compare)
COMPARE = "results/compare"
STRATEGY = f"{COMPARE}/{{corpus}}/{{comparison}}/{{strategy}}"
RUN = f"{STRATEGY}/rep{{repetition}}"
#: the records of one repetition, files of its run directory (rule compare): the split, the
#: job's settings, the fold scores, the per-sentence counts, the fold times and the estimates,
#: written last (its presence says the others are there); each read and written by
#: reprocompare.base.run_records alone
SPLIT_FILE = "split.json"
SETTINGS_FILE = "settings.json"
SCORES_FILE = "scores.json"
COUNTS_FILE = "counts.tsv.gz"
RUNTIME_FILE = "runtime.json"
ESTIMATES_FILE = "estimates.json"
#: a committed study's JSON records of a strategy's repetitions, one line each (issue 35): its
#: files are what Snakemake reads and writes, the table what git keeps
REPETITIONS = f"{STRATEGY}/records.jsonl"

#: a comparison's summary and claims on one corpus (rule summarize)
SUMMARIES = "results/summaries"
#: a summary is COMPARISON.json, its claims COMPARISON.claims.json beside it: a glob of
#: SUMMARIES/*/*.json finds both, and this suffix tells them apart
CLAIMS_SUFFIX = ".claims.json"
SUMMARY = f"{SUMMARIES}/{{corpus}}/{{comparison}}.json"
CLAIMS = f"{SUMMARIES}/{{corpus}}/{{comparison}}{CLAIMS_SUFFIX}"

#: the tables and figures (rules tables, figures, variance, the search's), by file name
TABLE = "results/tables/{name}"
FIGURE = "results/figures/{name}"

#: the search, seed-variance and learning-curve jobs (workflow/rules/search.smk): the fixed split
#: of a corpus, a model's trials first..last, the trials table, the budget analysis, a model's
#: best configuration, a comparison's seed runs and a model's learning-curve runs
FIXED_SPLIT = "results/splits/{corpus}/fixed.json"
TRIALS = "results/search/{corpus}/trials/{model}/{first}-{last}.json"
TRIALS_TABLE = "results/search/{corpus}/trials.csv"
BUDGET = "results/search/{corpus}/budget.json"
BEST = "results/search/{corpus}/best/{model}.json"
SEED_RUNS = "results/seed_variance/{corpus}/{comparison}.json"
CURVE_RUNS = "results/learning_curves/{corpus}/{model}.json"

#: the report's front page (rule front_page) and the reporting checklist (rule checklist)
FRONT_PAGE = "results/report/front.rst"
CHECKLIST = "results/checklist.md"


def table(name: str) -> str:
    """A table's path, e.g. ``table("table4.csv")``.

    Parameters
    ----------
    name : str
        The file's name.

    Returns
    -------
    str
        The path, relative to the study's directory.

    Examples
    --------
    >>> table("table4.csv")
    'results/tables/table4.csv'
    """
    return TABLE.format(name=name)


def figure(name: str) -> str:
    """A figure's path, e.g. ``figure("figure1.png")``.

    Parameters
    ----------
    name : str
        The file's name.

    Returns
    -------
    str
        The path, relative to the study's directory.

    Examples
    --------
    >>> figure("figure1.png")
    'results/figures/figure1.png'
    """
    return FIGURE.format(name=name)


#: the project's root, in a clone (an installed package lies elsewhere: its paths stay as given)
PROJECT = Path(__file__).resolve().parents[2]


def project_path(path: str | Path) -> str:
    """``path`` relative to the project's root where it lies inside it, else as given: what a
    record says of a corpus or config file, so that the same study committed from two clones
    (or from a study's working directory and the repository) records the same bytes.

    Parameters
    ----------
    path : str or os.PathLike
        The path.

    Returns
    -------
    str
        The path, relative to the project's root where it can be.
    """
    # the path as it reads first: a link inside the project to a corpus outside it (CoNLL-2002,
    # linked from ../shared) is the project's file
    for candidate in (Path(os.path.abspath(path)), Path(path).resolve()):
        try:
            return candidate.relative_to(PROJECT).as_posix()
        except ValueError:
            continue
    return str(path)


def run_directory(corpus: str, comparison: str, strategy: str, repetition: int,
                  root: str | Path = ".") -> Path:
    """Where repetition ``repetition`` of ``strategy`` (the splitters' name) keeps its files.

    Parameters
    ----------
    corpus : str
        The corpus's name.
    comparison : str
        The comparison's name.
    strategy : str
        The strategy, as the splitters name it.
    repetition : int
        The repetition's number.
    root : str or os.PathLike, default '.'
        The study's directory.

    Returns
    -------
    pathlib.Path
        The directory.
    """
    return Path(root) / RUN.format(corpus=corpus, comparison=comparison, strategy=strategy,
                                   repetition=repetition)
