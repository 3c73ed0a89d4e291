"""Issue 21: a result belongs to the user's code and to the corpus's content, not to paths or
key order.

One small study compares a ``type: python`` tagger (a module of a package in the study's folder)
with a ``type: command`` tagger (a script there). After it has run:

- editing the Python tagger's module, or a helper module of its package, reruns exactly the jobs
  that train it; editing the command's script likewise; restoring them plans nothing again;
- the same config written in another key order plans nothing;
- the corpus copied to another path with the same bytes plans nothing, while a corpus with other
  bytes reruns everything after it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import yaml

import conftest
from conftest import TEST_DATA, build_once, copy_study, planned

pytestmark = pytest.mark.slow

TAGGER = '''"""A user's tagger: the majority baseline under another name."""
from reprocompare.models.majority import MajorityTagger
from mytaggers.helpers import NAME


class Mine(MajorityTagger):
    name = NAME
'''
HELPERS = 'NAME = "mine"\n'
SCRIPT = '''"""train: does nothing; predict: tags every token O."""
import sys

if sys.argv[1] == "predict":
    with open(sys.argv[2]) as source, open(sys.argv[3], "w") as out:
        for line in source:
            out.write(f"{line.split()[0]} O\\n" if line.strip() else "\\n")
'''


def config(corpus: str) -> dict:
    return {
        "corpora": {"tiny": {"path": corpus}},
        "models": {
            "mine": {"type": "python", "class": "mytaggers.tagger:Mine"},
            "script": {"type": "command", "train": "python tag.py train {train}",
                       "predict": "python tag.py predict {input} {output}"},
            "maj": {"type": "majority"},
        },
        "comparisons": {"python_vs_script": {"a": "mine", "b": "script", "corpora": ["tiny"]},
                        "maj_vs_script": {"a": "maj", "b": "script", "corpora": ["tiny"]}},
        "strategies": {"holdout": {}},
        "repetitions": 2,
    }


def snakemake(workdir: Path, *extra: str, text: str | None = None) -> str:
    """The study's workflow up to its tables (``--until tables``): what reruns is decided by the
    compare jobs' params, and the figures, front page and checklist after the tables are
    tests/test_provenance.py's (the checklist, which names the config's path, would rerun in
    every copy)."""
    if text is not None:
        (workdir / "study.yaml").write_text(text)
    env = {**os.environ, "PYTHONPATH": str(workdir)}  # the user's package, as a user sets it
    result = conftest.snakemake(workdir, "--configfile", "study.yaml", "--until", "tables",
                                *extra, cores=None, env=env)
    return result.stdout + result.stderr


def dry_run(workdir: Path, text: str | None = None) -> dict[str, int]:
    return planned(snakemake(workdir, "-n", "--quiet", "rules", text=text))


def _build(workdir: Path) -> None:
    package = workdir / "mytaggers"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "tagger.py").write_text(TAGGER)
    (package / "helpers.py").write_text(HELPERS)
    (workdir / "tag.py").write_text(SCRIPT)
    shutil.copy(TEST_DATA / "tiny.conll", workdir / "tiny.conll")
    text = yaml.safe_dump(config("tiny.conll"))
    snakemake(workdir, "--cores", "2", text=text)
    assert dry_run(workdir, text) == {}


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    """The finished study, this worker's copy: (its directory, its config's text).

    The run is made once a session (conftest.build_once), since worksteal may hand this
    module's tests to both xdist workers; each works on its own copy (the tests edit the code
    and the config in place). The code and corpus are known by content: the copy plans
    nothing."""
    shared = build_once(tmp_path_factory, "usercode", _build)
    workdir = copy_study(shared, tmp_path_factory.mktemp("usercode") / "study")
    text = (workdir / "study.yaml").read_text()
    assert dry_run(workdir, text) == {}
    return workdir, text


#: the two repetitions of one comparison, its summary, and the tables
ONE_COMPARISON = {"compare": 2, "summarize": 1, "tables": 1}
BOTH_COMPARISONS = {"compare": 4, "summarize": 2, "tables": 1}


@pytest.mark.parametrize("path,expected", [
    ("mytaggers/tagger.py", ONE_COMPARISON),   # the class's module: only the jobs that train it
    ("mytaggers/helpers.py", ONE_COMPARISON),  # a module of the same package
    ("tag.py", BOTH_COMPARISONS),              # the script both comparisons' B runs
])
def test_editing_your_code_reruns_exactly_its_jobs(study, path, expected):
    workdir, text = study
    file = workdir / path
    original = file.read_text()
    try:
        file.write_text(original + "# edited\n")
        assert dry_run(workdir, text) == expected
    finally:
        file.write_text(original)
    assert dry_run(workdir, text) == {}


def test_another_key_order_reruns_nothing(study):
    workdir, text = study

    def reversed_keys(value):
        if isinstance(value, dict):
            return {key: reversed_keys(value[key]) for key in reversed(list(value))}
        return value

    reordered = yaml.safe_dump(reversed_keys(yaml.safe_load(text)), sort_keys=False)
    assert reordered != text
    try:
        assert dry_run(workdir, reordered) == {}
    finally:
        (workdir / "study.yaml").write_text(text)


def test_the_corpus_is_known_by_its_content_not_its_path(study):
    workdir, text = study
    elsewhere = workdir / "moved" / "copy.conll"
    elsewhere.parent.mkdir(exist_ok=True)
    shutil.copy(workdir / "tiny.conll", elsewhere)  # a new path and a newer time, same bytes
    moved = yaml.safe_dump(config("moved/copy.conll"))
    assert dry_run(workdir, moved) == {}
    # other bytes: everything after the corpus
    sentences = (workdir / "tiny.conll").read_text().split("\n\n")
    elsewhere.write_text("\n\n".join(sentences[:-5]) + "\n")
    assert dry_run(workdir, moved) == {"corpus": 1, **BOTH_COMPARISONS}
    (workdir / "study.yaml").write_text(text)
