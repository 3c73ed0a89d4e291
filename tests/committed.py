"""The committed studies' repetitions as a reader of the repository finds them: without their
split.json (issue 35: the seed gives it back, and `reprocompare resume` writes it again before a
run reads it), so the checks of every committed record derive it here from the records that
stay (settings.json: strategy, its k/m/ratio and seed; corpus.json: the prepared corpus's size
and sha256)."""

from __future__ import annotations

import json
from pathlib import Path

from reprocompare.splitters import split_document

ROOT = Path(__file__).resolve().parents[1]


def committed_runs() -> list[Path]:
    """Every committed repetition (a directory with its estimates.json)."""
    return sorted(path.parent for path in
                  ROOT.glob("studies/*/results/compare/*/*/*/rep*/estimates.json"))


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
    return split_document(split["strategy"], info["sentences"],
                          corpus_sha256=info["sha256"], seed=split["seed"],
                          repetition=int(run.name.removeprefix("rep")), **options)
