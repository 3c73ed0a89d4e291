"""The workflow's search, seed-variance, learning-curve and checklist jobs, as plain functions.

Like :mod:`reprocompare.pipeline.jobs`: each rule of workflow/rules/search.smk has a thin script that calls
one function here. Data flows one way: corpus -> fixed split -> trials -> trials table -> budget
analysis and figure; fixed split -> seed runs -> seed-variance table; fixed split -> learning-curve
runs -> figure; everything -> checklist. With ``search.feed_best`` the best configuration of each
searched model (:func:`best_config`) replaces the model's config entry in the comparisons
(:func:`resolve_models`), so search and comparison run in one DAG.
"""

from __future__ import annotations

import sys
from typing import Iterable, Mapping

import numpy as np

from reprocompare.base.files import read_json, write_json_atomic, write_text_atomic
from reprocompare.corpora.conll import task_corpus
from reprocompare.pipeline.jobs import load_prepared
from reprocompare.reports.checklist import collect, render
from reprocompare.search.budget import analyse, markdown
from reprocompare.search.config import load_best, resolve_models, run_seed
from reprocompare.search.seed_variance import (CURVE_COLUMNS, SEED_COLUMNS, curve_band,
                                       seed_variance_markdown, spread, to_csv)
from reprocompare.search.space import parse_space
from reprocompare.search.trials import (SplitData, best_trial, build, is_random, read_trials_csv,
                                        run_trials, train_and_score, trials_csv)
from reprocompare.search.trials import fixed_split as draw_split
from reprocompare.splitters import dumps, load_split


def _split_data(corpus_conll: str, corpus_info: str, split_path: str, settings: dict):
    """The fixed split's data, typed or not as ``settings`` say (provenance.scoring)."""
    corpus = task_corpus(load_prepared(corpus_conll, corpus_info), typed=settings["typed"],
                         train_typed=settings.get("train_typed", False))
    return SplitData.from_document(corpus, load_split(split_path), typed=settings["typed"])


def _mapping(model: dict, best: dict[str, dict]) -> dict:
    """The mapping a model trains with: the search's best (search.feed_best), else its own."""
    found = best.get(model["name"])
    return dict(found["mapping"]) if found else dict(model["mapping"])


# ---- fixed split --------------------------------------------------------------------------------

def fixed_split(corpus_conll: str, corpus_info: str, settings: dict, out: str) -> None:
    """The fixed train/validation split of one corpus (search, learning curves, seed variance);
    ``settings``: :func:`reprocompare.pipeline.provenance.fixed_split`.

    Parameters
    ----------
    corpus_conll : str
        The corpus job's clean copy of the corpus.
    corpus_info : str
        The corpus job's record (its sha256 and sentences).
    settings : dict
        The job's settings (:func:`reprocompare.pipeline.provenance.fixed_split`).
    out : str
        The file written.
    """
    corpus = load_prepared(corpus_conll, corpus_info)
    document = draw_split(corpus, ratio=settings["ratio"], seed=settings["seed"],
                          keep_documents=settings["keep_documents"])
    write_text_atomic(out, dumps(document))


# ---- search -------------------------------------------------------------------------------------

def search_trials(corpus_conll: str, corpus_info: str, split_path: str, corpus_name: str,
                  first: int, last: int, settings: dict, out: str, threads: int = 1) -> None:
    """Trials ``first..last`` (inclusive, 0-based) of one model's random search, as JSON;
    ``settings``: :func:`reprocompare.pipeline.provenance.search_trials`.

    Parameters
    ----------
    corpus_conll : str
        The corpus job's clean copy of the corpus.
    corpus_info : str
        The corpus job's record (its sha256 and sentences).
    split_path : str
        The fixed split's file.
    corpus_name : str
        The corpus's name.
    first, last : int
        The trials, inclusive.
    settings : dict
        The job's settings (:func:`reprocompare.pipeline.provenance.search_trials`).
    out : str
        The file written.
    threads : int, default 1
        Threads per model.
    """

    model_name, mapping = settings["model"]["name"], settings["model"]["mapping"]
    data = _split_data(corpus_conll, corpus_info, split_path, settings)
    records = run_trials(data, model_name, mapping,
                         parse_space(model_name, mapping, settings["space"]),
                         seed=settings["seed"], trials=range(int(first), int(last) + 1),
                         device=settings.get("device", "cpu"), threads=threads)
    # seconds (wall time) is the only field that changes between reruns
    write_json_atomic(out, {"model": model_name, "corpus": corpus_name, "trials": records})


def _trial_records(paths: Iterable[str]) -> list[dict]:
    return [record for path in paths for record in read_json(path)["trials"]]


