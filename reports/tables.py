"""The paper's Table 3 and Table 4, and the claims table, as rows, CSV, Markdown and text.

Every block says what it is about, in every format: which model is A and which is B (their
specs), the conclusion under test, the corpus and its number of sentences, typed or untyped chunk
scoring, the number of repetitions R, the strategies as they were run (hold-out ratio, k, m x 2
BCV), and the unit of every number. F1 quantities are in F1 points (percentage points, F1 x 100)
in all three formats; SNR is unitless; reproducibility and the Chebyshev bound are shares of the
R repetitions (0 to 1). Markdown carries a note on how to read the block. LaTeX, from the same
rows, is :mod:`reprocompare.reports.latex`.

Rows are plain dicts built from the summaries that :func:`reprocompare.study.summary.summarize_runs`
writes; the context keys (``corpus``, ``typed``, ``strategies``, ``degenerate``) are used when the
summary has them and reported as "not recorded" otherwise. Every number is formatted with a fixed
number of decimals, so equal summaries give byte-identical tables.
"""

from __future__ import annotations

import math

from reprocompare.base.markdown import md_code, md_table, md_text
from reprocompare.base.spreadsheet import csv_text
from reprocompare.estimators.effect import mean_interval
from reprocompare.estimators.designs import DEFAULT_SPENDING, SPENDING_NAMES
from reprocompare.strategies import (CHOSE_VOTE, ESTIMATORS, MIXED, SINGLE, STRATEGIES, TESTS,
                                     kind_of_test, labels as strategy_labels, of_test)


#: the paper's standard split (Table 3's rows of a study without repetitions of the others)
STANDARD = next(s for s in STRATEGIES if s.standard)

#: the context every row carries, so that a CSV row stands on its own
CONTEXT_COLUMNS = ("comparison", "corpus", "sentences", "scoring", "name_a", "label_a",
                   "model_a", "name_b", "label_b", "model_b", "conclusion")
#: the posterior beside each verdict (issue 52; summaries' ``posteriors``): the correlated
#: Bayesian t's three probabilities of the mean of A - B, the rope they read and the rho its
#: strategy says, and whether the values had no spread (the posterior a point)
POSTERIOR_COLUMNS = ("posterior_p_a_better", "posterior_p_rope", "posterior_p_b_better",
                     "posterior_rope_f1_points", "posterior_rho", "posterior_point")
#: Table 4 columns: what the paper prints, then the intervals and the growth advice it does not
TABLE4_COLUMNS = (*CONTEXT_COLUMNS, "estimator", "strategy", "repetitions", "mean_f1_points",
                  "mean_low_f1_points", "mean_high_f1_points", "mean_interval", "sd_f1_points", "snr", "snr_low", "snr_high", "snr_interval",
                  "reproducibility", "reproducibility_low", "reproducibility_high",
                  "reproducibility_interval", "chebyshev_bound",
                  "mixture_chose_vote", "null_reproducibility", "null_snr",
                  "null_reproducibility_normal", "null_snr_normal", "verdict", "verdict_text",
                  "predictive_reproducibility", "predictive_reproducibility_low",
                  "predictive_reproducibility_high", "predictive_reproducibility_interval",
                  "verdict_claim", "verdict_decided_at", "verdict_path", "repetitions_to_decide",
                  *POSTERIOR_COLUMNS, "warning")
TABLE3_COLUMNS = (*CONTEXT_COLUMNS, "model", "spec", "strategy_short", "strategy", "repetitions",
                  "mean_f1_points",
                  "standard_error_f1_points", "low_f1_points", "high_f1_points", "warning")

#: Below this R a bootstrap SNR interval is flagged: measured coverage of a nominal 95% interval
#: is 67-78% at R = 5, 88-92% at R = 20 and 94% at R = 200 (docs/statistics.md): 200 is the
#: smallest R measured where it reaches 93%. The exact interval needs no flag.
BOOTSTRAP_TRUSTED_FROM = 200
SNR_INTERVAL_NAMES = {"exact": "exact noncentral t, fixed R", "bootstrap": "percentile bootstrap",
                      "sequence": "confidence sequence (normal model), intersected over looks",
                      # a planned design's repeated confidence intervals (designs.PLANNED_KIND)
                      "planned": "exact noncentral t at each planned look's level "
                                 f"(group-sequential, {SPENDING_NAMES[DEFAULT_SPENDING]}), "
                                 "intersected over looks"}
#: a summary written before intervals named their kind was a fixed-R one
FIXED_KINDS = {"mean": "Student t, fixed R", "reproducibility": "Clopper-Pearson, fixed R"}
CONCLUSION_TEXT = {"A>B": "A > B (A's chunk F1 is higher than B's)",
                   "B>A": "B > A (B's chunk F1 is higher than A's)"}

TABLE4_NOTE = (
    "How to read: each column is one estimator of A - B over R independent repetitions of its "
    "splitting strategy. Reproducibility (Eq. 1) is the share of the R repetitions whose estimate "
    "supports the conclusion: 0.9 means 9 in 10 reruns of this strategy on this corpus reach the "
    "same conclusion, 0.5 a coin flip. SNR (Eq. 4) is the mean of the estimates over their "
    "standard deviation (unitless; larger is more reproducible); the Chebyshev bound (Eq. 3) is "
    "the reproducibility that SNR guarantees for any distribution. Brackets are 95% intervals "
    "(mean: {mean_interval}, for this corpus's expected difference; SNR: "
    "{snr_interval}; reproducibility: {reproducibility_interval}): when a reproducibility interval "
    "holds the estimator's null offset (the 'If A = B' row: about 0.5 / 0 for a single "
    "difference, more for the mixture), R repetitions cannot tell whether the conclusion "
    "reproduces more often than a model no better than the other would. At small R the point SNR overstates the magnitude of the "
    "SNR (by 25% at R = 5, 4% at R = 20); the exact interval accounts for it.")
#: what to try when a model scored F1 = 0 on every fold (it predicted no chunk at all)
DEGENERATE_ADVICE = (
    "Try training longer (a BiLSTM: more epochs, or validation_fraction > 0 to stop on a "
    "development split, its default; a CRF: more max_iterations), a larger learning rate, or "
    "check that the model's scheme and the corpus's tags match.")
#: a model whose mean F1 on the standard split is more than this many F1 points below the other's
#: is named in a warning. Pairs worth comparing are a few points apart (this project's studies:
#: 0.2 to 1.3, docs/results.md); one that learned too little is tens behind (issue 37's BiLSTM at
#: its old defaults: 36 to 49 below a CRF on 600 NER sentences; docs/worked-example.md's tiny
#: BERT: 38.7). 10 lies between; the BiLSTM's gaps to the CRF by corpus and size are in
#: benchmarks/RESULTS.md, "BiLSTM defaults (issue 37)".
FAR_BELOW_POINTS = 10.0
#: what to try when a model scored far below the other
FAR_BELOW_ADVICE = (
    "A model this far behind is usually undertrained or misconfigured, and beating it says little. "
    "Try training it longer (a BiLSTM: more epochs, a larger patience, or a learning rate of 0.005 "
    "to 0.01 on a few hundred sentences; a transformer: more epochs or another learning rate; a "
    "CRF: more max_iterations), check that its scheme and the corpus's tags match, or compare "
    "against a CRF (type: crf) as a baseline.")
def table3_note(shorts) -> str:
    """How to read Table 3, for the strategies it shows (their short names, in any order).

    Parameters
    ----------
    shorts : iterable of str
        The short names of the strategies in the table (ST, RS, BCV, ...).

    Returns
    -------
    str
    """
    shown = set(shorts)
    return ("How to read: each model's chunk F1 (F1 points) over the R repetitions of each "
            "splitting strategy, one F1 per repetition: "
            + "; ".join(f"{s.short} {s.model_f1}" for s in STRATEGIES if s.short in shown)
            + " (the scores Table 4's estimators compare); SE = sd / sqrt(R); the 95% CI is "
            "Student's t with R - 1 degrees of freedom. A narrow CI says a model's F1 under that "
            "strategy is a stable number, not that A and B differ: Table 4 answers that.")


