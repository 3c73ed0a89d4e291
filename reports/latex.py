"""Tables 3 and 4 and the claims table as LaTeX that pastes into a two-column paper.

Every table comes in the width a paper needs: a column-width float (``table``) and, for the wide
ones (Table 4, claims), a full-width float (``table*``) with every row. Both use booktabs at
8 pt or more and never shrink to fit (``\\resizebox``): a table that fits only when shrunk is
unreadable in print. What a reader of the paper needs is in the float: a short caption with the
models' labels (``models.<name>.label``, else their names), the corpus and R; and a compact note
with the specs, the strategies, the intervals and the verdict's rule. The long "How to read"
paragraph, for whoever edits the .tex, follows the float as comment lines.

Each file compiles with ``\\usepackage{booktabs}`` and nothing else; a filesystem path never
reaches the output (a spec's paths are shortened to their file names).

Rows are the dicts of :mod:`reprocompare.reports.tables`.
"""

from __future__ import annotations

import re
import textwrap

from reprocompare.estimators.designs import of_stopping
from reprocompare.reports.tables import (CLAIMS_NOTE, DECISION_TEXT, HOLM_NOTE,
                                         TEST_NAMES, advice_of, bootstrap_caveat,
                                         few_repetitions_caution,
                                         calibration_text, comparison_groups, format_shown,
                                         null_offset_note, posterior_note, posterior_rope,
                                         repetitions_text, snr_interval_name, table3_note,
                                         table3_strategies, table4_note, stopping_state,
                                         verdict_cell, verdict_lines)
from reprocompare.strategies import MIXED, STRATEGIES, TESTS, kind_of_test

#: what Table 3 takes as a model's F1 in one repetition, by the strategy's short name
STRATEGY_F1 = {s.short: s.model_f1 for s in STRATEGIES}

_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "_": r"\_", "#": r"\#",
            "$": r"\$", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
            "^": r"\textasciicircum{}"}
#: the tests by their short names, for a column-width claims table
SHORT_TEST_NAMES = {"paired_bootstrap": "paired bootstrap",
                    "approximate_randomization": "approx. randomization",
                    "mcnemar": "McNemar",
                    "corrected_resampled_t": "corr. resampled $t$",
                    "paired_t_mx2": "$m \\times 2$ paired $t$",
                    "combined_f_mx2": "combined $m \\times 2$ $F$",
                    "blocked_3x2_t": "blocked $3 \\times 2$ $t$"}
#: shorter still, beside a Holm column
HOLM_TEST_NAMES = {"approximate_randomization": "approx. rand.",
                   "combined_f_mx2": "comb. $m \\times 2$ $F$"}
# a variant's own name of a shared test (regularized BCV's) reads as the test
for _names in (SHORT_TEST_NAMES, HOLM_TEST_NAMES):
    _names.update({test: _names[kind_of_test(test)] for test in TESTS
                   if test not in _names and kind_of_test(test) in _names})


# ---- text --------------------------------------------------------------------------------------

def escape(text: str) -> str:
    """LaTeX's special characters escaped, in one pass (the braces of \\textbackslash{} stay).

    Parameters
    ----------
    text : str
        The text, shown as written.

    Returns
    -------
    str
        The LaTeX.
    """
    return re.sub(r"[\\&%_#${}~^]", lambda match: _SPECIAL[match.group()], str(text))


def prose(text: str) -> str:
    """Plain prose into LaTeX: escape, then typeset +-, < and > in math (text fonts lack them).

    Parameters
    ----------
    text : str
        Plain prose.

    Returns
    -------
    str
        The LaTeX.
    """
    return (escape(text).replace("+-", r"$\pm$").replace(">=", r"$\geq$")
            .replace("<=", r"$\leq$").replace("<", "$<$").replace(">", "$>$"))


