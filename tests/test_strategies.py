"""The strategies: one module and one object per splitting strategy, doing its own work.

Checked here: both spellings reach one object and nothing else does; the seed codes are the
frozen ones (a changed code would silently change every committed split); each object's
settings, estimates, estimators and tests agree with what the splitters, the compare job, the
summaries and the claims actually produce; the labels say what a run did not record; no code
outside reprocompare.strategies spells a strategy's name or asks which strategy it holds; and a
new strategy is one new module that the registry finds, which every stage then runs.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from reprocompare.splitters import make_splitter, split_document
from reprocompare.strategies import (ESTIMATORS, NAMES, RECOMMENDED, STRATEGIES, labels,
                                     of_estimator, repetition_rho, repetition_tests,
                                     splitter_arguments, strategy)

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("found", STRATEGIES, ids=NAMES)
def test_both_spellings_reach_one_object(found):
    assert strategy(found.name) is found
    assert strategy(found.key) is found
    assert strategy(found) is found


@pytest.mark.parametrize("spelling", ["Holdout", "repeated holdout", "cv", "", None, 3])
def test_other_spellings_are_refused_with_the_names(spelling):
    with pytest.raises(KeyError, match="holdout, repeated-holdout, bcv"):
        strategy(spelling)


def test_seed_codes_are_the_frozen_ones():
    # the codes in every committed study's seed paths: 1, 2, 3, never positions
    assert {s.name: s.code for s in STRATEGIES} == {"holdout": 1, "repeated-holdout": 2,
                                                    "bcv": 3, "regularized-bcv": 4}
    assert len({s.code for s in STRATEGIES}) == len(STRATEGIES)


def test_estimators_are_table4s_columns_in_order():
    # the paper's five first, then those of strategies added later (in their codes' order)
    assert ESTIMATORS[:5] == ("ST", "RS", "Avg", "Vote", "Mixture")
    assert [of_estimator(e).name for e in ESTIMATORS[:5]] == ["holdout", "repeated-holdout",
                                                              "bcv", "bcv", "bcv"]
    with pytest.raises(KeyError, match="Mixture"):
        of_estimator("mixture")


@pytest.mark.parametrize("found", STRATEGIES, ids=NAMES)
def test_each_strategy_says_the_rho_of_every_estimator_it_feeds(found):
    rhos = found.repetition_rho({}, 6)
    assert list(rhos) == list(found.estimators)
    assert all(0 < rho < 1 for rho in rhos.values())


def test_rho_of_each_strategy_by_hand():
    """Nadeau and Bengio's test share rho_0, and J of them averaged: J rho_0 / (1 + (J - 1)
    rho_0) (estimators.bayesian)."""
    assert repetition_rho("ST") == pytest.approx(1 / 9)
    assert repetition_rho("ST", {"ratio": "4:1"}) == pytest.approx(1 / 5)
    assert repetition_rho("RS") == pytest.approx(6 / 14)  # 6 / 9 over 1 + 5 / 9
    assert repetition_rho("RS", {"ratio": "8:1"}, table4_k=3) == pytest.approx(3 / 11)
    for name in ("Avg", "Vote", "Mixture", "rAvg", "rVote", "rMixture"):
        assert repetition_rho(name) == pytest.approx(6 / 7)  # 3 / (1 + 5 / 2)
    assert repetition_rho("Avg", {"m": 5}) == pytest.approx(10 / 11)
    assert repetition_rho("rAvg", {"m": 2}) == pytest.approx(4 / 5)
    with pytest.raises(KeyError, match="Best"):
        repetition_rho("Best")


@pytest.mark.parametrize("found", STRATEGIES, ids=NAMES)
def test_split_documents_record_the_registry_settings(found):
    config = {"strategies": {found.key: {"ratio": "4:1", "k": [2, 5], "m": 2, "table4_k": 2}}}
    arguments = splitter_arguments(config, found.name)
    assert set(arguments) == set(found.settings)
    tags = [["B-NP", "I-NP", "O"], ["B-VP"], ["O", "B-PP", "B-NP"], ["O"]] * 10
    document = split_document(found.name, 40, seed=3, tags=tags, **arguments)
    extra = [key for key in document if key not in ("strategy", "seed", "repetition",
                                                    "n_sentences", "corpus_sha256", "folds")]
    assert extra == list(found.settings) + (["blocks"] if found.votes else [])
    # the splitter is the registry's class, and the folds its count: 1, max(k), 2m
    assert type(make_splitter(found.name)) is found.splitter_class()
    assert len(document["folds"]) == (2 * 2 if found.votes else
                                      {"holdout": 1, "repeated-holdout": 5}[found.name])


@pytest.mark.parametrize("found", STRATEGIES, ids=NAMES)
def test_claims_run_exactly_the_registry_tests(found):
    rng = np.random.default_rng(0)
    n_folds = 6 if found.votes else {"holdout": 1, "repeated-holdout": 3}[found.name]

    def counts(gold):  # (gold, predicted, correct) chunks per sentence, one gold for A and B
        correct = np.minimum(gold, rng.integers(0, 4, size=gold.shape))
        return np.hstack([gold, gold, correct])

    golds = [rng.integers(1, 4, size=(30, 1)) for _ in range(n_folds)]
    folds = [{"A": counts(gold), "B": counts(gold)} for gold in golds]
    tested = repetition_tests(folds, found.name, n_train=240, n_resamples=50, random_state=1)
    assert tuple(tested) == found.tests


def test_labels_come_from_the_run_settings_and_say_what_is_missing():
    settings = {"holdout": {"ratio": "4:1"}, "repeated_holdout": {"ratio": "3:1", "k": [9]},
                "bcv": {"m": 5}}
    assert {e: v for e, v in labels(settings, 4).items() if e in ESTIMATORS[:5]} == {
        "ST": "4:1 hold-out", "RS": "4 x 3:1 hold-outs", "Avg": "5x2 BCV", "Vote": "5x2 BCV",
        "Mixture": "5x2 BCV"}
    # nothing recorded: said so, never the paper's values
    assert {e: v for e, v in labels(None, None).items() if e in ESTIMATORS[:5]} == {
                                  "ST": "hold-out (ratio not recorded)",
                                  "RS": "k hold-outs (ratio not recorded)",
                                  "Avg": "m x 2 BCV (m not recorded)",
                                  "Vote": "m x 2 BCV (m not recorded)",
                                  "Mixture": "m x 2 BCV (m not recorded)"}
    # a foreign strategy in a record labels nothing and breaks nothing
    assert labels({"loo": {"k": 3}}, 6)["RS"] == "6 hold-outs (ratio not recorded)"


def test_no_code_outside_the_strategies_spells_one():
    """A strategy's name or config key as a string literal, or a comparison with one of the
    registry's objects, is a branch on which strategy a value is: it lives in the strategy's own
    module, and every other module asks the object (its methods, or what it has: ``votes``,
    ``grows``, ``standard``). A spelling that is also a field of the strategy's estimates.json
    (``"holdout"``, ST's difference) is a record's key there, not the strategy."""
    spellings = {s for found in STRATEGIES for s in (found.name, found.key)
                 if s not in found.estimates}
    spelled = re.compile(r"""["'](?:%s)["']""" % "|".join(map(re.escape, sorted(spellings))))
    compared = re.compile(r"(?:==|!=|\bis|\bin)\s*\(?\s*[A-Z_]*(?:HOLDOUT|BCV)\b"
                          r"|\b[A-Z_]*(?:HOLDOUT|BCV)\.(?:name|key|short)\b")
    files = [path for folder in ("reprocompare", "corpora", "splitters", "models", "estimators",
                                 "reports", "search", "workflow")
             for path in sorted((ROOT / folder).rglob("*")) if path.suffix in (".py", ".smk")]
    found = []
    for path in files:
        code = "\n".join(line for line in _code_lines(path.read_text(encoding="utf-8")))
        if spelled.search(code) or compared.search(code):
            found.append(str(path.relative_to(ROOT)))
    assert found == []
    # and the strategies' own modules do spell them: the check can fail
    own = "\n".join(_code_lines((ROOT / "strategies" / "bcv.py").read_text(encoding="utf-8")))
    assert spelled.search(own)


def test_the_recommended_strategy_is_the_papers():
    assert RECOMMENDED.name == "bcv" and RECOMMENDED.settings == ("m",)


def _code_lines(text: str):
    """The lines of code, without docstrings, comments or doctest examples."""
    in_docstring = False
    for line in text.splitlines():
        stripped = line.strip()
        quotes = stripped.count('"""') + stripped.count("'''")
        if in_docstring:
            if quotes % 2:
                in_docstring = False
            continue
        if stripped.startswith(('"""', "'''", 'r"""')):
            in_docstring = quotes % 2 == 1
            continue
        if stripped.startswith("#"):
            continue
        yield line.split("  #")[0]


#: a variant of the BCV in a module of its own, as a new strategy is added (docs/development.md)
_NEW_STRATEGY = '''
from reprocompare.strategies.bcv import BlockedCVStrategy

STRATEGY = BlockedCVStrategy(
    name="toy-bcv", key="toy_bcv", code=99, short="TBCV", settings=("m",),
    estimates=("avg", "vote", "mixture", "fold_differences"),
    estimators=("TAvg", "TVote", "TMixture"), tests=("toy_t", "toy_f", "toy_blocked_t"),
    votes=True, model_f1="the mean F1 of its 2m folds")
'''

_USE_IT = '''
import importlib.util, json, sys

spec = importlib.util.find_spec("reprocompare.strategies")
spec.submodule_search_locations.append(sys.argv[1])  # the folder of the new module
registry = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = registry
spec.loader.exec_module(registry)

from reprocompare.splitters import split_document
from reprocompare.study.summary import Repetition, estimator_values

found = registry.strategy("toy_bcv")
document = split_document("toy-bcv", 16, seed=3, m=2)
f1 = {"A": [0.8, 0.7, 0.9, 0.6], "B": [0.7, 0.7, 0.8, 0.7]}
records = [Repetition(found.estimate(f1, {"A": 0.8 + r / 100, "B": 0.75}), r, f"rep{r}")
           for r in range(2)]
assert {r.strategy for r in records} == {"toy-bcv"}
print(json.dumps({"names": registry.NAMES, "estimators": registry.ESTIMATORS,
                  "folds": len(document["folds"]), "blocks": len(document["blocks"]),
                  "values": estimator_values(records, 6, "A>B"),
                  "labels": registry.labels({"toy_bcv": {"m": 2}}, 6)}))
'''


def test_a_new_strategy_is_one_module_that_every_stage_runs(tmp_path):
    """A module with a ``STRATEGY`` is found by the registry, in the order of its code, and the
    split document, the repetition's record and Table 4's values run it with no other edit."""
    (tmp_path / "toy_bcv.py").write_text(_NEW_STRATEGY)
    out = subprocess.run([sys.executable, "-c", _USE_IT, str(tmp_path)], capture_output=True,
                         text=True, check=True).stdout
    got = json.loads(out)
    assert got["names"][:3] == ["holdout", "repeated-holdout", "bcv"]
    assert got["names"][-1] == "toy-bcv"  # code 99: after every strategy of the package
    assert got["estimators"][-3:] == ["TAvg", "TVote", "TMixture"]
    assert (got["folds"], got["blocks"]) == (4, 4)  # m = 2: 2m folds over four blocks
    assert got["values"]["TAvg"] == pytest.approx([0.025, 0.025])
    assert got["values"]["TVote"] == pytest.approx([0.05, 0.06])
    assert got["values"]["TMixture"] == pytest.approx([0.05, 0.06])  # Eq. 8: Vote > Avg
    assert got["labels"]["TAvg"] == "2x2 BCV"


@pytest.mark.parametrize("found", STRATEGIES, ids=NAMES)
def test_each_record_is_a_typed_value_that_writes_and_reads_itself(found):
    """A repetition's record is its strategy's frozen dataclass: what ``estimate`` returns, as
    ``estimates.json`` holds it (the fields it has, in the file's order) and back."""
    folds = 6 if found.votes else 3
    f1 = {"A": [0.8, 0.7, 0.9, 0.6, 0.8, 0.7][:folds], "B": [0.7] * folds}
    record = found.estimate(f1, {"A": 0.8, "B": 0.75} if found.votes else None)
    assert isinstance(record, found.record) and record.strategy == found.name
    written = record.as_json()
    assert list(written)[0] == "strategy" and list(written)[-1] == "per_model"
    assert set(found.estimates) <= set(written)
    assert found.read(json.loads(json.dumps(written))) == record
    with pytest.raises(AttributeError):
        record.strategy = "other"  # frozen


def test_committed_records_round_trip_byte_for_byte(tmp_path):
    """Every estimates.json a committed study holds (in its records.jsonl, the tracked table of
    its repetitions' files), read as its typed record and written back, is the same bytes: the
    key order and the optional keys of older runs kept."""
    from reprocompare.base.files import write_json_atomic
    from reprocompare.base.run_records import read_repetitions
    from reprocompare.strategies import ESTIMATES, read_estimates

    study = ROOT / "studies" / "ner-full" / "results" / "compare" / "conll2002_esp"
    tables = sorted(study.glob("*/*/records.jsonl"))
    assert {table.parent.name for table in tables} == {"holdout", "repeated-holdout", "bcv"}
    run, checked = tmp_path / "rep", 0
    for table in tables:
        for number, files in read_repetitions(table.parent).items():
            original = ESTIMATES.write(run, files["estimates.json"]).read_bytes()
            again = write_json_atomic(tmp_path / "again.json", read_estimates(run).as_json())
            assert again.read_bytes() == original, (table, number)
            checked += 1
    assert checked >= 3 * 10  # every repetition of the three strategies (R = 10 or more)


def test_a_setting_of_its_own_is_checked_defaulted_and_recorded_by_the_strategy():
    """A split's settings belong to the strategies (Strategy.SETTINGS): a strategy with a new
    one declares it in its module; every setting given is checked, whichever strategy reads it,
    and one no strategy takes is refused."""
    from reprocompare.base.errors import UserError
    from reprocompare.splitters._common import check_positive_int
    from reprocompare.strategies.holdout import HoldOutStrategy
    from reprocompare.strategies.strategy import SETTINGS as SHARED, Setting

    class Tilted(HoldOutStrategy):
        SETTINGS = {**SHARED, "tilt": Setting(2, check_positive_int, lambda v: f"t{v}")}

    found = Tilted(name="tilted", key="tilted", code=98, short="TI", settings=("ratio", "tilt"),
                   estimates=("holdout",), estimators=("TI",), tests=(), model_f1="its F1")
    assert found.split_settings({"tilt": 3, "m": 5}) == ({"ratio": (8, 1), "tilt": 3},
                                                         {"ratio": "8:1", "tilt": "t3"})
    with pytest.raises(UserError, match="m must be a positive integer"):
        found.split_settings({"m": 0})  # not its setting, still checked
    with pytest.raises(TypeError, match="no setting 'kk'"):
        strategy("bcv").split_settings({"kk": 3})
    with pytest.raises(TypeError, match="no setting 'kk'"):
        split_document("bcv", 8, kk=3)
    assert list(split_document("holdout", 9, ratio="2:1", m=4)) == [
        "strategy", "seed", "repetition", "n_sentences", "corpus_sha256", "ratio", "folds"]


@pytest.mark.parametrize("found", STRATEGIES, ids=NAMES)
def test_every_strategy_has_its_config_keys_in_the_schema(found):
    """The schema is where a user's keys live: each strategy's key, every setting its splitter
    takes (with the default a split falls back to), and its estimators as stopping choices."""
    from reprocompare import schemas

    section = schemas.schema()["properties"]["strategies"]["properties"][found.key]
    assert set(found.settings) <= set(section["properties"])
    defaults = {name: schemas.default(f"strategies.{found.key}.{name}") for name in found.settings}
    # a split's own defaults are the workflow's (RS draws max(k) hold-outs)
    assert {name: found.SETTINGS[name].default for name in found.settings} == \
        found.splitter_arguments(defaults)
    choices = schemas.choices("stopping.estimators[]")
    assert set(found.estimators) <= set(choices)
