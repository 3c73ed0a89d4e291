"""The significance stage of the workflow: per-repetition tests and the claims table.

Data flow: every ``compare`` job wrote ``counts.tsv.gz`` (per-sentence chunk counts of A and B on
each fold) and ``scores.json`` (fold sizes). :func:`claims` reads those of one comparison on one
corpus, runs in every repetition the paired tests that fit each splitting strategy
(:func:`reprocompare.estimators.claims.repetition_tests`) and writes them all as JSON;
:func:`claims_tables` reads every comparison's file, corrects the p-values for the comparisons
of the study (Holm, per test and repetition) and writes how often each test declared "A
significantly better than B" (the reproducibility of the significance claim) as CSV, Markdown and
LaTeX; each row carries the calibration benchmark's verdict on its test's size (the CSV column
``calibration``, :func:`reprocompare.estimators.claims.calibration_note`).
"""

from __future__ import annotations

import dataclasses
import gzip
import sys
from pathlib import Path

from reprocompare.errors import UserError
from reprocompare.estimators.claims import Claim, calibration_note, claim_reproducibility, \
    read_counts, repetition_tests
from reprocompare.estimators.significance import holm_bonferroni
from reprocompare.io import write_json_atomic, write_text_atomic
from reprocompare.jobs import read_json
from reprocompare.reports import latex, tables as t
from reprocompare.seeds import STRATEGY_CODES, derive_seed

#: a purpose code in seed paths: the resampling tests of a repetition (see reprocompare.seeds)
CLAIM_TESTS = 201
#: the claims table's CSV columns: the report's, then each test's calibration note ('liberal,
#: measured size ...' or 'conservative, ...'; empty when the measured size is near alpha)
CLAIMS_CSV_COLUMNS = (*t.CLAIMS_COLUMNS, "calibration")


def _repetition(directory: Path, strategy: str, settings: dict, random_state: int) -> dict:
    counts_path = directory / "counts.tsv.gz"
    try:
        folds = read_counts(gzip.decompress(counts_path.read_bytes()).decode("utf-8"))
    except (OSError, EOFError, UnicodeDecodeError, ValueError) as error:
        raise UserError(f"not a counts table written by compare ({error}); delete the "
                        "directory and rerun", path=counts_path) from None
    n_train = None
    if strategy == "repeated-holdout":
        # RS as Table 4 reports it: the first table4_k of the max(k) hold-outs (prefix-stable)
        folds = folds[:settings["strategies"]["repeated-holdout"]["table4_k"]]
        n_train = read_json(directory / "scores.json")["folds"][0]["n_train"]
    tested = repetition_tests(folds, strategy, n_train=n_train,
                              n_resamples=settings["resamples"], random_state=random_state)
    return {name: claim.as_dict() for name, claim in tested.items()}


def claims(counts_paths: list[str], settings: dict, out: str) -> None:
    """Every repetition's tests of one comparison on one corpus, as JSON.

    ``settings``: :func:`reprocompare.provenance.summary` (corpus, comparison, seed, alpha,
    resamples, the strategies' settings). The resampling tests of repetition r of strategy s are seeded by
    ``derive_seed(seed, corpus, comparison, s, r, CLAIM_TESTS)``: adding repetitions never
    changes the tests of the existing ones.
    """
    by_strategy: dict[str, dict[int, dict]] = {}
    for path in counts_paths:
        directory = Path(path).parent
        strategy, repetition = directory.parent.name, int(directory.name.removeprefix("rep"))
        seed = derive_seed(settings["seed"], settings["corpus"], settings["comparison"],
                           STRATEGY_CODES[strategy], repetition, CLAIM_TESTS, below=2**31 - 1)
        print(f"{strategy} rep{repetition}: tests", file=sys.stderr, flush=True)
        by_strategy.setdefault(strategy, {})[repetition] = _repetition(directory, strategy,
                                                                       settings, seed)
    write_json_atomic(out, {
        "comparison": settings["comparison"], "corpus": settings["corpus"],
        "alpha": settings["alpha"], "resamples": settings["resamples"],
        "repetitions": {strategy: [reps[r] for r in sorted(reps)]
                        for strategy, reps in by_strategy.items()}})


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


def claims_tables(claims_paths: list[str], summary_paths: list[str],
                  outputs: dict[str, str]) -> None:
    """The claims table (CSV, Markdown, LaTeX) of every comparison, with Holm across them."""
    records = [read_json(p) for p in claims_paths]
    summaries = {}
    for path in summary_paths:
        record = read_json(path)
        summaries[f"{record['comparison']} on {record['corpus']}"] = record["summary"]
    labels = [f"{r['comparison']} on {r['corpus']}" for r in records]
    alpha = records[0]["alpha"] if records else 0.05
    plain = {label: _reproducibility(r, alpha) for label, r in zip(labels, records)}
    holm = {label: _reproducibility(r, alpha)
            for label, r in zip(labels, _holm(records, alpha))} if len(records) > 1 else None
    rows = [{**row, "calibration": calibration_note(row["test"])}
            for row in t.claims_rows(plain, summaries, holm=holm)]
    write_text_atomic(outputs["csv"], t.to_csv(rows, CLAIMS_CSV_COLUMNS))
    write_text_atomic(outputs["md"], t.claims_markdown(rows))
    write_text_atomic(outputs["tex"], latex.claims_latex(rows))
    write_text_atomic(outputs["wide_tex"], latex.claims_wide_latex(rows))