# ---- formatting ----------------------------------------------------------------------------

def format_number(value, digits: int = 4) -> str:
    """A number as the CSV and the tables print it: a float to ``digits`` decimals, inf and -inf by
    name, an integer as it is, a boolean as true or false, '' for None or NaN.

    Parameters
    ----------
    value : object
        The value.
    digits : int, default 4
        Decimals.

    Returns
    -------
    str
        The text.
    """
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return str(value)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.{digits}f}"


def format_shown(value, digits: int = 3) -> str:
    """A number for Markdown/LaTeX: a dash for a missing value.

    Parameters
    ----------
    value : object
        The value.
    digits : int, default 3
        Decimals.

    Returns
    -------
    str
        The text.
    """
    text = format_number(value, digits)
    return text if text else "--"


def format_interval(value, low, high, digits: int = 3) -> str:
    """``value [low, high]`` as :func:`format_shown` writes each number.

    Parameters
    ----------
    value, low, high : float or None
        The value and its interval's ends.
    digits : int, default 3
        Decimals.

    Returns
    -------
    str
        The text.
    """
    return f"{format_shown(value, digits)} [{format_shown(low, digits)}, {format_shown(high, digits)}]"


def _points(value):
    return None if value is None else 100 * value


# ---- context from the summary ------------------------------------------------------------------

def _corpus(summary: dict) -> tuple[str, int | None]:
    corpus = summary.get("corpus")
    if isinstance(corpus, dict):
        return str(corpus.get("name", "")), corpus.get("sentences")
    if not corpus and summary.get("corpus_sha256"):
        # runs of `reprocompare compare` know their corpus by its content, not by a name
        return f"sha256 {summary['corpus_sha256'][:12]}", summary.get("sentences")
    return (str(corpus) if corpus else ""), summary.get("sentences")


def _scoring(summary: dict) -> str:
    typed = summary.get("typed")
    if typed is None:
        return ""
    # typed training with untyped scoring says so (corpora.<name>.train_typed)
    return "typed" if typed else "untyped (trained typed)" if summary.get("train_typed") \
        else "untyped"


def _strategy_labels(summary: dict) -> dict[str, str]:
    """The strategy behind each estimator, from the run's settings, never from the paper."""
    strategies = summary.get("strategies") or {}
    return strategy_labels(strategies, summary["table4_k"] if "table4_k" in summary
                           else _recorded_k(strategies))


def _recorded_k(strategies: dict) -> int | None:
    """Table 4's k as a summary's strategy settings record it (None where they do not)."""
    return next((v["table4_k"] for k, v in strategies.items()
                 if isinstance(v, dict) and "table4_k" in v), None)


def _degenerate_models(summary: dict) -> list[str]:
    """Models that scored F1 = 0 everywhere: the summary's flag, else Table 3's all-zero F1."""
    flagged = summary.get("degenerate")
    if flagged is not None:
        if isinstance(flagged, dict):
            return sorted(name for name, bad in flagged.items() if bad)
        return sorted(flagged)
    return sorted(name for name, m in (summary.get("per_model") or {}).items()
                  if m.get("mean") == 0 and m.get("high") == 0)


def far_below(summary: dict) -> tuple[str, str, float, float] | None:
    """``(low, high, low_mean, high_mean)`` when model ``low``'s mean F1 over the standard split's
    repetitions is more than :data:`FAR_BELOW_POINTS` below ``high``'s (F1 points), else None;
    None too when a model scored F1 = 0 everywhere (that warning says more).

    Parameters
    ----------
    summary : dict
        A comparison's summary (its ``per_model``).

    Returns
    -------
    tuple or None
        The lower model, the higher, and their mean F1 in F1 points.
    """
    per_model = summary.get("per_model") or {}
    means = {name: m.get("mean") for name, m in per_model.items()}
    # F1 = 0 on every repetition is the F1 = 0 warning's, when the summary flags it
    if len(means) != 2 or _degenerate_models(summary) or any(
            not isinstance(v, (int, float)) or not math.isfinite(v) or
            (v == 0 and per_model[name].get("high") == 0) for name, v in means.items()):
        return None
    low, high = sorted(means, key=lambda name: (means[name], name))
    if 100 * (means[high] - means[low]) <= FAR_BELOW_POINTS:
        return None
    return low, high, 100 * means[low], 100 * means[high]


def _warning(summary: dict) -> str:
    models = summary.get("models", {})
    bad = _degenerate_models(summary)
    found = far_below(summary)
    if found:
        low, high, low_mean, high_mean = found
        return (f"{low} ({models.get(low, '?')}) scored {high_mean - low_mean:.1f} F1 points "
                f"below {high} ({models.get(high, '?')}) on the standard split "
                f"({low_mean:.1f} against {high_mean:.1f})")
    return "; ".join(f"{name} ({models.get(name, '?')}) scored F1 = 0 on every fold" for name in bad)


def warning_advice(summary: dict) -> str:
    """What follows a comparison's warning: what it means and what to try.

    Parameters
    ----------
    summary : dict
        The comparison's summary.

    Returns
    -------
    str
        The sentences ('' without a warning).
    """
    if far_below(summary):
        return FAR_BELOW_ADVICE
    if _degenerate_models(summary):
        return f"The comparison says nothing about which model is better. {DEGENERATE_ADVICE}"
    return ""


def advice_of(row: dict) -> str:
    """The advice after a Table 4 row's warning (:func:`warning_advice`); rows built without it
    get the F1 = 0 advice, the one warning they could carry.

    Parameters
    ----------
    row : dict
        A row of :func:`table4_rows`.

    Returns
    -------
    str
        The sentences.
    """
    return row.get("warning_advice") or (
        f"The comparison says nothing about which model is better. {DEGENERATE_ADVICE}")


def far_below_warning(summary: dict) -> str:
    """The far-below warning of a comparison with its advice, as plain text ('' without one):
    for the pages that list warnings rather than tables (the reproducibility checklist).

    Parameters
    ----------
    summary : dict
        The comparison's summary.

    Returns
    -------
    str
        The warning.
    """
    return f"{_warning(summary)}. {FAR_BELOW_ADVICE}" if far_below(summary) else ""


def _design(variation: dict | None) -> str:
    """A design of data samples, splits and seeds in words ('' for the paper's design)."""
    if not variation:
        return ""
    parts = []
    if variation["samples"] > 1:
        parts.append(f"{variation['samples']} data samples of {variation['sample_size']} "
                     "sentences")
    parts.append(f"{variation['splits']} splits" + (" each" if parts else "")
                 if variation.get("splits") else "a new split each")
    if variation["seeds"] > 1:
        parts.append(f"{variation['seeds']} training seeds per split")
    return " x ".join(parts)


def comparison_context(label: str, summary: dict) -> dict:
    """The columns every row of a comparison carries (:data:`CONTEXT_COLUMNS`), from its summary.

    Parameters
    ----------
    label : str
        The comparison's label.
    summary : dict
        Its summary.

    Returns
    -------
    dict
        The context, by column.
    """
    corpus, sentences = _corpus(summary)
    corpus = summary.get("corpus_label") or corpus  # its label (corpora.<name>.label), else name
    models, names = summary.get("models", {}), summary.get("model_names") or {}
    # the short name tables and figures print: the model's label, else its name, else its spec
    labels = summary.get("model_labels") or {}
    short = lambda side: labels.get(side) or names.get(side) or models.get(side, "")
    return {"comparison": label, "corpus": corpus, "sentences": sentences,
            "design": _design(summary.get("variation")),
            "scoring": _scoring(summary), "name_a": names.get("A", ""), "label_a": short("A"),
            "model_a": models.get("A", ""), "name_b": names.get("B", ""), "label_b": short("B"),
            "model_b": models.get("B", ""), "conclusion": summary.get("conclusion", "A>B")}


def _side(row: dict, side: str, code, text=str) -> str:
    """'name (spec)' or the spec alone; the spec through ``code``, the name through ``text``."""
    name, spec = row[f"name_{side}"], row[f"model_{side}"]
    return f"{text(name)} ({code(spec)})" if name and name != spec else code(spec)


# ---- rows ----------------------------------------------------------------------------------------