def number(value, digits: int = 3) -> str:
    """A number in a cell, with a true minus sign; '--' when missing.

    Parameters
    ----------
    value : float or None
        The number.
    digits : int, default 3
        Decimals.

    Returns
    -------
    str
        The LaTeX.
    """
    text = format_shown(value, digits)
    return f"$-${text[1:]}" if text.startswith("-") and text != "--" else text


def interval(low, high, digits: int = 2) -> str:
    """An interval ``[low, high]`` of two numbers as :func:`number` writes them.

    Parameters
    ----------
    low, high : float or None
        The ends.
    digits : int, default 2
        Decimals.

    Returns
    -------
    str
        The LaTeX.
    """
    return f"[{number(low, digits)}, {number(high, digits)}]"


#: a token with a slash (/home/me/tagger.py, ./x.py, scripts/x.sh) or a drive (C:\\x\\y.py)
_PATH = re.compile(r"[A-Za-z]:\\[^\s,;={}]+|[^\s,;:={}()]*/[^\s,;:={}()]+")


def no_paths(spec: str) -> str:
    """A spec with every filesystem path cut to its file name: a user's home directory never
    reaches a paper.

    Parameters
    ----------
    spec : str
        A model spec.

    Returns
    -------
    str
        The spec, its paths cut to their file names.
    """
    return _PATH.sub(lambda m: re.split(r"[/\\]", m.group().rstrip("/\\"))[-1], spec)


def spec_tt(spec: str) -> str:
    """A spec in typewriter type that may break after its separators (a long spec in a column
    note would otherwise run into the margin).

    Parameters
    ----------
    spec : str
        A model spec.

    Returns
    -------
    str
        The LaTeX.
    """
    text = escape(no_paths(spec))
    return r"\texttt{" + re.sub(r"(,|=|:|\\_)", r"\1\\allowbreak{}", text) + "}"


def label(kind: str, comparison: str, wide: bool = False) -> str:
    """The LaTeX label of a table: ``tab:<kind>-<comparison as a slug>``, ``-wide`` for the
    full-width one.

    Parameters
    ----------
    kind : str
        The table (table3, table4, claims, ...).
    comparison : str
        The comparison's name.
    wide : bool, default False
        Whether the table is the full-width one.

    Returns
    -------
    str
        The label.
    """
    slug = re.sub(r"[^a-z0-9]+", "-", comparison.lower()).strip("-") or "all"
    return f"tab:{kind}-{slug}" + ("-wide" if wide else "")


def _how_to_read(text: str) -> list[str]:
    """The long reading note, after the float, as comment lines for whoever edits the paper."""
    return [f"% {line}" for line in textwrap.wrap(text, 96)]


def _caption(first: dict, group: list[dict], what: str) -> str:
    """Short: the question, the models' labels, the corpus and R. Specs go to the note."""
    size = f", {first['sentences']:,} sentences" if first["sentences"] is not None else ""
    scoring = f", {first['scoring']} F1" if first["scoring"] else ""
    corpus = first["corpus"] or "corpus not recorded"
    return (f"{what} A = {escape(first['label_a'])}, B = {escape(first['label_b'])}; "
            f"{escape(corpus)}{size}{escape(scoring)}; "
            f"{prose(repetitions_text(group).split(' (')[0])}.")


def _models_note(first: dict) -> str:
    """Which spec each label stands for (skipped when the label is the spec)."""
    sides = [(first[f"label_{s}"], first[f"model_{s}"], s.upper()) for s in ("a", "b")]
    if all(name == spec for name, spec, _ in sides):
        return ""
    return "; ".join(f"{side} = {escape(name)}: {spec_tt(spec)}" for name, spec, side in sides) \
        + ". "


def _strategies_note(group: list[dict]) -> str:
    by_strategy: dict[str, list[str]] = {}
    for r in group:
        by_strategy.setdefault(r["strategy"], []).append(r["estimator"])
    return "; ".join(f"{', '.join(names)}: {escape(strategy)}"
                     for strategy, names in by_strategy.items()) + ". "


