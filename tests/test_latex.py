"""LaTeX that pastes into a two-column paper (issue 24, item 1).

Every table the workflow writes, in both widths, compiled with pdflatex in a two-column article:
no overfull box (nothing runs into the margin or the other column), no shrinking, no filesystem
path, short labels in the captions. The inputs are every committed study's summaries (real
numbers of every shape the studies produce) and a user's worst case: a command tagger named by
an absolute path, long labels, two comparisons (the Holm column).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import ROOT
from reprocompare.pipeline.significance_jobs import claims_tables
from reprocompare.reports import latex
from reprocompare.reports.tables import table3_rows, table4_rows
from test_tables import assert_compiles_and_fits, make_summary, require_pdflatex

STUDIES = sorted(p.parent.parent.parent.parent for p in
                 ROOT.glob("studies/*/results/summaries/*/*.json"))
STUDIES = sorted(set(STUDIES))
USER_SPEC = ("command:train=python /home/researcher/projects/tagger/train.py --epochs 30 "
             "{train} {model},predict=python /home/researcher/projects/tagger/predict.py "
             "{model} {test} {out}")


def _summaries(study: Path) -> tuple[list[Path], list[Path]]:
    found = sorted((study / "results" / "summaries").glob("*/*.json"))
    return ([p for p in found if not p.name.endswith(".claims.json")],
            [p for p in found if p.name.endswith(".claims.json")])


def _label(path: Path) -> str:
    record = json.loads(path.read_text())
    return f"{record['comparison']} on {record['corpus']}"


def _all_tables(summary_paths: list[Path], claims_paths: list[Path], tmp_path: Path) -> dict:
    summaries = {_label(p): json.loads(p.read_text())["summary"] for p in summary_paths}
    # Table 3 for every strategy, from the claims' per-model scores, as the workflow's tables
    scores = {_label(p): json.loads(p.read_text())["scores"] for p in claims_paths}
    rows4, rows3 = table4_rows(summaries), table3_rows(summaries, scores)
    tables = {"table4": latex.table4_latex(rows4), "table4-wide": latex.table4_wide_latex(rows4),
              "table3": latex.table3_latex(rows3)}
    if claims_paths:
        outputs = {kind: str(tmp_path / f"claims.{kind}") for kind in ("csv", "md", "html", "tex")}
        outputs["wide_tex"] = str(tmp_path / "claims-wide.tex")
        claims_tables([str(p) for p in claims_paths], [str(p) for p in summary_paths], outputs)
        tables["claims"] = Path(outputs["tex"]).read_text()
        # the almost stochastic order of the claims record (issue 25), with its calibration
        assert "Almost stochastic order" in tables["claims"] and "liberal" in tables["claims"]
        tables["claims-wide"] = Path(outputs["wide_tex"]).read_text()
    return tables


def test_there_are_committed_studies_to_compile():
    assert len(STUDIES) >= 4, STUDIES


@pytest.mark.slow
@pytest.mark.parametrize("study", STUDIES, ids=lambda p: p.name)
def test_every_committed_table_fits_a_two_column_paper(study, tmp_path):
    require_pdflatex()
    tables = _all_tables(*_summaries(study), tmp_path)
    assert {"table4", "table4-wide", "table3", "claims", "claims-wide"} <= set(tables)
    for name, body in tables.items():
        assert r"\resizebox" not in body and r"\tiny" not in body and r"\scriptsize" not in body
        assert_compiles_and_fits(tmp_path, name, body)


def _user_summary(**extra) -> dict:
    return make_summary(models={"A": USER_SPEC, "B": "crf:scheme=IOBES,max_iterations=200"},
                        model_names={"A": "my_bilstm_char_cnn_tagger", "B": "crf_iobes"},
                        model_labels={"A": "BiLSTM-CNN (ours)", "B": "CRF"}, **extra)


@pytest.mark.slow
def test_a_users_tagger_by_path_never_puts_the_path_in_the_paper(tmp_path):
    summaries = {"ours_vs_crf on my_corpus": _user_summary(),
                 "ours_vs_crf on other_corpus_with_a_long_name": _user_summary(degenerate=["A"])}
    rows4, rows3 = table4_rows(summaries), table3_rows(summaries)
    bodies = {"table4": latex.table4_latex(rows4), "table4-wide": latex.table4_wide_latex(rows4),
              "table3": latex.table3_latex(rows3)}
    for name, body in bodies.items():
        assert "/home/researcher" not in body and "researcher" not in body, name
        captions = re.findall(r"\\caption\{(.*)\}", body)
        assert captions and all("A = BiLSTM-CNN (ours), B = CRF;" in c for c in captions), name
        assert all("texttt" not in c for c in captions), name  # specs are in the note
        assert r"\texttt{command:\allowbreak{}train=\allowbreak{}python train.py" in body, name
    require_pdflatex()
    for name, body in bodies.items():
        assert_compiles_and_fits(tmp_path, name, body)


def test_labels_come_from_the_config(tmp_path):
    from reprocompare.pipeline import provenance
    from reprocompare.study.config import validate

    config = validate({"corpora": {"c": {"path": str(ROOT / "tests" / "data" / "tiny.conll")}},
                       "models": {"crf_a": {"type": "crf", "scheme": "IOB2", "label": "IOB2"},
                                  "crf_b": {"type": "crf", "scheme": "IOBES"}},
                       "comparisons": {"p": {"a": "crf_a", "b": "crf_b", "corpora": ["c"]}}})
    record = provenance.summary(config, "c", "p")
    assert record["model_labels"] == {"A": "IOB2", "B": "crf_b"}
    # a label is a name for the tables, not a hyperparameter: the training jobs' spec ignores it
    assert provenance.spec(config, "crf_a") == "crf:scheme=IOB2"
    assert "label" not in json.dumps(provenance.compare(config, "c", "p", "holdout"))


@pytest.mark.slow
def test_the_holm_column_fits_a_column(tmp_path):
    from reprocompare.reports.tables import claims_rows
    from test_tables import _claims

    claims = next(iter(_claims().values()))
    labels = ["ours_vs_crf on my_corpus", "ours_vs_crf on other_corpus_with_a_long_name"]
    rows = claims_rows({label: claims for label in labels},
                       {label: _user_summary() for label in labels},
                       holm={label: claims for label in labels})
    body, wide = latex.claims_latex(rows), latex.claims_wide_latex(rows)
    assert "Holm" in body and "A better (Holm)" in wide and "researcher" not in body + wide
    require_pdflatex()
    assert_compiles_and_fits(tmp_path, "claims", body)
    assert_compiles_and_fits(tmp_path, "claims-wide", wide)
