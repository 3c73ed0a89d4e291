"""The paths the search, seed-variance, learning-curve and checklist rules ask for.

Plain functions of the validated config, so the rules (workflow/rules/search.smk) stay free of
function definitions and the targets can be tested without Snakemake. Every path is relative to
the working directory, under ``results/``, as the rules write them.
"""

from __future__ import annotations

from reprocompare.base.paths import (BEST, BUDGET, CORPUS_INFO, CURVE_RUNS, FIXED_SPLIT,
                                      RUNTIME_FILE, SCORES_FILE, SEED_RUNS, SUMMARY, TRIALS,
                                      TRIALS_TABLE, figure, run_directory, table)
from reprocompare.strategies import strategy as strategy_of
from reprocompare.models import tagger_class_of
from reprocompare.search.config import (curves_corpus, feed_best, search_corpus, search_enabled,
                           searched_models, trial_jobs)


def pairs(config: dict) -> list[tuple[str, str]]:
    """(corpus, comparison) of every comparison on every corpus it names.

    Parameters
    ----------
    config : dict
        The validated config.

    Returns
    -------
    list of (str, str)
        The pairs, in config order.
    """
    return [(corpus, name) for name, comparison in config["comparisons"].items()
            for corpus in comparison["corpora"]]


def uses_gpu(config: dict, model: str) -> bool:
    """Whether the model's class trains on a GPU (its capability), so its jobs ask for one.

    Parameters
    ----------
    config : dict
        The validated config.
    model : str
        The model's name.

    Returns
    -------
    bool
    """
    return tagger_class_of(config["models"][model]).uses_gpu


def trial_files(config: dict, corpus: str, models: list[str] | None = None) -> list[str]:
    """Every trial job's output of the given (default: all searched) models on a corpus.

    Parameters
    ----------
    config : dict
        The validated config.
    corpus : str
        The corpus searched on.
    models : list of str, optional
        The models; default every searched one.

    Returns
    -------
    list of str
        The paths, relative to the study's directory.
    """
    return [TRIALS.format(corpus=corpus, model=model, first=first, last=last)
            for model in (models or searched_models(config))
            for first, last in trial_jobs(config, model)]


def best_configs_of(config: dict, models) -> list[str]:
    """With search.feed_best: the best-configuration files of those of ``models`` searched.

    Parameters
    ----------
    config : dict
        The validated config.
    models : iterable of str
        The models' names.

    Returns
    -------
    list of str
        The paths, relative to the study's directory.
    """
    if not feed_best(config):
        return []
    return [BEST.format(corpus=search_corpus(config), model=model)
            for model in dict.fromkeys(models) if model in config["search"]["models"]]


def comparison_best_configs(config: dict, comparison: str) -> list[str]:
    """The best-configuration files a comparison's models are built from (``search.feed_best``).

    Parameters
    ----------
    config : dict
        The validated config.
    comparison : str
        The comparison's name.

    Returns
    -------
    list of str
        The paths, relative to the study's directory.
    """
    pair = config["comparisons"][comparison]
    return best_configs_of(config, [pair["a"], pair["b"]])


def curve_files(config: dict) -> list[str]:
    """Every learning-curve job's output, one per model of ``learning_curves``.

    Parameters
    ----------
    config : dict
        The validated config.

    Returns
    -------
    list of str
        The paths, relative to the study's directory.
    """
    return [CURVE_RUNS.format(corpus=curves_corpus(config), model=model)
            for model in config["learning_curves"]["models"]]


def seed_run_files(config: dict) -> list[str]:
    """Every seed-variance job's output, one per comparison and corpus.

    Parameters
    ----------
    config : dict
        The validated config.

    Returns
    -------
    list of str
        The paths, relative to the study's directory.
    """
    return [SEED_RUNS.format(corpus=corpus, comparison=comparison)
            for corpus, comparison in pairs(config)]


def search_outputs(config: dict) -> list[str]:
    """The final outputs of the stages the config switches on.

    Parameters
    ----------
    config : dict
        The validated config.

    Returns
    -------
    list of str
        The paths, relative to the study's directory.
    """
    outputs = []
    if search_enabled(config):
        corpus = search_corpus(config)
        outputs += [TRIALS_TABLE.format(corpus=corpus), BUDGET.format(corpus=corpus),
                    table("budget.md"), figure("budget.png")]
    if config["seed_variance"]["enabled"]:
        outputs += [table("seed_variance.csv"), table("seed_variance.md")]
    if config["learning_curves"]["enabled"]:
        outputs += [figure("learning_curve.png")]
    return outputs


def checklist_inputs(config: dict) -> dict[str, list[str]]:
    """Every record the checklist reads (:func:`reports.checklist.collect`), by kind.

    Parameters
    ----------
    config : dict
        The validated config.

    Returns
    -------
    dict of str to list of str
        The paths, by kind.
    """
    runs = [str(run_directory(corpus, comparison, strategy_of(strategy).name, r))
            for corpus, comparison in pairs(config) for strategy in config["strategies"]
            for r in range(config["repetitions"])]
    corpora = {corpus for corpus, _ in pairs(config)}
    fixed: set[str] = set()
    inputs = {"summaries": [SUMMARY.format(corpus=corpus, comparison=comparison)
                            for corpus, comparison in pairs(config)],
              "scores": [f"{run}/{SCORES_FILE}" for run in runs],
              "runtimes": [f"{run}/{RUNTIME_FILE}" for run in runs]}
    if search_enabled(config):
        corpus = search_corpus(config)
        corpora.add(corpus)
        fixed.add(corpus)
        inputs["trials"] = [TRIALS_TABLE.format(corpus=corpus)]
        inputs["budget"] = [BUDGET.format(corpus=corpus)]
        inputs["budget_figure"] = [figure("budget.png")]
    if config["seed_variance"]["enabled"]:
        fixed.update(corpus for corpus, _ in pairs(config))
        inputs["seed_runs"] = seed_run_files(config)
        inputs["seed_variance"] = [table("seed_variance.csv")]
    if config["learning_curves"]["enabled"]:
        corpus = curves_corpus(config)
        corpora.add(corpus)
        fixed.add(corpus)
        inputs["learning_curve"] = [table("learning_curve.csv")]
        inputs["learning_curve_figure"] = [figure("learning_curve.png")]
    inputs["infos"] = [CORPUS_INFO.format(corpus=corpus) for corpus in sorted(corpora)]
    inputs["fixed_splits"] = [FIXED_SPLIT.format(corpus=corpus) for corpus in sorted(fixed)]
    return inputs
