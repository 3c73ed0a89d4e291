"""Expected validation performance against budget, and learning curves, as PNG and PDF.

The budget figure is Dodge et al.'s Figure 1 (2019, seeds 000/001) for every searched model on
one plot: the expected best validation F1 of n random-search trials against n (left) and
against the time n trials take, n times the model's mean time per trial, on a log axis (right).
Solid lines are Tang et al.'s unbiased estimator (seed 002), dashed lines Dodge et al.'s MeanMax
(Eq. 8), the band is the unbiased estimate +/- 1 sd shaded only within the observed range of
scores (Dodge et al., section 3.3, Figure 4). With a target F1, a dotted line marks it and the
budget at which each curve reaches it.

The learning-curve figure follows Potts (seed 003): validation F1 against epochs, the mean over
seeds with a 95% t-interval band.

Drawn and saved as :mod:`reports.figures` draws its figures (bare Figure, fixed style,
:func:`reports.figures.save`): the same input gives byte-identical files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Mapping, Sequence

import matplotlib.style
import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator, NullFormatter

from reprocompare.reports.figures import PANEL_WIDTH, RC, save


def _style():
    return matplotlib.style.context(["default", RC])


def _render(fig: Figure, path_stem) -> list[Path]:
    try:
        return save(fig, path_stem)
    finally:
        fig.clear()


def _budget_figure(analysis: Mapping, seconds_per_trial: Mapping[str, float]) -> Figure:
    models = analysis["models"]
    target = analysis.get("target_f1")
    with _style():
        fig = Figure(figsize=(2 * PANEL_WIDTH + 0.6, 4.4), layout="constrained")
        by_trials, by_time = fig.subplots(1, 2)
        handles, labels, reached = [], [], []
        for i, (name, m) in enumerate(models.items()):
            color = f"C{i % 10}"
            n = np.arange(1, m["trials"] + 1)
            unbiased, meanmax = m["curves"]["unbiased"], m["curves"]["meanmax"]
            seconds = seconds_per_trial.get(name)
            axes = [(by_trials, n)]
            if seconds and seconds > 0:
                axes.append((by_time, n * seconds))
            for ax, x in axes:
                ax.fill_between(x, unbiased["low"], unbiased["high"], color=color, alpha=0.18,
                                linewidth=0)
                ax.plot(x, unbiased["expected"], color=color, linewidth=1.6, marker="o",
                        markersize=3)
                ax.plot(x, meanmax["expected"], color=color, linewidth=1.1, linestyle="--")
            reach = (m.get("budget_to_reach") or {}).get("unbiased")
            if target is not None and reach is not None:
                reached.append((reach, color))
            handles.append(Line2D([], [], color=color, linewidth=1.6, marker="o", markersize=3))
            time_note = f", {seconds:.2g} s/trial" if seconds else ""
            labels.append(f"{name} (N = {m['trials']}{time_note})")
        if reached:  # Dodge et al.'s Figure 1: the budget a curve needs to reach the target
            bottom, top = by_trials.get_ylim()
            for reach, color in reached:
                by_trials.plot([reach, reach], [bottom, target], color=color, linestyle=":",
                               linewidth=1)
            by_trials.set_ylim(bottom, max(top, target))
        for ax in (by_trials, by_time):
            if target is not None:
                ax.axhline(target, color="0.3", linestyle=":", linewidth=1)
            ax.set_ylabel("expected max validation chunk F1")
        by_trials.set_xlabel("hyperparameter trials n")
        by_trials.xaxis.set_major_locator(MaxNLocator(integer=True))
        by_trials.set_title("against trials")
        by_time.set_xscale("log")
        by_time.xaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
        by_time.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}"))
        by_time.xaxis.set_minor_formatter(NullFormatter())
        by_time.set_xlabel("seconds: n x mean time per trial (log scale)")
        by_time.set_title("against time")
        handles += [Line2D([], [], color="0.2", linewidth=1.6),
                    Line2D([], [], color="0.2", linewidth=1.1, linestyle="--"),
                    Patch(color="0.2", alpha=0.18)]
        labels += ["unbiased (Tang et al. 2020)", "MeanMax (Dodge et al. 2019)",
                   "unbiased +/- 1 sd, within observed scores"]
        if target is not None:
            handles.append(Line2D([], [], color="0.3", linestyle=":", linewidth=1))
            labels.append(f"target F1 {target:g}")
        fig.suptitle("Expected validation performance against budget (random search)",
                     fontsize=10)
        fig.legend(handles, labels, loc="outside lower center", frameon=False,
                   ncols=min(3, len(labels)))
    return fig


def budget_figure(analysis: Mapping, seconds_per_trial: Mapping[str, float],
                  path_stem) -> list[Path]:
    """Write the budget figure as ``path_stem.png`` and ``.pdf``.

    Parameters
    ----------
    analysis : mapping
        :func:`search.budget.analyse`'s output (budget.json): per model the curves and band.
    seconds_per_trial : mapping
        Mean wall time of one trial per model (the trials table's ``seconds``); a model without
        one is left out of the time panel.
    path_stem : str or os.PathLike
        The figure's path without its suffix.

    Returns
    -------
    list of pathlib.Path
        The files written.
    """
    return _render(_budget_figure(analysis, seconds_per_trial), path_stem)


def _learning_curve_figure(curves: Mapping[str, Sequence[Mapping]]) -> Figure:
    with _style():
        fig = Figure(figsize=(PANEL_WIDTH + 0.8, 3.8), layout="constrained")
        ax = fig.subplots()
        runs = set()
        for i, (name, rows) in enumerate(curves.items()):
            color = f"C{i % 10}"
            epochs = [r["epoch"] for r in rows]
            # F1 lies in [0, 1]; a t-interval over few seeds can reach past either end
            ax.fill_between(epochs, np.clip([r["ci_low"] for r in rows], 0, 1),
                            np.clip([r["ci_high"] for r in rows], 0, 1), color=color, alpha=0.2,
                            linewidth=0)
            ax.plot(epochs, [r["mean"] for r in rows], color=color, marker="o", markersize=3,
                    label=f"{name} ({max(r['runs'] for r in rows)} seeds)")
            runs.update(r["runs"] for r in rows)
        ax.set_xlabel("epoch")
        ax.set_ylabel("validation chunk F1")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_title("Learning curves: mean over seeds, 95% t-interval (within [0, 1])")
        ax.legend(frameon=False)
    return fig


def learning_curve_figure(curves: Mapping[str, Sequence[Mapping]], path_stem) -> list[Path]:
    """Write the learning-curve figure; ``curves`` maps a label to :func:`search.seed_variance.curve_band`
    rows (``epoch``, ``runs``, ``mean``, ``ci_low``, ``ci_high``).

    Parameters
    ----------
    curves : mapping of str to sequence of mapping
        The rows of each label's curve.
    path_stem : str or os.PathLike
        The figure's path without its suffix.

    Returns
    -------
    list of pathlib.Path
        The files written.
    """
    return _render(_learning_curve_figure(curves), path_stem)
