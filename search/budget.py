"""Expected validation performance against budget, from a trials table.

For each searched model ("family") with N trials, the curve n -> E[max of n validation F1s],
n = 1..N (Dodge et al. 2019, section 3.1), by both estimators of :mod:`estimators.expected_max`:
Tang et al.'s unbiased U-statistic (seed 002, the default) and Dodge et al.'s MeanMax (Eq. 8), for
comparison. The +/- 1 sd band is clipped to the range of the observed scores, as section 3.3 of
Dodge et al. recommends ("shading only values within the observed range"): the best of n trials
can never be better than the best trial seen, nor worse than the worst. Read off the curves: the
budget each family needs to reach a target F1 (:func:`estimators.expected_max.budget_to_reach`),
and for every pair of families the budgets at which the better one changes
(:func:`estimators.expected_max.crossings`).
"""

from __future__ import annotations

import itertools
from typing import Iterable, Mapping, Sequence

import numpy as np

from reprocompare.base.markdown import md_table, md_text
from reprocompare.estimators.expected_max import ESTIMATORS, budget_to_reach, crossings, expected_max
from reprocompare.search.trials import best_trial

#: The estimator a single number is read from; the other is reported beside it.
DEFAULT_ESTIMATOR = "unbiased"


def clipped_band(expected, std, scores) -> tuple[np.ndarray, np.ndarray]:
    """expected -/+ std, clipped to [min(scores), max(scores)] (Dodge et al., section 3.3).

    Parameters
    ----------
    expected, std : array_like of float
        A curve and its standard deviation.
    scores : array_like of float
        The trials' scores.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        The band's low and high ends.
    """
    expected, std = np.asarray(expected, dtype=float), np.asarray(std, dtype=float)
    scores = np.asarray(scores, dtype=float)
    low, high = float(scores.min()), float(scores.max())
    return np.clip(expected - std, low, high), np.clip(expected + std, low, high)


def curves(scores: Sequence[float]) -> dict[str, dict[str, list[float]]]:
    """Both estimators' curves for budgets 1..N, with the clipped +/- 1 sd band.

    Returns ``{estimator: {"expected": [...], "std": [...], "low": [...], "high": [...]}}``,
    entry n - 1 for budget n.

    Parameters
    ----------
    scores : sequence of float
        The trials' validation scores, N in all.

    Returns
    -------
    dict
        The curves of both estimators, by name.
    """
    out = {}
    for name in ESTIMATORS:
        curve = expected_max(scores, estimator=name)
        low, high = clipped_band(curve.expected, curve.std, scores)
        out[name] = {"expected": curve.expected.tolist(), "std": curve.std.tolist(),
                     "low": low.tolist(), "high": high.tolist()}
    return out


def by_model(records: Iterable[Mapping], order: Sequence[str] | None = None) -> dict[str, list]:
    """Trials grouped by model (in ``order``, else first appearance), sorted by trial number.

    Parameters
    ----------
    records : iterable of mapping
        The trial records.
    order : sequence of str, optional
        The models' order.

    Returns
    -------
    dict of str to list
        Each model's trials.
    """
    groups: dict[str, list] = {}
    for record in records:
        groups.setdefault(record["model"], []).append(record)
    names = [m for m in order if m in groups] if order is not None else list(groups)
    return {name: sorted(groups[name], key=lambda r: r["trial"]) for name in names}