def _dagger_note(group: list[dict]) -> str:
    """Table 3's footnote to its daggers: each flagged model's warning (F1 = 0, far below)."""
    flagged = {r["model"]: r["warning"] for r in group if r["warning"]}
    return "".join(rf"$^{{\dagger}}${escape(model)}: {prose(warning)}. "
                   for model, warning in flagged.items())


def _caution(group: list[dict], name: str = "estimator", snr: bool = True) -> str:
    """A block computed from few repetitions: its caution, in bold, first among its notes."""
    caution = few_repetitions_caution(group, name, snr)
    return (r"\textbf{Caution:} " + prose(caution.removeprefix("Caution: ")) + " "
            if caution else "")


def _note(parts: list[str]) -> list[str]:
    text = " ".join(p.strip() for p in parts if p and p.strip())
    return [r"\par\smallskip", r"{\footnotesize " + text + "\\par}"] if text else []


# ---- Table 4 -------------------------------------------------------------------------------------

def _verdict_short(row: dict) -> str:
    cell = verdict_cell(row)
    return prose(cell.replace(" reproduces", "").replace("neither direction", "neither")
                 .replace("no practical difference", "equivalent")
                 .replace("no verdict: no spread", "no spread")
                 .replace("undecided", "undec.").replace("A > B", "A>B").replace("B > A", "B>A")
                 .replace("(> max)", "(>max)"))


def _verdict_rule(group: list[dict]) -> str:
    """The verdict's rule in one sentence (the full rule is in the Markdown)."""
    decided = [r for r in group if r["verdict"]]
    if not decided:
        return ""
    # as the summary recorded them: the config's defaults were filled once, when it was read
    threshold = decided[0]["verdict_threshold"]
    confidence = decided[0]["verdict_confidence"]
    kind = of_stopping(group[0].get("stopping")).intervals
    # the verdict each undecided estimator's n more would reach, if its SNR stays where it is
    reach = [f"{r['estimator']}: {DECISION_TEXT[r['verdict_reaches']]}" for r in group
             if r["verdict"] == "undecided" and r.get("verdict_reaches")]
    more = ("; undec. (+$n$): about $n$ more repetitions would decide"
            + (f" ({prose('; '.join(reach))})" if reach else "")
            if any(r["verdict"] == "undecided" for r in group) else "")
    # each estimator's criterion and the path that decided it, as the Markdown's rule says
    offsets = "; ".join(
        rf"{r['estimator']}: $\Phi(\mathrm{{SNR}}"
        + (rf" - {r['null_snr_normal']:.3f}" if r.get("null_snr_normal") else "")
        + rf")$, {escape(r['verdict_path'] or 'normal')}" for r in decided)
    return (rf"Verdict (each at {100 * confidence:.4g}\%{kind}): A$>$B reproduces when the "
            rf"interval of the predictive reproducibility lies at or above {threshold:g}, "
            rf"B$>$A at or below {1 - threshold:g}, neither direction reproduces when it lies "
            rf"between (too noisy to say; not equivalence){more}. {offsets}. Full rule: "
            "table4.md. ")


def _stopping_note(group: list[dict]) -> str:
    stopping = group[0].get("stopping")
    if not stopping:
        return ""
    return (f"Sequential: waves of {stopping['wave']} up to {stopping['max_repetitions']}, "
            f"R = {stopping['repetitions']}, {escape(stopping_state(stopping))}. ")


