"""Chunk scoring equals conlleval (through seqeval's default, conlleval-compatible mode)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from seqeval.metrics import classification_report, f1_score, precision_score, recall_score

from reprocompare.corpora.schemes import convert
from reprocompare.corpora.scoring import count_chunks, f1_from_counts, prf

TYPES = ["NP", "VP", "PP", "ADJP", "ADVP", "SBAR", "PRT", "CONJP", "INTJ", "LST", "UCP"]


def corrupt(gold, rate, seed):
    """Random predictions near gold: tags swapped for any tag, ill-formed sequences included."""
    rng = random.Random(seed)
    labels = ["O"] + [f"{p}-{t}" for p in "BI" for t in TYPES]
    return [[rng.choice(labels) if rng.random() < rate else t for t in s] for s in gold]


def untype(sequences):
    return [[t if t == "O" else t[0] for t in s] for s in sequences]


def assert_same_as_seqeval(gold, pred, counts):
    score = counts.score()
    assert score.precision == pytest.approx(precision_score(gold, pred), abs=1e-12)
    assert score.recall == pytest.approx(recall_score(gold, pred), abs=1e-12)
    assert score.f1 == pytest.approx(f1_score(gold, pred), abs=1e-12)
    # conlleval prints two decimals: they must be the same digits
    assert f"{100 * score.f1:.2f}" == f"{100 * f1_score(gold, pred):.2f}"
    report = classification_report(gold, pred, output_dict=True, zero_division=0)
    for name, mine in score.per_type.items():
        if mine["gold_chunks"]:
            theirs = report[name or "_"]
            assert mine["precision"] == pytest.approx(theirs["precision"], abs=1e-12)
            assert mine["recall"] == pytest.approx(theirs["recall"], abs=1e-12)
            assert mine["gold_chunks"] == theirs["support"]


@pytest.mark.slow
@pytest.mark.parametrize("rate,seed", [(0.0, 0), (0.02, 1), (0.1, 2), (0.5, 3)])
def test_full_conll2000_test_equals_seqeval(conll2000_test, rate, seed):
    gold = [list(t) for t in conll2000_test.tags]
    pred = corrupt(gold, rate, seed)
    assert_same_as_seqeval(gold, pred, count_chunks(gold, pred))


@pytest.mark.slow
def test_iobes_predictions_equal_seqeval(conll2000_test):
    gold = [convert(t, "IOBES") for t in conll2000_test.tags[:500]]
    pred = [convert(t, "IOBES") for t in corrupt(gold, 0.1, 7)]
    assert_same_as_seqeval(gold, pred, count_chunks(gold, pred))


@pytest.mark.slow
def test_untyped_equals_seqeval_on_stripped_types(conll2000_test):
    gold = [list(t) for t in conll2000_test.tags]
    pred = corrupt(gold, 0.1, 4)
    counts = count_chunks(gold, pred, typed=False)
    assert counts.types == ("",)
    ug, up = untype(gold), untype(pred)
    assert counts.score().f1 == pytest.approx(f1_score(ug, up), abs=1e-12)
    # ignoring types can only find more correct chunks here
    assert counts.score().f1 > count_chunks(gold, pred).score().f1


def test_hand_computed_example():
    gold = [["B-NP", "I-NP", "O", "B-VP"], ["B-PP", "B-NP"]]
    pred = [["B-NP", "I-NP", "O", "B-NP"], ["O", "I-NP"]]  # I-NP after O opens a chunk
    score = count_chunks(gold, pred).score()
    # gold: NP(0,2) VP(3,4) | PP(0,1) NP(1,2); pred: NP(0,2) NP(3,4) | NP(1,2); correct: 2
    assert (score.gold_chunks, score.pred_chunks, score.correct_chunks) == (4, 3, 2)
    assert score.precision == pytest.approx(2 / 3) and score.recall == pytest.approx(1 / 2)
    assert score.f1 == pytest.approx(2 * 2 / 7)
    assert score.per_type["VP"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0,
                                    "gold_chunks": 1, "pred_chunks": 0, "correct_chunks": 0}
    assert (score.tokens, score.correct_tags) == (6, 3)  # tags equal at 0, 1, 2 only


def test_subsets_rescore_by_summing(conll2000_test):
    gold = [list(t) for t in conll2000_test.tags]
    pred = corrupt(gold, 0.1, 5)
    counts = count_chunks(gold, pred)
    index = np.random.default_rng(0).choice(len(gold), size=300, replace=False)
    direct = count_chunks([gold[i] for i in index], [pred[i] for i in index]).score()
    assert counts.score(index).f1 == pytest.approx(direct.f1, abs=1e-15)
    assert counts.f1(index) == pytest.approx(direct.f1, abs=1e-15)
    assert counts.subset(index).score().correct_chunks == direct.correct_chunks


def test_conventions_for_empty_counts():
    assert prf(0, 0, 0) == (0.0, 0.0, 0.0)
    assert f1_from_counts(np.array([[0, 0, 0], [2, 2, 1]])).tolist() == [0.0, 0.5]


def test_misaligned_input_is_an_error():
    with pytest.raises(ValueError, match="2 gold sentences but 1"):
        count_chunks([["O"], ["O"]], [["O"]])
    with pytest.raises(ValueError, match="sentence 0: 1 gold tags but 2"):
        count_chunks([["O"]], [["O", "O"]])
