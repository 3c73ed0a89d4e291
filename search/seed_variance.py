"""Seed variance and learning curves: what repeated runs on one split say (Potts 2020,
"Evaluation methods in NLP", CS224u, Stanford).

A neural tagger trained twice on the same data with different seeds gives two different models,
and now and then one that fails outright (Reimers and Gurevych 2017; Potts: "what to do when a
system experiences a catastrophic failure as a result of unlucky initialization. (I think the
answer is to report this failure rate.)"). :func:`spread` summarizes the validation F1 of repeated
runs that differ only in their seed: mean, standard deviation, range, a 95% t-interval for the
mean, and the failure rate, the share of runs below a threshold. :func:`curve_band` turns the
learning curves of repeated runs into a mean curve with a 95% t-interval at each recorded epoch,
the plot Potts recommends ("learning curves ... with confidence intervals derived from repeated
runs").
"""

from __future__ import annotations

import math
from typing import Iterable, Mapping, Sequence

import numpy as np

from reprocompare.base.markdown import md_table, md_text
from reprocompare.base.spreadsheet import csv_text

#: Columns of results/tables/seed_variance.csv, in order.
SEED_COLUMNS = ("corpus", "comparison", "side", "model", "spec", "random", "runs", "mean", "sd",
                "min", "max", "ci_low", "ci_high", "failure_f1", "failures", "failure_rate")
#: Columns of results/tables/learning_curve.csv.
CURVE_COLUMNS = ("corpus", "model", "epoch", "runs", "mean", "sd", "ci_low", "ci_high")


def t_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float]:
    """Student-t interval for the mean of ``values``: mean -/+ t_{(1+c)/2, n-1} sd / sqrt(n).

    Potts' ``get_ci`` (CS224u 2020) with the sample standard deviation (ddof = 1, the estimator the
    t-interval is derived for; Potts divides by n). Equal values, or a single one, give the
    degenerate interval (v, v).

    Parameters
    ----------
    values : sequence of float
        The values.
    confidence : float, default 0.95
        Confidence level, in (0, 1).

    Returns
    -------
    (float, float)
        The interval's ends.
    """
    v = np.asarray(values, dtype=float)
    mean = float(v.mean())
    if v.size < 2 or np.all(v == v[0]):
        return mean, mean
    from scipy import stats  # lazy: SciPy, which the checklist (importing this module) skips

    half = stats.t.ppf((1 + confidence) / 2, v.size - 1) * v.std(ddof=1) / math.sqrt(v.size)
    return mean - float(half), mean + float(half)


def spread(f1s: Sequence[float], *, failure_f1: float) -> dict:
    """Mean, sd (ddof 1; 0 for one run), min, max, 95% t-interval, failures and failure rate.

    A run fails when its validation F1 is below ``failure_f1``.

    Parameters
    ----------
    f1s : sequence of float
        The runs' validation F1.
    failure_f1 : float
        The F1 below which a run fails.

    Returns
    -------
    dict
        The figures, by name.

    Examples
    --------
    >>> s = spread([0.90, 0.92, 0.10], failure_f1=0.5)
    >>> s["failures"], round(s["failure_rate"], 4)
    (1, 0.3333)
    """
    v = np.asarray(f1s, dtype=float)
    if v.size == 0:
        raise ValueError("no runs")
    low, high = t_interval(v)
    failures = int(np.sum(v < failure_f1))
    return {"runs": int(v.size), "mean": float(v.mean()),
            "sd": float(v.std(ddof=1)) if v.size > 1 else 0.0, "min": float(v.min()),
            "max": float(v.max()), "ci_low": low, "ci_high": high, "failure_f1": failure_f1,
            "failures": failures, "failure_rate": failures / v.size}


def curve_band(curves: Iterable[Sequence[Sequence[float]]]) -> list[dict]:
    """Mean learning curve and its 95% t-interval over runs, at every recorded epoch.

    ``curves`` holds one ``[[epoch, f1], ...]`` per run; an epoch some runs did not reach (early
    stopping) is summarized over the runs that did, and ``runs`` says how many.

    Parameters
    ----------
    curves : iterable of sequence of (int, float)
        One learning curve per run.

    Returns
    -------
    list of dict
        One row per epoch: ``epoch``, ``runs``, ``mean``, ``ci_low``, ``ci_high``.
    """
    by_epoch: dict[int, list[float]] = {}
    for curve in curves:
        for epoch, f1 in curve:
            by_epoch.setdefault(int(epoch), []).append(float(f1))
    rows = []
    for epoch in sorted(by_epoch):
        values = by_epoch[epoch]
        low, high = t_interval(values)
        rows.append({"epoch": epoch, "runs": len(values), "mean": float(np.mean(values)),
                     "sd": float(np.std(values, ddof=1)) if len(values) > 1 else 0.0,
                     "ci_low": low, "ci_high": high})
    return rows


def _cell(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return repr(value) if isinstance(value, float) else str(value)


def to_csv(rows: Iterable[Mapping], columns: Sequence[str]) -> str:
    """The rows as CSV, floats in full (``repr``).

    Parameters
    ----------
    rows : iterable of mapping
        The rows.
    columns : sequence of str
        The columns, in order.

    Returns
    -------
    str
        The CSV text.
    """
    return csv_text(rows, columns, _cell)


def seed_variance_markdown(rows: Sequence[Mapping]) -> str:
    """results/tables/seed_variance.md.

    Parameters
    ----------
    rows : sequence of mapping
        One row per corpus, comparison, side and model.

    Returns
    -------
    str
        The Markdown.
    """
    lines = ["# Seed variance", "",
             "Each model trained with different seeds on one fixed train/validation split; "
             "validation chunk F1. A run fails below the threshold F1. Models whose training "
             "does not depend on a seed (the CRF's L-BFGS) are trained once.", ""]
    cells = []
    for r in rows:
        runs = f"{r['runs']}" if r["random"] else f"{r['runs']} (deterministic)"
        cells.append([md_text(r["corpus"]), md_text(r["comparison"]), r["side"],
                      md_text(r["model"]), runs, f"{r['mean']:.4f}", f"{r['sd']:.4f}",
                      f"{r['min']:.4f}", f"{r['max']:.4f}",
                      f"[{r['ci_low']:.4f}, {r['ci_high']:.4f}]",
                      f"{r['failures']} (< {r['failure_f1']:g})", f"{r['failure_rate']:.2f}"])
    lines += md_table(["corpus", "comparison", "side", "model", "runs", "mean", "sd", "min", "max",
                       "95% CI", "failures (F1 < threshold)", "failure rate"], cells,
                      align="----rrrrr-rr")
    return "\n".join(lines) + "\n"
