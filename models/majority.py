"""Majority baseline: every word gets the tag it had most often in training.

The ``DummyClassifier`` of sequence labeling: a floor any real tagger must clear, and a cheap
stand-in model for exercising splits and estimators end to end.
"""

from __future__ import annotations

from collections import Counter
from typing import Hashable, Sequence

from reprocompare.corpora.conll import Sentence
from reprocompare.models.base import SCHEME_PARAM, Featurized, SequenceTagger


def _most_frequent(counts: Counter) -> str:
    # highest count first, then the lexicographically smallest tag: no dependence on the order
    # in which training sentences were seen
    return min(counts.items(), key=lambda item: (-item[1], item[0]))[0]


class MajorityTagger(SequenceTagger):
    """Tag each token with its word's most frequent training tag, else the most frequent tag.

    Counts are taken in the model's scheme (so an IOBES majority tagger counts ``S-NP`` and
    ``B-NP`` apart), words are matched exactly as written, and ties go to the lexicographically
    smallest tag. The per-token choices need not form well-formed sequences; the conversion back to
    the corpus's scheme reads them as conlleval would.

    Parameters
    ----------
    scheme : {"IOB2", "IOBES", "IOB1"}
        Tag scheme the counts are taken in.

    Attributes
    ----------
    word_tags_ : dict of str to str
        The majority tag of every training word.
    default_tag_ : str
        The most frequent tag overall, for words never seen in training.

    Examples
    --------
    >>> from reprocompare.corpora.conll import Sentence
    >>> def sentence(*tokens):
    ...     return Sentence(tokens, ("O",) * len(tokens), (), 0, 1)
    >>> X = [sentence("the", "dog"), sentence("the", "dog"), sentence("a", "dog")]
    >>> y = [["B-NP", "I-NP"], ["B-NP", "I-NP"], ["O", "B-NP"]]
    >>> MajorityTagger().fit(X, y).predict([sentence("the", "dog", "barks")])
    [['B-NP', 'I-NP', 'B-NP']]
    """

    name = "majority"
    PARAMS = (SCHEME_PARAM,)

    def __init__(self, scheme="IOB2"):
        self.scheme = scheme

    def feature_key(self) -> Hashable:
        return ("majority",)

    def featurize(self, sentences: Sequence[Sentence]) -> Featurized:
        """The tokens themselves: there is nothing to precompute."""
        return Featurized(self.feature_key(), [s.tokens for s in sentences])

    def _fit(self, featurized: Featurized, y: list[list[str]]) -> None:
        by_word: dict[str, Counter] = {}
        overall: Counter = Counter()
        for tokens, tags in zip(featurized.rows, y):
            if len(tokens) != len(tags):
                raise ValueError(f"{len(tokens)} tokens but {len(tags)} tags")
            overall.update(tags)
            for token, tag in zip(tokens, tags):
                by_word.setdefault(token, Counter())[tag] += 1
        self.word_tags_ = {word: _most_frequent(counts) for word, counts in by_word.items()}
        self.default_tag_ = _most_frequent(overall) if overall else "O"

    def _predict(self, featurized: Featurized) -> list[list[str]]:
        known, default = self.word_tags_, self.default_tag_
        return [[known.get(token, default) for token in tokens] for tokens in featurized.rows]
