"""The committed studies' repetitions as git holds them (issue 35): each repetition's
counts.tsv.gz, a table of every strategy's JSON records (records.jsonl), no split.json.
`reprocompare resume` writes the files back before a run reads them; the checks of every
committed record do the same here: :func:`committed_copy` copies what git holds and writes the
records back from the tables (:func:`reprocompare.base.run_records.restore_tabulated`, resume's
own: a damaged line stops the copy), and :func:`derived_split` derives a split from the records that stay (settings.json:
strategy, its k/m/ratio and seed; corpus.json: the prepared corpus's size and sha256)."""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
from pathlib import Path

from reprocompare.base.run_records import restore_tabulated
from reprocompare.corpora.conll import read_conll
from reprocompare.corpora.subsample import subsample
from reprocompare.strategies import TABULATED_RECORDS, strategy
from reprocompare.splitters import split_document

ROOT = Path(__file__).resolve().parents[1]


def committed_copy(target: Path) -> list[Path]:
    """What git holds of the studies' repetitions and corpora, copied under ``target`` with
    their records written back from the tables: every repetition directory (one whose counts
    have no line in its table lacks its records, and every check says so)."""
    patterns = [f":(glob)studies/*/results/{part}/**" for part in ("compare", "corpora")]
    listed = subprocess.run(["git", "ls-files", "-z", "--", *patterns], cwd=ROOT, check=True,
                            capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, target / name)
    for strategy in target.glob("studies/*/results/compare/*/*/*"):
        _, damaged = restore_tabulated(strategy, TABULATED_RECORDS)
        assert not damaged, "; ".join(map(str, damaged))
    return sorted(target.glob("studies/*/results/compare/*/*/*/rep*"))


def derived_split(run: Path) -> dict:
    """The split document of a committed repetition, from its seed, as its job derived it.

    Only what the committed studies use: a split of the whole prepared corpus, documents not
    kept whole (with them, or with a design of samples, the split needs the corpus itself,
    which is what ``resume`` reads)."""
    settings = json.loads((run / "settings.json").read_text())
    split = settings["split"]
    assert not split["keep_documents"] and "variation" not in settings, run
    corpus = run.relative_to(run.parents[4]).parts[1]  # results/compare/CORPUS/...
    info = json.loads((run.parents[5] / "results" / "corpora" / corpus /
                       "corpus.json").read_text())
    options = {key: split[key] for key in ("k", "m", "ratio") if key in split}
    if strategy(split["strategy"]).reads_tags:  # regularized BCV: the prepared corpus's tags
        options["tags"] = _prepared_tags(info["source"], info.get("subsample"),
                                         info.get("subsample_seed"), info.get("subsample_part", 0))
    return split_document(split["strategy"], info["sentences"],
                          corpus_sha256=info["sha256"], seed=split["seed"],
                          repetition=int(run.name.removeprefix("rep")), **options)


@functools.cache
def _prepared_tags(source: str, size, seed, part: int) -> list:
    """The tags of a prepared corpus, prepared again from its source as its corpus.json records
    it (the committed studies' corpora are well-formed, or repaired)."""
    corpus = read_conll(ROOT / source, ill_formed="repair")
    if size is not None:
        corpus = subsample(corpus, size, seed, part)
    return corpus.tags
