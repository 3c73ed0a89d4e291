"""Sequence taggers behind one fit/predict interface, and the specs that name them.

The interface (scikit-learn estimator style, as sklearn-crfsuite's ``CRF``):

``model.fit(X, y, corpus_scheme=None) -> model``
    ``X`` is a list of :class:`corpora.conll.Sentence` (tokens plus their extra columns, such as
    POS) or a :class:`Featurized`; ``y`` the gold tag sequences in the corpus's scheme.
``model.predict(X) -> list[list[str]]``
    Tags in the corpus's scheme (the scheme of the ``y`` given to ``fit``: detected, or
    ``corpus_scheme``), whatever scheme the model was trained in (its ``scheme`` parameter), so
    models A and B of a comparison are always scored against the same gold chunks.
``model.featurize(sentences) -> Featurized`` and ``model.feature_key()``
    Expensive work once: featurize a corpus once per process, then give every fold
    ``featurized.take(train_index)`` / ``featurized.take(test_index)``; nothing is recomputed. Two
    models whose ``feature_key()`` are equal (the paper's CRF with IOB2 tags and the same CRF with
    IOBES tags; BiLSTMs that differ in embedding size) share one ``Featurized``.

Fitted models pickle (the CRF keeps its model file's bytes, the BiLSTM its weights on CPU).
Training that is random takes ``random_state``.

Taggers: :class:`CRFTagger` (python-crfsuite), :class:`BiLSTMTagger` (torch),
:class:`MajorityTagger` (per-word majority baseline), :class:`CommandTagger` (two shell commands:
any framework), :class:`TransformerTagger` (a Hugging Face token-classification model, with the
``transformers`` extra). Types are registered in :mod:`reprocompare.models.registry` (third-party ones
through the entry-point group ``reprocompare.taggers``); capabilities (``uses_gpu``,
``trains_by_epochs``, ``needs_characters``) are class attributes. Specs: :func:`parse_spec`
(``"crf:scheme=IOBES,c1=0.05"``), :func:`spec_from_mapping` (YAML entries), :func:`build_model`.
Every type's hyperparameters: models/README.md, or ``reprocompare models``.

Examples
--------
>>> from reprocompare.corpora.conll import read_conll  # doctest: +SKIP
>>> corpus = read_conll("data/conll2000/train.txt.gz")  # doctest: +SKIP
>>> a, b = build_model(parse_spec("crf:scheme=IOB2")), build_model(parse_spec("crf:scheme=IOBES"))
>>> a.feature_key() == b.feature_key()
True
>>> features = a.featurize(corpus.sentences)  # doctest: +SKIP
>>> train, test = np.arange(0, 4000), np.arange(4000, 8936)  # doctest: +SKIP
>>> for model in (a, b):  # doctest: +SKIP
...     model.fit(features.take(train), [corpus.tags[i] for i in train])
...     predicted = model.predict(features.take(test))
"""

import importlib

from reprocompare.models.base import Featurized, Param, SequenceTagger
from reprocompare.models.registry import ENTRY_POINT_GROUP, available, register, tagger_class
from reprocompare.models.specs import (ModelSpec, build_model, model_class, parse_spec,
                                       spec_from_mapping, tagger_class_of)

# The taggers are imported when first named: `from reprocompare.models import CRFTagger` does not
# import torch.
_TAGGERS = {"BiLSTMTagger": "reprocompare.models.bilstm", "CRFTagger": "reprocompare.models.crf",
            "MajorityTagger": "reprocompare.models.majority",
            "CommandTagger": "reprocompare.models.command",
            "TransformerTagger": "reprocompare.models.transformer"}


def __getattr__(name: str):
    if name in _TAGGERS:
        return getattr(importlib.import_module(_TAGGERS[name]), name)
    raise AttributeError(f"module 'reprocompare.models' has no attribute {name!r}")


__all__ = [
    "BiLSTMTagger",
    "CRFTagger",
    "CommandTagger",
    "ENTRY_POINT_GROUP",
    "Featurized",
    "MajorityTagger",
    "ModelSpec",
    "Param",
    "SequenceTagger",
    "TransformerTagger",
    "available",
    "build_model",
    "model_class",
    "parse_spec",
    "register",
    "spec_from_mapping",
    "tagger_class",
    "tagger_class_of",
]
