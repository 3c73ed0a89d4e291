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
from reprocompare.models.processes import DEFAULT_TIMEOUT, run_contained


class Features:
    """The features of one corpus's sentences, computed once per feature template.

    Parameters
    ----------
    sentences : sequence of Sentence
        The sentences.
    say : callable, optional
        Called with a line when features are computed.
    """

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

    Parameters
    ----------
    model : SequenceTagger
        An unfitted tagger.
    features : Features
        The corpus's features.
    train, validation : sequence of int
        The rows to train on and to predict.
    gold : sequence of sequence of str
        The gold tags of the validation rows.
    scheme : str
        The tag scheme.
    typed : bool
        Whether chunks keep their types in the scores.
    where : str
        The fold and model, for the error message.
    eval_on_validation : bool, default False
        Pass the validation rows to ``fit`` as ``eval_set``.

    Returns
    -------
    Trained
        The predictions, their chunk counts and the seconds.
    """
    train = np.asarray(train, dtype=np.int64)
    validation = np.asarray(validation, dtype=np.int64)
    y_train = [gold[i] for i in train]
    y_validation = [gold[i] for i in validation]
    started = time.perf_counter()

    def fit_and_predict():
        extra = ({"eval_set": (features.take(validation), y_validation)}
                 if eval_on_validation else {})
        model.fit(features.take(train), y_train, corpus_scheme=scheme, **extra)
        predicted = model.predict(features.take(validation))
        check_predictions(y_validation, predicted)
        # a learning curve is what fit leaves on the model: it comes back with the predictions
        return predicted, getattr(model, "learning_curve_", None)

    try:
        if contained(model):
            # the user's code: in a process of its own, within its timeout (models.processes)
            predicted, curve = run_contained(fit_and_predict, timeout=float(getattr(
                model, "timeout", DEFAULT_TIMEOUT)), what=f"{type(model).__name__}'s fit and "
                "predict")
            if curve is not None:
                model.learning_curve_ = curve
        else:
            predicted, _ = fit_and_predict()
    except UserError as error:  # a command model's failure, a contained tagger's: say where
        raise UserError(f"{where}: {error}") from None
    except (ValueError, TypeError, IndexError, KeyError) as error:
        # a tagger of the user's that broke its contract: one line, never a traceback
        raise UserError(f"{where}: {error}") from None
    seconds = time.perf_counter() - started
    return Trained(predicted, count_chunks(y_validation, predicted, typed=typed), seconds)


def contained(model) -> bool:
    """Whether ``model``'s fit and predict run in a process of their own: the user's Python
    code (a class with fit and predict, a SequenceTagger outside this package), never this
    package's taggers (trusted, and the BiLSTM's torch threads do not survive a fork).

    Parameters
    ----------
    model : object
        The model.

    Returns
    -------
    bool
    """
    declared = getattr(model, "contained", None)
    if declared is not None:
        return bool(declared)
    return not type(model).__module__.startswith("reprocompare.")
