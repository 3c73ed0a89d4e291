"""The paper's Table 3 and Table 4 as CSV, Markdown and LaTeX (booktabs), ready for a paper.

Rows are plain dicts built from :func:`reprocompare.summary.summarize_runs` outputs; every number
is formatted with a fixed number of decimals, so equal summaries give byte-identical tables.
"""

from __future__ import annotations

import csv
import io
import math

from reprocompare.summary import ESTIMATORS

#: Table 4 columns: what the paper prints, then the intervals it does not
TABLE4_COLUMNS = ("comparison", "estimator", "strategy", "repetitions", "mean", "sd", "snr",
                  "snr_low", "snr_high", "reproducibility", "reproducibility_low",
                  "reproducibility_high", "chebyshev_bound", "mixture_chose_vote")
TABLE3_COLUMNS = ("comparison", "model", "spec", "repetitions", "mean", "standard_error", "low",
                  "high")
STRATEGY_OF = {"ST": "8:1 hold-out", "RS": "k repetitions of 8:1", "Avg": "3x2 BCV",
               "Vote": "3x2 BCV", "Mixture": "3x2 BCV"}


def _number(value, digits: int = 4) -> str:
    if isinstance(value, (int,)) and not isinstance(value, bool):
        return str(value)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.{digits}f}"


def table4_rows(summaries: dict[str, dict]) -> list[dict]:
    """One row per (comparison, estimator) in the paper's column order."""
    rows = []
    for comparison, summary in summaries.items():
        k = summary.get("table4_k", 6)
        for name in ESTIMATORS:
            s = summary["estimators"].get(name)
            if s is None:
                continue
            strategy = f"{k} repetitions of 8:1" if name == "RS" else STRATEGY_OF[name]
            rows.append({"comparison": comparison, "estimator": name, "strategy": strategy,
                         **{key: s[key] for key in TABLE4_COLUMNS[3:-1]},
                         # how often Eq. 8 took Vote (Case I) rather than Avg (Case II)
                         "mixture_chose_vote": summary.get("mixture_chose_vote")
                         if name == "Mixture" else None})
    return rows


def table3_rows(summaries: dict[str, dict]) -> list[dict]:
    rows = []
    for comparison, summary in summaries.items():
        for model, interval in summary["per_model"].items():
            rows.append({"comparison": comparison, "model": model,
                         "spec": summary["models"].get(model, ""), **interval})
    return rows


def to_csv(rows: list[dict], columns) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([row[c] if isinstance(row[c], str) else _number(row[c], 6)
                         for c in columns])
    return out.getvalue()


def _interval(value, low, high, digits=3) -> str:
    return f"{_number(value, digits)} [{_number(low, digits)}, {_number(high, digits)}]"


def table4_markdown(rows: list[dict]) -> str:
    """Table 4 as the paper lays it out: per comparison an SNR row and a reproducibility row."""
    lines = []
    for comparison in dict.fromkeys(r["comparison"] for r in rows):
        group = [r for r in rows if r["comparison"] == comparison]
        lines.append(f"**{comparison}** (R = {group[0]['repetitions']} repetitions)\n")
        lines.append("| | " + " | ".join(r["estimator"] for r in group) + " |")
        lines.append("|---|" + "---|" * len(group))
        lines.append("| Splitting strategy | " + " | ".join(r["strategy"] for r in group) + " |")
        lines.append("| SNR [95% CI] | " + " | ".join(
            _interval(r["snr"], r["snr_low"], r["snr_high"]) for r in group) + " |")
        lines.append("| Reproducibility [95% CI] | " + " | ".join(
            _interval(r["reproducibility"], r["reproducibility_low"],
                      r["reproducibility_high"]) for r in group) + " |")
        lines.append("| Chebyshev bound (Eq. 3) | " + " | ".join(
            _number(r["chebyshev_bound"], 3) for r in group) + " |")
        lines.append("| Mean of A - B (F1 points) | " + " | ".join(
            _number(100 * r["mean"], 3) for r in group) + " |")
        chose = [r["mixture_chose_vote"] for r in group if r["mixture_chose_vote"] is not None]
        if chose:
            lines.append(f"\nMixture (Eq. 8) took Vote (Case I) in {100 * chose[0]:.0f}% of the "
                         f"repetitions and Avg (Case II) in {100 * (1 - chose[0]):.0f}%.")
        lines.append("")
    return "\n".join(lines)


