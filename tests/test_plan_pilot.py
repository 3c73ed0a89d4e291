"""``reprocompare plan --study DIR`` plans a study like the pilot: the options a user does not give
are the pilot's own (its stopping plan when it was sequential, its verdicts' threshold and level),
not the schema's; an option given wins. A study of threshold 0.99 and a maximum of 15 was
planned at 0.8 up to 200 before, a forecast for another study than the user's.
"""

from __future__ import annotations

import json

import yaml

import conftest
from conftest import ROOT
from reprocompare.commands.plan import pilot_settings

NER_FULL = ROOT / "studies" / "ner-full"


def _plan(*args):
    result = conftest.reprocompare("plan", *map(str, args), "--studies", "20", "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _summary(study):
    source, = (study / "results" / "summaries").glob("*/*_vs_*[!s].json")
    return source, json.loads(source.read_text())


def test_a_sequential_pilots_own_plan_is_the_default():
    config = yaml.safe_load((ROOT / "config" / "study-ner-full.yaml").read_text())
    stopping = config["stopping"]
    out = _plan("--study", NER_FULL)
    assert (out["wave"], out["max_repetitions"], out["estimators"]) == \
        (stopping["wave"], stopping["max_repetitions"], stopping["estimators"])
    assert out["threshold"] == 0.8 and abs(out["confidence"] - 0.95) < 1e-12
    given = _plan("--study", NER_FULL, "--max-repetitions", "40", "--wave", "10",
                  "--estimator", "Avg", "--threshold", "0.9")
    assert (given["wave"], given["max_repetitions"], given["estimators"], given["threshold"]) \
        == (10, 40, ["Avg"], 0.9)


def test_the_pilots_threshold_and_level_are_read_from_its_verdicts(tmp_path):
    """A pilot whose verdicts were read at 0.99 and 97.5% each, with two deciding estimators,
    is planned at 0.99 and 95% together (Bonferroni given back); with one estimator named, at
    97.5%."""
    source, record = _summary(NER_FULL)
    for read in record["summary"]["verdicts"].values():
        read.update(threshold=0.99, confidence=0.975)
    record["summary"]["stopping"].update(max_repetitions=15, wave=5, estimators=["Avg", "Mixture"])
    study = tmp_path / "pilot"
    (study / "results" / "summaries" / "c").mkdir(parents=True)
    (study / "results" / "summaries" / "c" / "x.json").write_text(json.dumps(record))
    out = _plan("--study", study)
    assert (out["threshold"], out["max_repetitions"]) == (0.99, 15)
    assert abs(out["confidence"] - 0.95) < 1e-12
    assert abs(pilot_settings(record["summary"], ["Avg"])["confidence"] - 0.975) < 1e-12


def test_a_pilot_that_was_not_sequential_keeps_the_schemas_plan():
    summary = {"verdicts": {"Avg": {"threshold": 0.8, "confidence": 0.95}}}
    own = pilot_settings(summary)
    assert own == {"threshold": 0.8, "confidence": 0.95}
    assert pilot_settings({"stopping": {"enabled": False, "wave": 3}}) == {}
