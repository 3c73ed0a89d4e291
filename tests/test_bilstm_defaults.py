"""The BiLSTM's defaults (issue 37, item 5): measured (benchmarks/RESULTS.md, "BiLSTM defaults
(issue 37)"), set in one place, its PARAMS, which the constructor, ``reprocompare models`` and
models/README.md read."""

from __future__ import annotations

import inspect

from conftest import reprocompare
from reprocompare.models.bilstm import BiLSTMTagger

#: what the grid chose: a character CNN, Adam at 0.01, 10 epochs of patience, at most 50
CHOSEN = {"char_dim": 30, "char_model": "cnn", "learning_rate": 0.01, "patience": 10,
          "epochs": 50, "validation_fraction": 0.1}


def test_the_defaults_are_the_measured_ones_and_set_only_in_params():
    declared = {param.name: param.default for param in BiLSTMTagger.PARAMS}
    assert {name: declared[name] for name in CHOSEN} == CHOSEN
    signature = inspect.signature(BiLSTMTagger).parameters
    assert {name: signature[name].default for name in declared} == declared
    assert {name: value for name, value in BiLSTMTagger().get_params().items()
            if name in CHOSEN} == CHOSEN
    # a change of defaults changes what a spec trains: the jobs that trained it rerun
    assert BiLSTMTagger.version == 3


def test_reprocompare_models_lists_them():
    result = reprocompare("models", "bilstm")
    assert result.returncode == 0, result.stderr
    for line in ("learning_rate", "patience", "char_dim"):
        shown = next(text for text in result.stdout.splitlines() if text.strip().startswith(line))
        assert f"default {CHOSEN[line]}" in shown, shown