def _table4_notes(first: dict, group: list[dict]) -> list[str]:
    chose = [r["mixture_chose_vote"] for r in group if r["mixture_chose_vote"] is not None]
    mixture = [r for r in group if r["estimator"] in MIXED
               and r["null_reproducibility_normal"] is not None]
    return [
        (f"\\textbf{{Warning:}} {prose(no_paths(first['warning']))}. "
         f"{prose(advice_of(first))} " if first["warning"] else ""),
        _caution(group), _models_note(first), _strategies_note(group),
        (rf"Brackets: 95\% intervals (mean: "
         rf"{escape(' or '.join(dict.fromkeys(r['mean_interval'] for r in group)))}; SNR: "
         rf"{escape(snr_interval_name(group))}; reproducibility: "
         rf"{escape(' or '.join(dict.fromkeys(r['reproducibility_interval'] for r in group)))}). "),
        _verdict_rule(group), _claims_note(group), _stopping_note(group),
        (f"If A = B the mixture shows {number(mixture[0]['null_reproducibility_normal'], 2)} / "
         f"{number(mixture[0]['null_snr_normal'], 2)} (reproducibility / SNR), the others "
         f"0.5 / 0; it took Vote in {100 * chose[0]:.0f}\\% of the repetitions. "
         if mixture and chose else ""),
        _posterior_short(group),
        prose(bootstrap_caveat(group)),
    ]


def _posterior_short(group: list[dict]) -> str:
    """What the posterior's column or rows are, in one sentence (the reading has the rest)."""
    rope = posterior_rope(group)
    if rope is None:
        return ""
    points = [r["estimator"] for r in group if r["posterior_point"]]
    return (rf"Posterior: correlated Bayesian $t$ of the mean of $A-B$ over corpora like this "
            rf"one (rope $\pm${rope:g} F1 points, each strategy's $\rho$), a posterior, not a "
            rf"reproducibility" + (f"; {escape(', '.join(points))}: a point (no spread)"
                                   if points else "") + ". ")


def _claims_note(group: list[dict]) -> str:
    """Each verdict beside the interval it was decided on (the quantity, its bound, the look)."""
    claims = [f"{r['estimator']}: {r['verdict_claim']}" for r in group
              if r["verdict"] and r.get("verdict_claim")]
    return f"Decided on: {prose('; '.join(claims))}. " if claims else ""


def _table4_reading(first: dict, group: list[dict]) -> list[str]:
    notes = verdict_lines(group, first["verdict_rule"], first["stopping"])
    notes += [null_offset_note(group), posterior_note(group), table4_note(group)]
    return _how_to_read(" ".join(n for n in notes if n))


def table4_latex(rows: list[dict]) -> str:
    """Table 4 at column width: one row per estimator with the mean of A - B, the SNR and the
    reproducibility, each over its 95% interval, and the verdict.

    Parameters
    ----------
    rows : list of dict
        Table 4's rows (:func:`reprocompare.reports.tables.table4_rows`).

    Returns
    -------
    str
        The LaTeX.
    """
    out = ["% Table 4 (column width) written by reprocompare; needs \\usepackage{booktabs}",
           "% the full-width variant with every row is table4-wide.tex"]
    for group in comparison_groups(rows):
        first = group[0]
        posterior = posterior_rope(group) is not None
        out += [r"\begin{table}[htbp]", r"\centering", r"\footnotesize",
                r"\setlength{\tabcolsep}{2.5pt}",  # negative intervals of whole corpora fit
                r"\caption{" + _caption(first, group, f"Does ``{prose(first['conclusion'])}'' "
                                                      f"reproduce?") + "}",
                r"\label{" + label("table4", first["comparison"]) + "}",
                r"\begin{tabular}{lcccc}", r"\toprule",
                r" & Mean $A-B$ & SNR & Reprod. & Verdict \\",
                r" & (F1 points) & (Eq.~4) & (Eq.~1) & \\", r"\midrule"]
        for r in group:
            # an undecided verdict's "(+n)" goes to the interval's line: a narrow column
            verdict, more = (_verdict_short(r).split(" ", 1) + [""])[:2] if r["verdict"] \
                else ("--", "")
            out.append(f"{r['estimator']} & {number(r['mean_f1_points'], 2)} & "
                       f"{number(r['snr'], 2)} & {number(r['reproducibility'], 2)} & "
                       f"{verdict} \\\\")
            out.append(f" & {interval(r['mean_low_f1_points'], r['mean_high_f1_points'])} & "
                       f"{interval(r['snr_low'], r['snr_high'], 1)} & "
                       f"{interval(r['reproducibility_low'], r['reproducibility_high'])} & "
                       f"{more} \\\\")
            if posterior and r["posterior_p_a_better"] is not None:
                # a row of its own under the verdict: a sixth column does not fit a column
                out.append(r"\multicolumn{5}{r}{posterior $P(A>B)$/rope/$P(B>A)$: "
                           + "/".join(number(r[f"posterior_{p}"], 2)
                                        for p in ("p_a_better", "p_rope", "p_b_better"))
                           + (" (a point)" if r["posterior_point"] else "") + r"} \\")
        out += [r"\bottomrule", r"\end{tabular}", *_note(_table4_notes(first, group)),
                r"\end{table}", *_table4_reading(first, group), ""]
    return "\n".join(out)


