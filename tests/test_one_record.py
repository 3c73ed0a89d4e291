"""Issue 21, item 4: the command line and the workflow agree, and what the wheel lacks is said.

- ``split --corpus-name NAME`` derives the seed as the workflow does, so the CLI reproduces a
  workflow job's split byte for byte, and prints the seed it used;
- ``reprocompare resume`` from an installed package without the workflow refuses in one line;
- ``make lint`` has a recipe that runs the linters it names.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from conftest import ROOT, TEST_DATA, snakemake
from reprocompare.base.errors import UserError
from reprocompare.study.config import corpus_seed
from test_cli import run

TINY = TEST_DATA / "tiny.conll"


@pytest.mark.slow
def test_split_with_a_corpus_name_uses_the_workflows_seed(tmp_path):
    result = run("split", TINY, "--strategy", "bcv", "--seed", "0", "--corpus-name", "tiny",
                 "--out", tmp_path / "named.json")
    expected = corpus_seed(0, "tiny")
    assert expected != 0
    assert f"seed {expected}" in result.stderr
    assert json.loads((tmp_path / "named.json").read_text())["seed"] == expected
    run("split", TINY, "--strategy", "bcv", "--seed", str(expected), "--out",
        tmp_path / "seed.json")
    assert (tmp_path / "named.json").read_bytes() == (tmp_path / "seed.json").read_bytes()


def test_make_lint_runs_the_linters():
    plan = subprocess.run(["make", "-n", "lint"], capture_output=True, text=True, cwd=ROOT)
    assert plan.returncode == 0, plan.stderr
    assert "snakemake --lint" in plan.stdout and "snakefmt --check" in plan.stdout


# ---- issue 23, item 1: never destroy what we did not write ------------------------------------

def test_an_out_that_is_not_a_regular_file_is_refused_and_left_alone(tmp_path):
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    from test_cli import assert_user_error

    assert_user_error(run("split", TINY, "--strategy", "bcv", "--out", fifo, ok=False),
                      "--out", "not a regular file")
    assert fifo.is_fifo()  # still the FIFO, not a file put in its place
    blocker = tmp_path / "file"
    blocker.write_text("mine")
    # a folder that cannot be made: said before any training
    result = run("compare", TINY, "--a", "majority", "--b", "majority:scheme=IOBES",
                 "--strategy", "bcv", "--out", blocker / "runs", ok=False)
    assert_user_error(result, "--out", "is a file, not a folder")
    assert "fold 1" not in result.stderr and blocker.read_text() == "mine"


# ---- issue 23, item 2: every number has the bounds its consumer can hold ---------------------

@pytest.mark.parametrize("spec,message", [
    ("crf:max_iterations=2147483648", "at most 2147483647"),  # wraps to negative in crfsuite
    ("crf:max_iterations=100000000000000000000", "at most 2147483647"),
    ("bilstm:hidden_size=2147483648", "at most 2147483647"),
])
def test_integer_hyperparameters_fit_a_c_int(spec, message, tmp_path):
    from test_cli import assert_user_error

    assert_user_error(run("compare", TINY, "--a", spec, "--b", "majority", "--strategy",
                          "holdout", "--out", tmp_path / "x", ok=False), "--a", message)
    from reprocompare.models import spec_from_mapping

    name, _, value = spec.partition(":")
    key, _, number = value.partition("=")
    with pytest.raises(UserError, match=message):
        spec_from_mapping("m", {"type": name, key: int(number)})


# ---- issue 24, item 7: corpora a user can get -------------------------------------------------

def test_shipped_configs_read_corpora_inside_the_project():
    import yaml

    for path in (ROOT / "config").glob("*.yaml"):
        for corpus in (yaml.safe_load(path.read_text()).get("corpora") or {}).values():
            assert corpus["path"].startswith("data/"), (path.name, corpus["path"])


def test_a_missing_research_corpus_says_where_it_comes_from(tmp_path):
    from reprocompare.study.config import validate

    config = {"corpora": {"ner": {"path": "data/conll2002/nowhere.gz"}},
              "models": {"a": {"type": "majority"}, "b": {"type": "crf"}},
              "comparisons": {"p": {"a": "a", "b": "b", "corpora": ["ner"]}}}
    with pytest.raises(UserError, match="research use only") as error:
        validate(config, "study.yaml")
    assert error.value.key == "corpora.ner.path" and "data/conll2002/" in str(error.value)


# ---- issue 23, item 5: a config means one thing -------------------------------------------------

def test_a_key_given_twice_is_refused_with_both_lines(tmp_path):
    from reprocompare.study.config import load_yaml

    config = tmp_path / "study.yaml"
    config.write_text(f"corpora:\n  tiny: {{path: {TINY}}}\nmodels:\n  a: {{type: majority}}\n"
                      "  a: {type: crf}\n  b: {type: crf}\ncomparisons:\n"
                      "  p: {a: a, b: b, corpora: [tiny]}\nrepetitions: 3\n")
    with pytest.raises(UserError, match="key 'a' is given twice, on lines 4 and 5") as error:
        load_yaml(config)
    assert error.value.line == 5
    result = snakemake(tmp_path, "--configfile", str(config), "-n", cores=None, check=False)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "study.yaml:5: not valid YAML: key 'a' is given twice, on lines 4 and 5" in \
        result.stdout + result.stderr
    assert not (tmp_path / "results").exists()


def test_a_value_given_with_config_is_blamed_on_the_command_line(tmp_path):
    config = tmp_path / "study.yaml"
    config.write_text(f"corpora:\n  tiny: {{path: {TINY}}}\nmodels:\n  a: {{type: majority}}\n"
                      "  b: {type: crf}\ncomparisons:\n  p: {a: a, b: b, corpora: [tiny]}\n")
    result = snakemake(tmp_path, "--configfile", str(config), "-n", "--config",
                       "repetitions=-3", cores=None, check=False)
    output = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in output
    assert ("the command line: repetitions: -3 is less than the minimum of 2 (given as --config "
            "repetitions=-3)") in output and "study.yaml" not in output.split("config error")[1]


def test_an_alias_bomb_is_refused_in_one_short_line(tmp_path):
    from reprocompare.study.config import load_yaml

    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"] + [
        f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)]
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("search:\n  extra:\n" + "".join(f"    {line}\n" for line in levels))
    with pytest.raises(UserError, match="expand to more than 1,000,000 values") as error:
        load_yaml(bomb)
    assert len(str(error.value)) < 200 and error.value.line is not None
    fine = tmp_path / "fine.yaml"
    fine.write_text("base: &crf {type: crf}\nmodels:\n  a: *crf\n  b: *crf\n")
    assert load_yaml(fine)["models"]["a"] == {"type": "crf"}
    loop = tmp_path / "loop.yaml"
    loop.write_text("a: &a [1, *a]\n")
    with pytest.raises(UserError, match="recursive alias"):
        load_yaml(loop)


def test_two_names_for_one_model_are_refused():
    from reprocompare.study.config import validate

    config = {"corpora": {"tiny": {"path": str(TINY)}},
              "models": {"a": {"type": "crf", "c2": 1.0}, "b": {"type": "crf"}},
              "comparisons": {"p": {"a": "a", "b": "b", "corpora": ["tiny"]}}}
    with pytest.raises(UserError, match="a and b are one model under two names") as error:
        validate(config)
    assert error.value.key == "comparisons.p.b"
    config["models"]["b"]["c2"] = 0.5
    validate(config)


# ---- issue 23, item 3: your own models get the same checks --------------------------------------

BROKEN_TAGGERS = '''
from reprocompare.models.majority import MajorityTagger


class Short(MajorityTagger):
    def predict(self, X):
        return super().predict(X)[:-1]


class Garbage(MajorityTagger):
    def predict(self, X):
        return [["FOO"] * len(tags) for tags in super().predict(X)]


class Ragged(MajorityTagger):
    def predict(self, X):
        return [tags[:-1] for tags in super().predict(X)]
'''


@pytest.mark.slow
@pytest.mark.parametrize("name,message", [
    ("Short", "predict returned 12 sentences for 13"),
    ("Garbage", "sentence 0, token 0: 'FOO' is not a chunk tag"),
    ("Ragged", "sentence 0: "),
])
def test_a_python_taggers_predictions_are_checked_with_fold_and_model_named(tmp_path, name,
                                                                           message):
    import os
    import sys

    (tmp_path / "broken_taggers.py").write_text(BROKEN_TAGGERS)
    result = subprocess.run(
        [sys.executable, "-m", "reprocompare", "compare", str(TINY), "--a",
         f"python:class=broken_taggers:{name}", "--b", "majority", "--strategy", "holdout",
         "--out", str(tmp_path / "out")],
        capture_output=True, text=True, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert result.returncode == 2 and "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert f"fold 1/1, model A (python:class=broken_taggers:{name}" in last and message in last
    assert not (tmp_path / "out").exists()


def test_a_built_in_taggers_version_reruns_its_jobs_only():
    """A class whose defaults changed (SequenceTagger.version, the BiLSTM's 3) is recorded beside
    its spec, so that its old results rerun; a version-1 class's record is what it always was."""
    from reprocompare.models.bilstm import BiLSTMTagger
    from reprocompare.pipeline import provenance
    from reprocompare.study.config import validate

    version = BiLSTMTagger.version
    assert version == 3

    config = validate({"corpora": {"c": {"path": str(TEST_DATA / "tiny.conll")}},
                       "models": {"lstm": {"type": "bilstm", "epochs": 3},
                                  "crf": {"type": "crf"}},
                       "comparisons": {"p": {"a": "lstm", "b": "crf", "corpora": ["c"]}}})
    record = provenance.compare(config, "c", "p", "holdout")
    assert record["A"] == {"name": "lstm", "spec": "bilstm:scheme=IOB2,epochs=3",
                           "version": version}
    assert record["B"] == {"name": "crf", "spec": "crf:scheme=IOB2"}
    assert provenance.learning_curve_runs(config, "c", "lstm")["model"] == {
        "mapping": {"epochs": 3, "type": "bilstm"}, "name": "lstm", "version": version}
    assert provenance.search_best(config, "crf", [])["model"] == {
        "mapping": {"type": "crf"}, "name": "crf"}


def test_every_rule_passes_one_settings_dict_and_no_script_reads_the_config():
    """One contract between rules and scripts (issue 21, item 2): a rule's params are one
    ``settings`` value built in reprocompare/pipeline/provenance.py, and its script reads that, never
    ``snakemake.config`` (which would let a job depend on a value its params do not record).
    The one other param is ``library``, the digest of the library code the job computes with
    (provenance.library_code), which no script reads: it only reruns the job on an upgrade."""
    import re

    scripts = sorted((ROOT / "workflow" / "scripts").glob("*.py"))
    assert len(scripts) >= 15
    for script in scripts:
        assert "snakemake.config" not in script.read_text(), script.name
    blocks = []
    for rules in sorted((ROOT / "workflow" / "rules").glob("*.smk")):
        text = rules.read_text()
        for match in re.finditer(r"\n    params:\n((?:        .*\n|\n)+?)(?=    \w)", text):
            names = re.findall(r"^        (\w+)=", match.group(1), re.M)
            blocks.append((rules.name, names))
    assert len(blocks) >= 14 and all(names in (["settings"], ["settings", "library"])
                                     for _, names in blocks), blocks
    for script in scripts:
        assert "params.library" not in script.read_text(), script.name


@pytest.mark.slow
def test_records_name_project_files_relative_to_the_project(tmp_path):
    """corpus.json and the checklist name a corpus or config inside the project by its path in
    the project, so the same study committed from two clones records the same bytes; a file
    outside it keeps the path it was given."""
    from reprocompare.base.paths import project_path
    from reprocompare.pipeline import provenance
    from reprocompare.pipeline.jobs import prepare_corpus
    from reprocompare.study.config import load_yaml, validate

    shipped = ROOT / "data" / "conll2000" / "train.txt.gz"
    assert project_path(shipped) == "data/conll2000/train.txt.gz"
    assert project_path(tmp_path / "mine.conll") == str(tmp_path / "mine.conll")
    # a link inside the project to a file outside (make links CoNLL-2002 from ../shared)
    assert project_path(ROOT / "data" / "conll2002" / "esp.train.gz") == \
        "data/conll2002/esp.train.gz"
    config = validate(load_yaml(ROOT / "config" / "config.yaml"), source="config/config.yaml")
    settings = provenance.corpus(config, "conll2000")
    info = tmp_path / "corpus.json"
    prepare_corpus(str(shipped), settings, str(tmp_path / "corpus.conll"), str(info))
    assert json.loads(info.read_text())["source"] == "data/conll2000/train.txt.gz"
    source = json.loads(provenance.checklist(config, str(ROOT / "config" / "config.yaml")))
    assert source["source"] == "config/config.yaml"