def _verdict(summary: dict, estimator: str) -> dict:
    v = (summary.get("verdicts") or {}).get(estimator)
    if v is None:
        return {"verdict": "", "verdict_text": "", "predictive_reproducibility": None,
                "predictive_reproducibility_low": None, "predictive_reproducibility_high": None,
                "predictive_reproducibility_interval": "", "verdict_path": "",
                "verdict_claim": "", "verdict_decided_at": None, "repetitions_to_decide": None,
                "verdict_reaches": None, "verdict_threshold": None,
                "verdict_confidence": None, "forecast": None}
    return {"verdict": v["decision"], "verdict_text": v["text"],
            "verdict_threshold": v.get("threshold"), "verdict_confidence": v.get("confidence"),
            "predictive_reproducibility": v["reproducibility"],
            "predictive_reproducibility_low": v["reproducibility_low"],
            "predictive_reproducibility_high": v["reproducibility_high"],
            # summaries from before issue 33 read the SNR's interval on the normal path
            "predictive_reproducibility_interval": v.get("interval") or (
                "SNR confidence sequence" if v.get("time_uniform") else
                "SNR exact interval at each planned look's level" if v.get("planned") else
                "SNR exact interval (fixed R)"),
            "verdict_path": v.get("path", "normal") + (f" ({v['path_reason']})"
                                                       if v.get("path_reason") else ""),
            # the interval the verdict read, named, at the look that decided it
            "verdict_claim": v.get("claim", ""), "verdict_decided_at": v.get("decided_at"),
            "repetitions_to_decide": v["more"], "verdict_reaches": v.get("reaches"),
            "forecast": v.get("forecast")}


def _posterior(summary: dict, estimator: str) -> dict:
    p = (summary.get("posteriors") or {}).get(estimator)
    if p is None:  # a summary from before issue 52, or an estimator of fewer than 2 values
        return {column: None for column in POSTERIOR_COLUMNS}
    return {"posterior_p_a_better": p["p_a_better"], "posterior_p_rope": p["p_rope"],
            "posterior_p_b_better": p["p_b_better"], "posterior_rope_f1_points": p["rope"],
            "posterior_rho": p["rho"], "posterior_point": p.get("point", False)}


def posterior_cell(row: dict, digits: int = 3) -> str:
    """The posterior's three probabilities in a cell, P(A > B) / P(rope) / P(B > A), and
    "(a point: no spread)" where the values had none.

    Parameters
    ----------
    row : dict
        A row of Table 4.
    digits : int, default 3
        Decimals.

    Returns
    -------
    str
        The text; '--' without a posterior.
    """
    if row["posterior_p_a_better"] is None:
        return "--"
    cell = " / ".join(format_shown(row[f"posterior_{p}"], digits)
                      for p in ("p_a_better", "p_rope", "p_b_better"))
    return f"{cell} (a point: no spread)" if row["posterior_point"] else cell


def posterior_rope(group: list[dict]) -> float | None:
    """The rope the group's posteriors read, F1 points (one per study), or None without them.

    Parameters
    ----------
    group : list of dict
        The rows of one comparison.

    Returns
    -------
    float or None
    """
    return next((r["posterior_rope_f1_points"] for r in group
                 if r["posterior_p_a_better"] is not None), None)


#: what the posterior rows are, beside the verdict: another question, named as it is
POSTERIOR_NOTE = (
    "Posterior: the correlated Bayesian t-test (Benavoli et al. 2017) of the mean of A - B over "
    "corpora like this one, at the correlation rho its strategy's overlapping training sets "
    "imply; P(A > B) is the posterior probability that A is ahead by more than the rope "
    "(+-{rope:g} F1 points), P(rope) that they differ by less. It answers 'is A practically "
    "better on such corpora?', not the verdict's 'will another split agree?': a posterior, not "
    "a reproducibility (docs/bayesian.md).")


def posterior_note(group: list[dict]) -> str:
    """How to read the posterior rows, with the rope and the point posteriors; '' without them.

    Parameters
    ----------
    group : list of dict
        The rows of one comparison.

    Returns
    -------
    str
        The text.
    """
    rope = posterior_rope(group)
    if rope is None:
        return ""
    points = [r["estimator"] for r in group if r["posterior_point"]]
    return POSTERIOR_NOTE.format(rope=rope) + (
        f" {', '.join(points)}: no spread over the repetitions, so the posterior is a point at "
        "their mean and each probability 0 or 1 (a degenerate answer, not a confident one)."
        if points else "")


def verdict_cell(row: dict) -> str:
    """The verdict in a table cell: the direction that reproduces, or how far from deciding.

    Parameters
    ----------
    row : dict
        A row of Table 4.

    Returns
    -------
    str
        The text.
    """
    decision = row["verdict"]
    if not decision:
        return "--"
    if decision == "undecided":
        more = row["repetitions_to_decide"]
        return f"undecided (+{more})" if more is not None else "undecided (> max)"
    return DECISION_TEXT[decision]


#: a decision in a table cell, and the verdict "N more" would reach
DECISION_TEXT = {"A>B": "A > B reproduces", "B>A": "B > A reproduces",
                 "none": "neither direction reproduces", "equivalent": "no practical difference",
                 "degenerate": "no verdict: no spread"}


def _more_text(row: dict) -> str:
    """"about N more", with the verdict they reach where the summary says it."""
    if row["repetitions_to_decide"] is None:
        return "more than the maximum"
    reaches = row.get("verdict_reaches")
    return f"about {row['repetitions_to_decide']} more" + (
        f" to reach '{DECISION_TEXT[reaches]}'" if reaches else "")


def stopping_state(stopping: dict) -> str:
    """Where a sequential study stands after its last wave, in words (Table 4, the claims, the
    LaTeX notes): decided, stopped for futility with its probability, at the maximum, or still
    running with the chance of a verdict by the maximum.

    Parameters
    ----------
    stopping : dict
        The summary's ``stopping`` record.

    Returns
    -------
    str
    """
    judged = stopping.get("futility_judgement") or {}
    maximum = stopping["max_repetitions"]
    chance = (f"predictive probability {judged['probability']:.3f} ({judged['estimator']})"
              if judged.get("probability") is not None else None)
    if stopping["decided"]:
        return "every deciding estimator decided"
    if stopping.get("futile"):
        return (f"stopped without a verdict, one by R = {maximum} being unlikely: "
                f"{chance}, below the futility level {judged['level']:g}")
    if stopping["stopped"]:
        return "the maximum reached, undecided"
    state = "still running: the next wave adds repetitions"
    if chance:
        state += f" (a verdict by R = {maximum}: {chance})"
    if judged.get("not_judged"):
        state += (f"; not judged for futility: {', '.join(judged['not_judged'])} (a verdict "
                  "off the normal model's SNR)")
    return state


def forecast_text(forecast: dict, maximum: int) -> str:
    """An undecided verdict's forecast (:func:`reprocompare.estimators.futility.forecast`) in
    words: the probability of a verdict by the maximum, and the median and 10th-90th percentile
    of the repetitions still to run where it comes.

    Parameters
    ----------
    forecast : dict
        The forecast a summary holds under the verdict.
    maximum : int
        The study's maximum R.

    Returns
    -------
    str
    """
    if forecast["median_more"] is None:
        return f"no path decides by R = {maximum}"
    # a few paths of 4,000 decide: "0.00" beside "median N more where it comes" reads as a
    # contradiction
    p = forecast["probability"]
    chance = "below 0.01" if 0 < p < 0.005 else f"{p:.2f}"
    return (f"a verdict by R = {maximum} with probability {chance}, "
            f"median {forecast['median_more']} more (10th-90th percentile "
            f"{forecast['p10_more']}-{forecast['p90_more']}) where it comes")


