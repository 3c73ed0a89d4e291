"""Every example in the package's docstrings runs and prints what it says (a docstring's
``>>>`` lines are documentation a user copies: an example that no longer holds is a wrong
statement about the code)."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: folder -> the package it installs as (pyproject.toml, package-dir)
FOLDERS = {"reprocompare": "reprocompare", "corpora": "reprocompare.corpora",
           "splitters": "reprocompare.splitters", "strategies": "reprocompare.strategies",
           "models": "reprocompare.models", "estimators": "reprocompare.estimators",
           "reports": "reprocompare.reports", "search": "reprocompare.search",
           "workflow/schemas": "reprocompare.schemas"}


def _with_examples() -> list[str]:
    """The modules whose source holds a ``>>>`` example."""
    found = []
    for folder, package in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            if ">>> " not in path.read_text(encoding="utf-8"):
                continue
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            found.append(".".join((package, *parts)).removesuffix(".__init__"))
    return found


MODULES = _with_examples()


def test_the_examples_are_found():
    # the walk can fail: the examples of the strategies' registry and the designs are among them
    assert {"reprocompare.strategies", "reprocompare.estimators.designs"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_hold(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
                             verbose=False, report=False)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples fail"
