"""The stopping designs: one object each (reprocompare.estimators.designs), which the summaries,
plan, the config's checks, sequential and the LaTeX ask; the schema's choices are theirs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from reprocompare import schemas
from reprocompare.estimators.designs import (ANYTIME, DESIGNS, FIXED, PLANNED, design_named,
                                             of_stopping)

ROOT = Path(__file__).resolve().parents[1]


def test_the_schema_allows_exactly_the_designs():
    assert list(DESIGNS) == schemas.choices("stopping.design")
    assert schemas.default("stopping.design") == PLANNED.name


@pytest.mark.parametrize("stopping, expected", [
    (None, FIXED), ({"enabled": False, "design": "anytime"}, FIXED),
    ({"enabled": True, "design": "planned"}, PLANNED),
    ({"enabled": True, "design": "fixed"}, FIXED),
    ({"enabled": True, "design": "anytime"}, ANYTIME),
    # a summary from before stopping.design read confidence sequences
    ({"enabled": True}, ANYTIME)])
def test_a_study_is_read_under_its_design(stopping, expected):
    assert of_stopping(stopping) is expected


def test_each_design_reads_its_own_looks():
    # (time_uniform, planned, the wave of the plan): a fixed design is one planned look at the max
    assert PLANNED.looked(5, 20) == (False, True, 5)
    assert FIXED.looked(5, 20) == (False, True, 20)
    assert ANYTIME.looked(5, 20) == (True, False, 5)


def test_an_unknown_design_is_one_line():
    with pytest.raises(ValueError, match="design must be planned, fixed or anytime, got 'rcd'"):
        design_named("rcd")


def test_no_code_outside_the_designs_compares_a_design_name():
    """A comparison with a design's name is a branch on which design a study has: it asks the
    object instead (``planned``, ``time_uniform``, ``one_look``, ``looked``)."""
    compared = re.compile(r"""(?:==|!=|\bin)\s*\(?\s*["'](?:planned|fixed|anytime)["']""")
    found = []
    for folder in ("reprocompare", "estimators", "reports", "search", "strategies"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.name == "designs.py":
                continue
            if compared.search(path.read_text(encoding="utf-8")):
                found.append(str(path.relative_to(ROOT)))
    assert found == []