def _strategy_cell(row: dict, stacked: bool) -> str:
    """A column's splitting strategy; stacked in lines of 12 characters where the table has more
    columns than the paper's five (two BCVs side by side), so that it fits the page."""
    lines = textwrap.wrap(row["strategy"], 12, break_on_hyphens=False) if stacked else []
    if len(lines) < 2:
        return escape(row["strategy"])
    return r"\shortstack{" + r"\\".join(escape(line) for line in lines) + "}"


def table4_wide_latex(rows: list[dict]) -> str:
    """Table 4 at full width (``table*``): the paper's layout, one column per estimator, with
    every row (Chebyshev bound, null offset, predictive reproducibility).

    Parameters
    ----------
    rows : list of dict
        Table 4's rows (:func:`reprocompare.reports.tables.table4_rows`).

    Returns
    -------
    str
        The LaTeX.
    """
    out = ["% Table 4 (full width, table*) written by reprocompare; needs \\usepackage{booktabs}"]
    for group in comparison_groups(rows):
        first = group[0]
        cell = lambda f: " & ".join(f(r) for r in group)
        ci = lambda low, high: cell(lambda r: interval(r[low], r[high]))
        # more columns than the paper's five (two BCVs side by side): a size smaller, to fit
        out += [r"\begin{table*}[htbp]", r"\centering",
                r"\footnotesize" if len(group) > 5 else r"\small",
                r"\setlength{\tabcolsep}{3pt}",
                r"\caption{" + _caption(first, group, "Reproducibility of "
                                        f"``{prose(first['conclusion'])}'', per estimator of "
                                        "$A-B$:") + "}",
                r"\label{" + label("table4", first["comparison"], wide=True) + "}",
                r"\begin{tabular}{l" + "c" * len(group) + "}", r"\toprule",
                " & " + cell(lambda r: r["estimator"]) + r" \\",
                "Splitting strategy & " + cell(lambda r: _strategy_cell(r, len(group) > 5))
                + r" \\",
                r"\midrule",
                "Mean of $A-B$ (F1 points) & " + cell(lambda r: number(r["mean_f1_points"]))
                + r" \\",
                r"\quad 95\% CI & " + ci("mean_low_f1_points", "mean_high_f1_points") + r" \\",
                "SD of $A-B$ (F1 points) & " + cell(lambda r: number(r["sd_f1_points"])) + r" \\",
                "SNR (Eq.~4) & " + cell(lambda r: number(r["snr"])) + r" \\",
                r"\quad 95\% CI & " + ci("snr_low", "snr_high") + r" \\",
                "Reproducibility (Eq.~1) & " + cell(lambda r: number(r["reproducibility"]))
                + r" \\",
                r"\quad 95\% CI & " + ci("reproducibility_low", "reproducibility_high") + r" \\",
                "Chebyshev bound (Eq.~3) & " + cell(lambda r: number(r["chebyshev_bound"]))
                + r" \\"]
        if any(r["null_reproducibility_normal"] is not None for r in group):
            out += ["If $A=B$: reproducibility & " + cell(
                        lambda r: number(r["null_reproducibility_normal"])) + r" \\",
                    r"\quad and SNR (null offset) & " + cell(
                        lambda r: number(r["null_snr_normal"])) + r" \\"]
        decided = next((r for r in group if r["verdict"]), None)
        if decided is not None:
            out += [r"Reprod.\ $\Phi(\mathrm{SNR})$/share & " + cell(
                        lambda r: number(r["predictive_reproducibility"])) + r" \\",
                    rf"\quad {100 * decided['verdict_confidence']:.4g}\% CI & " + ci(
                        "predictive_reproducibility_low", "predictive_reproducibility_high")
                    + r" \\",
                    "Verdict & " + cell(_verdict_short) + r" \\"]
        rope = posterior_rope(group)
        if rope is not None:
            out += [rf"Posterior $P(A>B)$ & " + cell(
                        lambda r: number(r["posterior_p_a_better"])) + r" \\",
                    rf"\quad $P(|A-B| \leq {rope:g})$ & " + cell(
                        lambda r: number(r["posterior_p_rope"])) + r" \\",
                    r"\quad $P(B>A)$ & " + cell(
                        lambda r: number(r["posterior_p_b_better"])) + r" \\",
                    r"\quad $\rho$ (its strategy's) & " + cell(
                        lambda r: number(r["posterior_rho"])) + r" \\"]
        out += [r"\bottomrule", r"\end{tabular}", *_note(_table4_notes(first, group)),
                r"\end{table*}", *_table4_reading(first, group), ""]
    return "\n".join(out)