def said(verdict_text: str, decision: str, repetitions: int, forecast: dict | None,
         maximum: int | None, claim: str = "") -> str:
    """A verdict in one sentence, as the command line says it after a run or a wave.

    An undecided verdict of a sequential study that is forecast says the forecast (the
    probability of a verdict by the maximum, and the spread of the repetitions it needs), not the
    verdict's point "N more", which reads the current SNR as if it were the true one (issue 39,
    item 3); any other says the verdict's own sentence.

    Parameters
    ----------
    verdict_text : str
        The verdict's sentence.
    decision : str
        Its decision ("undecided", "A>B", ...).
    repetitions : int
        R at the verdict.
    forecast : dict or None
        Its forecast, where the summary holds one.
    maximum : int or None
        The study's maximum R (None: not a sequential study).
    claim : str, default ""
        The interval the verdict was decided on, in words (the verdict's ``claim``): said beside
        a decided verdict.

    Returns
    -------
    str
    """
    if decision != "undecided" or not forecast or maximum is None:
        decided = claim and decision not in ("undecided", "degenerate")
        return f"{verdict_text} ({claim})" if decided else verdict_text
    return f"undecided after {repetitions} repetitions: {forecast_text(forecast, maximum)}"


def verdict_lines(group: list[dict], summary_rule: str, stopping: dict | None) -> list[str]:
    """Under Table 4: the verdicts' rule, how many more repetitions would decide, and where a
    sequential study stopped (issue 22).

    Parameters
    ----------
    group : list of dict
        The rows of one comparison.
    summary_rule : str
        The verdicts' rule as the summary recorded it.
    stopping : dict or None
        Where a sequential study stopped, if it did.

    Returns
    -------
    list of str
        The lines.
    """
    if not any(r["verdict"] for r in group):
        return []
    undecided = [r for r in group if r["verdict"] == "undecided"]
    lines = [summary_rule]
    # which path decided each verdict, and why (the normal model or Eq. 1's shares)
    lines.append("Path: " + "; ".join(f"{r['estimator']} {r['verdict_path']}"
                                      for r in group if r["verdict"]) + ".")
    rejected = [r["estimator"] for r in group if r["verdict_path"].startswith("distribution")]
    if rejected:  # a number whose assumption the data reject is said to be so
        lines.append(f"Caution: the estimates of {', '.join(rejected)} fail the normal model's "
                     "check, which their SNR, Phi(SNR) and mean intervals assume: read those as "
                     "approximate; their verdicts come from Eq. 1's shares, which assume nothing.")
    if undecided:
        lines.append("Repetitions to decide, if the SNR stays where it is: " + "; ".join(
            f"{r['estimator']} {_more_text(r)}" for r in undecided)
            + f" (now {repetitions_text(group).split(' independent')[0]}).")
        forecasts = [(r["estimator"], r["forecast"]) for r in undecided if r.get("forecast")]
        if forecasts and stopping:
            # an undecided verdict on Eq. 1's shares is not forecast: say so, not nothing
            unforecast = [r["estimator"] for r in undecided if not r.get("forecast")
                          and r["verdict_path"].startswith("distribution")]
            lines.append(f"Forecast over {forecasts[0][1]['paths']:,} paths of the normal model's "
                         "posterior predictive (estimators/futility.py): " + "; ".join(
                             f"{name} " + forecast_text(f, stopping["max_repetitions"])
                             for name, f in forecasts)
                         + (f"; {', '.join(unforecast)} not forecast (its verdict reads Eq. 1's "
                            "shares)" if unforecast else "") + ".")
    if stopping:
        lines.append(f"Sequential study: waves of {stopping['wave']} repetitions up to "
                     f"{stopping['max_repetitions']}, decided by "
                     f"{', '.join(stopping['estimators'])}; {stopping['waves']} waves run, "
                     f"R = {stopping['repetitions']}: {stopping_state(stopping)}.")
    return lines


def _null_offset(summary: dict, estimator: str) -> dict:
    offset = (summary.get("null_offsets") or {}).get(estimator) or {}
    return {f"null_{key}": offset.get(key) for key in (
        "reproducibility", "snr", "reproducibility_normal", "snr_normal")}


def null_offset_cell(row: dict) -> str:
    """'reproducibility / SNR' with no true difference, '--' if unknown: the closed form for
    normal estimates (1/2 and 0 for a single difference; the mixture's from its Vote and Avg),
    which the verdict reads; the centred repetitions' values, noisy at small R, are in the CSV
    and, for the mixture, in the note.

    Parameters
    ----------
    row : dict
        A row of Table 4.

    Returns
    -------
    str
        The text.
    """
    return f"{format_shown(row['null_reproducibility_normal'])} / {format_shown(row['null_snr_normal'])}"


def null_offset_note(group: list[dict]) -> str:
    """Why the mixture's null offset is not 1/2 and 0, with its closed form.

    Parameters
    ----------
    group : list of dict
        The rows of one comparison.

    Returns
    -------
    str
        The note, or '' without a mixture offset.
    """
    mixture = [r for r in group if r["estimator"] in MIXED
               and r["null_reproducibility_normal"] is not None]
    if not mixture:
        return ""
    r = mixture[0]
    return (f"If A = B: the reproducibility and SNR each estimator shows with no true "
            f"difference, for normal estimates. The mixture leans towards the conclusion even "
            f"then, since it keeps the larger of two correlated estimates: "
            f"{format_shown(r['null_reproducibility_normal'])} / {format_shown(r['null_snr_normal'])} in "
            f"closed form from this study's Vote and Avg, {format_shown(r['null_reproducibility'])} / "
            f"{format_shown(r['null_snr'])} on its repetitions centred; read its values against "
            f"these, not 0.5 / 0.")


def _mean_interval(s: dict) -> dict:
    """The mean difference's 95% interval in F1 points: the summary's own (a confidence
    sequence where the study looked after waves), else Student's t over the R repetitions from
    the summary's mean, sd and R (summaries from before intervals named their kind)."""
    if s.get("mean_low") is not None:
        return {"mean_low_f1_points": _points(s["mean_low"]),
                "mean_high_f1_points": _points(s["mean_high"])}
    if s["repetitions"] < 2 or s["sd"] is None or not math.isfinite(s["sd"]):
        return {"mean_low_f1_points": None, "mean_high_f1_points": None}
    interval = mean_interval(s["mean"], s["sd"], s["repetitions"])
    return {"mean_low_f1_points": _points(interval.low),
            "mean_high_f1_points": _points(interval.high)}


def table4_rows(summaries: dict[str, dict]) -> list[dict]:
    """One row per (comparison, estimator) in the paper's column order, with its context.

    Parameters
    ----------
    summaries : dict of str to dict
        The study summaries, by comparison label.

    Returns
    -------
    list of dict
        One row per comparison and estimator, with the columns of :data:`TABLE4_COLUMNS`.
    """
    rows = []
    for comparison, summary in summaries.items():
        labels = _strategy_labels(summary)
        context = comparison_context(comparison, summary)
        warning, advice = _warning(summary), warning_advice(summary)
        for name in ESTIMATORS:
            s = summary["estimators"].get(name)
            if s is None:
                continue
            rows.append({
                **context, "estimator": name, "strategy": labels[name],
                "verdict_rule": summary.get("verdict_rule", ""),
                "stopping": summary.get("stopping"),
                "repetitions": s["repetitions"], "mean_f1_points": _points(s["mean"]),
                **_mean_interval(s), "sd_f1_points": _points(s["sd"]), "snr": s["snr"], "snr_low": s["snr_low"],
                "snr_high": s["snr_high"], "snr_interval": s.get("snr_method", "bootstrap"),
                "mean_interval": (s.get("interval_kinds") or FIXED_KINDS)["mean"],
                "reproducibility_interval": (s.get("interval_kinds")
                                             or FIXED_KINDS)["reproducibility"],
                "reproducibility": s["reproducibility"],
                "reproducibility_low": s["reproducibility_low"],
                "reproducibility_high": s["reproducibility_high"],
                "chebyshev_bound": s["chebyshev_bound"],
                # how often Eq. 8 took Vote (Case I) rather than Avg (Case II)
                "mixture_chose_vote": summary.get(CHOSE_VOTE[name])
                if name in CHOSE_VOTE else None,
                # what this estimator shows when A and B do not differ (estimators.null)
                **_null_offset(summary, name),
                # does it reproduce (estimators.verdict), and how many more would decide
                **_verdict(summary, name),
                # beside the verdict, the posterior of the mean of A - B (estimators.bayesian)
                **_posterior(summary, name),
                "warning": warning, "warning_advice": advice})
    return rows


