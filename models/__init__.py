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
:class:`MajorityTagger` (per-word majority baseline). Specs: :func:`parse_spec`
(``"crf:scheme=IOBES,c1=0.05"``), :func:`spec_from_mapping` (YAML entries), :func:`build_model`.

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

from reprocompare.models.base import Featurized, SequenceTagger
from reprocompare.models.specs import (MODEL_TYPES, ModelSpec, build_model, model_class, parse_spec,
                          spec_from_mapping)

# The taggers are imported when first named: `from reprocompare.models import CRFTagger` does not import torch.
_TAGGERS = {"BiLSTMTagger": "reprocompare.models.bilstm", "CRFTagger": "reprocompare.models.crf",
            "MajorityTagger": "reprocompare.models.majority"}


def __getattr__(name: str):
    if name in _TAGGERS:
        return getattr(importlib.import_module(_TAGGERS[name]), name)
    raise AttributeError(f"module 'models' has no attribute {name!r}")


__all__ = [
    "BiLSTMTagger",
    "CRFTagger",
    "Featurized",
    "MajorityTagger",
    "MODEL_TYPES",
    "ModelSpec",
    "SequenceTagger",
    "build_model",
    "model_class",
    "parse_spec",
    "spec_from_mapping",
]