# ---- Table 3 -------------------------------------------------------------------------------------

def table3_latex(rows: list[dict]) -> str:
    """Table 3 at column width: each model's F1 over the repetitions of each strategy.

    Parameters
    ----------
    rows : list of dict
        Table 3's rows (:func:`reprocompare.reports.tables.table3_rows`).

    Returns
    -------
    str
        The LaTeX.
    """
    out = ["% Table 3 (column width) written by reprocompare; needs \\usepackage{booktabs}"]
    for group in comparison_groups(rows):
        first = group[0]
        strategies = table3_strategies(group)
        out += [r"\begin{table}[htbp]", r"\centering", r"\footnotesize",
                r"\caption{" + _caption(first, strategies, "Chunk F1 of each model over the "
                                                           "repetitions of each strategy.") + "}",
                r"\label{" + label("table3", first["comparison"]) + "}",
                r"\begin{tabular}{llccc}", r"\toprule",
                r"Strategy & Model & Mean F1 & SE & 95\% CI \\", r" & & (F1 points) & & \\",
                r"\midrule"]
        for i, r in enumerate(group):
            flag = r"$^{\dagger}$" if r["warning"] else ""
            name = {first["name_a"]: first["label_a"], first["name_b"]: first["label_b"]}.get(
                r["model"], r["model"])
            shown = r["strategy_short"] if i == 0 or \
                group[i - 1]["strategy_short"] != r["strategy_short"] else ""
            out.append(f"{escape(shown)} & {escape(name)}{flag} & "
                       f"{number(r['mean_f1_points'], 2)} & "
                       f"{number(r['standard_error_f1_points'], 2)} & "
                       f"{interval(r['low_f1_points'], r['high_f1_points'])} \\\\")
        models = {r["model"]: r["spec"] for r in group}
        specs = "; ".join(f"{escape(model)}: {spec_tt(spec)}" for model, spec in models.items())
        used = "; ".join(f"{escape(r['strategy_short'])}: {escape(r['strategy'])}, "
                         f"{escape(STRATEGY_F1[r['strategy_short']])}" for r in strategies)
        out += [r"\bottomrule", r"\end{tabular}",
                *_note([_caution(group, "strategy_short", snr=False), _dagger_note(group),
                        f"{specs}. ",
                        f"{used}; one F1 per repetition; SE = SD / "
                        r"$\sqrt{R}$; 95\% CI: Student's $t$."]),
                r"\end{table}",
                *_how_to_read(table3_note(r["strategy_short"] for r in group)), ""]
    return "\n".join(out)


