"""The workflow's jobs as plain functions of paths and config values.

Each Snakemake rule's script (workflow/scripts/) is a thin adapter that calls one function here;
keeping them here makes every stage testable and runnable without Snakemake. Stages read only
what the stage before wrote: corpus -> splits -> comparisons -> summaries -> tables and figures.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from reprocompare.base.errors import UserError
from reprocompare.base.files import read_json, write_json_atomic, write_text_atomic
from reprocompare.base.paths import project_path
from reprocompare.strategies.repeated_holdout import TABLE4_K
from reprocompare.base.run_records import CLAIMS, SETTINGS, SUMMARY, read_split, unfinish
from reprocompare.base.seeds import SAMPLE, derive_seed
from reprocompare.strategies import ESTIMATORS, strategy as strategy_of
from reprocompare.strategies.repeated_holdout import reported_k
from reprocompare.corpora.conll import (DOCSTART, Corpus, check_has_chunks, read_conll,
                                        task_corpus)
from reprocompare.corpora.subsample import subsample, too_small
from reprocompare.estimators.variance import decompose, design_array
from reprocompare.models import build_model, parse_spec, spec_from_mapping
from reprocompare.reports import latex, tables as t, variance as v
from reprocompare.reports.front import answer_rst
from reprocompare.reports.html import markdown_html
from reprocompare.search.config import load_best
from reprocompare.splitters import split_document
from reprocompare.study.compare import read_kept_folds, run_comparison, write_comparison
from reprocompare.study.variation import indices


# ---- corpus ------------------------------------------------------------------------------------

def conll_text(corpus: Corpus) -> str:
    """The corpus as a clean CoNLL file: token, feature columns, tag (the reader's defaults).

    A ``-DOCSTART-`` line opens every document, so that ``keep_documents`` sees the documents in
    the copy as in the source.

    Parameters
    ----------
    corpus : Corpus
        The corpus.

    Returns
    -------
    str
        The file's text.
    """
    lines = []
    doc = 0
    for sentence in corpus.sentences:
        if sentence.doc != doc:
            lines += [DOCSTART, ""]
            doc = sentence.doc
        for i, token in enumerate(sentence.tokens):
            lines.append(" ".join([token, *(column[i] for column in sentence.features),
                                   sentence.tags[i]]))
        lines.append("")
    return "\n".join(lines) + "\n"


def prepare_corpus(source: str, settings: dict, out_conll: str, out_info: str) -> None:
    """Read, validate and (optionally) subsample a corpus; write it as a clean CoNLL file.

    ``source`` is the corpus file (the rule's input); ``settings``
    (:func:`reprocompare.pipeline.provenance.corpus`) how to read it, with its sha256.

    Parameters
    ----------
    source : str
        The corpus file.
    settings : dict
        The job's settings (:func:`reprocompare.pipeline.provenance.corpus`).
    out_conll : str
        The clean copy written.
    out_info : str
        The corpus's record written.
    """
    corpus = read_conll(source, token_column=settings["token_column"],
                        tag_column=settings["tag_column"], scheme=settings["scheme"],
                        ill_formed=settings["ill_formed"])
    check_has_chunks(corpus)
    source_sha256, n_source = corpus.sha256, len(corpus)
    part = settings.get("subsample_part", 0)
    if settings.get("subsample") is not None:
        if (part + 1) * settings["subsample"] > len(corpus):
            raise UserError(too_small(settings["subsample"], part, len(corpus)),
                            key="subsample_part" if part else "subsample", path=source)
        corpus = subsample(corpus, settings["subsample"], settings["subsample_seed"], part)
    text = conll_text(corpus)
    write_text_atomic(out_conll, text)
    # validated above; ill_formed: keep must survive the copy too
    prepared = read_conll(out_conll, scheme=corpus.scheme, ill_formed="keep")
    write_json_atomic(out_info, {
        # where it was first prepared from: the copy follows the content, not the path
        "source": project_path(source), "source_sha256": source_sha256,
        "source_sentences": n_source, "sentences": len(prepared),
        "tokens": prepared.n_tokens, "scheme": prepared.scheme, "sha256": prepared.sha256,
        "subsample": settings.get("subsample"), "subsample_seed": settings.get("subsample_seed"),
        # which of the seed's disjoint subsamples (parts of one seed share no sentence), from
        # part 1 on: part 0 is the subsample as recorded before parts existed, byte for byte
        **({"subsample_part": part} if part and settings.get("subsample") else {})})


def load_prepared(conll_path: str, info_path: str | None = None) -> Corpus:
    """The corpus job's clean copy (validated when it was written: ill-formed sentences kept).

    Parameters
    ----------
    conll_path : str
        The clean copy.
    info_path : str, optional
        The corpus's record (its scheme); without it the scheme is detected.

    Returns
    -------
    Corpus
        The corpus.
    """
    scheme = read_json(info_path)["scheme"] if info_path else "auto"
    return read_conll(conll_path, scheme=scheme, ill_formed="keep")


# ---- splits ------------------------------------------------------------------------------------

def make_split(corpus: Corpus, corpus_conll: str, settings: dict, repetition: int) -> dict:
    """The split document of one repetition of one strategy on one corpus.

    ``settings``: :func:`reprocompare.pipeline.provenance.split` (strategy, its ratio/k/m, the corpus's
    seed, keep_documents).

    Parameters
    ----------
    corpus : Corpus
        The corpus.
    corpus_conll : str
        Its clean copy's path, recorded in the split.
    settings : dict
        The job's settings (:func:`reprocompare.pipeline.provenance.split`).
    repetition : int
        The repetition's number.

    Returns
    -------
    dict
        The split document.
    """
    options = {key: settings[key] for key in strategy_of(settings["strategy"]).settings
               if key in settings}
    try:
        return split_document(settings["strategy"], len(corpus),
                              groups=corpus.docs if settings["keep_documents"] else None,
                              corpus_sha256=corpus.sha256, seed=settings["seed"],
                              repetition=repetition, tags=corpus.tags, **options)
    except ValueError as error:
        raise UserError(str(error), path=corpus_conll) from None


# ---- comparisons -------------------------------------------------------------------------------

def compare(corpus_conll: str, corpus_info: str, settings: dict, repetition: int, out_dir: str,
            threads: int = 1, best_paths: list[str] = ()) -> None:
    """Split the corpus for one repetition, train the comparison's A and B on every fold, and
    write the split, the estimates and the counts.

    ``settings``: :func:`reprocompare.pipeline.provenance.compare` (the split's settings, the specs of A
    and B, typed, voting, keep_predictions, device). ``best_paths``: with ``search.feed_best``, the search's best
    configurations of the searched models, which then replace their specs.

    Parameters
    ----------
    corpus_conll : str
        The corpus job's clean copy of the corpus.
    corpus_info : str
        The corpus job's record.
    settings : dict
        The job's settings (:func:`reprocompare.pipeline.provenance.compare`).
    repetition : int
        The repetition's number.
    out_dir : str
        The repetition's directory.
    threads : int, default 1
        Threads per model.
    best_paths : list of str, default ()
        The search's best configurations, with ``search.feed_best``.
    """
    best = load_best(best_paths)
    specs = {side: (spec_from_mapping(settings[side]["name"], best[settings[side]["name"]]
                                      ["mapping"])
                    if settings[side]["name"] in best else parse_spec(settings[side]["spec"]))
             for side in ("A", "B")}
    models = {name: build_model(spec) for name, spec in specs.items()}
    for model in models.values():  # the job's threads and device go to models that use them
        if "device" in model.get_params():
            model.set_params(device=settings.get("device", "cpu"), num_threads=max(1, threads))
    # split as read, then cut to the task: a split that reads the tags (regularized BCV) is
    # the same for a typed and an untyped comparison of one corpus, as every other split is
    corpus, split = _repetition(load_prepared(corpus_conll, corpus_info), corpus_conll,
                                settings, repetition)
    corpus = task_corpus(corpus, typed=settings["typed"],
                         train_typed=settings.get("train_typed", False))
    kept = _kept_folds(out_dir, settings, split, corpus)
    # the earlier run is read: from here on the directory is incomplete until estimates.json
    unfinish(out_dir)
    # what the outputs depend on, beside them: a study committed without Snakemake's metadata
    # is checked against its config from this (reprocompare.commands.resume)
    SETTINGS.write(out_dir, settings)
    started = time.perf_counter()
    run = run_comparison(corpus, split, models, {n: str(s) for n, s in specs.items()},
                         typed=settings["typed"], voting=settings.get("voting", "chunk"),
                         kept=kept, train_typed=settings.get("train_typed"))
    write_comparison(run, corpus, out_dir, keep_predictions=settings["keep_predictions"])
    print(f"done in {time.perf_counter() - started:.1f} s", file=sys.stderr)


def _repetition(corpus: Corpus, corpus_conll: str, settings: dict,
                repetition: int) -> tuple[Corpus, dict]:
    """The corpus and split of one repetition: the paper's design (a new split of the corpus),
    or its sample, split and seed in a design of ``variation`` (reprocompare.study.variation)."""
    variation = settings.get("variation")
    if variation is None:
        return corpus, make_split(corpus, corpus_conll, settings["split"], repetition)
    at = indices(variation, repetition)
    if variation["sample_size"] is not None:
        if variation["sample_size"] >= len(corpus):
            raise UserError(f"a sample of {variation['sample_size']} sentences needs a larger "
                            f"corpus than {len(corpus)} sentences", path=corpus_conll,
                            key="variation.sample_size")
        corpus = subsample(corpus, variation["sample_size"],
                           derive_seed(settings["split"]["seed"], SAMPLE, at.sample))
    split = make_split(corpus, corpus_conll, settings["split"], at.split_key)
    # the repetition's own number (its models' seeds come from it) and where it sits
    split["repetition"] = repetition
    split["variation"] = {"sample": at.sample, "split": at.split, "seed": at.seed}
    return corpus, split


def _kept_folds(out_dir: str, settings: dict, split: dict, corpus: Corpus) -> dict:
    """The hold-outs an earlier random-splits job in ``out_dir`` trained with the same settings.

    The rule's outputs are flagged ``update`` (Snakemake keeps them, and restores them if the job
    fails), so a job rerun because max(k) changed finds its earlier hold-outs here: it trains only
    the new ones (raising max(k)) or none (lowering it). Any other change of settings trains
    every fold again.
    """
    grows = strategy_of(settings["split"]["strategy"]).grows
    if grows is None:  # a strategy whose folds change with every setting
        return {}
    try:
        earlier = SETTINGS.read(out_dir)
    except UserError:  # no earlier run, or one cut off: train every fold
        return {}

    def without_growth(record):
        return {**record, "split": {k: v for k, v in record.get("split", {}).items()
                                    if k != grows}}

    if not isinstance(earlier, dict) or without_growth(earlier) != without_growth(settings):
        return {}
    kept, why = read_kept_folds(out_dir, split, corpus, typed=settings["typed"])
    if settings["keep_predictions"] and any(len(f.predictions) < 2 for f in kept.values()):
        kept, why = {}, "the earlier predictions are missing"
    if why:
        print(f"training every hold-out: {why}", file=sys.stderr)
    elif kept:
        print(f"{len(kept)} of {len(split['folds'])} hold-outs kept from the earlier run",
              file=sys.stderr)
    return kept


# ---- summaries, tables, figures ----------------------------------------------------------------

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