def collect_trials(trial_paths: list[str], settings: dict, out: str) -> None:
    """results/search/{corpus}/trials.csv: every trial, by model (config order) then trial;
    ``settings``: :func:`reprocompare.pipeline.provenance.search_table`.

    Parameters
    ----------
    trial_paths : list of str
        The trial jobs' outputs.
    settings : dict
        The job's settings (:func:`reprocompare.pipeline.provenance.search_table`).
    out : str
        The file written.
    """

    order = {name: i for i, name in enumerate(settings["models"])}
    records = sorted(_trial_records(trial_paths),
                     key=lambda r: (order.get(r["model"], len(order)), r["model"], r["trial"]))
    write_text_atomic(out, trials_csv(records))


def mean_seconds(records: Iterable[Mapping]) -> dict[str, float]:
    """Mean wall time of one trial, per model.

    Parameters
    ----------
    records : iterable of mapping
        The trial records.

    Returns
    -------
    dict of str to float
        Seconds, by model.
    """
    times: dict[str, list[float]] = {}
    for record in records:
        times.setdefault(record["model"], []).append(record["seconds"])
    return {name: float(np.mean(values)) for name, values in times.items()}


def budget(trials_path: str, settings: dict, out_json: str, out_md: str,
           figure_stem: str) -> None:
    """budget.json, budget.md and the budget figure, from the trials table; ``settings``:
    :func:`reprocompare.pipeline.provenance.budget`.

    Parameters
    ----------
    trials_path : str
        The trials table.
    settings : dict
        The job's settings (:func:`reprocompare.pipeline.provenance.budget`).
    out_json : str
        budget.json.
    out_md : str
        budget.md.
    figure_stem : str
        The figure's path without its suffix.
    """
    from reprocompare.reports.budget import budget_figure  # lazy: matplotlib, only this job draws

    records = read_trials_csv(trials_path)
    analysis = analyse(records, target_f1=settings["target_f1"], order=settings["models"])
    write_json_atomic(out_json, analysis)
    write_text_atomic(out_md, markdown(analysis))
    budget_figure(analysis, mean_seconds(records), figure_stem)


def best_config(trial_paths: list[str], corpus_name: str, settings: dict, out: str) -> None:
    """The best trial of one model (highest validation F1) and the full config mapping it is;
    ``settings``: :func:`reprocompare.pipeline.provenance.search_best`.

    Parameters
    ----------
    trial_paths : list of str
        The model's trial jobs' outputs.
    corpus_name : str
        The corpus's name.
    settings : dict
        The job's settings (:func:`reprocompare.pipeline.provenance.search_best`).
    out : str
        The file written.
    """

    model_name = settings["model"]["name"]
    best = best_trial(r for r in _trial_records(trial_paths) if r["model"] == model_name)
    write_json_atomic(out, {
        "model": model_name, "corpus": corpus_name, "trial": best["trial"], "f1": best["f1"],
        "spec": best["spec"], "config": best["config"],
        "mapping": {**settings["model"]["mapping"], **best["config"]}})


# ---- seed variance and learning curves ----------------------------------------------------------

def _seed_runs(data, model_name: str, mapping: Mapping, settings: dict, corpus_name: str, *,
               learning_curve: bool = False, threads: int = 1) -> dict:
    """Train one model with seeds 0..seeds-1 (once, if its training has no seed)."""

    random = is_random(mapping)
    runs = []
    for run in range(settings["seeds"] if random else 1):
        seed = run_seed(settings["seed"], corpus_name, run)
        extra = {"record_every": settings["record_every"]} if learning_curve else {}
        spec, model = build(model_name, mapping, random_state=seed if random else None,
                            device=settings.get("device", "cpu"), num_threads=max(1, threads),
                            **extra)
        result = train_and_score(data, model, learning_curve=learning_curve)
        runs.append({"run": run, "seed": seed if random else None, **result})
        print(f"{model_name} run {run}: F1 {result['f1']:.4f} ({result['seconds']:.1f} s)",
              file=sys.stderr, flush=True)
    return {"name": model_name, "spec": str(spec), "random": random, "runs": runs}


