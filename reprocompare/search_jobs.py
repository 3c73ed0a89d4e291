"""The workflow's search, seed-variance, learning-curve and checklist jobs, as plain functions.

Like :mod:`reprocompare.jobs`: each rule of workflow/rules/search.smk has a thin script that calls
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

from reprocompare.corpora.conll import task_corpus
from reprocompare.io import write_json_atomic, write_text_atomic
from reprocompare.jobs import load_prepared
from reprocompare.reports.checklist import collect, render
from reprocompare.search.budget import analyse, markdown
from reprocompare.search.config import (fixed_split_seed, load_best, read_json, resolve_models,
                                        run_seed, searched_models, space_of)
from reprocompare.search.seeds import (CURVE_COLUMNS, SEED_COLUMNS, curve_band,
                                       seed_variance_markdown, spread, to_csv)
from reprocompare.search.trials import (SplitData, best_trial, build, is_random, read_trials_csv,
                                        run_trials, train_and_score, trials_csv)
from reprocompare.search.trials import fixed_split as draw_split
from reprocompare.splitters import dumps, load_split


def _split_data(corpus_conll: str, corpus_info: str, split_path: str, corpus_name: str,
                config: dict):

    settings = config["corpora"][corpus_name]
    corpus = task_corpus(load_prepared(corpus_conll, corpus_info), typed=settings["typed"],
                         train_typed=settings["train_typed"])
    return SplitData.from_document(corpus, load_split(split_path), typed=settings["typed"])


# ---- fixed split --------------------------------------------------------------------------------

def fixed_split(corpus_conll: str, corpus_info: str, corpus_name: str, config: dict,
                out: str) -> None:
    """The fixed train/validation split of one corpus (search, learning curves, seed variance)."""

    corpus = load_prepared(corpus_conll, corpus_info)
    document = draw_split(corpus, ratio=config["search"]["ratio"],
                          seed=fixed_split_seed(config, corpus_name),
                          keep_documents=config["corpora"][corpus_name]["keep_documents"])
    write_text_atomic(out, dumps(document))


# ---- search -------------------------------------------------------------------------------------

def search_trials(corpus_conll: str, corpus_info: str, split_path: str, corpus_name: str,
                  model_name: str, first: int, last: int, config: dict, out: str,
                  threads: int = 1) -> None:
    """Trials ``first..last`` (inclusive, 0-based) of one model's random search, as JSON."""

    mapping = config["models"][model_name]
    data = _split_data(corpus_conll, corpus_info, split_path, corpus_name, config)
    records = run_trials(data, model_name, mapping, space_of(config, model_name),
                         seed=config["search"]["seed"], trials=range(int(first), int(last) + 1),
                         device=config["device"], threads=threads)
    # seconds (wall time) is the only field that changes between reruns
    write_json_atomic(out, {"model": model_name, "corpus": corpus_name, "trials": records})


def _trial_records(paths: Iterable[str]) -> list[dict]:
    return [record for path in paths for record in read_json(path)["trials"]]


def collect_trials(trial_paths: list[str], config: dict, out: str) -> None:
    """results/search/{corpus}/trials.csv: every trial, by model (config order) then trial."""

    order = {name: i for i, name in enumerate(searched_models(config))}
    records = sorted(_trial_records(trial_paths),
                     key=lambda r: (order.get(r["model"], len(order)), r["model"], r["trial"]))
    write_text_atomic(out, trials_csv(records))


def mean_seconds(records: Iterable[Mapping]) -> dict[str, float]:
    """Mean wall time of one trial, per model."""
    times: dict[str, list[float]] = {}
    for record in records:
        times.setdefault(record["model"], []).append(record["seconds"])
    return {name: float(np.mean(values)) for name, values in times.items()}


def budget(trials_path: str, config: dict, out_json: str, out_md: str, figure_stem: str) -> None:
    """budget.json, budget.md and the budget figure, from the trials table."""
    from reprocompare.reports.budget import budget_figure  # lazy: matplotlib, only this job draws

    records = read_trials_csv(trials_path)
    analysis = analyse(records, target_f1=config["search"]["target_f1"],
                       order=searched_models(config))
    write_json_atomic(out_json, analysis)
    write_text_atomic(out_md, markdown(analysis))
    budget_figure(analysis, mean_seconds(records), figure_stem)