def analyse(records: Iterable[Mapping], *, target_f1: float | None = None,
            order: Sequence[str] | None = None) -> dict:
    """Everything budget.json holds: per model its curves, best trial and budget to reach the
    target; per pair of models the crossings of their curves.

    Parameters
    ----------
    records : iterable of mapping
        Trials (:func:`search.trials.read_trials_csv`): ``model``, ``trial``, ``f1``, ``spec``,
        ``config``. Times are not used: the output is the same on every rerun.
    target_f1 : float, optional
        The validation F1 to reach; ``budget_to_reach`` is None when a curve never reaches it
        within the trials run (the curves are not extrapolated).
    order : sequence of str, optional
        Model order (the config's); pairs are taken in this order.

    Returns
    -------
    dict
        ``{"target_f1", "default_estimator", "models": {name: {...}}, "pairs": [...]}``.
    """
    groups = by_model(records, order)
    models = {}
    for name, trials in groups.items():
        scores = [t["f1"] for t in trials]
        best = best_trial(trials)
        entry = {"trials": len(trials),
                 "f1": {"mean": float(np.mean(scores)), "min": min(scores), "max": max(scores)},
                 "best": {"trial": best["trial"], "f1": best["f1"], "spec": best["spec"],
                          "config": best["config"]},
                 "curves": curves(scores)}
        if target_f1 is not None:
            entry["budget_to_reach"] = {est: budget_to_reach(entry["curves"][est]["expected"],
                                                             target_f1) for est in ESTIMATORS}
        models[name] = entry
    pairs = []
    for a, b in itertools.combinations(models, 2):
        n = min(models[a]["trials"], models[b]["trials"])
        pair = {"a": a, "b": b, "budgets": n, "crossings": {}, "leader": {}}
        for est in ESTIMATORS:
            ca = np.asarray(models[a]["curves"][est]["expected"][:n])
            cb = np.asarray(models[b]["curves"][est]["expected"][:n])
            pair["crossings"][est] = crossings(ca, cb)
            pair["leader"][est] = {"at_1": _leader(a, b, ca[0], cb[0]),
                                   f"at_{n}": _leader(a, b, ca[-1], cb[-1])}
        pairs.append(pair)
    return {"target_f1": target_f1, "default_estimator": DEFAULT_ESTIMATOR, "models": models,
            "pairs": pairs}


def _leader(a: str, b: str, va: float, vb: float) -> str:
    return a if va > vb else b if vb > va else "tie"


def _f(value: float | None, digits: int = 4) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _n(value: int | None) -> str:
    return "not reached" if value is None else str(value)


def markdown(analysis: Mapping) -> str:
    """results/tables/budget.md: the per-model figures and the crossings, as Markdown tables.

    Parameters
    ----------
    analysis : mapping
        What :func:`analyse` returns.

    Returns
    -------
    str
        The Markdown.
    """
    target = analysis.get("target_f1")
    lines = ["# Expected validation performance against budget", "",
             "Random search, one fixed train/validation split; validation chunk F1. E[max] of n "
             "trials by the unbiased estimator (Tang et al. 2020) and MeanMax (Dodge et al. "
             "2019, Eq. 8).", ""]
    rows = []
    for name, m in analysis["models"].items():
        reach = m.get("budget_to_reach") or {}
        rows.append([md_text(name), m["trials"], _f(m["f1"]["mean"]), _f(m["best"]["f1"]),
                     m["best"]["trial"], _f(m["curves"]["unbiased"]["expected"][-1]),
                     _f(m["curves"]["meanmax"]["expected"][-1]),
                     _n(reach.get("unbiased")) if target is not None else "-",
                     _n(reach.get("meanmax")) if target is not None else "-"])
    lines += md_table(["model", "trials", "mean F1", "best F1", "best trial",
                       "E[max] at N (unbiased)", "E[max] at N (MeanMax)",
                       "trials to reach target (unbiased)", "trials to reach target (MeanMax)"],
                      rows, align="-rrrrrrrr")
    lines += ["", f"Target F1: {_f(target) if target is not None else 'none set'}.", ""]
    if analysis["pairs"]:
        rows = []
        for p in analysis["pairs"]:
            n = p["budgets"]
            lead = p["leader"]["unbiased"]
            rows.append([md_text(p["a"]), md_text(p["b"]), f"1..{n}", md_text(lead["at_1"]),
                         md_text(lead[f"at_{n}"]), _crossings(p["crossings"]["unbiased"]),
                         _crossings(p["crossings"]["meanmax"])])
        lines += md_table(["A", "B", "budgets", "leader at n = 1", "leader at the largest n",
                           "crossings (unbiased)", "crossings (MeanMax)"], rows, align="--r----")
        lines += ["", "A crossing n is the first budget at which the other model leads."]
    return "\n".join(lines) + "\n"


def _crossings(values: list[int]) -> str:
    return ", ".join(map(str, values)) if values else "none"
