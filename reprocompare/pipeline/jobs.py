"""The workflow's jobs up to the trainings as plain functions of paths and config values: the
prepared corpus, and each repetition's split and comparison (reprocompare.pipeline.report_jobs
holds the summaries and reports after them).

Each Snakemake rule's script (workflow/scripts/) is a thin adapter that calls one function here
or there; keeping them here makes every stage testable and runnable without Snakemake. Stages
read only what the stage before wrote: corpus -> splits -> comparisons -> summaries -> tables
and figures.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from reprocompare.base.errors import UserError
from reprocompare.base.files import read_json, write_json_atomic, write_text_atomic
from reprocompare.base.paths import project_path
from reprocompare.base.run_records import SETTINGS, unfinish
from reprocompare.base.seeds import SAMPLE, derive_seed
from reprocompare.strategies import strategy as strategy_of
from reprocompare.corpora.conll import (DOCSTART, Corpus, check_has_chunks, read_conll,
                                        task_corpus)
from reprocompare.corpora.subsample import subsample, too_small
from reprocompare.models import build_model, parse_spec, spec_from_mapping
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