def table3_rows(summaries: dict[str, dict],
                scores: dict[str, dict] | None = None) -> list[dict]:
    """One row per (comparison, strategy, model): its F1 over the repetitions of the strategy.

    A model's F1 in one repetition is the score Table 4's estimators compare
    (:attr:`reprocompare.strategies.Strategy.model_f1`: ST's hold-out, RS's mean over
    Table 4's k hold-outs, BCV's mean over its folds), as the claims record it (``scores``);
    a comparison without them (a summary of ``reprocompare summarize``) gives its standard
    split's, from the summary.

    Parameters
    ----------
    summaries : dict of str to dict
        The study summaries, by comparison label.
    scores : dict of str to dict, optional
        By comparison label: strategy name -> ``{"A": [F1 per repetition], "B": [...]}``
        (a claims record's ``scores``).

    Returns
    -------
    list of dict
        One row per comparison, strategy and model, in Table 4's order of strategies, with the
        columns of :data:`TABLE3_COLUMNS`.
    """
    rows = []
    for comparison, summary in summaries.items():
        context = comparison_context(comparison, summary)
        labels = _strategy_labels(summary)
        bad = _degenerate_models(summary)
        behind = far_below(summary)
        flags = {model: "F1 = 0 on every fold" for model in bad}
        if behind:
            flags[behind[0]] = (f"{behind[3] - behind[2]:.1f} F1 points below {behind[1]} on the "
                                "standard split")
        by_strategy = (scores or {}).get(comparison)
        if by_strategy:
            # lazy: scipy; every command imports the tables, few build Table 3
            from reprocompare.estimators.reproducibility import model_interval

            intervals = {s: {model: model_interval(f1s).as_dict()
                             for model, f1s in by_strategy[s.name].items() if len(f1s) >= 2}
                         for s in STRATEGIES if s.name in by_strategy}
        else:  # the standard split's, as the summary has it
            intervals = {STANDARD: summary["per_model"]}
        for s, models in intervals.items():
            for model, interval in sorted(models.items()):
                rows.append({**context, "model": model,
                             "spec": summary["models"].get(model, ""),
                             "strategy_short": s.short, "strategy": labels[s.estimators[0]],
                             "repetitions": interval["repetitions"],
                             "mean_f1_points": _points(interval["mean"]),
                             "standard_error_f1_points": _points(interval["standard_error"]),
                             "low_f1_points": _points(interval["low"]),
                             "high_f1_points": _points(interval["high"]),
                             "warning": flags.get(model, "")})
    return rows


def to_csv(rows: list[dict], columns) -> str:
    """The rows as CSV, numbers to 6 decimals.

    Parameters
    ----------
    rows : list of dict
        The rows.
    columns : sequence of str
        The columns, in order.

    Returns
    -------
    str
        The CSV text.
    """
    return csv_text(rows, columns, lambda value: value if isinstance(value, str)
                    else format_number(value, 6))


def comparison_groups(rows: list[dict]) -> list[list[dict]]:
    """The rows grouped by comparison, in the order the comparisons first appear.

    Parameters
    ----------
    rows : list of dict
        The rows.

    Returns
    -------
    list of list of dict
        One group per comparison.
    """
    return [[r for r in rows if r["comparison"] == c]
            for c in dict.fromkeys(r["comparison"] for r in rows)]


def repetitions_text(group: list[dict]) -> str:
    """How many repetitions the group's estimators rest on, in words.

    Parameters
    ----------
    group : list of dict
        The rows of one comparison.

    Returns
    -------
    str
        The text.
    """
    if group[0].get("standard_split"):
        return f"R = {group[0]['repetitions']} standard-split repetitions ({group[0]['strategy']})"
    counts = sorted({r["repetitions"] for r in group})
    if len(counts) == 1:
        return f"R = {counts[0]} independent repetitions of every strategy"
    return "R = " + ", ".join(f"{r['repetitions']} ({r['estimator']})" for r in group) + \
        " independent repetitions"


def _context_lines(first: dict, group: list[dict]) -> list[str]:
    """What the block is about, in words (Markdown and terminal)."""
    corpus = first["corpus"] or "corpus not recorded"
    size = f", {first['sentences']} sentences" if first["sentences"] is not None else \
        " (number of sentences not recorded)"
    scoring = {"typed": "typed chunks (a chunk counts only with its type)",
               "untyped": "untyped chunks (chunk boundaries only, trained on boundaries)",
               "untyped (trained typed)": "untyped chunks (chunk boundaries only; the taggers "
                                          "trained on typed tags)"}.get(
        first["scoring"], "typed or untyped not recorded")
    strategies = "; ".join(f"{r['estimator']} = {r['strategy']}" for r in group)
    md = md_code
    design = f" ({first['design']})" if first.get("design") else ""
    return [f"- A = {_side(first, 'a', md)}, B = {_side(first, 'b', md)}",
            f"- Conclusion under test: {CONCLUSION_TEXT.get(first['conclusion'], first['conclusion'])}",
            f"- Corpus: {md_text(corpus)}{size}; scoring: {scoring}",
            f"- {repetitions_text(group)}{design}; strategies: {strategies}"]


def bootstrap_caveat(group: list[dict]) -> str:
    """A caution when a bootstrap SNR interval rests on fewer repetitions than it can be trusted
    at; '' otherwise.

    Parameters
    ----------
    group : list of dict
        The rows of one comparison.

    Returns
    -------
    str
        The text.
    """
    small = [r["estimator"] for r in group
             if r["snr_interval"] == "bootstrap" and r["repetitions"] < BOOTSTRAP_TRUSTED_FROM]
    if not small:
        return ""
    return (f"Caution: the SNR intervals of {', '.join(small)} are percentile bootstraps at "
            f"R < {BOOTSTRAP_TRUSTED_FROM}, which cover the true SNR in only 27-92% of studies "
            "(nominal 95%, measured at R = 2 to 20); the exact interval is the default.")


#: Below this R every value a Table 3 or 4 block prints is cautioned: the 95% t multiplier is
#: 2.78 at R = 5 but 4.30 at R = 3 and 12.71 at R = 2 (an interval of a model's F1 can run past
#: 100 F1 points), and Eq. 4's SNR overstates its size 1.38 times on average at R = 4, 1.77 at
#: R = 3 and without bound at R = 2, where its mean does not exist (``snr_bias_factor``).
FEW_REPETITIONS = 5
#: The 95% t multiplier at the degrees of freedom a caution prints (R = 2 to FEW_REPETITIONS - 1):
#: scipy.special.stdtrit(R - 1, 0.975), the bits it returns (tests/test_tables.py checks them),
#: so that the front page job, which prints the caution, need not import scipy.special for them
#: (0.3 of its 0.6 CPU s on a study of R = 3; benchmarks/bench_job_cpu.py)
T_975 = {1: 12.706204736174694, 2: 4.302652729749462, 3: 3.1824463052837078}


def few_repetitions_caution(group: list[dict], name: str = "estimator", snr: bool = True) -> str:
    """A caution on every value of a block computed from fewer than :data:`FEW_REPETITIONS`
    repetitions; '' when there is none.

    Parameters
    ----------
    group : list of dict
        The rows of one comparison (Table 3's or Table 4's), each with its ``repetitions``.
    name : str, default "estimator"
        The key that names a row in the caution (Table 3: ``strategy_short``).
    snr : bool, default True
        Whether the block prints Eq. 4's SNR (Table 4), whose bias at small R is then said.

    Returns
    -------
    str
        The text.
    """
    few = [r for r in group if r["repetitions"] < FEW_REPETITIONS]
    if not few:
        return ""
    # lazy: scipy; every command imports the tables, few print a block of R < 5
    from reprocompare.estimators.reproducibility import snr_bias_factor

    least = min(r["repetitions"] for r in few)
    names = ", ".join(dict.fromkeys(r[name] for r in few))
    said = [f"a 95% t interval stretches {T_975[least - 1]:.1f} standard errors "
            "each way (about 2 with many repetitions)" if least >= 2 else
            "one repetition gives no interval"]
    if snr and least >= 2:
        bias = snr_bias_factor(least)
        said.append("Eq. 4's SNR has no finite mean at R = 2, so it can land anywhere" if
                    math.isinf(bias) else
                    f"Eq. 4's SNR overstates its size {bias:.2f} times on average")
    at = f"R = {least}" if len({r["repetitions"] for r in few}) == 1 else f"as few as R = {least}"
    rest = "rest" if len(names.split(", ")) > 1 else "rests"
    return (f"Caution: {names} {rest} on {at} repetitions, fewer than {FEW_REPETITIONS}: "
            f"{' and '.join(said)}. Read every "
            "number of this block as a first look and add repetitions before quoting it.")


