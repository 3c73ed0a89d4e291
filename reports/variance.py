"""The variance decomposition (estimators.variance) as a table and a figure.

One block per comparison: for every estimator of Table 4, the share of Var(A - B) that comes
from the data sample, the split and the training seed, with 95% intervals; the standard
deviation each source contributes, in F1 points; which source dominates; and what more levels
of each source would do to the standard error of the mean over the R repetitions (the number a
reader of the paper's claim cares about). Rows are built from the summaries the workflow writes
(``summary["variance"]``, set by ``variation.decompose``).
"""

from __future__ import annotations

import math

from reprocompare.base.markdown import md_table
from reprocompare.strategies import ESTIMATORS
from reprocompare.reports.latex import escape, label
from reprocompare.reports.tables import (comparison_context, format_number, format_shown,
                                         to_csv)

SOURCES = ("sample", "split", "seed")
TIMES = r" $\times$ "
SOURCE_TEXT = {"sample": "data sample", "split": "split", "seed": "training seed"}
#: what a dominant source means for a paper's claim (README, "Sources of variation")
MEANING = {
    "sample": ("the difference depends most on which sentences the corpus holds: a claim from "
               "one sample says little about another sample of the same kind of data"),
    "split": "the difference depends most on the split, the source the paper randomises",
    "seed": ("the difference depends most on the training seed: one training run per model, "
             "on any split, says little; report several seeds"),
}
COLUMNS = ("comparison", "corpus", "sentences", "name_a", "name_b", "conclusion", "estimator",
           "source", "levels", "df", "mean_square", "share", "share_low", "share_high",
           "sd_f1_points", "sd_low_f1_points", "sd_high_f1_points", "total_sd_f1_points",
           "standard_error_f1_points", "doubled_standard_error_f1_points",
           "floor_f1_points", "dominant", "confidence")
NOTE = (
    "How to read: each row splits the variance of one estimator of A - B over the study's R "
    "repetitions into its sources (a nested random-effects model: samples, splits within a "
    "sample, seeds within a split; ANOVA estimates, a negative one read as 0). A share is that "
    "source's part of Var(A - B); the SD (F1 points) is the square root of its variance. "
    "Brackets are 95% generalized confidence intervals (chi-square pivots of the mean squares; "
    "their coverage, measured by simulation, is in reprocompare's documentation, Statistics, "
    "'Variance decomposition'). With one seed "
    "per split a model with a seed has its seed's variance inside the split's. 'SE if doubled' "
    "is the standard error of the mean over the R repetitions with twice the levels of that "
    "source (each doubles R): a fresh sample brings new splits and seeds with it, so doubling "
    "the outermost source cuts it most; the floor is how low more levels of the inner sources "
    "alone can take it.")


def variance_rows(summaries: dict[str, dict]) -> list[dict]:
    """One row per comparison x estimator x source, for every summary with a decomposition.

    Parameters
    ----------
    summaries : dict of str to dict
        The study summaries, by comparison.

    Returns
    -------
    list of dict
        The rows, with the columns of ``COLUMNS``.
    """
    rows = []
    for label, summary in summaries.items():
        context = comparison_context(label, summary)
        for estimator in ESTIMATORS:
            found = (summary.get("variance") or {}).get(estimator)
            if found is None:
                continue
            total_sd = 100 * math.sqrt(found["total"])
            for c in found["components"]:
                rows.append({
                    **{key: context[key] for key in ("comparison", "corpus", "sentences",
                                                     "name_a", "name_b", "conclusion",
                                                     "label_a", "label_b", "design")},
                    "estimator": estimator, "source": c["source"], "levels": c["levels"],
                    "df": c["df"], "mean_square": c["mean_square"], "share": c["share"],
                    "share_low": c["share_low"], "share_high": c["share_high"],
                    "sd_f1_points": 100 * math.sqrt(c["variance"]),
                    "sd_low_f1_points": 100 * math.sqrt(c["low"]),
                    "sd_high_f1_points": 100 * math.sqrt(c["high"]),
                    "total_sd_f1_points": total_sd,
                    "standard_error_f1_points": 100 * found["standard_error"],
                    "doubled_standard_error_f1_points": 100 * found["doubled"][c["source"]],
                    "floor_f1_points": 100 * found["floor"],
                    "dominant": found["dominant"], "confidence": found["confidence"]})
    return rows


