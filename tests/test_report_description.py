"""The report's description (workflow/report/workflow.rst) says what the study ran: it named the
planned design's spending "Pocock-type" after the default had become another, a sentence the
data contradicted on every sequential study's front page. It names no spending the default
design does not use (the rule under Table 4 names the one it does)."""

from __future__ import annotations

from conftest import ROOT
from reprocompare.estimators.designs import DEFAULT_SPENDING, SPENDING_NAMES


def test_the_report_names_no_spending_the_default_design_does_not_use():
    text = " ".join((ROOT / "workflow" / "report" / "workflow.rst").read_text().split())
    for name, words in SPENDING_NAMES.items():
        if name != DEFAULT_SPENDING:
            assert words.split()[0].lower() not in text.lower(), (name, words)
    assert "group-sequential" in text  # the planned design's sentence is still there
