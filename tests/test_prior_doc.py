"""docs/sequential.md's mixing-prior section types no measured number: its reading is made by
benchmarks/bench_prior.py from the committed table (``--reading`` remakes it without
simulating), and what the first wave can decide is computed from the confidence sequence.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import conftest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "sequential.md"


@pytest.fixture(scope="module")
def bench():
    return conftest.benchmark("bench_prior")


def _block() -> str:
    text = DOC.read_text(encoding="utf-8")
    return text.split("<!-- prior:begin -->\n", 1)[1].split("<!-- prior:end -->", 1)[0]


def test_the_committed_reading_is_made_from_its_table(bench):
    assert _block().rstrip().endswith(bench.reading(bench.committed()))
    assert _block() == bench.with_reading(bench.committed())


def test_the_reading_follows_its_table(bench):
    block = bench.committed()
    row = next(line for line in block.splitlines()
               if line.startswith("| 10 | 3 | mixture"))
    cells = row.split(" | ")
    changed = block.replace(row, " | ".join(cells[:5] + ["1.5%"] + cells[6:]))
    assert "SNR 3 decides in 1.5% against" in bench.reading(changed)
    # a table where the mixture decides more at a maximum of 10 breaks the reading's claim
    default = next(line for line in block.splitlines()
                   if line.startswith("| 10 | 3 | scale 2"))
    cells = default.split(" | ")
    broken = block.replace(default, " | ".join(cells[:5] + ["0.5%"] + cells[6:]))
    with pytest.raises(bench.ReadingError, match="decides less often"):
        bench.reading(broken)


def test_what_the_first_wave_decides_is_computed(bench):
    # at 95% (one deciding verdict) and 97.5% (two): nothing decides "A > B" before R = 5;
    # "neither" needs R = 15 and 17 (sequence_from_t(0, R) inside +-Phi^-1(0.8))
    assert bench.first_wave() == {0.95: (5, 15), 0.975: (5, 17)}
    assert 'needs R = 15-17 (`sequence_from_t(0, R)`' in _block()