def table4_note(group: list[dict]) -> str:
    """How to read Table 4, naming the kind of every interval it prints (issue 33).

    Parameters
    ----------
    group : list of dict
        The rows of one comparison.

    Returns
    -------
    str
        The text.
    """
    kinds = lambda key: " or ".join(dict.fromkeys(r[key] for r in group))
    return TABLE4_NOTE.format(snr_interval=snr_interval_name(group),
                              mean_interval=kinds("mean_interval"),
                              reproducibility_interval=kinds("reproducibility_interval"))


def snr_interval_name(group: list[dict]) -> str:
    """The kind of the group's SNR intervals, in words.

    Parameters
    ----------
    group : list of dict
        The rows of one comparison.

    Returns
    -------
    str
        The text.
    """
    methods = dict.fromkeys(SNR_INTERVAL_NAMES.get(r["snr_interval"], r["snr_interval"])
                            for r in group)
    return " or ".join(methods)


def table4_markdown(rows: list[dict]) -> str:
    """Table 4 as the paper lays it out, one block per comparison, with its context and notes.

    Parameters
    ----------
    rows : list of dict
        Table 4's rows (:func:`table4_rows`).

    Returns
    -------
    str
        The Markdown.
    """
    lines = []
    for group in comparison_groups(rows):
        first = group[0]
        lines.append(f"### Table 4: {md_text(first['comparison'])}\n")
        lines += _context_lines(first, group)
        if first["warning"]:
            lines.append(f"- **Warning:** {md_text(first['warning'])}. {md_text(advice_of(first))}")
        caution = few_repetitions_caution(group)
        if caution:
            lines.append(f"- **{md_text(caution).replace(':', ':**', 1)}")
        lines.append("")
        table = [["Splitting strategy", *(r["strategy"] for r in group)],
                 ["SNR (Eq. 4, unitless) [95% CI]",
                  *(format_interval(r["snr"], r["snr_low"], r["snr_high"]) for r in group)],
                 ["Reproducibility (Eq. 1, share of R) [95% CI]",
                  *(format_interval(r["reproducibility"], r["reproducibility_low"],
                                    r["reproducibility_high"]) for r in group)],
                 ["Chebyshev bound (Eq. 3, share of R)",
                  *(format_shown(r["chebyshev_bound"]) for r in group)]]
        if any(r["null_reproducibility_normal"] is not None for r in group):
            table.append(["If A = B: reproducibility / SNR (null offset)",
                          *(null_offset_cell(r) for r in group)])
        if any(r["verdict"] for r in group):
            level = next((r["verdict_confidence"] for r in group if r["verdict_confidence"]),
                         0.95)
            table.append(["Reproducibility the verdict read: Phi(SNR), or Eq. 1's share off the "
                          f"normal model [{100 * level:.4g}% CI]",
                          *(format_interval(r["predictive_reproducibility"],
                                            r["predictive_reproducibility_low"],
                                            r["predictive_reproducibility_high"]) for r in group)])
            table.append(["**Verdict**", *(f"**{verdict_cell(r)}**" for r in group)])
            table.append([f"The interval it was decided on ({100 * level:.4g}%)",
                          *(md_text(r["verdict_claim"]) or "--" for r in group)])
        rope = posterior_rope(group)
        if rope is not None:
            table += [[f"Posterior P(A > B), P(rope), P(B > A) (rope +-{rope:g} F1 points; "
                       "a posterior, not a reproducibility)", *(posterior_cell(r) for r in group)],
                      ["Posterior's rho (its strategy's, across corpora)",
                       *(format_shown(r["posterior_rho"]) for r in group)]]
        table.append(["Mean of A - B (F1 points) [95% CI]",
                      *(format_interval(r["mean_f1_points"], r["mean_low_f1_points"],
                                        r["mean_high_f1_points"]) for r in group)])
        table.append(["SD of A - B (F1 points)", *(format_shown(r["sd_f1_points"]) for r in group)])
        lines += md_table(["", *(r["estimator"] for r in group)], table)
        lines.append("")
        lines.append("\n".join(verdict_lines(group, first["verdict_rule"], first["stopping"])))
        chose = [r["mixture_chose_vote"] for r in group if r["mixture_chose_vote"] is not None]
        if chose:
            lines.append(f"\nMixture (Eq. 8) took Vote (Case I) in {100 * chose[0]:.0f}% of the "
                         f"repetitions and Avg (Case II) in {100 * (1 - chose[0]):.0f}%.")
        offset = null_offset_note(group)
        if offset:
            lines.append(f"\n{offset}")
        if posterior_note(group):
            lines.append(f"\n{posterior_note(group)}")
        caveat = bootstrap_caveat(group)
        if caveat:
            lines.append(f"\n{caveat}")
        lines.append("\n" + table4_note(group))
        lines.append("")
    return "\n".join(lines)


# ---- Table 3 -----------------------------------------------------------------------------------

def table3_markdown(rows: list[dict]) -> str:
    """Table 3, one block per comparison: each model's mean F1 over the repetitions of each
    splitting strategy, with its interval.

    Parameters
    ----------
    rows : list of dict
        Table 3's rows (:func:`table3_rows`).

    Returns
    -------
    str
        The Markdown.
    """
    lines = []
    for group in comparison_groups(rows):
        first = group[0]
        lines.append(f"### Table 3: {md_text(first['comparison'])}\n")
        lines += _context_lines(first, table3_strategies(group))
        caution = few_repetitions_caution(group, "strategy_short", snr=False)
        if caution:
            lines.append(f"- **{md_text(caution).replace(':', ':**', 1)}")
        lines.append("")
        table = []
        for r in group:
            flag = f" **(warning: {r['warning']})**" if r["warning"] else ""
            table.append([f"{r['strategy_short']} ({md_text(r['strategy'])})",
                          f"{r['model']}{flag}", md_code(r["spec"], in_table=True),
                          r["repetitions"], format_shown(r["mean_f1_points"], 2),
                          format_shown(r["standard_error_f1_points"], 3),
                          f"[{format_shown(r['low_f1_points'], 2)}, "
                          f"{format_shown(r['high_f1_points'], 2)}]"])
        lines += md_table(["Strategy", "Model", "Spec", "R", "Mean F1 (F1 points)",
                           "SE (F1 points)", "95% CI (F1 points)"], table)
        lines.append("\n" + table3_note(r["strategy_short"] for r in group) + "\n")
    return "\n".join(lines)


def table3_strategies(group: list[dict]) -> list[dict]:
    """One row of a comparison's Table 3 per strategy, named as Table 4 names its estimators
    (``estimator``: ST, RS, BCV), for the lines and captions that say what the block rests on.

    Parameters
    ----------
    group : list of dict
        Table 3's rows of one comparison.

    Returns
    -------
    list of dict
        The first row of each strategy.
    """
    first: dict[str, dict] = {}
    for r in group:
        first.setdefault(r["strategy_short"], {**r, "estimator": r["strategy_short"]})
    if list(first) == [STANDARD.short]:  # the standard split alone: said so
        return [{**first[STANDARD.short], "standard_split": True}]
    return list(first.values())


# ---- terminal ------------------------------------------------------------------------------------

