"""The one training engine: a model trained on a fold's training sentences, its predictions of
the fold's validation sentences checked and counted.

Every job that trains calls it: a comparison's folds (reprocompare.study.compare), the search's
trials, the seed-variance runs and the learning curves (reprocompare.search.trials). So every
model, the user's included, meets the same checks and the same scoring (conlleval's chunk
counts) wherever it trains, and a broken contract is one line naming where.
Features are computed once per feature template and shared by every model and fold that use
it (:class:`Features`).
"""

from __future__ import annotations

import time
from typing import Callable, NamedTuple

import numpy as np

from reprocompare.base.errors import UserError
from reprocompare.corpora.scoring import ChunkCounts, check_predictions, count_chunks


class Features:
    """The features of one corpus's sentences, computed once per feature template."""

    def __init__(self, sentences, say: Callable[[str], None] | None = None) -> None:
        self.sentences = sentences
        self.say = say or (lambda message: None)
        self.by_key: dict = {}

    def of(self, model, name: str = "the model"):
        """The features ``model`` reads (its ``feature_key``), computed on first use."""
        key = model.feature_key()
        if key not in self.by_key:
            started = time.perf_counter()
            self.by_key[key] = model.featurize(self.sentences)
            self.say(f"featurized {len(self.sentences)} sentences for {name} in "
                     f"{time.perf_counter() - started:.1f} s")
        return self.by_key[key]


class Trained(NamedTuple):
    """What one model did on one fold."""

    predictions: list  # predicted tags of the validation sentences
    counts: ChunkCounts
    seconds: float  # fit and predict, wall time


def train_fold(model, features, train, validation, gold, *, scheme: str, typed: bool,
               where: str, eval_on_validation: bool = False) -> Trained:
    """Fit ``model`` on the rows ``train`` of ``features``, predict the rows ``validation``,
    check the predictions (one tag sequence per sentence, of the right lengths, tags of the
    scheme, as a command tagger's are) and count their chunks against ``gold``.

    ``eval_on_validation``: pass the validation rows to ``fit`` as its ``eval_set`` (a model
    that records a learning curve, the BiLSTM). ``where`` names the fold and model in the one-line error a broken contract ends in (a
    command model's failure, or a user's tagger that returns what it should not).
    """
    train = np.asarray(train, dtype=np.int64)
    validation = np.asarray(validation, dtype=np.int64)
    y_train = [gold[i] for i in train]
    y_validation = [gold[i] for i in validation]
    started = time.perf_counter()
    try:
        extra = ({"eval_set": (features.take(validation), y_validation)}
                 if eval_on_validation else {})
        model.fit(features.take(train), y_train, corpus_scheme=scheme, **extra)
        predicted = model.predict(features.take(validation))
        check_predictions(y_validation, predicted)
    except UserError as error:  # a command model's failure: say which fold and model
        raise UserError(f"{where}: {error}") from None
    except (ValueError, TypeError, IndexError, KeyError) as error:
        # a tagger of the user's that broke its contract: one line, never a traceback
        raise UserError(f"{where}: {error}") from None
    seconds = time.perf_counter() - started
    return Trained(predicted, count_chunks(y_validation, predicted, typed=typed), seconds)
