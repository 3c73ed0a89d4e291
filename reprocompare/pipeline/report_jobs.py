"""The workflow's jobs after the trainings, as plain functions of paths and config values: the
summary of each comparison, then the tables, figures, front page and variance decomposition of
the study (reprocompare.pipeline.jobs holds the jobs up to the trainings).

Apart from :mod:`reprocompare.pipeline.jobs` so that a training job, which a study runs hundreds
of times as a fresh process, imports none of the report writers (about 0.07 CPU s a job).
"""

from __future__ import annotations

import sys
from pathlib import Path

from reprocompare.base.errors import UserError
from reprocompare.base.files import write_text_atomic
from reprocompare.base.run_records import CLAIMS, SUMMARY, read_split
from reprocompare.estimators.variance import decompose, design_array
from reprocompare.reports import latex, tables as t, variance as v
from reprocompare.reports.front import answer_rst
from reprocompare.reports.html import markdown_html
from reprocompare.strategies import ESTIMATORS, strategy as strategy_of
from reprocompare.strategies.repeated_holdout import reported_k

def summarize(estimate_paths: list[str], settings: dict, out: str) -> None:
    """Table 3/4 and Figure 1/2 material of one comparison on one corpus, as JSON.

    ``settings``: :func:`reprocompare.pipeline.provenance.summary`. The summary records them (corpus, the
    specs of A and B, typed, every strategy's ratio, k and m), so that the reports label each
    number with the run's own settings, and names a model whose F1 is 0 on every fold.

    Parameters
    ----------
    estimate_paths : list of str
        The estimates.json of every repetition of the comparison.
    settings : dict
        The job's settings (:func:`reprocompare.pipeline.provenance.summary`).
    out : str
        The summary written.
    """
    # lazy: scipy, for the summary jobs
    from reprocompare.study.summary import estimator_values, load_estimates, summarize_records

    directories = sorted({str(Path(p).parent) for p in estimate_paths})
    table4_k = reported_k(settings["strategies"])
    records = [load_estimates(d) for d in directories]  # each run read and verified once
    summary = summarize_records(records, conclusion=settings["conclusion"], table4_k=table4_k,
                                random_state=settings["seed"],
                                verdict_settings=settings.get("verdict"),
                                stopping=settings.get("stopping"))
    values = estimator_values(records, table4_k, settings["conclusion"])
    for name, strategy_settings in settings["strategies"].items():
        strategy_of(name).asked(summary, values, strategy_settings)
    degenerate = summary["degenerate"]
    warnings = [f"model {side} ({settings['model_names'][side]}: {summary['models'][side]}) has "
                f"F1 = 0 on every fold of every repetition on {settings['corpus']}: it learned "
                "nothing, and a comparison with it says nothing about the other model. "
                + t.DEGENERATE_ADVICE
                for side in degenerate]
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    # the specs the runs trained (with search.feed_best, the search's best, not the config's)
    run = {"models": summary["models"], **{key: settings[key] for key in (
        "corpus", "model_names", "typed", "strategies", "repetitions", "seed")},
           **{key: settings[key] for key in ("train_typed", "model_labels", "corpus_label",
                                             "variation") if key in settings}}
    # every repetition split the same prepared corpus: its size labels the tables
    sentences = read_split(directories[0])["n_sentences"]
    summary.update(run, warnings=warnings, sentences=sentences)
    variation = settings.get("variation")
    if variation and variation.get("decompose"):
        summary["variance"] = _decomposition(values, variation, settings["seed"])
    SUMMARY.write_file(out, {"comparison": settings["comparison"], "corpus": settings["corpus"],
                        **run, "summary": summary, "values": values})


def _decomposition(values: dict, variation: dict, seed: int) -> dict:
    """Every Table 4 estimator's variance by source (estimators.variance), on the design's
    nested array of its R estimates."""
    found = {}
    for name in ESTIMATORS:
        if name in values:
            y, sources = design_array(values[name], variation["samples"], variation["seeds"])
            found[name] = decompose(y, sources, random_state=seed).as_dict()
    return found


def variance(summary_paths: list[str], outputs: dict[str, str]) -> None:
    """The variance decomposition's table (CSV, Markdown, HTML, LaTeX) and figure.

    Parameters
    ----------
    summary_paths : list of str
        The comparisons' summaries.
    outputs : dict of str to str
        The files written, by kind.
    """
    records = _summaries(summary_paths)
    rows = v.variance_rows({_label(r): r["summary"] for r in records})
    if not rows:
        raise UserError("no summary holds a variance decomposition: set variation.decompose "
                        "(and rerun the summaries)", key="variation.decompose")
    markdown = v.variance_markdown(rows)
    write_text_atomic(outputs["csv"], v.variance_csv(rows))
    write_text_atomic(outputs["md"], markdown)
    write_text_atomic(outputs["html"], markdown_html(markdown, "Variance by source"))
    write_text_atomic(outputs["tex"], v.variance_latex(rows))
    v.variance_figure(rows, outputs["figure"][: -len(".png")])