def best_config(trial_paths: list[str], model_name: str, corpus_name: str, config: dict,
                out: str) -> None:
    """The best trial of one model (highest validation F1) and the full config mapping it is."""

    best = best_trial(r for r in _trial_records(trial_paths) if r["model"] == model_name)
    write_json_atomic(out, {
        "model": model_name, "corpus": corpus_name, "trial": best["trial"], "f1": best["f1"],
        "spec": best["spec"], "config": best["config"],
        "mapping": {**config["models"][model_name], **best["config"]}})


# ---- seed variance and learning curves ----------------------------------------------------------

def _seed_runs(data, model_name: str, mapping: Mapping, seeds: int, config: dict,
               corpus_name: str, *, learning_curve: bool = False,
               record_every: int = 1, threads: int = 1) -> dict:
    """Train one model with seeds 0..seeds-1 (once, if its training has no seed)."""

    random = is_random(mapping)
    runs = []
    for run in range(seeds if random else 1):
        seed = run_seed(config, corpus_name, run)
        extra = {"record_every": record_every} if learning_curve else {}
        spec, model = build(model_name, mapping, random_state=seed if random else None,
                            device=config["device"], num_threads=max(1, threads), **extra)
        result = train_and_score(data, model, learning_curve=learning_curve)
        runs.append({"run": run, "seed": seed if random else None, **result})
        print(f"{model_name} run {run}: F1 {result['f1']:.4f} ({result['seconds']:.1f} s)",
              file=sys.stderr, flush=True)
    return {"name": model_name, "spec": str(spec), "random": random, "runs": runs}


def seed_runs(corpus_conll: str, corpus_info: str, split_path: str, corpus_name: str,
              comparison: str, config: dict, best_paths: Iterable[str], out: str,
              threads: int = 1) -> None:
    """Models A and B of a comparison, each trained with several seeds on the fixed split."""
    mappings = resolve_models(config, comparison, best_paths)
    pair = config["comparisons"][comparison]
    data = _split_data(corpus_conll, corpus_info, split_path, corpus_name, config)
    seeds = config["seed_variance"]["seeds"]
    models = {side.upper(): _seed_runs(data, pair[side], mappings[pair[side]], seeds, config,
                                       corpus_name, threads=threads) for side in ("a", "b")}
    write_json_atomic(out, {"corpus": corpus_name, "comparison": comparison, "models": models})


def seed_variance_table(paths: list[str], config: dict, out_csv: str, out_md: str) -> None:
    """results/tables/seed_variance.csv and .md: spread and failure rate of every model."""

    threshold = config["seed_variance"]["failure_f1"]
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
               model_name: str, config: dict, best_paths: Iterable[str], out: str,
               threads: int = 1) -> None:
    """One BiLSTM trained with several seeds, recording validation F1 every k epochs."""
    settings = config["learning_curves"]
    mapping = dict(load_best(best_paths).get(model_name, {}).get("mapping")
                   or config["models"][model_name])
    data = _split_data(corpus_conll, corpus_info, split_path, corpus_name, config)
    record = _seed_runs(data, model_name, mapping, settings["seeds"], config, corpus_name,
                        learning_curve=True, record_every=settings["record_every"],
                        threads=threads)
    write_json_atomic(out, {"corpus": corpus_name, **record})


def curve_figure(paths: list[str], out_csv: str, figure_stem: str) -> None:
    """results/tables/learning_curve.csv and the learning-curve figure."""
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
    """results/checklist.md (Dodge et al. 2019, Text Box 1) from the run's records."""
    write_text_atomic(out, render(collect(config, inputs, config_source=config_source)))


__all__ = ["best_config", "budget", "checklist", "collect_trials",
           "curve_figure", "curve_runs", "fixed_split", "resolve_models", "search_trials",
           "seed_runs", "seed_variance_table"]