def _latex_escape(text: str) -> str:
    for char, escaped in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("_", r"\_"),
                          ("#", r"\#"), ("$", r"\$"), ("{", r"\{"), ("}", r"\}")):
        text = text.replace(char, escaped)
    return text


def table4_latex(rows: list[dict]) -> str:
    """Booktabs LaTeX of Table 4: an SNR and a reproducibility row per comparison."""
    names = [n for n in ESTIMATORS if any(r["estimator"] == n for r in rows)]
    out = [r"\begin{tabular}{ll" + "c" * len(names) + "}", r"\toprule",
           "Comparison & & " + " & ".join(names) + r" \\", r"\midrule"]
    for comparison in dict.fromkeys(r["comparison"] for r in rows):
        by_name = {r["estimator"]: r for r in rows if r["comparison"] == comparison}
        cells = lambda key: " & ".join(_number(by_name[n][key], 3) if n in by_name else "--"
                                       for n in names)
        out.append(f"{_latex_escape(comparison)} & SNR & {cells('snr')} " + r"\\")
        out.append(f" & Reproducibility & {cells('reproducibility')} " + r"\\")
    out += [r"\bottomrule", r"\end{tabular}", ""]
    return "\n".join(out)


def table3_markdown(rows: list[dict]) -> str:
    lines = ["| Comparison | Model | Spec | R | Mean (%) | SE (x1e-4) | 95% CI (%) |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['comparison']} | {r['model']} | `{r['spec']}` | {r['repetitions']} | "
                     f"{100 * r['mean']:.2f} | {1e4 * r['standard_error']:.2f} | "
                     f"[{100 * r['low']:.2f}, {100 * r['high']:.2f}] |")
    return "\n".join(lines) + "\n"


def table3_latex(rows: list[dict]) -> str:
    out = [r"\begin{tabular}{llcccc}", r"\toprule",
           r"Comparison & Model & $R$ & Mean (\%) & SE ($\times 10^{-4}$) & 95\% CI (\%) \\",
           r"\midrule"]
    for r in rows:
        out.append(f"{_latex_escape(r['comparison'])} & {r['model']} & {r['repetitions']} & "
                   f"{100 * r['mean']:.2f} & {1e4 * r['standard_error']:.2f} & "
                   f"[{100 * r['low']:.2f}, {100 * r['high']:.2f}] " + r"\\")
    out += [r"\bottomrule", r"\end{tabular}", ""]
    return "\n".join(out)


def table4_text(summary: dict) -> str:
    """A terminal-friendly Table 4 of one comparison (``reprocompare summarize``)."""
    models = summary.get("models", {})
    lines = [f"A = {models.get('A', '?')}   B = {models.get('B', '?')}   "
             f"conclusion under test: {summary['conclusion']}", "",
             f"{'estimator':<9} {'R':>5} {'mean A-B':>9} {'sd':>8} {'SNR [95% CI]':>26} "
             f"{'reproducibility [95% CI]':>26} {'bound':>6}"]
    for name, s in summary["estimators"].items():
        lines.append(f"{name:<9} {s['repetitions']:>5} {s['mean']:>+9.4f} {s['sd']:>8.4f} "
                     f"{_interval(s['snr'], s['snr_low'], s['snr_high']):>26} "
                     f"{_interval(s['reproducibility'], s['reproducibility_low'], s['reproducibility_high']):>26} "
                     f"{s['chebyshev_bound']:>6.3f}")
    if summary.get("per_model"):
        lines += ["", "per model over the hold-out repetitions (Table 3):"]
        for name, m in summary["per_model"].items():
            lines.append(f"  {name}: mean F1 {100 * m['mean']:.2f}%  SE "
                         f"{1e4 * m['standard_error']:.2f}e-4  95% CI [{100 * m['low']:.2f}, "
                         f"{100 * m['high']:.2f}]  (R = {m['repetitions']})")
    return "\n".join(lines) + "\n"
