"""Linear-chain CRF tagger on python-crfsuite, with a configurable feature template.

The paper (section 4) compares a CRF trained on IOB2 tags with the same CRF trained on IOBES tags,
for NER and for base-phrase chunking. Both models see identical features, so ``feature_key`` leaves
``scheme`` and the training hyperparameters out: one ``featurize`` serves both models and every
fold.

Features are computed once, straight into ``pycrfsuite.ItemSequence`` objects (crfsuite's own
attribute representation), which ``pycrfsuite.Trainer.append`` and ``Tagger.tag`` take without
reprocessing them; a fold costs only the copy crfsuite makes when the rows are appended.
"""

from __future__ import annotations

import os
import tempfile
from typing import Hashable, Sequence

import pycrfsuite

from reprocompare.corpora.conll import Sentence
from reprocompare.models.base import (SCHEME_PARAM, Featurized, Param, SequenceTagger, at_least,
                                      between)

#: Bumped whenever the features computed for a given template change.
FEATURE_VERSION = 1


def word_shape(word: str) -> str:
    """Upper case -> X, lower case -> x, digit -> d, other characters kept; runs collapsed.

    Parameters
    ----------
    word : str
        The word.

    Returns
    -------
    str
        Its shape.

    Examples
    --------
    >>> word_shape("McDonald's"), word_shape("1,234.5"), word_shape("--")
    ("XxXx'x", 'd,d.d', '-')
    """
    out = []
    last = ""
    for char in word:
        if char.isupper():
            kind = "X"
        elif char.islower():
            kind = "x"
        elif char.isdigit():
            kind = "d"
        else:
            kind = char
        if kind != last:
            out.append(kind)
            last = kind
    return "".join(out)


def _sentence_items(tokens: Sequence[str], columns: Sequence[Sequence[str]], word_window: int,
                    lower: bool, word_bigrams: bool, affix_length: int, shape: bool, flags: bool,
                    use_columns: bool, column_window: int, column_bigrams: bool) -> list[list[str]]:
    n = len(tokens)
    words = [t.lower() for t in tokens] if lower else list(tokens)
    items: list[list[str]] = []
    offsets = range(-word_window, word_window + 1)
    column_offsets = range(-column_window, column_window + 1)
    for i, token in enumerate(tokens):
        item = ["bias"]
        for o in offsets:
            k = i + o
            if 0 <= k < n:
                item.append(f"w[{o}]={words[k]}")
        if word_bigrams:
            if i > 0:
                item.append(f"w[-1]|w[0]={words[i - 1]}|{words[i]}")
            if i + 1 < n:
                item.append(f"w[0]|w[1]={words[i]}|{words[i + 1]}")
        for length in range(1, min(affix_length, len(token)) + 1):
            item.append(f"p{length}={token[:length]}")
            item.append(f"s{length}={token[-length:]}")
        if shape:
            item.append(f"shape={word_shape(token)}")
        if flags:
            if token.isdigit():
                item.append("digit")
            if token.istitle():
                item.append("title")
            if token.isupper():
                item.append("upper")
        if i == 0:
            item.append("BOS")
        if i == n - 1:
            item.append("EOS")
        if use_columns:
            for j, column in enumerate(columns):
                for o in column_offsets:
                    k = i + o
                    if 0 <= k < n:
                        item.append(f"c{j}[{o}]={column[k]}")
                if column_bigrams:
                    # pairs of neighbouring columns values around i: POS bigrams are what
                    # separate "DT NN" (one NP) from "NN DT" (two chunks)
                    for o in range(-column_window, column_window):
                        k = i + o
                        if 0 <= k and k + 1 < n:
                            item.append(f"c{j}[{o}]|c{j}[{o + 1}]={column[k]}|{column[k + 1]}")
        items.append(item)
    return items


