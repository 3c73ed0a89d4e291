"""The significance stage of the workflow: per-repetition tests and the claims table.

Data flow: every ``compare`` job wrote ``counts.tsv.gz`` (per-sentence chunk counts of A and B on
each fold) and ``scores.json`` (fold sizes). :func:`claims` reads those of one comparison on one
corpus, runs in every repetition the paired tests that fit each splitting strategy
(:func:`reprocompare.strategies.repetition_tests`) and writes them all as JSON;
:func:`claims_tables` reads every comparison's file, corrects the p-values for the comparisons
of the study (Holm, per test and repetition) and writes how often each test declared "A
significantly better than B" (the reproducibility of the significance claim) as CSV, Markdown and
LaTeX; each row carries the calibration benchmark's verdict on its test's size (the CSV column
``calibration``, :func:`reprocompare.estimators.claims.calibration_note`).

Issue 25 adds two answers beside the tests. :func:`claims` also keeps each model's score per
repetition (its chunk F1 on the hold-out, the mean over RS's first table4_k hold-outs, the mean
over the BCV folds) and the almost stochastic order of A's scores over B's, and of B's over A's,
per strategy (:mod:`reprocompare.estimators.aso`); the claims table shows them per strategy with
the size the ASO benchmark measured. For a comparison run on several corpora,
:func:`claims_tables` adds the partial-conjunction count of Dror et al. 2017 (on how many corpora
the conclusion under test can be claimed, Bonferroni and Fisher, family-wise error alpha;
:mod:`reprocompare.estimators.replicability`) beside each corpus's verdicts, and issue 52 the
Bayesian signed-rank test across those corpora (or a variation study's samples) beside it.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np

from reprocompare.base.errors import UserError
from reprocompare.base import run_records
from reprocompare.base.paths import COUNTS_FILE
from reprocompare.base.files import write_text_atomic
from reprocompare.base.seeds import derive_seed
from reprocompare.strategies import repetition_tests, strategy as strategy_of
from reprocompare.estimators import aso
from reprocompare.estimators.claims import Claim, across_corpora, calibration_note, \
    claim_reproducibility, fold_counts
from reprocompare.estimators.replicability import (corpus_p_value, one_per_content,
                                                    replicability, same_content_note)
from reprocompare.estimators.significance import corpus_f1, holm_bonferroni
from reprocompare.estimators.variance import design_array
from reprocompare.reports import latex, tables as t
from reprocompare.reports.html import markdown_html

#: a purpose code in seed paths: the resampling tests of a repetition (see reprocompare.base.seeds)
CLAIM_TESTS = 201
#: a purpose code in seed paths: the bootstrap of a strategy's almost stochastic order
ASO_TEST = 202
#: the claims table's CSV columns: the report's, then each test's calibration note ('liberal,
#: measured size ...' or 'conservative, ...'; empty when the measured size is near alpha), then
#: the almost stochastic order's columns (filled on its rows only)
CLAIMS_CSV_COLUMNS = (*t.CLAIMS_COLUMNS, "calibration", *t.ASO_COLUMNS)


def _repetition(directory: Path, strategy: str, settings: dict,
                random_state: int) -> tuple[dict, dict]:
    try:
        folds = fold_counts(run_records.read_counts(directory))
    except run_records.UnreadableCounts as error:
        raise UserError(f"not a counts table written by compare ({error.cause}); delete the "
                        "directory and rerun", path=error.path) from None
    except ValueError as error:  # no fold rows, or A and B scored on different sentences
        raise UserError(f"not a counts table written by compare ({error}); delete the "
                        "directory and rerun", path=directory / COUNTS_FILE) from None
    found = strategy_of(strategy)
    folds = found.tested_folds(folds, settings.get("strategies", {}).get(strategy, {}))
    n_train = run_records.SCORES.read(directory)["folds"][0]["n_train"] \
        if found.needs_train_size else None
    try:
        tested = repetition_tests(folds, strategy, n_train=n_train,
                                  n_resamples=settings["resamples"], random_state=random_state)
    except ValueError as error:  # a statistic these scores leave undefined: said in one line
        why = (" (A - B is the same on every fold: models that tag alike, or data samples too "
               "small to vary; a larger corpus, subsample or variation.sample_size)"
               if "are equal" in str(error) else "")
        raise UserError(f"the significance tests of this repetition cannot be computed: "
                        f"{error}{why}", path=directory) from None
    # each model's score in this repetition, as Table 4's estimators see it: ST's one hold-out,
    # RS's mean over its hold-outs, BCV's mean over its folds (Avg's per model)
    scores = {name: float(np.mean([corpus_f1(fold[name]) for fold in folds]))
              for name in ("A", "B")}
    return {name: claim.as_dict() for name, claim in tested.items()}, scores


def _aso(scores: dict[str, list[float]], settings: dict, strategy: str) -> dict:
    """eps_min of A over B and of B over A (estimators.aso) at confidence 1 - alpha, seeded
    per strategy; the bootstrap of the two directions is the same seed's."""
    seed = derive_seed(settings["seed"], settings["corpus"], settings["comparison"],
                       strategy_of(strategy).code, ASO_TEST, below=2**31 - 1)
    confidence = 1 - settings["alpha"]
    a_over_b = aso.almost_stochastic_order(scores["A"], scores["B"],
                                           confidence_level=confidence, random_state=seed)
    b_over_a = aso.almost_stochastic_order(scores["B"], scores["A"],
                                           confidence_level=confidence, random_state=seed)
    return {"repetitions": len(scores["A"]), "confidence": a_over_b.confidence_level,
            "n_bootstrap": a_over_b.n_bootstrap, "eps_min": a_over_b.eps_min,
            "violation_ratio": a_over_b.violation_ratio, "eps_min_b_over_a": b_over_a.eps_min,
            "violation_ratio_b_over_a": b_over_a.violation_ratio}


