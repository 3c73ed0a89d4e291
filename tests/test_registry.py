"""The tagger registry: built-in types, entry points of installed packages, ``type: python``,
capabilities as class attributes, and the generated documentation of every hyperparameter.

A third-party tagger is installed for real: a module and a ``*.dist-info`` folder with an
``entry_points.txt`` in a directory on ``sys.path``, which is all ``importlib.metadata`` looks at.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

import conftest
from conftest import ROOT, TEST_DATA
from reprocompare.base.errors import UserError
from reprocompare.corpora.conll import read_conll
from reprocompare.models import (BiLSTMTagger, CommandTagger, CRFTagger, MajorityTagger,
                                 TransformerTagger,
                                 available, build_model, parse_spec, spec_from_mapping,
                                 tagger_class, tagger_class_of)
from reprocompare.models import catalog, registry
from reprocompare.pipeline.search_workflow import uses_gpu
from reprocompare.search.config import check_config

TOY = '''
from collections import Counter

from reprocompare.models.base import SCHEME_PARAM, Featurized, Param, SequenceTagger, at_least


class ToyTagger(SequenceTagger):
    """Tags every token with the training set's most frequent tag, for ``repeat`` epochs."""

    name = "toy"
    trains_by_epochs = True
    uses_gpu = True
    PARAMS = (SCHEME_PARAM, Param("repeat", int, 1, at_least(1), help="epochs (ignored)"))

    def __init__(self, scheme="IOB2", repeat=1):
        self.scheme = scheme
        self.repeat = repeat

    def feature_key(self):
        return ("toy",)

    def featurize(self, sentences):
        return Featurized(self.feature_key(), [len(s) for s in sentences])

    def _fit(self, featurized, y):
        self.tag_ = Counter(t for tags in y for t in tags).most_common(1)[0][0]

    def _predict(self, featurized):
        return [[self.tag_] * n for n in featurized.rows]


class NotATagger:
    PARAMS = ()


from reprocompare.models import CommandTagger


class GpuCommand(CommandTagger):
    uses_gpu = True
