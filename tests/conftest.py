"""Shared fixtures: the shipped CoNLL-2000 corpus and small corpora cut from it."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "conll2000"
TEST_DATA = ROOT / "tests" / "data"


#: the research-only CoNLL-2002 beside the project (CI and our machines): the tests read it there
SHARED_CONLL2002 = ROOT.parent / "shared" / "corpora" / "conll2002"


def pytest_configure(config):
    """The NER configs read data/conll2002/ (README, "Data"); the tests read ../shared through a
    link there, as `make data/conll2002/esp.train.gz` makes it (ignored by git)."""
    link = ROOT / "data" / "conll2002"
    if not link.exists() and not link.is_symlink() and SHARED_CONLL2002.is_dir():
        try:
            link.symlink_to(Path("..", "..", "shared", "corpora", "conll2002"))
        except FileExistsError:  # another test worker made it first
            pass


@pytest.fixture(scope="session")
def conll2000_test():
    from reprocompare.corpora.conll import read_conll

    return read_conll(DATA / "test.txt.gz")


def write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    return path


def planned(output: str) -> dict[str, int]:
    """Jobs per rule from snakemake's "Job stats:" table ({} when nothing is to be done)."""
    if "Job stats:" not in output:
        assert "Nothing to be done" in output, output[-3000:]
        return {}
    table = output.split("Job stats:", 1)[1].split("\n\n", 1)[0]
    rows = (line.split() for line in table.splitlines()[3:])
    return {row[0]: int(row[1]) for row in rows if len(row) == 2 and row[0] != "total"}