# ---- claims --------------------------------------------------------------------------------------

def _claims_notes(first: dict, group: list[dict], holm: bool) -> list[str]:
    return [_models_note(first),
            rf"A better, B better: in how many of the $R = {first['repetitions']}$ repetitions "
            rf"the test was significant (two-sided, $\alpha = {first['alpha']:g}$) with A, or B, "
            r"ahead; share: of A better, with its 95\% Clopper-Pearson interval. ",
            (f"Holm: corrected over the study's {first['holm_family']} comparisons. "
             if holm else ""),
            prose(first["verdicts"]) + " " if first.get("verdicts") else "",
            _across_note(first.get("across") or {})]


def _across_note(across: dict) -> str:
    """The Bayesian signed-rank test across corpora (or samples), one clause per estimator."""
    posteriors = across.get("posteriors") or {}
    if not posteriors:
        return ""
    rope = next(iter(posteriors.values()))["rope"]
    cells = "; ".join(f"{escape(name)} {number(p['p_a_better'], 2)} / {number(p['p_rope'], 2)} / "
                      f"{number(p['p_b_better'], 2)}" for name, p in posteriors.items())
    return (rf"Across the {len(across['names'])} {escape(across['units'])} (Bayesian "
            rf"signed-rank on each one's mean $A-B$, rope $\pm${rope:g} F1 points), posterior "
            rf"$P(A>B)$ / $P(\mathrm{{rope}})$ / $P(B>A)$: {cells}. ")


def _claims_reading(group: list[dict], holm: bool) -> list[str]:
    return _how_to_read(CLAIMS_NOTE + (HOLM_NOTE if holm else "") + calibration_text(group))


def _aso_note(aso: list[dict]) -> str:
    """Almost stochastic order under the tests, one clause per strategy (eps_min both ways)."""
    if not aso:
        return ""
    cells = "; ".join(f"{escape(r['strategy'])} {number(r['eps_min'], 2)} / "
                      f"{number(r['eps_min_b_over_a'], 2)}" for r in aso)
    # its calibration at this study's R (estimators.aso, measured by benchmarks/bench_aso.py)
    note = aso[0].get("calibration") or ""
    return (rf"Almost stochastic order of the models' F1 ({100 * aso[0]['confidence']:g}\% "
            rf"confidence), $\epsilon_{{\min}}$ of A over B / B over A: {cells} "
            rf"($<$ 0.5 reads `better'{'; ' + prose(note) if note else ''}). ")


