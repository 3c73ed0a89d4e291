"""Shared fixtures: the shipped CoNLL-2000 corpus and small corpora cut from it."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "conll2000"
TEST_DATA = ROOT / "tests" / "data"


@pytest.fixture(scope="session")
def conll2000_test():
    from reprocompare.corpora.conll import read_conll

    return read_conll(DATA / "test.txt.gz")


def write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    return path