'''


@pytest.fixture
def toy_package(tmp_path, monkeypatch):
    """An installed package ``toy_tagger`` registering ``toy`` (and a broken ``broken``)."""
    (tmp_path / "toy_tagger.py").write_text(TOY)
    info = tmp_path / "toy_tagger-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-tagger\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[reprocompare.taggers]\ntoy = toy_tagger:ToyTagger\n"
        "broken = toy_tagger_missing:Nothing\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_registered", dict(registry._registered))
    return tmp_path


def test_the_built_in_types_are_registered_like_any_other():
    assert {"crf", "bilstm", "majority", "command", "python"} <= set(available())
    assert tagger_class("crf") is CRFTagger
    assert tagger_class("bilstm") is BiLSTMTagger
    assert tagger_class("majority") is MajorityTagger
    assert tagger_class("command") is CommandTagger
    assert registry.BUILTIN == ("crf", "bilstm", "majority", "command", "transformers")


def test_capabilities_are_class_attributes():
    assert (BiLSTMTagger.uses_gpu, BiLSTMTagger.trains_by_epochs) == (True, True)
    for cls in (CRFTagger, MajorityTagger, CommandTagger):
        assert not cls.uses_gpu and not cls.trains_by_epochs
    config = {"models": {"a": {"type": "bilstm"}, "b": {"type": "crf"}}}
    assert uses_gpu(config, "a") and not uses_gpu(config, "b")


def test_register_a_class_in_process():
    class Mine(MajorityTagger):
        """My majority tagger."""

    saved = dict(registry._registered)
    try:
        registry.register("mine", Mine)
        assert "mine" in available()
        model = build_model(parse_spec("mine:scheme=IOBES"))
        assert type(model) is Mine and model.scheme == "IOBES"
    finally:
        registry._registered.clear()
        registry._registered.update(saved)


@pytest.mark.parametrize("name, target", [("Crf", "a.b:C"), ("python", "a.b:C"),
                                          ("ok", "no colon"), ("", "a:b")])
def test_register_refuses_bad_names_and_targets(name, target):
    with pytest.raises(ValueError):
        registry.register(name, target)


def test_an_entry_point_of_an_installed_package_adds_a_type(toy_package):
    assert "toy" in available()
    spec = spec_from_mapping("t", {"type": "toy", "repeat": 3})
    assert str(spec) == "toy:scheme=IOB2,repeat=3"
    model = build_model(spec)
    assert type(model).__name__ == "ToyTagger"
    corpus = read_conll(TEST_DATA / "tiny.conll")
    model.fit(corpus.sentences[:10], corpus.tags[:10], corpus_scheme=corpus.scheme)
    # the toy says I-NP everywhere; answers come back well-formed in the corpus's scheme
    assert model.predict(corpus.sentences[10:12]) == [["B-NP"] + ["I-NP"] * (len(s) - 1)
                                                       for s in corpus.sentences[10:12]]
    with pytest.raises(UserError, match="unknown hyperparameter 'rate' for toy; allowed: "
                                        "repeat, scheme"):
        parse_spec("toy:rate=1")


def test_a_broken_entry_point_names_the_package(toy_package):
    with pytest.raises(UserError) as error:
        spec_from_mapping("b", {"type": "broken"})
    assert error.value.key == "models.b.type"
    assert "'toy_tagger_missing:Nothing'" in str(error.value)
    assert "reprocompare.taggers" in str(error.value)


def test_type_python_names_a_class(toy_package):
    spec = spec_from_mapping("p", {"type": "python", "class": "toy_tagger:ToyTagger",
                                   "repeat": 2})
    assert str(spec) == "python:class=toy_tagger:ToyTagger,scheme=IOB2,repeat=2"
    assert parse_spec(str(spec)) == spec
    assert spec.to_dict() == {"type": "python", "class": "toy_tagger:ToyTagger",
                              "scheme": "IOB2", "repeat": 2}
    assert type(build_model(spec)).__name__ == "ToyTagger"
    assert tagger_class_of({"type": "python", "class": "toy_tagger:ToyTagger"}).uses_gpu


@pytest.mark.parametrize("mapping, key, message", [
    ({"type": "python"}, "models.p.class", "names its tagger class once"),
    ({"type": "python", "class": "toy_tagger"}, "models.p.class",
     "expected 'package.module:ClassName'"),
    ({"type": "python", "class": "no_such_module:X"}, "models.p.class",
     "cannot import 'no_such_module'"),
    ({"type": "python", "class": "toy_tagger:Missing"}, "models.p.class", "has no 'Missing'"),
    ({"type": "python", "class": "toy_tagger:NotATagger"}, "models.p.class",
     "is neither a class with fit and predict nor a subclass of reprocompare.models"),
    ({"type": "python", "class": "toy_tagger:ToyTagger", "speed": 1}, "models.p.speed",
     "unknown hyperparameter 'speed'"),
    ({"type": "nope"}, "models.p.type", "unknown model type 'nope'; expected one of"),
])
def test_type_python_errors_name_the_key(toy_package, mapping, key, message):
    with pytest.raises(UserError) as error:
        spec_from_mapping("p", mapping)
    assert error.value.key == key
    assert message in str(error.value)


def test_a_command_subclass_asks_for_a_gpu(toy_package):
    mapping = {"type": "python", "class": "toy_tagger:GpuCommand", "train": "t {train}",
               "predict": "p {input} {output}"}
    config = {"models": {"gpu": mapping, "cpu": {**mapping, "type": "command"}}}
    assert uses_gpu(config, "gpu") and not uses_gpu(config, "cpu")
    assert build_model(spec_from_mapping("gpu", mapping)).get_params()["train"] == "t {train}"


def test_learning_curves_need_a_model_that_trains_by_epochs(toy_package):
    config = {"corpora": {"c": {}}, "search": {}, "seed_variance": {},
              "models": {"crf": {"type": "crf"}, "toy": {"type": "toy"},
                         "cls": {"type": "python", "class": "toy_tagger:ToyTagger"}},
              "learning_curves": {"enabled": True, "models": ["toy", "cls"]}}
    check_config(config)  # the toy class trains by epochs, whatever its type's name
    config["learning_curves"]["models"] = ["crf"]
    with pytest.raises(UserError, match="does not train by epochs") as error:
        check_config(config)
    assert error.value.key == "learning_curves.models.0"


def _run(*args, env_path: Path | None = None):
    env = dict(os.environ)
    if env_path is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(env_path), env.get("PYTHONPATH", "")])
    return conftest.reprocompare(*args, env=env)


def test_models_command_lists_every_type_with_its_parameters(toy_package):
    result = _run("models", env_path=toy_package)
    assert result.returncode == 0, result.stderr
    for cls in (CRFTagger, BiLSTMTagger, MajorityTagger, CommandTagger, TransformerTagger):
        assert f"{cls.name}  (reprocompare.models." in result.stdout
        for param in cls.PARAMS:
            assert f"  {param.name} " in result.stdout
    assert "toy  (toy_tagger:ToyTagger)" in result.stdout
    assert "broken  (cannot be loaded: " in result.stdout  # listed, not fatal
    assert "capabilities: uses_gpu, trains_by_epochs" in result.stdout
    assert "c2" in result.stdout and "default 1.0: L2 regularization" in result.stdout
    one = _run("models", "crf")
    assert one.returncode == 0 and "bilstm" not in one.stdout
    unknown = _run("models", "svm")
    assert unknown.returncode == 2
    assert unknown.stderr.strip().endswith("expected one of bilstm, command, crf, majority, "
                                           "python, transformers")


def test_models_readme_is_generated_from_the_classes():
    """models/README.md is catalog.markdown(): regenerate with the command in its first lines."""
    assert (ROOT / "models" / "README.md").read_text() == catalog.markdown()
    text = catalog.markdown()
    for name in registry.BUILTIN:
        for param in tagger_class(name).PARAMS:
            assert f"| `{param.name}` |" in text.split(f"## {name}\n", 1)[1].split("\n## ")[0]


@pytest.mark.parametrize("side", ["a", "b"])
def test_compare_spec_errors_say_which_option(tmp_path, side):
    specs = {"a": "crf", "b": "crf"}
    specs[side] = "crf:c3=1"
    result = _run("compare", str(TEST_DATA / "tiny.conll"), "--strategy", "holdout",
                  "--a", specs["a"], "--b", specs["b"], "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    assert result.stderr.startswith(f"reprocompare compare: error: --{side}: c3: unknown "
                                    "hyperparameter 'c3' for crf")
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_compare_with_a_registered_and_a_python_type(toy_package, tmp_path):
    result = _run("compare", str(TEST_DATA / "tiny.conll"), "--strategy", "holdout",
                  "--a", "toy:repeat=2", "--b", "python:class=toy_tagger:ToyTagger",
                  "--out", str(tmp_path / "out"), env_path=toy_package)
    assert result.returncode == 0, result.stderr
    estimates = json.loads((tmp_path / "out" / "estimates.json").read_text())
    assert estimates["models"] == {"A": "toy:scheme=IOB2,repeat=2",
                                   "B": "python:class=toy_tagger:ToyTagger,scheme=IOB2"}
    assert estimates["holdout"] == 0.0  # the same tagger on both sides