def claims_latex(rows: list[dict], aso: list[dict] | None = None) -> str:
    """How often each test declares A significantly better, at column width: short test names,
    grouped by strategy; ``aso`` (reports.tables.aso_rows) adds a line to each note.

    Parameters
    ----------
    rows : list of dict
        The claims rows (:func:`reprocompare.reports.tables.claims_rows`).
    aso : list of dict, optional
        The almost stochastic order's rows (:func:`reprocompare.reports.tables.aso_rows`).

    Returns
    -------
    str
        The LaTeX.
    """
    out = ["% Significance claims (column width) written by reprocompare; needs "
           "\\usepackage{booktabs}", "% the full-width variant is claims-wide.tex"]
    for group in comparison_groups(rows):
        first = group[0]
        holm = first["holm_family"] > 1
        out += [r"\begin{table}[htbp]", r"\centering", r"\footnotesize",
                r"\setlength{\tabcolsep}{3pt}",
                r"\caption{" + _caption(first, [{**first, "estimator": ""}],
                                        "How often a test declares A significantly better "
                                        "than B.") + "}",
                r"\label{" + label("claims", first["comparison"]) + "}",
                r"\begin{tabular}{lccc" + ("c" if holm else "") + "}", r"\toprule",
                r"Test & A & Share & B" + (r" & A" if holm else "") + r" \\",
                r" & better & [95\% CI] & better" + (r" & (Holm)" if holm else "") + r" \\",
                r"\midrule"]
        strategy = None
        for r in group:
            if r["strategy"] != strategy:
                if strategy is not None:
                    out.append(r"\addlinespace")
                strategy = r["strategy"]
                out.append(rf"\multicolumn{{{5 if holm else 4}}}{{l}}"
                           rf"{{\emph{{{escape(strategy)}}}}} \\")
            # the Holm column takes the width the longest names had
            name = ((HOLM_TEST_NAMES.get(r["test"]) if holm else None)
                    or SHORT_TEST_NAMES.get(r["test"]) or escape(TEST_NAMES[r["test"]]))
            out.append(f"{name} & {r['a_better']} & "
                       f"{number(r['share'], 2)} {interval(r['share_low'], r['share_high'])} & "
                       f"{r['b_better']}" + (f" & {r['a_better_holm']}" if holm else "")
                       + r" \\")
        own = [r for r in aso or () if r["comparison"] == first["comparison"]]
        out += [r"\bottomrule", r"\end{tabular}",
                *_note(_claims_notes(first, group, holm) + [_aso_note(own)]),
                r"\end{table}", *_claims_reading(group, holm), ""]
    return "\n".join(out)


def claims_wide_latex(rows: list[dict], aso: list[dict] | None = None) -> str:
    """The claims table at full width (``table*``): strategies and the tests' full names, and
    the almost stochastic order of ``aso`` in the note.

    Parameters
    ----------
    rows : list of dict
        The claims rows (:func:`reprocompare.reports.tables.claims_rows`).
    aso : list of dict, optional
        The almost stochastic order's rows (:func:`reprocompare.reports.tables.aso_rows`).

    Returns
    -------
    str
        The LaTeX.
    """
    out = ["% Significance claims (full width, table*) written by reprocompare; needs "
           "\\usepackage{booktabs}"]
    for group in comparison_groups(rows):
        first = group[0]
        holm = first["holm_family"] > 1
        # the Holm column takes the width of a point of type: 8 pt fits every row
        out += [r"\begin{table*}[htbp]", r"\centering",
                *([r"\footnotesize", r"\setlength{\tabcolsep}{4pt}"] if holm else [r"\small"]),
                r"\caption{" + _caption(first, [{**first, "estimator": ""}],
                                        "How often each test declares A significantly better "
                                        "than B.") + "}",
                r"\label{" + label("claims", first["comparison"], wide=True) + "}",
                r"\begin{tabular}{llccc" + ("c" if holm else "") + "}", r"\toprule",
                r"Strategy & Test & A better & Share [95\% CI] & B better"
                + (r" & A better (Holm)" if holm else "") + r" \\", r"\midrule"]
        for r in group:
            out.append(f"{escape(r['strategy'])} & {escape(TEST_NAMES[r['test']])} & "
                       f"{r['a_better']}/{r['repetitions']} & {number(r['share'])} "
                       f"{interval(r['share_low'], r['share_high'], 3)} & "
                       f"{r['b_better']}/{r['repetitions']}"
                       + (f" & {r['a_better_holm']}/{r['repetitions']}" if holm else "")
                       + r" \\")
        own = [r for r in aso or () if r["comparison"] == first["comparison"]]
        out += [r"\bottomrule", r"\end{tabular}",
                *_note(_claims_notes(first, group, holm) + [_aso_note(own)]),
                r"\end{table*}", *_claims_reading(group, holm), ""]
    return "\n".join(out)