def variance_csv(rows: list[dict]) -> str:
    """results/tables/variance.csv: the rows as CSV.

    Parameters
    ----------
    rows : list of dict
        The rows of :func:`variance_rows`.

    Returns
    -------
    str
        The CSV text.
    """
    return to_csv(rows, COLUMNS)


def _blocks(rows: list[dict]) -> list[tuple[dict, list[str], dict[str, list[dict]]]]:
    """(first row, sources, rows by estimator) of every comparison, in order."""
    blocks = []
    for comparison in dict.fromkeys(r["comparison"] for r in rows):
        group = [r for r in rows if r["comparison"] == comparison]
        by_estimator = {e: [r for r in group if r["estimator"] == e]
                        for e in dict.fromkeys(r["estimator"] for r in group)}
        sources = [s for s in SOURCES if any(r["source"] == s for r in group)]
        blocks.append((group[0], sources, by_estimator))
    return blocks


def _share(row: dict) -> str:
    return (f"{100 * row['share']:.0f}% [{100 * row['share_low']:.0f}, "
            f"{100 * row['share_high']:.0f}]")


def reading(estimator: str, found: list[dict]) -> str:
    """The sentence a report prints for one estimator: which source dominates and what that
    means, then what doubling each source would do to the standard error of the mean, and the
    floor that the inner sources alone cannot pass.

    Parameters
    ----------
    estimator : str
        The estimator's name.
    found : list of dict
        Its rows, outermost source first.

    Returns
    -------
    str
        The sentence.
    """
    first = found[0]
    if first["dominant"] not in SOURCE_TEXT:
        return f"{estimator}: no variance between repetitions."
    top = next(r for r in found if r["source"] == first["dominant"])
    doubled = ", ".join(f"{SOURCE_TEXT[r['source']]}s "
                        f"{format_shown(r['doubled_standard_error_f1_points'], 2)}" for r in found)
    outer, inner = SOURCE_TEXT[found[0]["source"]], [SOURCE_TEXT[r["source"]] for r in found[1:]]
    return (f"{estimator}: the {SOURCE_TEXT[top['source']]} dominates ({_share(top)} of the "
            f"variance): {MEANING[top['source']]}. The mean's standard error is "
            f"{format_shown(first['standard_error_f1_points'], 2)} F1 points; with twice the "
            f"{doubled} (each doubles R). More {' and '.join(s + 's' for s in inner)} alone "
            f"cannot take it below {format_shown(first['floor_f1_points'], 2)}: only more {outer}s "
            "can.")


def variance_markdown(rows: list[dict]) -> str:
    """results/tables/variance.md: per comparison, its context, the table of shares by source and a
    reading per estimator.

    Parameters
    ----------
    rows : list of dict
        The rows of :func:`variance_rows`.

    Returns
    -------
    str
        The Markdown.
    """
    lines = []
    for first, sources, by_estimator in _blocks(rows):
        lines.append(f"### Variance of A - B by source: {first['comparison']}\n")
        lines.append(f"- A = {first['label_a']}, B = {first['label_b']}")
        lines.append(f"- Corpus: {first['corpus']}, {first['sentences']} sentences; design: "
                     f"{first['design']}")
        lines.append("")
        header = ["Estimator",
                  *(f"{SOURCE_TEXT[s].capitalize()}: share [95% CI] (SD, F1 points)"
                    for s in sources),
                  "SD of A - B (F1 points)", "SE of the mean (F1 points)",
                  "SE if doubled: " + ", ".join(SOURCE_TEXT[s] + "s" for s in sources)]
        table = []
        for estimator, found in by_estimator.items():
            cells = {r["source"]: f"{_share(r)} ({format_shown(r['sd_f1_points'], 2)})" for r in found}
            table.append([estimator, *(cells[s] for s in sources),
                          format_shown(found[0]["total_sd_f1_points"], 2),
                          format_shown(found[0]["standard_error_f1_points"], 2),
                          ", ".join(format_shown(r["doubled_standard_error_f1_points"], 2)
                                    for r in found)])
        lines += md_table(header, table)
        lines.append("")
        lines += [f"- {reading(e, found)}" for e, found in by_estimator.items()]
        lines.append("\n" + NOTE + "\n")
    return "\n".join(lines)