def claims(counts_paths: list[str], settings: dict, out: str) -> None:
    """Every repetition's tests of one comparison on one corpus, as JSON.

    ``settings``: :func:`reprocompare.pipeline.provenance.summary` (corpus, comparison, seed, alpha,
    resamples, the strategies' settings). The resampling tests of repetition r of strategy s are seeded by
    ``derive_seed(seed, corpus, comparison, s, r, CLAIM_TESTS)``: adding repetitions never
    changes the tests of the existing ones. With each strategy's scores of A and B per
    repetition (``scores``) goes their almost stochastic order (``aso``), seeded by
    ``derive_seed(seed, corpus, comparison, s, ASO_TEST)``.

    Parameters
    ----------
    counts_paths : list of str
        The counts.tsv.gz of every repetition of every strategy.
    settings : dict
        The comparison's settings.
    out : str
        The file written.
    """
    by_strategy: dict[str, dict[int, dict]] = {}
    scores: dict[str, dict[int, dict]] = {}
    for path in counts_paths:
        directory = Path(path).parent
        strategy, repetition = directory.parent.name, int(directory.name.removeprefix("rep"))
        seed = derive_seed(settings["seed"], settings["corpus"], settings["comparison"],
                           strategy_of(strategy).code, repetition, CLAIM_TESTS, below=2**31 - 1)
        print(f"{strategy} rep{repetition}: tests", file=sys.stderr, flush=True)
        tested, scored = _repetition(directory, strategy, settings, seed)
        by_strategy.setdefault(strategy, {})[repetition] = tested
        scores.setdefault(strategy, {})[repetition] = scored
    per_model = {strategy: {name: [reps[r][name] for r in sorted(reps)] for name in ("A", "B")}
                 for strategy, reps in scores.items()}
    run_records.CLAIMS.write_file(out, {
        "comparison": settings["comparison"], "corpus": settings["corpus"],
        "alpha": settings["alpha"], "resamples": settings["resamples"],
        "repetitions": {strategy: [reps[r] for r in sorted(reps)]
                        for strategy, reps in by_strategy.items()},
        "scores": per_model,
        "aso": {strategy: _aso(pair, settings, strategy) for strategy, pair in per_model.items()
                if len(pair["A"]) >= 2}})