def table4_text(summary: dict) -> str:
    """A terminal-friendly Table 4 of one comparison (``reprocompare summarize``).

    Parameters
    ----------
    summary : dict
        The comparison's summary.

    Returns
    -------
    str
        The text.
    """
    rows = table4_rows({"this comparison": summary})
    models = summary.get("models", {})
    lines = [f"A = {models.get('A', '?')}   B = {models.get('B', '?')}   "
             f"conclusion under test: {summary['conclusion']}"]
    if rows:
        lines += [line[2:] for line in _context_lines(rows[0], rows)[2:]]
        if rows[0]["warning"]:
            lines.append(f"warning: {rows[0]['warning']}. {advice_of(rows[0])}")
        if few_repetitions_caution(rows):
            lines.append(few_repetitions_caution(rows).replace("Caution:", "caution:", 1))
    lines += ["", f"{'estimator':<9} {'R':>5} {'mean A-B [95% CI]':>25} {'sd':>8} "
                  f"{'SNR [95% CI]':>26} {'reproducibility [95% CI]':>26} {'bound':>6}  if A = B",
              f"{'':<9} {'':>5} {'(F1 pts)':>25} {'(F1 pts)':>8}"]
    for r in rows:
        mean = (f"{r['mean_f1_points']:+.3f} [{format_shown(r['mean_low_f1_points'])}, "
                f"{format_shown(r['mean_high_f1_points'])}]")
        lines.append(f"{r['estimator']:<9} {r['repetitions']:>5} {mean:>25} "
                     f"{r['sd_f1_points']:>8.3f} "
                     f"{format_interval(r['snr'], r['snr_low'], r['snr_high']):>26} "
                     f"{format_interval(r['reproducibility'], r['reproducibility_low'], r['reproducibility_high']):>26} "
                     f"{r['chebyshev_bound']:>6.3f}  {null_offset_cell(r)}")
    if rows and rows[0]["verdict"]:
        lines += ["", "verdicts: " + "; ".join(f"{r['estimator']} {verdict_cell(r)}"
                                               for r in rows)]
    if rows and posterior_rope(rows) is not None:
        lines += ["", f"posterior P(A > B) / P(rope) / P(B > A), rope +-{posterior_rope(rows):g} "
                      "F1 points: " + "; ".join(f"{r['estimator']} {posterior_cell(r)} (rho "
                                                f"{format_shown(r['posterior_rho'])})"
                                                for r in rows)]
    if rows:
        lines += ["", *verdict_lines(rows, rows[0]["verdict_rule"], rows[0]["stopping"])]
        if null_offset_note(rows):
            lines.append(null_offset_note(rows))
        if posterior_note(rows):
            lines.append(posterior_note(rows))
        caveat = bootstrap_caveat(rows)
        if caveat:
            lines.append(caveat)
    if summary.get("per_model"):
        lines += ["", "per model over the standard-split (ST) repetitions (Table 3):"]
        for name, m in summary["per_model"].items():
            lines.append(f"  {name}: mean F1 {100 * m['mean']:.2f} F1 points, SE "
                         f"{100 * m['standard_error']:.3f}, 95% CI [{100 * m['low']:.2f}, "
                         f"{100 * m['high']:.2f}]  (R = {m['repetitions']})")
        caution = few_repetitions_caution(
            [{"estimator": name, **m} for name, m in summary["per_model"].items()], snr=False)
        if caution:
            lines.append("  " + caution.replace("Caution:", "caution:", 1))
    return "\n".join(lines) + "\n"


# ---- reproducibility of significance claims (issue 13, item 2) ------------------------------

CLAIMS_COLUMNS = (*CONTEXT_COLUMNS, "strategy", "test", "repetitions", "alpha",
                  "a_better", "share", "share_low", "share_high", "b_better",
                  "holm_family", "a_better_holm", "share_holm")
#: each test's name as a reader knows it, in the order of the strategies that run them
TEST_NAMES = {"paired_bootstrap": "paired bootstrap over sentences",
              "approximate_randomization": "approximate randomization over sentences",
              "mcnemar": "McNemar on sentence exact match",
              "corrected_resampled_t": "corrected resampled t (Nadeau-Bengio)",
              "paired_t_mx2": "m x 2 paired t (Dietterich)",
              "combined_f_mx2": "combined m x 2 F (Alpaydin)",
              "blocked_3x2_t": "blocked 3x2 t (Wang et al.)"}
# a variant's own name of a shared test (regularized BCV's) reads as the test; its row's strategy
# says which
TEST_NAMES.update({test: TEST_NAMES[kind_of_test(test)] for test in TESTS
                   if test not in TEST_NAMES})
CLAIMS_NOTE = (
    "How to read: in each of the R repetitions the test that fits the strategy was run at the "
    "given alpha; 'A significantly better' counts the repetitions where it was two-sided "
    "significant with A ahead, and the share is the reproducibility of that claim (95% "
    "Clopper-Pearson interval). A share of 0.3 means a paper claiming significance would be "
    "contradicted by 7 in 10 reruns; 'B significantly better' counts the opposite claim.")


HOLM_NOTE = (
    " After Holm: the p-values of each test in each repetition are corrected for the number of "
    "comparisons in the study (Holm 1979), as a paper reporting all of them should.")


def calibration_text(group: list[dict]) -> str:
    """The group's tests whose measured size is far from alpha (the rows' ``calibration``,
    from estimators.claims.calibration_note), as one sentence; '' when none is.

    Parameters
    ----------
    group : list of dict
        The rows of one comparison.

    Returns
    -------
    str
        The text.
    """
    # two strategies' tests share their names (the BCV's and the regularized BCV's): say whose
    several = len({r.get("strategy") for r in group}) > 1
    notes = [f"{r['strategy'] + ', ' if several else ''}{TEST_NAMES[r['test']]}: "
             f"{r['calibration']}" for r in group if r.get("calibration")]
    return " Calibration: " + "; ".join(notes) + "." if notes else ""


def claims_rows(claims: dict[str, dict], summaries: dict[str, dict],
                holm: dict[str, dict] | None = None) -> list[dict]:
    """One row per (comparison, test) from ``estimators.claims.claim_reproducibility`` dicts.

    ``claims[label]`` maps a test name to its ``ClaimReproducibility.as_dict()``;
    ``summaries[label]`` gives the context (models, corpus, typed, ...) as for Table 4.
    ``holm``, the same structure after Holm's correction across the study's comparisons (None
    for a study of one comparison, where it changes nothing), fills the ``*_holm`` columns.

    Parameters
    ----------
    claims : dict of str to dict
        Per comparison label, each test's ``ClaimReproducibility.as_dict()``.
    summaries : dict of str to dict
        The study summaries, by comparison label.
    holm : dict of str to dict, optional
        The same after Holm's correction across the comparisons.

    Returns
    -------
    list of dict
        The rows, with the columns of :data:`CLAIMS_COLUMNS`.
    """
    rows = []
    family = len(claims) if holm else 1
    for label, by_test in claims.items():
        context = {**comparison_context(label, summaries.get(label, {})),
                   "verdicts": verdicts_sentence(summaries.get(label, {}))}
        labels = _strategy_labels(summaries.get(label, {}))
        for test in TEST_NAMES:
            c = by_test.get(test)
            if c is None:
                continue
            # the test's strategy (the registry's tests), labelled as its first estimator is
            strategy = labels[of_test(test).estimators[0]]
            rows.append({**context, "strategy": strategy, "test": test,
                         "repetitions": c["repetitions"], "alpha": c["alpha"],
                         "a_better": c["a_better"], "share": c["share"],
                         "share_low": c["share_low"], "share_high": c["share_high"],
                         "b_better": c["b_better"], "holm_family": family,
                         "a_better_holm": (holm or claims)[label][test]["a_better"],
                         "share_holm": (holm or claims)[label][test]["share"]})
    return rows


def verdicts_sentence(summary: dict) -> str:
    """The Table 4 verdicts of a comparison in one sentence, for the claims table: what
    reproduces, beside how often a test would call it significant.

    Parameters
    ----------
    summary : dict
        The comparison's summary.

    Returns
    -------
    str
        The sentence, or '' without verdicts.
    """
    found = summary.get("verdicts") or {}
    if not found:
        return ""
    cells = "; ".join(f"{name} {verdict_cell(_verdict(summary, name))}"
                      for name in ESTIMATORS if name in found)
    return f"Verdicts (Table 4): {cells}."


