"""The paper's Figure 1 and Figure 2 as PNG and PDF, from run summaries.

Xue et al., section 4.1 (Figure 1): SNR (Eq. 4) and reproducibility (Eq. 1) of the random-split
(RS) estimator against the number k of 8:1 hold-outs averaged, one plot per comparison; here each
point also carries its 95% interval (the summary's method for the SNR, Clopper-Pearson for the
reproducibility) and the one-sided Chebyshev lower bound SNR^2 / (1 + SNR^2) (Eq. 3) is drawn, so
a reader sees how loosely the bound ties the two.

Section 4.2 (Figure 2): box plots of every estimator's values over the repetitions, with a dotted
line at zero; the top row shows RS for each k, the bottom row ST, RS, Avg, Vote and Mixture.

Every figure is drawn on a bare :class:`matplotlib.figure.Figure` (never through pyplot, so no
figure is left registered anywhere) under fixed rcParams, and saved without timestamps or version
strings that change between runs: the same input gives byte-identical files.
"""

from __future__ import annotations

import math
import os
import re
import textwrap
from pathlib import Path

import matplotlib

# Headless and reproducible: no display is needed and Agg rasterizes the same way everywhere.
matplotlib.use("Agg")

import matplotlib.style  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from reprocompare.strategies import ESTIMATORS  # noqa: E402
from reprocompare.strategies import labels as strategy_labels  # noqa: E402
# Figure 2 is the random splits' own: their SNR against k
from reprocompare.strategies.repeated_holdout import STRATEGY as RANDOM_SPLITS  # noqa: E402
from reprocompare.reports.tables import SNR_INTERVAL_NAMES  # noqa: E402

#: PNG resolution: sharp in a paper draft, small enough for a README
DPI = 150
#: Fixed style on top of matplotlib's defaults, so a user's matplotlibrc cannot change the bytes.
RC = {
    "figure.dpi": 100,
    "savefig.dpi": DPI,
    "font.family": "DejaVu Sans",  # shipped with matplotlib: the same glyphs on every machine
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "legend.fontsize": 8.5,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "pdf.fonttype": 42,  # TrueType in the PDF: text stays selectable and editable
    "svg.hashsalt": "reprocompare",  # SVG ids would otherwise be random (for later SVG output)
    "svg.fonttype": "none",
}
def _rs_axis_label(strategies: dict | None) -> str:
    ratio = ((strategies or {}).get(RANDOM_SPLITS.name) or {}).get("ratio")
    return f"number of random splits k ({ratio} hold-outs averaged)" if ratio else \
        "number of random splits k (hold-outs averaged)"
COLOR_OF = {"ST": "C7", "RS": "C0", "Avg": "C2", "Vote": "C4", "Mixture": "C3"}
#: the colours of a later strategy's estimators (regularized BCV's rAvg, rVote, rMixture), in
#: their order: matplotlib's cycle less those above
_SPARE_COLORS = ("C1", "C9", "C6", "C5", "C8")
COLOR_OF.update({name: _SPARE_COLORS[i % len(_SPARE_COLORS)] for i, name in
                 enumerate(e for e in ESTIMATORS if e not in COLOR_OF)})
#: Width of one panel in inches: three panels side by side fit a landscape page, as in the paper.
PANEL_WIDTH = 4.6


def _style():
    """A context with matplotlib's defaults plus :data:`RC`; global rcParams are restored after."""
    return matplotlib.style.context(["default", RC])


