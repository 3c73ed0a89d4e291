"""The report's front page: the answer first, then how the study was run.

``snakemake --report`` opens on the workflow description. A reader who opens the report wants the
answer to "does A > B reproduce?" before the method, so the study writes its own front page:
for each comparison, one table (reStructuredText) of Table 4's verdicts with the mean difference
in F1 points and its 95% interval and the reproducibility with its interval; then every warning
that changes how to read it (a model that learned nothing, a significance test measured
liberal); then the description of how it was run (workflow/report/workflow.rst, which Snakemake
renders with the config). Rows are those of :mod:`reprocompare.reports.tables`.
"""

from __future__ import annotations

import re

from reprocompare.reports.tables import (advice_of, comparison_groups, few_repetitions_caution,
                                         format_interval, posterior_cell, posterior_note,
                                         posterior_rope, repetitions_text, verdict_cell)



def _escaped(text: str) -> str:
    """``text`` as reST shows it: every character but ASCII letters, digits and spaces after a
    backslash, so that no markup (a link to ``javascript:``, a substitution, a role) starts in
    it, and no Jinja delimiter (``{%``, ``{{``, ``{#``) is left whole to end the raw block."""
    return re.sub(r"([^0-9A-Za-z ])", r"\\\1", " ".join(str(text).split()))


def _literal(text: str) -> str:
    """Inline literal text in reST (a label, a name, a spec), shown as written: the literal
    role reads backslash escapes (a double-backquoted literal cannot hold a backquote), and
    its text may neither start nor end with a space."""
    shown = " ".join(str(text).split())
    return f":literal:`{_escaped(shown)}`" if shown else "(empty)"


def _cell(text: str) -> str:
    return str(text).replace("|", "/")


def _comparison(group: list[dict]) -> list[str]:
    first = group[0]
    rope = posterior_rope(group)
    size = f", {first['sentences']:,} sentences" if first["sentences"] is not None else ""
    conclusion = first["conclusion"].replace(">", " > ")
    lines = [f"**{_escaped(first['comparison'])}**: does {conclusion} reproduce? A = "
             f"{_literal(first['label_a'])}, B = {_literal(first['label_b'])}; corpus "
             f"{_literal(first['corpus'] or 'not recorded')}{size}; "
             f"{repetitions_text(group)}.", "",
             ".. list-table::", "   :header-rows: 1", "   :class: answer", "",
             "   * - Estimator", "     - Strategy", "     - Verdict",
             "     - The interval it was decided on",
             "     - Mean of A - B, F1 points [95% CI]",
             "     - Reproducibility, Eq. 1's share [95% CI]"]
    for r in group:
        # beside the verdict, the interval it read (never Eq. 1's share when it read Phi(SNR)):
        # a "reproduces" beside an interval that does not clear the threshold contradicts it
        lines += [f"   * - {r['estimator']}", f"     - {_cell(r['strategy'])}",
                  f"     - {_cell(verdict_cell(r))}",
                  f"     - {_escaped(r['verdict_claim']) or '--'}",
                  f"     - {format_interval(r['mean_f1_points'], r['mean_low_f1_points'], r['mean_high_f1_points'], 2)}",
                  f"     - {format_interval(r['reproducibility'], r['reproducibility_low'], r['reproducibility_high'], 2)}"]
    lines.append("")
    if rope is not None:  # another question (docs/bayesian.md): its own table, under the answer
        lines += [".. list-table::", "   :header-rows: 1", "   :class: posterior", "",
                  "   * - Estimator",
                  f"     - Posterior P(A > B) / P(rope) / P(B > A), rope +-{rope:g} F1 points",
                  *(line for r in group for line in (f"   * - {r['estimator']}",
                                                     f"     - {_escaped(posterior_cell(r))}")),
                  "", f"{_escaped(posterior_note(group))}", ""]
    if first["warning"]:
        lines += [".. warning::", "", f"   {_escaped(first['warning'])}. "
                  f"{_escaped(advice_of(first))}", ""]
    caution = few_repetitions_caution(group)
    if caution:  # the numbers above rest on too few repetitions to quote
        lines += [".. caution::", "", f"   {_escaped(caution.removeprefix('Caution: '))}", ""]
    return lines


def answer_rst(table4: list[dict], liberal: dict[str, str]) -> str:
    """The answer of every comparison (Table 4's rows), then the tests measured liberal
    (``{test's name: its calibration note}``), as reStructuredText for the report's front page.

    The text is wrapped in Jinja's raw block: Snakemake renders the front page as a template,
    and a user's spec may hold braces.

    Parameters
    ----------
    table4 : list of dict
        Table 4's rows (:func:`reprocompare.reports.tables.table4_rows`).
    liberal : dict of str to str
        Each liberal test's name and its calibration note.

    Returns
    -------
    str
        The reStructuredText.
    """
    lines = ["{% raw %}", "**The answer.** For every comparison, whether its conclusion "
             "reproduces over independent splits of the corpus (Table 4's verdicts; the rule is "
             "under Table 4), beside the interval each verdict was decided on (the quantity, "
             "its bound, the look R and, where it rests on it, the normal model), with the mean "
             "difference in F1 points and Eq. 1's share, each with its 95% interval.", ""]
    for group in comparison_groups(table4):
        lines += _comparison(group)
    if not table4:
        lines += ["No comparison has been summarized yet.", ""]
    if liberal:
        lines += [".. note::", "", "   Significance tests measured liberal (they declare a "
                  "difference more often than alpha when there is none; the claims table counts "
                  "them): " + "; ".join(f"{name}: {note}" for name, note in liberal.items())
                  + ".", ""]
    lines += ["{% endraw %}", "", "**How the study was run.**", ""]
    return "\n".join(lines)