def variance_latex(rows: list[dict]) -> str:
    """A column-width booktabs table per comparison: the shares with their intervals.

    Parameters
    ----------
    rows : list of dict
        The rows of :func:`variance_rows`.

    Returns
    -------
    str
        The LaTeX tables.
    """
    out = []
    for first, sources, by_estimator in _blocks(rows):
        design = escape(first["design"]).replace(" x ", TIMES)
        out += [r"\begin{table}[t]", r"\centering", r"\small", r"\setlength{\tabcolsep}{4pt}",
                r"\caption{Share of the variance of A $-$ B by source (\%, 95\% CI): "
                f"{escape(first['label_a'])} vs {escape(first['label_b'])} on "
                f"{escape(first['corpus'])}, {design}.}}",
                f"\\label{{{label('variance', first['comparison'])}}}",
                r"\begin{tabular}{l" + "c" * len(sources) + "r}", r"\toprule",
                "Est. & " + " & ".join(s.capitalize() for s in sources)
                + r" & SD \\", r"\midrule"]
        for estimator, found in by_estimator.items():
            cells = {r["source"]: f"{100 * r['share']:.0f} [{100 * r['share_low']:.0f}, "
                                  f"{100 * r['share_high']:.0f}]" for r in found}
            out.append(f"{estimator} & " + " & ".join(cells[s] for s in sources)
                       + f" & {format_number(found[0]['total_sd_f1_points'], 2)} \\\\")
        out += [r"\bottomrule", r"\end{tabular}",
                r"\par\smallskip\footnotesize SD: of A $-$ B over the repetitions, in F1 "
                r"points. ANOVA estimates of a nested random-effects model; generalized "
                r"confidence intervals.", r"\end{table}", ""]
        out += [f"% {line}" for line in NOTE.split(". ")]
        out.append("")
    return "\n".join(out)


def variance_figure(rows: list[dict], path_stem) -> list:
    """One panel per comparison: each estimator's shares by source with their intervals.

    Parameters
    ----------
    rows : list of dict
        The rows of :func:`variance_rows`.
    path_stem : str or os.PathLike
        The figure's path without its suffix.

    Returns
    -------
    list of pathlib.Path
        The files written.
    """
    from matplotlib.figure import Figure  # lazy: matplotlib, for the one job that draws

    # lazy: matplotlib (every job imports this module through jobs)
    from reprocompare.reports.figures import PANEL_WIDTH, _panel_title, _render, _style

    blocks = _blocks(rows)
    colors = {"sample": "C1", "split": "C0", "seed": "C2"}
    with _style():
        fig = Figure(figsize=(PANEL_WIDTH * len(blocks) + 0.6, 3.8), layout="constrained")
        axes = fig.subplots(1, len(blocks), squeeze=False)[0]
        for ax, (first, sources, by_estimator) in zip(axes, blocks):
            estimators = list(by_estimator)
            height = 0.8 / len(sources)
            for i, source in enumerate(sources):
                found = [next(r for r in by_estimator[e] if r["source"] == source)
                         for e in estimators]
                y = [j - 0.4 + height * (i + 0.5) for j in range(len(estimators))]
                share = [100 * r["share"] for r in found]
                error = [[100 * (r["share"] - r["share_low"]) for r in found],
                         [100 * (r["share_high"] - r["share"]) for r in found]]
                ax.barh(y, share, height=height * 0.9, color=colors[source],
                        label=SOURCE_TEXT[source])
                ax.errorbar(share, y, xerr=[[max(e, 0) for e in side] for side in error],
                            fmt="none", ecolor="0.2", capsize=2, linewidth=0.8)
            ax.set_yticks(range(len(estimators)), estimators)
            ax.invert_yaxis()
            ax.set_xlim(0, 100)
            ax.set_xlabel("share of Var(A - B), % (95% CI)")
            _panel_title(ax, first["comparison"], {"A": first["label_a"],
                                                   "B": first["label_b"]})
        handles, labels = axes[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", frameon=False,
                   ncols=len(labels))
    return _render(fig, path_stem)
