"""Where the workflow writes each output: every path pattern, named once.

The rules (workflow/rules/*.smk) take their ``output:`` paths from here, and so does the Python
that reads or lists what they wrote (the records, ``resume``, ``sequential``). Patterns are
relative to the study's directory and use the rules' wildcards (``{corpus}``, ``{comparison}``,
``{strategy}``, ``{repetition}``, ``{model}``), so that ``PATTERN.format(...)`` is a file of a
study and the pattern itself is a rule's output.
"""

from __future__ import annotations

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