#: the almost stochastic order's columns of the claims CSV (issue 25), filled on its rows only
ASO_COLUMNS = ("eps_min", "eps_min_b_over_a", "violation_ratio", "confidence")
#: its name in the claims table's ``test`` column
ASO_TEST = "almost_stochastic_order"
ASO_NOTE = (
    "Almost stochastic order (Dror et al. 2019, as the deepsig package computes it): eps_min "
    "bounds, at the given confidence, how far A's chunk F1 over the R repetitions falls short of "
    "being stochastically larger than B's (0: every quantile of A's F1 above B's; 0.5: no "
    "order); eps_min < 0.5 reads 'A is better than B', and likewise B over A.")


def aso_rows(aso: dict[str, dict], summaries: dict[str, dict]) -> list[dict]:
    """One row per (comparison, strategy) from the claims records' ``aso`` (estimators.aso, both
    directions), with the context of the claims rows; ``calibration`` is left to the caller.

    Parameters
    ----------
    aso : dict of str to dict
        Per comparison label, the claims records' ``aso``.
    summaries : dict of str to dict
        The study summaries, by comparison label.

    Returns
    -------
    list of dict
        The rows.
    """
    rows = []
    for label, by_strategy in aso.items():
        summary = summaries.get(label, {})
        context = comparison_context(label, summary)
        labels = _strategy_labels(summary)
        for strategy in STRATEGIES:
            a = by_strategy.get(strategy.name)
            if a is None:
                continue
            rows.append({**context, "strategy": labels[strategy.estimators[0]], "test": ASO_TEST,
                         "repetitions": a["repetitions"], "alpha": 1 - a["confidence"],
                         "a_better": None, "share": None, "share_low": None, "share_high": None,
                         "b_better": None, "holm_family": None, "a_better_holm": None,
                         "share_holm": None, "eps_min": a["eps_min"],
                         "eps_min_b_over_a": a["eps_min_b_over_a"],
                         "violation_ratio": a["violation_ratio"],
                         "confidence": a["confidence"]})
    return rows


#: Table 4's estimators that are one difference of A and B: their per-corpus p-value is a t test
#: (the mixture leans to the conclusion when A = B, so it has none)
REPLICABLE_ESTIMATORS = SINGLE


def replicability_sentence(corpora: list[str], conclusion: str, alpha: float,
                           results: dict[str, dict], p_values: dict[str, float]) -> str:
    """The partial-conjunction count of a comparison on several corpora, for the claims table:
    ``results[estimator]`` is estimators.replicability's ``as_dict()``, ``p_values`` this
    corpus's p-value per estimator.

    Parameters
    ----------
    corpora : list of str
        The corpora the comparison ran on.
    conclusion : str
        The conclusion under test.
    alpha : float
        The family-wise error rate.
    results : dict of str to dict
        Per estimator, the partial-conjunction results.
    p_values : dict of str to float
        Per estimator, this corpus's p-value.

    Returns
    -------
    str
        The text.
    """
    direction = {"A>B": "A > B", "B>A": "B > A"}.get(conclusion, conclusion)
    counts = ", ".join(f"{name} {r['count_bonferroni']} / {r['count_fisher']}"
                       for name, r in results.items())
    mine = ", ".join(f"{name} {p:.3g}" for name, p in p_values.items())
    return (f"Replicability across corpora (Dror et al. 2017, partial conjunction over the "
            f"{len(corpora)} corpora {', '.join(corpora)}; family-wise error alpha = {alpha:g}): "
            f"{direction} can be claimed on {counts} of {len(corpora)} corpora (Bonferroni / "
            f"Fisher); this corpus's p-value (one-sided Student t over its repetitions): {mine}.")


def across_corpora_lines(across: dict) -> list[str]:
    """The Bayesian signed-rank test across corpora (or samples) of one comparison, as a
    Markdown table beside the partial-conjunction count: one row per estimator.

    Parameters
    ----------
    across : dict
        ``{"units": "corpora" or "samples", "names": [...], "posteriors": {estimator: record}}``
        (:func:`reprocompare.estimators.claims.across_corpora`'s records).

    Returns
    -------
    list of str
        The lines ([] without posteriors).
    """
    posteriors = across.get("posteriors") or {}
    if not posteriors:
        return []
    rope = next(iter(posteriors.values()))["rope"]
    units, names = across["units"], across["names"]
    unit = {"corpora": "corpus", "samples": "sample"}[units]
    rows = [[name, ", ".join(f"{100 * m:+.2f}" for m in p["means"]),
             *(format_shown(p[key]) for key in ("p_a_better", "p_rope", "p_b_better"))]
            for name, p in posteriors.items()]
    largest = max(p["mc_se"] for p in posteriors.values())
    return ["", *md_table([f"Across the {len(names)} {units} (Bayesian signed-rank)",
                           f"Mean A - B per {unit} (F1 points)", "Posterior P(A > B)",
                           f"P(rope: +-{rope:g} F1 points)", "P(B > A)"], rows),
            "", md_text(f"Across {units}: the Bayesian signed-rank test (Benavoli et al. 2014) on "
                        f"each {unit}'s mean difference ({', '.join(names)}), a posterior "
                        f"for the population of {units} like these, not a count of those "
                        f"where the conclusion holds (seeded Monte Carlo, standard error at "
                        f"most {largest:.3f}; docs/bayesian.md).")]


def _aso_lines(group: list[dict]) -> list[str]:
    if not group:
        return []
    confidence = f"{100 * group[0]['confidence']:g}%"
    lines = ["", *md_table(["Strategy",
                            f"Almost stochastic order of chunk F1, {confidence} confidence",
                            "eps_min: A over B", "eps_min: B over A"],
                           [[r["strategy"], f"{r['repetitions']} scores per model",
                             format_shown(r["eps_min"]), format_shown(r["eps_min_b_over_a"])]
                            for r in group])]
    notes = [f"{r['strategy']}: {r['calibration']}" for r in group if r.get("calibration")]
    return lines + ["", ASO_NOTE + (" Calibration: " + "; ".join(notes) + "." if notes else "")]


def claims_markdown(rows: list[dict], aso: list[dict] | None = None) -> str:
    """The claims table; ``aso`` (:func:`aso_rows`) adds each comparison's almost stochastic
    order under its tests, and a row's ``replicability`` sentence follows its verdicts.

    Parameters
    ----------
    rows : list of dict
        The claims rows (:func:`claims_rows`).
    aso : list of dict, optional
        The almost stochastic order's rows (:func:`aso_rows`).

    Returns
    -------
    str
        The Markdown.
    """
    lines = []
    for group in comparison_groups(rows):
        first = group[0]
        lines.append(f"### Significance claims: {md_text(first['comparison'])}\n")
        lines += _context_lines(first, [{**first, "estimator": "", "repetitions":
                                         first["repetitions"]}])[:3]
        lines.append(f"- R = {first['repetitions']} repetitions per strategy; alpha = "
                     f"{first['alpha']:g}, two-sided")
        family = first["holm_family"]
        holm = family > 1
        header = ["Strategy", "Test", "'A significantly better' in", "share [95% CI]",
                  "'B significantly better' in"]
        header += [f"'A significantly better' after Holm ({family} comparisons)"] if holm else []
        table = [[r["strategy"], TEST_NAMES[r["test"]], f"{r['a_better']} of {r['repetitions']}",
                  format_interval(r["share"], r["share_low"], r["share_high"]),
                  f"{r['b_better']} of {r['repetitions']}",
                  *([f"{r['a_better_holm']} of {r['repetitions']}"] if holm else [])]
                 for r in group]
        lines += ["", *md_table(header, table)]
        lines += _aso_lines([r for r in aso or () if r["comparison"] == first["comparison"]])
        if first.get("verdicts"):
            lines += ["", first["verdicts"]]
        if first.get("replicability"):
            lines += ["", first["replicability"]]
        lines += across_corpora_lines(first.get("across") or {})
        lines += ["", CLAIMS_NOTE + (HOLM_NOTE if holm else "") + calibration_text(group), ""]
    return "\n".join(lines)