def _label(record: dict) -> str:
    """What tables and figures call a summary: its comparison on its corpus's label (unique
    among the corpora, :func:`reprocompare.study.config.validate`), else the corpus's name."""
    return f"{record['comparison']} on {record.get('corpus_label') or record['corpus']}"


def _summaries(paths: list[str]) -> list[dict]:
    return [SUMMARY.read_file(p) for p in paths]


def tables(summary_paths: list[str], outputs: dict[str, str],
           claims_paths: list[str] | None = None) -> None:
    """Table 3 and Table 4 as CSV, Markdown and LaTeX.

    Parameters
    ----------
    summary_paths : list of str
        The comparisons' summaries.
    outputs : dict of str to str
        The files written, by kind.
    claims_paths : list of str, optional
        The comparisons' claims records: their per-model scores give Table 3 for every
        strategy (without them, the standard split's, from the summaries).
    """
    records = _summaries(summary_paths)
    summaries = {_label(r): r["summary"] for r in records}
    labels = {(r["comparison"], r["corpus"]): _label(r) for r in records}
    scores = {}
    for claims in map(CLAIMS.read_file, claims_paths or []):
        label = labels.get((claims["comparison"], claims["corpus"]))
        if label is not None:
            scores[label] = claims["scores"]
    table4 = t.table4_rows(summaries)
    table3 = t.table3_rows(summaries, scores)
    write_text_atomic(outputs["table4_csv"], t.to_csv(table4, t.TABLE4_COLUMNS))
    markdown4, markdown3 = t.table4_markdown(table4), t.table3_markdown(table3)
    write_text_atomic(outputs["table4_md"], markdown4)
    write_text_atomic(outputs["table4_html"], markdown_html(markdown4, "Table 4"))
    write_text_atomic(outputs["table4_tex"], latex.table4_latex(table4))
    write_text_atomic(outputs["table4_wide_tex"], latex.table4_wide_latex(table4))
    write_text_atomic(outputs["table3_csv"], t.to_csv(table3, t.TABLE3_COLUMNS))
    write_text_atomic(outputs["table3_md"], markdown3)
    write_text_atomic(outputs["table3_html"], markdown_html(markdown3, "Table 3"))
    write_text_atomic(outputs["table3_tex"], latex.table3_latex(table3))


def front_page(summary_paths: list[str], claims_paths: list[str], description: str,
               out: str) -> None:
    """The report's front page (reports.front): the answer of every comparison, the tests
    measured liberal among those the study ran, then the description of how it was run.

    Parameters
    ----------
    summary_paths : list of str
        The comparisons' summaries.
    claims_paths : list of str
        The claims records.
    description : str
        How the study was run (reStructuredText).
    out : str
        The page written.
    """
    from reprocompare.estimators.claims import calibration_note  # lazy: scipy

    records = _summaries(summary_paths)
    table4 = t.table4_rows({_label(r): r["summary"] for r in records})
    tests = sorted({test for path in claims_paths
                    for repetitions in CLAIMS.read_file(path)["repetitions"].values()
                    for repetition in repetitions for test in repetition})
    liberal = {t.TEST_NAMES.get(test, test): note for test in tests
               if (note := calibration_note(test)).startswith("liberal")}
    write_text_atomic(out, answer_rst(table4, liberal)
                      + Path(description).read_text(encoding="utf-8"))


def figures(summary_paths: list[str], figure1_stem: str, figure2_stem: str) -> None:
    """Figure 1 (SNR and reproducibility against k) and Figure 2 (estimator box plots).

    Parameters
    ----------
    summary_paths : list of str
        The comparisons' summaries.
    figure1_stem, figure2_stem : str
        The figures' paths without their suffix.
    """
    from reprocompare.reports.figures import figure1, figure2, shown_models  # lazy: matplotlib

    records = _summaries(summary_paths)
    figure1({_label(r): r["summary"] for r in records}, figure1_stem)
    figure2({_label(r): {"values": r["values"], "models": shown_models(r["summary"]),
                         "strategies": r["summary"].get("strategies"),
                         "table4_k": r["summary"].get("table4_k")}
             for r in records}, figure2_stem)