def _holm(records: list[dict], alpha: float) -> list[dict]:
    """The records with every p-value Holm-adjusted across the comparisons, per test and
    repetition (the family is the study's comparisons: one claim per comparison)."""
    adjusted = [{**r, "repetitions": {s: [dict(rep) for rep in reps]
                                      for s, reps in r["repetitions"].items()}}
                for r in records]
    tests = {(s, i, name) for r in records for s, reps in r["repetitions"].items()
             for i, rep in enumerate(reps) for name in rep}
    for strategy, i, name in sorted(tests):
        members = [r for r in adjusted if len(r["repetitions"].get(strategy, [])) > i
                   and name in r["repetitions"][strategy][i]]
        p = holm_bonferroni([m["repetitions"][strategy][i][name]["p_value"] for m in members],
                            alpha).p_adjusted
        for member, value in zip(members, p):
            claim = member["repetitions"][strategy][i][name]
            member["repetitions"][strategy][i][name] = {**claim, "p_value": float(value)}
    return adjusted


def _reproducibility(record: dict, alpha: float) -> dict[str, dict]:
    out = {}
    for reps in record["repetitions"].values():
        per_repetition = [{name: Claim(**claim) for name, claim in rep.items()} for rep in reps]
        out.update({name: c.as_dict()
                    for name, c in claim_reproducibility(per_repetition, alpha).items()})
    return out


def _replicability(runs: list[dict], alpha: float) -> dict[str, str]:
    """The partial-conjunction sentence of every comparison run on two corpora or more, keyed
    by "comparison on corpus": per estimator that is one difference of A and B, each corpus's
    one-sided t p-value over its repetitions, and k-hat (Bonferroni, Fisher) at ``alpha``.
    Corpora of the same sentences (sha256) count once (estimators.replicability.
    one_per_content), and the sentence says so; one corpus under two names has no partial
    conjunction."""
    sentences = {}
    for comparison in dict.fromkeys(r["comparison"] for r in runs):
        members = [r for r in runs if r["comparison"] == comparison]
        if len(members) < 2:
            continue
        sha256 = [m["summary"].get("corpus_sha256") for m in members]
        kept, same_as = one_per_content([m["corpus"] for m in members], sha256)
        note = same_content_note(same_as, {m["corpus"]: s for m, s in zip(members, sha256)}) \
            if same_as else ""
        if len(kept) < 2:
            for member in members:
                sentences[f"{comparison} on {member['corpus']}"] = (
                    f"Replicability across corpora: not computed, the {len(members)} corpora "
                    f"are one. {note}")
            continue
        conclusion = members[0]["summary"].get("conclusion", "A>B")
        p_values, results = {}, {}
        for name in t.REPLICABLE_ESTIMATORS:
            if all(len(m["values"].get(name, ())) >= 2 for m in members):
                p_values[name] = [corpus_p_value(m["values"][name], conclusion) for m in members]
                results[name] = replicability([p_values[name][i] for i in kept],
                                              alpha).as_dict()
        if not results:
            continue
        corpora = [members[i]["corpus"] for i in kept]
        for i, member in enumerate(members):
            sentence = t.replicability_sentence(corpora, conclusion, alpha, results,
                                                {n: p[i] for n, p in p_values.items()})
            sentences[f"{comparison} on {member['corpus']}"] = \
                f"{sentence} {note}" if note else sentence
    return sentences


def _posterior_rope(runs: list[dict]) -> float | None:
    """The rope the summaries' posteriors read (one per study), or None for summaries written
    before issue 52."""
    return next((p["rope"] for r in runs
                 for p in (r["summary"].get("posteriors") or {}).values()), None)