def save(fig: Figure, path_stem: str | Path) -> list[Path]:
    """Write ``fig`` to ``path_stem + ".png"`` and ``".pdf"``, atomically and byte-reproducibly.

    Each file is rendered to a temporary name in the target directory and renamed over the target
    (``os.replace`` is atomic on POSIX), so a reader never sees half a figure. The temporary name
    keeps the extension and the format is given explicitly, so matplotlib never guesses it.
    Returns the two paths, PNG first.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure.
    path_stem : str or pathlib.Path
        The figure's path without its suffix.

    Returns
    -------
    list of pathlib.Path
        The PNG and the PDF written.
    """
    stem = Path(path_stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    # Without these, the PDF carries its creation time and the PNG matplotlib's version string.
    metadata = {"png": {"Software": None}, "pdf": {"CreationDate": None, "ModDate": None}}
    paths = []
    with _style():  # pdf.fonttype and savefig.* are read at save time, not when drawing
        for fmt in ("png", "pdf"):
            path = stem.with_name(f"{stem.name}.{fmt}")
            # the pid keeps two processes writing the same figure from sharing a temporary file
            temporary = path.with_name(f".tmp-{os.getpid()}-{path.name}")
            try:
                fig.savefig(temporary, format=fmt, dpi=DPI, metadata=metadata[fmt])
                os.replace(temporary, path)
            except BaseException:
                temporary.unlink(missing_ok=True)
                raise
            paths.append(path)
    return paths


def _close(fig: Figure) -> None:
    """Free the figure's artists now rather than at the next garbage collection."""
    fig.clear()


def _render(fig: Figure, path_stem) -> list[Path]:
    try:
        return save(fig, path_stem)
    finally:
        _close(fig)


# ----------------------------------------------------------------------------------- helpers


def _by_k(mapping: dict) -> list[tuple[int, object]]:
    """Items of a k-keyed dict sorted numerically; keys are ints, or strings after JSON."""
    return sorted(((int(k), value) for k, value in mapping.items()), key=lambda item: item[0])


def _plottable(value) -> float:
    """A plottable float: None (JSON null) and anything non-numeric become NaN (a gap)."""
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def _wrap(text: str, width: int) -> list[str]:
    """Greedy wrap that may break after a comma as well as at a space: model specs are long
    comma-separated option lists without spaces, which textwrap would only cut mid-word."""
    lines, line = [], ""
    for token in re.split(r"(?<=[,\s])", text):
        while len(token) > width:  # a token longer than a line: cut it hard
            if line:
                lines.append(line.rstrip())
                line = ""
            lines.append(token[:width])
            token = token[width:]
        if line and len(line) + len(token.rstrip()) > width:
            lines.append(line.rstrip())
            line = ""
        line += token
    if line.strip():
        lines.append(line.rstrip())
    return lines


def _pair_line(models: dict, width: int) -> str:
    """'A = spec  vs  B = spec' on one line if it fits the panel, else A and B on lines of their
    own, wrapped, so a reader never has to guess where one spec ends."""
    a, b = f"A = {models.get('A', '?')}", f"B = {models.get('B', '?')}"
    if len(a) + len(b) + 6 <= width:
        return f"{a}  vs  {b}"
    return "\n".join(_wrap(a, width) + _wrap(b, width))


def shown_models(summary: dict) -> dict:
    """What a figure calls A and B: their labels (``models.<name>.label``), else their names,
    else their specs; a spec (with a user's paths) belongs in the report, not in a figure.

    Parameters
    ----------
    summary : dict
        A comparison's summary.

    Returns
    -------
    dict
        ``{"A": ..., "B": ...}``.
    """
    labels, names = summary.get("model_labels") or {}, summary.get("model_names") or {}
    specs = summary.get("models") or {}
    return {side: labels.get(side) or names.get(side) or specs.get(side, "?")
            for side in ("A", "B")}


def _plain(text: str) -> str:
    """A user's text (a label) as matplotlib shows it literally: a pair of ``$`` would start
    mathtext, so each is escaped."""
    return str(text).replace("$", r"\$")


def _panel_title(ax, name: str, models: dict | None, extra: str = "") -> None:
    """Bold comparison name over the two models' labels (small, grey), both above the axes.

    ``models=None`` gives the name alone (a panel below one that already shows the models).
    """
    name = _plain(name)
    models = None if models is None else {side: _plain(text) for side, text in models.items()}
    # wrapped to the panel: a long comparison name would otherwise run past the figure's edge
    title = textwrap.fill(f"{name}{extra}", int(PANEL_WIDTH * 8.5))  # 12 pt bold: ~8.5 per inch
    if models is None:
        ax.set_title(title, fontweight="bold")
        return
    subtitle = _pair_line(models, int(PANEL_WIDTH * 15))  # ~15 characters of 8 pt per inch
    # the title is lifted by the subtitle's height: 8 pt text is ~11.5 pt a line
    ax.set_title(title, fontweight="bold", pad=5 + 11.5 * (subtitle.count("\n") + 1))
    ax.text(0.5, 1.0 + 0.01, subtitle, transform=ax.transAxes, ha="center", va="bottom",
            fontsize=8, color="0.25")


def _suptitle(fig: Figure, text: str, n_panels: int) -> None:
    """The figure's title, wrapped to the figure's width (one panel is narrow)."""
    fig.suptitle("\n".join(_wrap(text, int(PANEL_WIDTH * 13 * n_panels))), fontsize=11)


def _empty(ax, message: str) -> None:
    ax.text(0.5, 0.5, message, transform=ax.transAxes, ha="center", va="center", color="0.4")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.grid(False)


#: a legend entry's handle, and one character of its label at the legend's 8.5 pt, in inches
_HANDLE_INCHES, _CHARACTER_INCHES = 0.6, 0.07
#: one line of a legend's label at 8.5 pt, with its spacing, in inches
_LEGEND_LINE_INCHES = 0.17


def _legend_columns(labels: list[str], width: float) -> int:
    """As many legend columns as the figure's width holds (a cut-off legend is unreadable).

    An entry takes its handle (~0.6 in) plus ~0.07 in a character at the legend's 8.5 pt; a column
    is as wide as its widest entry, so the widest line of a label sets the count.
    """
    longest = max(len(line) for label in labels for line in label.splitlines())
    entry = _HANDLE_INCHES + _CHARACTER_INCHES * longest
    return max(1, min(len(labels), int(width / entry)))


def _legend_labels(labels: list[str], width: float) -> list[str]:
    """Each label wrapped to the figure's width: an interval's kind in a sequential study (its
    looks and spending) is longer than any figure is wide, and ran off both edges."""
    characters = max(20, int((width - _HANDLE_INCHES - 0.2) / _CHARACTER_INCHES))
    return ["\n".join(_wrap(label, characters)) for label in labels]


def _check(comparisons: dict) -> None:
    if not comparisons:
        raise ValueError("no comparisons to plot")


# ---------------------------------------------------------------------------------- Figure 1


def _clip_infinite(values: np.ndarray, low: float, high: float) -> tuple[np.ndarray, bool]:
    """Infinite band ends moved to just past the axis limits, so the shaded band runs off the plot
    (reads as "unbounded"); the caller sets the limits from the finite values."""
    clipped = np.where(np.isposinf(values), high + 10 * (high - low), values)
    clipped = np.where(np.isneginf(clipped), low - 10 * (high - low), clipped)
    return clipped, bool(np.isinf(values).any())


def _snr_interval_name(by_k) -> str:
    """How the summaries computed the SNR interval (their ``snr_method``), never assumed."""
    methods = sorted({str(s.get("snr_method", "bootstrap")) for _, s in by_k})
    return "/".join(SNR_INTERVAL_NAMES.get(m, m) for m in methods)


def _share_interval_name(by_k) -> str:
    """The reproducibility band's kind: Clopper-Pearson at a fixed R, the share's confidence
    sequence in a sequential study (the summaries' ``interval_kinds``)."""
    kinds = sorted({(s.get("interval_kinds") or {}).get("reproducibility",
                                                      "Clopper-Pearson, fixed R") for _, s in by_k})
    return "/".join(kinds)


def _figure1(comparisons: dict[str, dict]) -> Figure:
    """Figure 1 (section 4.1): SNR and reproducibility of RS against the repetition count k.

    One panel per comparison. Left axis: the SNR (Eq. 4) of the RS estimator with its 95% band
    (exact noncentral t or percentile bootstrap, as the summary's ``snr_method`` says); right (twin) axis: its reproducibility (Eq. 1) with the 95%
    Clopper-Pearson band, and the Chebyshev lower bound of Eq. 3 dotted. The paper plots k = 3..10
    over R = 1000 repetitions; here k runs over what was run and R is printed in the title.
    """
    _check(comparisons)
    n = len(comparisons)
    with _style():
        fig = Figure(figsize=(PANEL_WIDTH * n + 0.6, 4.6), layout="constrained")
        axes = fig.subplots(1, n, squeeze=False)[0]
        handles: dict[str, object] = {}
        for ax, (name, summary) in zip(axes, comparisons.items()):
            by_k = _by_k(summary.get("random_splits_by_k") or {})
            conclusion = summary.get("conclusion", "A>B")
            ax_r = ax.twinx()  # made for every panel, so every panel has the same layout
            ax_r.grid(False)
            if not by_k:
                _panel_title(ax, name, shown_models(summary))
                _empty(ax, "no random-split (RS) runs")
                ax_r.set_yticks([])
                continue
            ks = np.array([k for k, _ in by_k])
            column = lambda key: np.array([_plottable(s.get(key)) for _, s in by_k])  # noqa: E731
            snr, snr_low, snr_high = column("snr"), column("snr_low"), column("snr_high")
            rep, rep_low, rep_high = (column("reproducibility"), column("reproducibility_low"),
                                      column("reproducibility_high"))
            bound = column("chebyshev_bound")
            repetitions = sorted({int(s.get("repetitions", 0)) for _, s in by_k})

            # SNR limits from the finite values only: an SNR of inf (estimates without spread)
            # would otherwise flatten every other point.
            finite = np.concatenate([a[np.isfinite(a)] for a in (snr, snr_low, snr_high)]
                                    + [np.zeros(1)])
            low, high = float(finite.min()), float(finite.max())
            margin = 0.08 * (high - low) if high > low else 1.0
            low, high = low - margin, high + margin
            band_low, clipped_low = _clip_infinite(snr_low, low, high)
            band_high, clipped_high = _clip_infinite(snr_high, low, high)
            handles["SNR band"] = ax.fill_between(
                ks, band_low, band_high, color="C0", alpha=0.18, linewidth=0,
                label=f"SNR 95% {_snr_interval_name(by_k)} CI" + (" (unbounded: off the plot)"
                                                if clipped_low or clipped_high else ""))
            # an infinite SNR is no point on the line: a gap there, and a triangle on the edge
            (handles["SNR"],) = ax.plot(ks, np.where(np.isfinite(snr), snr, np.nan), "o-",
                                        color="C0", lw=1.8, ms=4.5, label="SNR (Eq. 4)")
            for sign, marker, edge in ((1, "^", high), (-1, "v", low)):
                where = np.isinf(snr) & (np.sign(snr) == sign)
                if where.any():
                    (handles[f"SNR {marker}"],) = ax.plot(
                        ks[where], np.full(where.sum(), edge), marker, color="C0", ms=7,
                        clip_on=False, ls="", label=f"SNR = {'+' if sign > 0 else '-'}inf "
                                                    "(estimates without spread)")
            ax.axhline(0, color="0.5", lw=0.8)
            ax.set_ylim(low, high)
            ax.set_xlabel(_rs_axis_label(summary.get("strategies")))
            ax.set_ylabel("SNR of the RS estimate of A - B\n(mean / sd, unitless)", color="C0")
            ax.tick_params(axis="y", colors="C0")
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # k is a count
            pad = 0.3 if len(ks) > 1 else 1.0
            ax.set_xlim(ks.min() - pad, ks.max() + pad)

            handles["rep band"] = ax_r.fill_between(
                ks, rep_low, rep_high, color="C1", alpha=0.15, linewidth=0,
                label=f"reproducibility 95% {_share_interval_name(by_k)} CI")
            (handles["rep"],) = ax_r.plot(ks, rep, "s--", color="C1", lw=1.8, ms=4.5,
                                          label="reproducibility (Eq. 1)")
            (handles["bound"],) = ax_r.plot(ks, bound, ":", color="C3", lw=2,
                                            label="Chebyshev bound SNR²/(1+SNR²) (Eq. 3)")
            # a share: the full 0..1 range keeps panels comparable and the bound's slack visible
            ax_r.set_ylim(-0.03, 1.03)
            ax_r.set_ylabel(f"reproducibility: share of repetitions\nsupporting {conclusion}",
                            color="C1")
            ax_r.tick_params(axis="y", colors="C1")
            _panel_title(ax, name, shown_models(summary),
                         f"  (R = {'/'.join(map(str, repetitions))} repetitions)")
        _suptitle(fig, "Figure 1: SNR and reproducibility of random splits (RS) vs. the number "
                       "of splits k", n)
        if handles:
            order = ["SNR", "SNR ^", "SNR v", "SNR band", "rep", "rep band", "bound"]
            shown = [handles[h] for h in order if h in handles]
            labels = _legend_labels([h.get_label() for h in shown], fig.get_figwidth())
            columns = _legend_columns(labels, fig.get_figwidth())
            # the figure grows by the legend's lines past the five its height was made for, so
            # that a long wrapped label takes no height from the panels
            lines = math.ceil(sum(label.count("\n") + 1 for label in labels) / columns)
            fig.set_figheight(fig.get_figheight() + _LEGEND_LINE_INCHES * max(0, lines - 5))
            fig.legend(shown, labels, loc="outside lower center", frameon=False, ncols=columns)
    return fig


def figure1(comparisons: dict[str, dict], path_stem) -> list[Path]:
    """Write Figure 1 (section 4.1; bound: Eq. 3) as ``path_stem.png`` and ``path_stem.pdf``.

    ``comparisons`` maps a comparison's name to its :func:`reprocompare.study.summary.summarize_runs`
    output (``random_splits_by_k``, ``models``, ``conclusion``); k keys may be ints or strings.

    Parameters
    ----------
    comparisons : dict of str to dict
        The summaries, by comparison.
    path_stem : str or pathlib.Path
        The figure's path without its suffix.

    Returns
    -------
    list of pathlib.Path
        The PNG and the PDF written.
    """
    return _render(_figure1(comparisons), path_stem)


# ---------------------------------------------------------------------------------- Figure 2


def _boxes(ax, groups: list[tuple[str, list[float], str]]) -> None:
    """Box plots of F1-point values, each box's mean as a white diamond, a dotted zero line."""
    data = [100 * np.asarray(v, dtype=np.float64) for _, v, _ in groups]
    parts = ax.boxplot(data, tick_labels=[label for label, _, _ in groups], patch_artist=True,
                       showmeans=True, widths=0.6,
                       meanprops={"marker": "D", "markerfacecolor": "white",
                                  "markeredgecolor": "black", "markersize": 4.5},
                       medianprops={"color": "black", "lw": 1.4},
                       flierprops={"marker": "o", "markersize": 3, "alpha": 0.6})
    for box, (_, _, color) in zip(parts["boxes"], groups):
        box.set_facecolor(color)
        box.set_alpha(0.45)
    # the paper's dotted line: boxes above it favour A, below it B
    ax.axhline(0, color="black", linestyle=":", lw=1.2, zorder=0.5)
    ax.set_ylabel("F1 difference A - B (points)")


def _figure2(comparisons: dict[str, dict]) -> Figure:
    """Figure 2 (section 4.2): box plots of the estimators' values over the repetitions.

    Top row, per comparison: RS for each number of random splits k (k ascending); bottom row:
    ST, RS, Avg, Vote and Mixture, those present. A row no comparison has data for is left out.
    Values (fractions of F1) are drawn in F1 points; the dotted line is zero, each box's mean a
    diamond. A column shares its y range, so the RS box below reads against the row above.
    """
    _check(comparisons)
    n = len(comparisons)
    columns = []
    for name, comparison in comparisons.items():
        values = comparison.get("values") or {}
        rs_by_k = [(k, v) for k, v in _by_k(values.get("RS@k") or {}) if len(v)]
        present = [e for e in ESTIMATORS if len(values.get(e) or [])]
        columns.append((name, comparison.get("models") or {}, values, rs_by_k, present,
                        comparison.get("strategies"), comparison.get("table4_k")))
    rows = [row for row, index in (("RS@k", 3), ("estimators", 4))
            if any(column[index] for column in columns)] or ["estimators"]
    # a panel of more boxes than the paper's five (a second BCV's beside the first) widens, so
    # that their wrapped labels keep apart
    width = PANEL_WIDTH * max(1.0, max(len(column[4]) for column in columns) / 5)
    with _style():
        fig = Figure(figsize=(width * n + 0.4, 0.9 + 3.5 * len(rows)),
                     layout="constrained")
        axes = fig.subplots(len(rows), n, squeeze=False)
        for c, (name, models, values, rs_by_k, present, strategies, table4_k) in \
                enumerate(columns):
            repetitions = sorted({len(v) for _, v in rs_by_k} | {len(values[e]) for e in present})
            r_text = f"(R = {'/'.join(map(str, repetitions)) or 0})"
            for r, row in enumerate(rows):
                ax = axes[r, c]
                # the specs once per column, over its first panel
                what = ": RS by k" if row == "RS@k" else ": all estimators"
                _panel_title(ax, name, models if r == 0 else None, f"{what}  {r_text}")
                if row == "RS@k":
                    if rs_by_k:
                        _boxes(ax, [(str(k), v, "C0") for k, v in rs_by_k])
                        ax.set_xlabel(_rs_axis_label(strategies))
                    else:
                        _empty(ax, "no random-split (RS) runs")
                else:
                    if present:
                        strategy = strategy_labels(strategies, table4_k)  # Table 4's labels
                        # wrapped to a box's width: "6 x 8:1 hold-outs" ran into its
                        # neighbours' labels
                        labels = {e: "\n".join([e, *textwrap.wrap(
                            strategy[e], 12, break_on_hyphens=False)]) for e in present}
                        _boxes(ax, [(labels[e], values[e], COLOR_OF[e]) for e in present])
                        ax.set_xlabel("estimator (splitting strategy)")
                    else:
                        _empty(ax, "no estimator values")
            if len(rows) == 2 and rs_by_k and present:
                # same scale within a column: RS at k in the top row is the RS box below
                lows, highs = zip(axes[0, c].get_ylim(), axes[1, c].get_ylim())
                for ax in axes[:, c]:
                    ax.set_ylim(min(lows), max(highs))
        _suptitle(fig, "Figure 2: distributions of the estimators of A - B over the repetitions",
                  n)
        fig.legend(handles=[
            Patch(facecolor="0.8", edgecolor="black", label="box: quartiles; whiskers: 1.5 IQR"),
            Line2D([], [], color="black", lw=1.4, label="median"),
            Line2D([], [], ls="", marker="D", mfc="white", mec="black", ms=4.5, label="mean"),
            Line2D([], [], ls=":", color="black", lw=1.2, label="zero: no difference")],
            loc="outside lower center", ncols=min(4, 2 * n), frameon=False)  # 1 panel: 2 x 2
    return fig


def figure2(comparisons: dict[str, dict], path_stem) -> list[Path]:
    """Write Figure 2 (section 4.2) as ``path_stem.png`` and ``path_stem.pdf``.

    ``comparisons`` maps a comparison's name to ``{"values": estimator_values(...), "models":
    {"A": spec, "B": spec}, "strategies": ..., "table4_k": k}`` (the last two from the summary:
    they label the strategies); RS@k keys may be ints or strings.

    Parameters
    ----------
    comparisons : dict of str to dict
        Per comparison, its estimator values, models and strategies.
    path_stem : str or pathlib.Path
        The figure's path without its suffix.

    Returns
    -------
    list of pathlib.Path
        The PNG and the PDF written.
    """
    return _render(_figure2(comparisons), path_stem)