class CRFTagger(SequenceTagger):
    """Linear-chain CRF (python-crfsuite, L-BFGS) over a configurable feature template.

    Parameters
    ----------
    scheme : {"IOB2", "IOBES", "IOB1"}
        Tag scheme the CRF is trained in (the paper's IOB2 vs IOBES comparison); predictions are
        returned in the scheme of the corpus fitted on.
    word_window : int
        Words at offsets -k..k of the current token are features.
    lower : bool
        Lower-case the window words (affixes, shape and flags always see the original form).
    word_bigrams : bool
        Add the word bigrams (w[-1], w[0]) and (w[0], w[1]).
    affix_length : int
        Prefixes and suffixes of the current token up to this length (0: none).
    shape : bool
        Word shape of the current token (``Xx``, ``d,d``).
    flags : bool
        Is-digit, is-title, is-upper flags of the current token.
    columns : bool
        Use the corpus's extra columns (POS in CoNLL-2000) as features.
    column_window : int
        Extra-column values at offsets -k..k.
    column_bigrams : bool
        Adjacent pairs of extra-column values inside the window.
    c1, c2 : float
        L1 and L2 regularization coefficients.
    max_iterations : int
        L-BFGS iterations.
    all_possible_transitions : bool
        Give a weight to every label pair, also those never seen in training (lets the CRF learn
        negative weights for ill-formed transitions such as O -> I-NP).

    Attributes
    ----------
    model_bytes_ : bytes
        The trained crfsuite model file; pickling keeps it and unpickling reopens it.
    corpus_scheme_ : str
        Scheme of the gold tags fitted on; predictions are written in it.
    labels_ : list of str
        The labels the CRF knows, in its own scheme.

    Examples
    --------
    >>> from reprocompare.corpora.conll import read_conll  # doctest: +SKIP
    >>> train = read_conll("data/conll2000/train.txt.gz")  # doctest: +SKIP
    >>> crf = CRFTagger(scheme="IOBES")  # doctest: +SKIP
    >>> features = crf.featurize(train.sentences)  # doctest: +SKIP
    >>> crf.fit(features.take(range(100)), train.tags[:100])  # doctest: +SKIP
    """

    name = "crf"
    needs_characters = True  # word shape, prefixes and suffixes
    PARAMS = (
        SCHEME_PARAM,
        Param("word_window", int, 2, between(0, 20), help="words at offsets -k..k"),
        Param("lower", bool, True, help="lower-case the window words"),
        Param("word_bigrams", bool, True, help="word bigrams around the token"),
        Param("affix_length", int, 3, between(0, 50), help="prefixes/suffixes up to this length"),
        Param("shape", bool, True, help="word shape feature"),
        Param("flags", bool, True, help="is-digit/is-title/is-upper flags"),
        Param("columns", bool, True, help="use the extra columns (POS)"),
        Param("column_window", int, 2, between(0, 20), help="extra-column values at offsets -k..k"),
        Param("column_bigrams", bool, True, help="adjacent extra-column pairs in the window"),
        Param("c1", float, 0.0, at_least(0), help="L1 regularization"),
        Param("c2", float, 1.0, at_least(0), help="L2 regularization"),
        Param("max_iterations", int, 100, between(1, 1_000_000), help="L-BFGS iterations"),
        Param("all_possible_transitions", bool, True, help="weights for unseen label pairs"),
    )

    def __init__(self, scheme="IOB2", word_window=2, lower=True, word_bigrams=True,
                 affix_length=3, shape=True, flags=True, columns=True, column_window=2,
                 column_bigrams=True, c1=0.0, c2=1.0, max_iterations=100,
                 all_possible_transitions=True):
        self.scheme = scheme
        self.word_window = word_window
        self.lower = lower
        self.word_bigrams = word_bigrams
        self.affix_length = affix_length
        self.shape = shape
        self.flags = flags
        self.columns = columns
        self.column_window = column_window
        self.column_bigrams = column_bigrams
        self.c1 = c1
        self.c2 = c2
        self.max_iterations = max_iterations
        self.all_possible_transitions = all_possible_transitions

    # ----------------------------------------------------------------- features
    def feature_key(self) -> Hashable:
        """The template, without scheme or training hyperparameters: those don't change features."""
        return ("crf", FEATURE_VERSION, self.word_window, self.lower, self.word_bigrams,
                self.affix_length, self.shape, self.flags, self.columns, self.column_window,
                self.column_bigrams)

    def featurize(self, sentences: Sequence[Sentence]) -> Featurized:
        """One ``pycrfsuite.ItemSequence`` per sentence, under this template's ``feature_key``."""
        self._check_params()
        options = (self.word_window, self.lower, self.word_bigrams, self.affix_length,
                   self.shape, self.flags, self.columns, self.column_window, self.column_bigrams)
        rows = [pycrfsuite.ItemSequence(_sentence_items(s.tokens, s.features, *options))
                for s in sentences]
        return Featurized(self.feature_key(), rows)

    # ----------------------------------------------------------------- training
    def _trainer_params(self) -> dict:
        return {"c1": float(self.c1), "c2": float(self.c2),
                "max_iterations": int(self.max_iterations),
                "feature.possible_transitions": bool(self.all_possible_transitions)}

    def _fit(self, featurized: Featurized, y: list[list[str]]) -> None:
        trainer = pycrfsuite.Trainer(algorithm="lbfgs", verbose=False)
        trainer.set_params(self._trainer_params())
        for items, tags in zip(featurized.rows, y):
            trainer.append(items, tags)
        # crfsuite writes its model only to a file: train into a private temporary directory and
        # keep the bytes, so the fitted object owns no file and pickles by value.
        with tempfile.TemporaryDirectory(prefix="reprocompare-crf-") as directory:
            path = os.path.join(directory, "model.crfsuite")
            trainer.train(path)
            with open(path, "rb") as handle:
                self.model_bytes_ = handle.read()
        self._tagger = None
        self.labels_ = self._get_tagger().labels()

    def _get_tagger(self) -> pycrfsuite.Tagger:
        tagger = getattr(self, "_tagger", None)
        if tagger is None:
            tagger = pycrfsuite.Tagger()
            # crfsuite reads the model in place: model_bytes_ stays referenced by self meanwhile
            tagger.open_inmemory(self.model_bytes_)
            self._tagger = tagger
        return tagger

    def _predict(self, featurized: Featurized) -> list[list[str]]:
        tag = self._get_tagger().tag
        return [tag(items) if len(items) else [] for items in featurized.rows]

    # ----------------------------------------------------------------- pickling
    def __getstate__(self):
        state = super().__getstate__()
        state.pop("_tagger", None)  # a C++ object: reopened from model_bytes_ on first use
        return state

    def __setstate__(self, state):
        super().__setstate__(state)
        self._tagger = None
