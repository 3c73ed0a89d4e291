"""The one training engine (issue 21, item 1): models.engine trains, checks and counts a fold for
every job that trains (comparisons, search trials, seed runs, learning curves)."""

from __future__ import annotations

import pytest

from conftest import TEST_DATA
from reprocompare.base.errors import UserError
from reprocompare.corpora.conll import read_conll
from reprocompare.corpora.scoring import count_chunks
from reprocompare.models.engine import Features, train_fold
from reprocompare.models.majority import MajorityTagger


class Short(MajorityTagger):
    """A tagger of a user's that predicts one sentence too few."""

    def predict(self, X):
        return super().predict(X)[:-1]


class Counting(MajorityTagger):
    featurized = 0

    def featurize(self, sentences):
        Counting.featurized += 1
        return super().featurize(sentences)


def test_a_fold_is_trained_checked_and_counted_as_conlleval_counts():
    corpus = read_conll(TEST_DATA / "tiny.conll")
    features = Features(corpus.sentences)
    train, validation = list(range(0, 80)), list(range(80, 100))
    trained = train_fold(MajorityTagger(), features.of(MajorityTagger()), train, validation,
                         corpus.tags, scheme=corpus.scheme, typed=True, where="fold 1/1, A")
    gold = [corpus.tags[i] for i in validation]
    assert len(trained.predictions) == 20
    assert trained.counts.score() == count_chunks(gold, trained.predictions, typed=True).score()
    assert trained.seconds >= 0


def test_features_are_computed_once_per_template():
    corpus = read_conll(TEST_DATA / "tiny.conll")
    features = Features(corpus.sentences)
    Counting.featurized = 0
    assert features.of(Counting()) is features.of(Counting())
    assert Counting.featurized == 1


def test_a_broken_contract_is_one_line_naming_where():
    corpus = read_conll(TEST_DATA / "tiny.conll")
    features = Features(corpus.sentences)
    with pytest.raises(UserError, match=r"^fold 2/6, model B \(mine\): .*19 sentences for 20") as error:
        train_fold(Short(), features.of(Short()), range(80), range(80, 100), corpus.tags,
                   scheme=corpus.scheme, typed=True, where="fold 2/6, model B (mine)")
    assert "\n" not in str(error.value)