def _across(runs: list[dict]) -> dict[str, dict]:
    """The Bayesian signed-rank test across the corpora of every comparison run on two or more
    (one per content, as the partial conjunction counts them), and across the samples of a
    variation study's corpus, keyed by "comparison on corpus"
    (:func:`reprocompare.estimators.claims.across_corpora`, at the summaries' rope)."""
    rope = _posterior_rope(runs)
    if rope is None:
        return {}
    found = {}
    for comparison in dict.fromkeys(r["comparison"] for r in runs):
        members = [r for r in runs if r["comparison"] == comparison]
        kept, _ = one_per_content([m["corpus"] for m in members],
                                  [m["summary"].get("corpus_sha256") for m in members])
        if len(kept) >= 2:
            groups = {name: [members[i]["values"][name] for i in kept]
                      for name in t.REPLICABLE_ESTIMATORS
                      if all(len(members[i]["values"].get(name, ())) >= 2 for i in kept)}
            across = {"units": "corpora", "names": [members[i]["corpus"] for i in kept],
                      "posteriors": across_corpora(groups, rope=rope)}
            for member in members:
                found[f"{comparison} on {member['corpus']}"] = across
            continue
        for member in members:  # one corpus: a variation study's samples, when it drew some
            variation = member.get("variation") or {}
            samples = variation.get("samples", 1)
            if samples < 2:
                continue
            groups = {name: [list(sample.ravel()) for sample in design_array(
                          member["values"][name], samples, variation["seeds"])[0]]
                      for name in t.REPLICABLE_ESTIMATORS
                      if len(member["values"].get(name, ())) >= 2 * samples}
            found[f"{comparison} on {member['corpus']}"] = {
                "units": "samples", "names": [f"sample {i}" for i in range(samples)],
                "posteriors": across_corpora(groups, rope=rope)}
    return found


def claims_tables(claims_paths: list[str], summary_paths: list[str],
                  outputs: dict[str, str]) -> None:
    """The claims table (CSV, Markdown, LaTeX) of every comparison, with Holm across them, the
    almost stochastic order per strategy and, for a comparison on several corpora, the
    partial-conjunction count beside each corpus's verdicts (CSV and Markdown).

    Parameters
    ----------
    claims_paths : list of str
        The claims records (:func:`claims`).
    summary_paths : list of str
        The comparisons' summaries.
    outputs : dict of str to str
        The files written, by kind (csv, md, html, tex, wide_tex).
    """
    records = [run_records.CLAIMS.read_file(p) for p in claims_paths]
    summaries, runs = {}, []
    for path in summary_paths:
        record = run_records.SUMMARY.read_file(path)
        summaries[f"{record['comparison']} on {record['corpus']}"] = record["summary"]
        runs.append(record)
    labels = [f"{r['comparison']} on {r['corpus']}" for r in records]
    alpha = records[0]["alpha"] if records else 0.05
    plain = {label: _reproducibility(r, alpha) for label, r in zip(labels, records)}
    holm = {label: _reproducibility(r, alpha)
            for label, r in zip(labels, _holm(records, alpha))} if len(records) > 1 else None
    replicable = _replicability(runs, alpha)
    across = _across(runs)
    rows = [{**row, "calibration": calibration_note(row["test"]),
             **{column: None for column in t.ASO_COLUMNS},
             **({"replicability": replicable[row["comparison"]]}
                if row["comparison"] in replicable else {}),
             **({"across": across[row["comparison"]]} if row["comparison"] in across else {})}
            for row in t.claims_rows(plain, summaries, holm=holm)]
    # claims records written before issue 25 have no "aso": their tables have no ASO rows
    aso_rows = [{**row, "calibration": aso.calibration_note(row["repetitions"])}
                for row in t.aso_rows({label: r["aso"] for label, r in zip(labels, records)
                                       if r.get("aso")}, summaries)]
    write_text_atomic(outputs["csv"], t.to_csv(rows + aso_rows, CLAIMS_CSV_COLUMNS))
    markdown = t.claims_markdown(rows, aso_rows)
    write_text_atomic(outputs["md"], markdown)
    write_text_atomic(outputs["html"], markdown_html(markdown, "Significance claims"))
    write_text_atomic(outputs["tex"], latex.claims_latex(rows, aso_rows))
    write_text_atomic(outputs["wide_tex"], latex.claims_wide_latex(rows, aso_rows))
