"""The sample-size curve: the mean difference and the SNR of A - B against the corpus size.

One column per task, two rows: the mean of A - B in F1 points with its 95% interval (Student's t
over the repetitions, :mod:`reprocompare.estimators.effect`), and the SNR (Eq. 4) with the
interval its summary recorded (exact noncentral t, or the confidence sequence of a sequential
study). Every study of a task is one point per estimator at its number of sentences (each
sample of a size its own point, side by side); the marker says the verdict: filled
when "A > B reproduces", a cross when "B > A reproduces", open otherwise (no reproducible
difference, or undecided). The x axis is logarithmic: the sizes double and quadruple.
Drawn without pyplot under the fixed style of :mod:`reprocompare.reports.figures`, so the same
summaries give byte-identical files.
"""

from __future__ import annotations

import math

from pathlib import Path

from matplotlib.figure import Figure

from reprocompare.estimators.effect import mean_interval
from reprocompare.reports.figures import _style, save

#: the estimators drawn (the curve's two ends of the paper's comparison: BCV and the standard split)
DRAWN = ("Avg", "ST")
COLOURS = {"Avg": "C0", "ST": "C3"}


def points(summaries: list[dict], estimator: str) -> list[dict]:
    """One point per summary that has ``estimator``: size, mean and SNR with their intervals.

    Parameters
    ----------
    summaries : list of dict
        The study summaries of one task, one per size.
    estimator : str
        The estimator's name (ST, RS, Avg, Vote, Mixture).

    Returns
    -------
    list of dict
        The points, by ascending size.
    """
    out = []
    for summary in summaries:
        s = (summary.get("estimators") or {}).get(estimator)
        if s is None or s["repetitions"] < 2:
            continue
        interval = mean_interval(s["mean"], s["sd"], s["repetitions"])
        verdict = ((summary.get("verdicts") or {}).get(estimator) or {}).get("decision", "")
        out.append({"sentences": summary["sentences"], "repetitions": s["repetitions"],
                    "mean": 100 * interval.mean, "mean_low": 100 * interval.low,
                    "mean_high": 100 * interval.high, "snr": s["snr"],
                    "snr_low": s["snr_low"], "snr_high": s["snr_high"], "verdict": verdict})
    return sorted(out, key=lambda p: p["sentences"])


def _offsets(points_: list[dict]) -> list[float]:
    """A small multiplicative shift per repeated size, so that samples of one size sit apart."""
    seen: dict[int, int] = {}
    out = []
    for p in points_:
        i = seen.get(p["sentences"], 0)
        seen[p["sentences"]] = i + 1
        out.append(p["sentences"] * (1.06 ** i))
    return out


def size_curve(tasks: dict[str, list[dict]], stem: str | Path) -> list[Path]:
    """``tasks``: {task title: [summary, ...]} -> ``stem``.png and ``stem``.pdf.

    Parameters
    ----------
    tasks : dict of str to list of dict
        Each task's title and its summaries.
    stem : str or pathlib.Path
        The figure's path without its suffix.

    Returns
    -------
    list of pathlib.Path
        The files written.
    """
    with _style():
        fig = Figure(figsize=(4.2 * len(tasks), 6.2), layout="constrained")
        axes = fig.subplots(2, len(tasks), squeeze=False, sharex="col")
        for column, (title, summaries) in enumerate(tasks.items()):
            top, bottom = axes[0][column], axes[1][column]
            for shift, estimator in enumerate(DRAWN):
                found = points(summaries, estimator)
                if not found:
                    continue
                xs = [x * (1.03 if shift else 1 / 1.03) for x in _offsets(found)]
                for ax, key in ((top, "mean"), (bottom, "snr")):
                    for x, p in zip(xs, found):
                        low, high = p[f"{key}_low"], p[f"{key}_high"]
                        if math.isfinite(low) and math.isfinite(high):
                            ax.plot([x, x], [low, high], color=COLOURS[estimator], lw=1.2)
                        marker = {"A>B": "o", "B>A": "x"}.get(p["verdict"], "o")
                        face = COLOURS[estimator] if p["verdict"] in ("A>B", "B>A") else "white"
                        ax.plot([x], [p[key]], marker=marker, ms=5.5, ls="",
                                color=COLOURS[estimator], markerfacecolor=face,
                                label=estimator if x == xs[0] else None)
            sizes = sorted({summary["sentences"] for summary in summaries})
            for ax in (top, bottom):
                ax.axhline(0, color="0.3", lw=0.8, ls=":")
                ax.set_xscale("log")
                # the sizes themselves as ticks: 300, 1,200, 8,936 read better than 10^3
                ax.set_xticks(sizes, [f"{size:,}" for size in sizes])
                ax.minorticks_off()
            top.set_title(title)
            top.set_ylabel("mean of A - B (F1 points)\n95% CI over the repetitions")
            bottom.set_ylabel("SNR of A - B (Eq. 4)\n95% CI")
            bottom.set_xlabel("training corpus (sentences, log scale)")
            top.legend(title="filled: A > B reproduces\nx: B > A; open: undecided/neither",
                       loc="best", fontsize=7.5, title_fontsize=7.5)
    return save(fig, stem)