def seed_runs(corpus_conll: str, corpus_info: str, split_path: str, corpus_name: str,
              comparison: str, settings: dict, best_paths: Iterable[str], out: str,
              threads: int = 1) -> None:
    """Models A and B of a comparison, each trained with several seeds on the fixed split;
    ``settings``: :func:`reprocompare.pipeline.provenance.seed_runs`.

    Parameters
    ----------
    corpus_conll : str
        The corpus job's clean copy of the corpus.
    corpus_info : str
        The corpus job's record (its sha256 and sentences).
    split_path : str
        The fixed split's file.
    corpus_name : str
        The corpus's name.
    comparison : str
        The comparison's name.
    settings : dict
        The job's settings (:func:`reprocompare.pipeline.provenance.seed_runs`).
    best_paths : iterable of str
        The best-configuration files fed in (``search.feed_best``).
    out : str
        The file written.
    threads : int, default 1
        Threads per model.
    """
    best = load_best(best_paths)
    data = _split_data(corpus_conll, corpus_info, split_path, settings)
    models = {side.upper(): _seed_runs(data, settings[side]["name"],
                                       _mapping(settings[side], best), settings, corpus_name,
                                       threads=threads) for side in ("a", "b")}
    write_json_atomic(out, {"corpus": corpus_name, "comparison": comparison, "models": models})


def seed_variance_table(paths: list[str], settings: dict, out_csv: str, out_md: str) -> None:
    """results/tables/seed_variance.csv and .md: spread and failure rate of every model;
    ``settings``: :func:`reprocompare.pipeline.provenance.seed_variance`.

    Parameters
    ----------
    paths : list of str
        The seed-run jobs' outputs.
    settings : dict
        The job's settings (:func:`reprocompare.pipeline.provenance.seed_variance`).
    out_csv : str
        The CSV written.
    out_md : str
        The Markdown written.
    """

    threshold = settings["failure_f1"]
    rows = []
    for path in paths:
        record = read_json(path)
        for side, model in record["models"].items():
            rows.append({"corpus": record["corpus"], "comparison": record["comparison"],
                         "side": side, "model": model["name"], "spec": model["spec"],
                         "random": model["random"],
                         **spread([r["f1"] for r in model["runs"]], failure_f1=threshold)})
    write_text_atomic(out_csv, to_csv(rows, SEED_COLUMNS))
    write_text_atomic(out_md, seed_variance_markdown(rows))


def curve_runs(corpus_conll: str, corpus_info: str, split_path: str, corpus_name: str,
               settings: dict, best_paths: Iterable[str], out: str, threads: int = 1) -> None:
    """One BiLSTM trained with several seeds, recording validation F1 every k epochs;
    ``settings``: :func:`reprocompare.pipeline.provenance.learning_curve_runs`.

    Parameters
    ----------
    corpus_conll : str
        The corpus job's clean copy of the corpus.
    corpus_info : str
        The corpus job's record (its sha256 and sentences).
    split_path : str
        The fixed split's file.
    corpus_name : str
        The corpus's name.
    settings : dict
        The job's settings (:func:`reprocompare.pipeline.provenance.learning_curve_runs`).
    best_paths : iterable of str
        The best-configuration files fed in (``search.feed_best``).
    out : str
        The file written.
    threads : int, default 1
        Threads per model.
    """
    model = settings["model"]
    data = _split_data(corpus_conll, corpus_info, split_path, settings)
    record = _seed_runs(data, model["name"], _mapping(model, load_best(best_paths)), settings,
                        corpus_name, learning_curve=True, threads=threads)
    write_json_atomic(out, {"corpus": corpus_name, **record})


def curve_figure(paths: list[str], out_csv: str, figure_stem: str) -> None:
    """results/tables/learning_curve.csv and the learning-curve figure.

    Parameters
    ----------
    paths : list of str
        The curve jobs' outputs.
    out_csv : str
        The CSV written.
    figure_stem : str
        The figure's path without its suffix.
    """
    from reprocompare.reports.budget import learning_curve_figure  # lazy: matplotlib

    bands, rows = {}, []
    for path in paths:
        record = read_json(path)
        band = curve_band(run["curve"] for run in record["runs"])
        bands[record["name"]] = band
        rows += [{"corpus": record["corpus"], "model": record["name"], **row} for row in band]
    write_text_atomic(out_csv, to_csv(rows, CURVE_COLUMNS))
    learning_curve_figure(bands, figure_stem)


# ---- checklist ----------------------------------------------------------------------------------

def checklist(config: dict, inputs: Mapping[str, list[str]], out: str, *,
              config_source: str = "config/config.yaml") -> None:
    """results/checklist.md (Dodge et al. 2019, Text Box 1) from the run's records.

    Parameters
    ----------
    config : dict
        The validated config.
    inputs : mapping of str to list of str
        The records it reads, by kind
        (:func:`reprocompare.pipeline.search_workflow.checklist_inputs`).
    out : str
        The file written.
    config_source : str, default 'config/config.yaml'
        The config's file, as the checklist names it.
    """
    write_text_atomic(out, render(collect(config, inputs, config_source=config_source)))


__all__ = ["best_config", "budget", "checklist", "collect_trials",
           "curve_figure", "curve_runs", "fixed_split", "resolve_models", "search_trials",
           "seed_runs", "seed_variance_table"]
