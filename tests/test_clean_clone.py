"""A clean clone rebuilds a committed study without training (issue 35).

studies/ commits what cannot be derived, in few files: a repetition's counts, and a table per
strategy of its other records (records.jsonl), never its split.json (its seed gives it back) nor
the Snakemake report. A `git clone` of the repository, with ../shared beside it as in CI (the
NER corpus, research-only, is linked from there by the Makefile), runs `make study-NAME` on one
small fixed-R study and one whole-corpus sequential study: no compare job runs (their logs are
left empty by resume's --touch; a training writes them), every committed file stays as it was,
every record is written back as its job wrote it and every split.json as its seed gives it, and
nothing the rebuild writes is left for git to add.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from committed import derived_split
from conftest import ROOT
from reprocompare.base.files import dumps_json
from reprocompare.base.run_records import TABULATED, read_repetitions
from reprocompare.splitters import dumps

pytestmark = pytest.mark.slow

SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    """The repository's HEAD cloned into a folder with ../shared beside it, using this
    checkout's environment (make -o: the pinned .venv is not built again)."""
    base = tmp_path_factory.mktemp("clean-clone")
    if SHARED.is_dir():
        (base / "shared").symlink_to(SHARED)
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(base / "main")], check=True)
    (base / "main" / ".venv").symlink_to(ROOT / ".venv")
    return base / "main"


def _git(clone, *arguments: str) -> str:
    return subprocess.run(["git", *arguments], cwd=clone, check=True, capture_output=True,
                          text=True).stdout


@pytest.mark.parametrize("name", ["chunking-n600", "ner-full"])
def test_a_clean_clone_rebuilds_a_committed_study_without_training(clone, name):
    if name.startswith("ner") and not (SHARED / "corpora" / "conll2002").is_dir():
        pytest.skip(f"{SHARED}/corpora/conll2002 is missing: the NER corpus is not shipped")
    study = clone / "studies" / name
    runs = sorted(p.parent for p in study.glob("results/compare/*/*/*/rep*/counts.tsv.gz"))
    # committed: the counts of each repetition, its other records in its strategy's table
    assert runs and not list(study.glob("results/compare/*/*/*/rep*/*.json"))
    summaries = {p: json.loads(p.read_text())["values"]
                 for p in study.glob("results/summaries/*/*.json")
                 if not p.name.endswith(".claims.json")}
    result = subprocess.run(["make", "-o", ".venv/.installed", f"study-{name}"], cwd=clone,
                            capture_output=True, text=True)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    # not one compare job ran: one empty log per committed repetition
    logs = list(study.glob("logs/compare/**/*.log"))
    assert len(logs) == len(runs) and all(log.stat().st_size == 0 for log in logs)
    # the counts and the tables as committed (make tabulated the same records again)
    assert _git(clone, "status", "--porcelain", "--", f"studies/{name}/results/compare") == ""
    for run in runs:
        table = read_repetitions(run.parent)[int(run.name.removeprefix("rep"))]
        for file in TABULATED:  # written back as the job wrote them
            assert (run / file).read_text() == dumps_json(table[file]), run / file
        assert (run / "split.json").read_bytes() == dumps(derived_split(run)).encode(), run
    # the estimates every table is drawn from are those committed
    assert {p: json.loads(p.read_text())["values"] for p in summaries} == summaries
    # what the rebuild wrote is committed, byte for byte (tables, summaries, figures), or
    # ignored: no split.json, no report to add
    assert _git(clone, "status", "--porcelain", "--untracked-files=all", "--",
                f"studies/{name}") == ""
    if name == "ner-full":  # a sequential study resumes at the wave its results reached
        said = result.stdout + result.stderr
        stop = len(runs) // len(list(study.glob("results/compare/*/*/*")))
        assert f"{study.relative_to(clone)}: {len(runs)} repetitions (of at most " in said, said
        assert f"resuming at R = {stop}" in said, said[-3000:]
    if name == "chunking-n600":  # a fixed-R study's make target rebuilds its report
        assert (study / "results/report.html").is_file()
