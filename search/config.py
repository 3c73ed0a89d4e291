"""What the config schema cannot check about ``search``, ``learning_curves`` and ``seed_variance``.

:func:`check_config` runs after the schema has filled the defaults (``reprocompare.study.config.validate``)
and, like the rest of the validation, before any job: a search space key the model does not
declare, a distribution that does not suit the hyperparameter, a bound the model would refuse, a
model or corpus that does not exist. Each is one :class:`~reprocompare.base.errors.UserError` naming
the config key. The helpers below answer the questions the rules ask of a validated config.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from reprocompare.base.errors import UserError
from reprocompare.base.files import read_json
from reprocompare.base.seeds import FIXED_SPLIT, SEED_RUN, derive_seed
from reprocompare.models import tagger_class_of
from reprocompare.search.space import Dimension, parse_space


def check_config(config: dict, source: str = "config") -> None:
    """Raise a UserError naming the key of the first problem in the search-related sections.

    ``config`` must already have passed the schema (defaults filled). Spaces are checked even
    when ``search.enabled`` is false: a typo should fail whether or not the search runs today.

    Parameters
    ----------
    config : dict
        The validated config (defaults filled).
    source : str, default 'config'
        The config's name in messages (its file).
    """
    def fail(message: str, key: str):
        raise UserError(message, path=source, key=key)

    search = config.get("search") or {}
    corpora, models = config["corpora"], config["models"]
    corpus = search.get("corpus")
    if corpus is not None and corpus not in corpora:
        fail(f"unknown corpus {corpus!r} (corpora: {', '.join(corpora)})", "search.corpus")
    for name, entry in (search.get("models") or {}).items():
        if name not in models:
            fail(f"unknown model {name!r} (models: {', '.join(models)})", f"search.models.{name}")
        try:
            parse_space(name, models[name], entry.get("space"))
        except UserError as error:
            fail(error.message, error.key)
    if search.get("enabled") and not search.get("models"):
        fail("nothing to search: name at least one model with its space", "search.models")
    if search.get("feed_best") and not search.get("enabled"):
        fail("feed_best needs the search itself (search.enabled: true)", "search.feed_best")

    curves = config.get("learning_curves") or {}
    corpus = curves.get("corpus")
    if corpus is not None and corpus not in corpora:
        fail(f"unknown corpus {corpus!r} (corpora: {', '.join(corpora)})",
             "learning_curves.corpus")
    for i, name in enumerate(curves.get("models") or []):
        if name not in models:
            fail(f"unknown model {name!r} (models: {', '.join(models)})",
                 f"learning_curves.models.{i}")
        if not tagger_class_of(models[name]).trains_by_epochs:
            fail(f"{name} is a {models[name]['type']}, which does not train by epochs; only "
                 "such a model (trains_by_epochs: the bilstm) records a learning curve (chunk F1 "
                 "on the validation set every record_every epochs)", f"learning_curves.models.{i}")
    if curves.get("enabled") and not curves.get("models"):
        fail("no model to train: name at least one model that trains by epochs (a bilstm)",
             "learning_curves.models")


def search_corpus(config: dict) -> str:
    """The corpus searched on: ``search.corpus``, else the first corpus of the config.

    Parameters
    ----------
    config : dict
        The validated config (defaults filled).

    Returns
    -------
    str
        The corpus's name.
    """
    return (config.get("search") or {}).get("corpus") or next(iter(config["corpora"]))


def curves_corpus(config: dict) -> str:
    """The corpus of the learning curves: ``learning_curves.corpus``, else the search's.

    Parameters
    ----------
    config : dict
        The validated config (defaults filled).

    Returns
    -------
    str
        The corpus's name.
    """
    return (config.get("learning_curves") or {}).get("corpus") or search_corpus(config)


def search_enabled(config: dict) -> bool:
    """Whether the config runs the random search (``search.enabled``).

    Parameters
    ----------
    config : dict
        The validated config (defaults filled).

    Returns
    -------
    bool
    """
    return bool((config.get("search") or {}).get("enabled"))


def feed_best(config: dict) -> bool:
    """Whether the search's best configurations replace the models' config entries in the
    comparisons (``search.feed_best``, with the search enabled).

    Parameters
    ----------
    config : dict
        The validated config (defaults filled).

    Returns
    -------
    bool
    """
    return search_enabled(config) and bool(config["search"].get("feed_best"))


def searched_models(config: dict) -> list[str]:
    """Names of the searched models, in config order.

    Parameters
    ----------
    config : dict
        The validated config (defaults filled).

    Returns
    -------
    list of str
        The names.
    """
    return list((config.get("search") or {}).get("models") or {})


def space_of(config: dict, model_name: str) -> dict[str, Dimension]:
    """The search space of one searched model, parsed against the model's hyperparameters.

    Parameters
    ----------
    config : dict
        The validated config (defaults filled).
    model_name : str
        The model's name in the config.

    Returns
    -------
    dict of str to Dimension
        The dimensions, by hyperparameter.
    """
    return parse_space(model_name, config["models"][model_name],
                       config["search"]["models"][model_name]["space"])


def trial_jobs(config: dict, model_name: str) -> list[tuple[int, int]]:
    """(first, last) trial (0-based, inclusive) of each job of one model's search.

    Jobs cover trials_per_job consecutive trials; raising ``trials`` keeps every full job (and
    its output) and only adds, or extends, the last one.

    Parameters
    ----------
    config : dict
        The validated config (defaults filled).
    model_name : str
        The model's name in the config.

    Returns
    -------
    list of (int, int)
        The trial range of each job.
    """
    per_job = config["search"]["trials_per_job"]
    n = config["search"]["models"][model_name]["trials"]
    return [(first, min(first + per_job, n) - 1) for first in range(0, n, per_job)]


def fixed_split_seed(config: dict, corpus: str) -> int:
    """Seed of the fixed train/validation split of a corpus (search, curves, seed variance).

    Derived from (search.seed, corpus) under its own spawn key, so it is never the seed of one of
    the comparison's hold-outs: tuning on a comparison's validation set would leak into it.

    Parameters
    ----------
    config : dict
        The validated config (defaults filled).
    corpus : str
        The corpus's name.

    Returns
    -------
    int
        The seed.
    """
    return derive_seed(config["search"]["seed"], corpus, FIXED_SPLIT)


def run_seed(search_seed: int, corpus: str, run: int) -> int:
    """Training seed of run ``run`` of the seed-variance and learning-curve runs on a corpus
    (``search_seed``: the config's ``search.seed``).

    The same for every model (common random numbers, as in a comparison's folds), and a function
    of the run's index only, so more seeds keep the first runs.

    Parameters
    ----------
    search_seed : int
        ``search.seed``.
    corpus : str
        The corpus's name.
    run : int
        The run's index, 0-based.

    Returns
    -------
    int
        The seed.
    """
    return derive_seed(search_seed, corpus, SEED_RUN, int(run), below=2**31 - 1)


def model_mapping(config: dict, model_name: str, best: dict[str, dict] | None = None) -> dict:
    """The config mapping a model is built from: the search's best one when it was fed in.

    Parameters
    ----------
    config : dict
        The validated config (defaults filled).
    model_name : str
        The model's name in the config.
    best : dict of str to dict, optional
        The best configurations, by model (:func:`load_best`).

    Returns
    -------
    dict
        The mapping.
    """
    if best and model_name in best:
        return dict(best[model_name]["mapping"])
    return dict(config["models"][model_name])


def describe(value: Any) -> str:
    """A config value as the checklist writes it.

    Parameters
    ----------
    value : object
        The value.

    Returns
    -------
    str
        The text.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


def load_best(best_paths: Iterable[str]) -> dict[str, dict]:
    """Best-configuration files (:func:`reprocompare.pipeline.search_jobs.best_config`) by model name.

    Parameters
    ----------
    best_paths : iterable of str
        The files.

    Returns
    -------
    dict of str to dict
        Each file's content, by model name.
    """
    best = {}
    for path in best_paths:
        record = read_json(path)
        best[record["model"]] = record
    return best


def resolve_models(config: dict, comparison: str, best_paths: Iterable[str] = ()) -> dict:
    """The config mappings the comparison's models are built from: ``{model name: mapping}``.

    A model with a best-configuration file among ``best_paths`` (``search.feed_best``) gets the
    search's best mapping, its fixed hyperparameters with the best trial's drawn values laid
    over them; every other model keeps its config entry.

    Parameters
    ----------
    config : dict
        The validated config (defaults filled).
    comparison : str
        The comparison's name.
    best_paths : iterable of str, default ()
        The best-configuration files.

    Returns
    -------
    dict of str to dict
        The mappings, by model name.
    """
    best = load_best(best_paths)
    pair = config["comparisons"][comparison]
    return {pair[side]: model_mapping(config, pair[side], best) for side in ("a", "b")}
