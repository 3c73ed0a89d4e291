"""BiLSTM tagger on torch: word, extra-column (POS) and optional character embeddings, softmax.

The paper (section 4, SRL) compares two BiLSTM taggers that differ only in an embedding size (20
vs 10); here that is ``word_dim=20`` against ``word_dim=10`` with everything else equal, and both
models share one ``featurize`` (the key leaves every hyperparameter out).

Featurization maps a corpus to integer ids once: corpus-level id tables of words, characters and
extra-column values, and per-sentence id arrays. A fit must not see words of the rows it does not
train on (the validation rows, the test fold), so the vocabulary is built per fit from the training
rows only, as a remap array from corpus ids to model ids that sends every id unseen in training to
UNK. Predicting on any Featurized (another corpus included) goes through the model's own vocabulary
strings, so a fitted model never depends on the corpus it was featurized with.

This module declares the tagger (parameters, capabilities, featurization) and imports no torch:
specs, configs and the workflow's GPU requests read it for free. The network and its training
live in :mod:`reprocompare.models.bilstm_torch`, imported when a BiLSTM trains, predicts or is
unpickled.
"""

from __future__ import annotations

import re
from typing import Hashable, Sequence

import numpy as np

from reprocompare.corpora.conll import Sentence
from reprocompare.models.base import (SCHEME_PARAM, Featurized, Param, SequenceTagger, between,
                                      in_range)

FEATURE_VERSION = 1
PAD, UNK = 0, 1
#: Characters beyond this are cut: long tokens (URLs, numbers) would widen every char batch.
MAX_WORD_LENGTH = 30
_DIGITS = re.compile(r"\d")


def normalize_word(token: str) -> str:
    """The form a word embedding is looked up by: lower case, every digit written ``0``.

    Parameters
    ----------
    token : str
        The word.

    Returns
    -------
    str
        Its normalized form.

    Examples
    --------
    >>> normalize_word("Sept. 1987")
    'sept. 0000'
    """
    return _DIGITS.sub("0", token.lower())


class IdTables:
    """Corpus-level id -> string tables of a Featurized (words normalized, raw characters, columns).

    Character id 0 is padding, so character ids start at 1.

    Parameters
    ----------
    words : list of str
        The normalized word of each word id.
    chars : list of str
        The character of each character id (id 0: padding).
    columns : list of list of str
        Per feature column, the value of each id.
    """

    __slots__ = ("words", "chars", "columns")

    def __init__(self, words: list[str], chars: list[str], columns: list[list[str]]):
        self.words = words
        self.chars = chars
        self.columns = columns


def _intern(table: dict[str, int], value: str) -> int:
    found = table.get(value)
    if found is None:
        found = table[value] = len(table)
    return found


def featurize_ids(sentences: Sequence[Sentence]) -> Featurized:
    """Integer ids for every sentence: rows of (words (n,), chars (n, L), columns (C, n)) arrays.

    Parameters
    ----------
    sentences : sequence of Sentence
        The sentences.

    Returns
    -------
    Featurized
        The rows, and the :class:`IdTables` that read them.
    """
    sentences = list(sentences)
    n_columns = len(sentences[0].features) if sentences else 0
    word_of_token: dict[str, int] = {}
    words: dict[str, int] = {}
    chars: dict[str, int] = {"": 0}
    columns: list[dict[str, int]] = [{} for _ in range(n_columns)]
    char_cache: dict[str, list[int]] = {}
    rows = []
    for s in sentences:
        if len(s.features) != n_columns:
            raise ValueError(f"sentence at line {s.line} has {len(s.features)} extra columns, "
                             f"the first has {n_columns}")
        word_ids = np.empty(len(s.tokens), dtype=np.int64)
        char_lists = []
        for i, token in enumerate(s.tokens):
            wid = word_of_token.get(token)
            if wid is None:
                wid = word_of_token[token] = _intern(words, normalize_word(token))
            word_ids[i] = wid
            ids = char_cache.get(token)
            if ids is None:
                ids = char_cache[token] = [_intern(chars, c) for c in token[:MAX_WORD_LENGTH]]
            char_lists.append(ids)
        width = max((len(c) for c in char_lists), default=1) or 1
        char_ids = np.zeros((len(s.tokens), width), dtype=np.int64)
        for i, ids in enumerate(char_lists):
            char_ids[i, :len(ids)] = ids
        column_ids = np.zeros((n_columns, len(s.tokens)), dtype=np.int64)
        for j in range(n_columns):
            column_ids[j] = [_intern(columns[j], v) for v in s.features[j]]
        rows.append((word_ids, char_ids, column_ids))
    tables = IdTables(list(words), list(chars), [list(c) for c in columns])
    return Featurized(("bilstm", FEATURE_VERSION), rows, tables)


def vocabulary(rows: Sequence, size: int, *, field: int = 0, column: int | None = None,
               offset: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Corpus ids that occur in ``rows``, their counts, for one id field of the rows.

    Returns ``(seen, counts)``: the sorted corpus ids occurring in these rows and how often each
    occurs. ``remap_array(seen, size)`` turns them into the corpus-id -> model-id map.

    Parameters
    ----------
    rows : sequence
        Rows of :func:`featurize_ids`.
    size : int
        The number of corpus ids.
    field : int, default 0
        The row's field (0: words, 1: characters, 2: columns).
    column : int, optional
        The feature column, for ``field=2``.
    offset : int, default 2
        The model id of the first seen corpus id.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        The seen corpus ids and their counts.
    """
    parts = [(row[field] if column is None else row[field][column]).ravel() for row in rows]
    ids = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    counts = np.bincount(ids, minlength=size)
    seen = np.flatnonzero(counts)
    return seen, counts[seen]


def remap_array(seen: np.ndarray, size: int, *, first: int = 2) -> np.ndarray:
    """Map corpus ids to model ids: ``seen[k]`` -> ``first + k``, every other id -> UNK.

    This is where words of the validation rows or the test fold that the training rows lack
    become unknown.

    Parameters
    ----------
    seen : numpy.ndarray
        The sorted corpus ids seen in training.
    size : int
        The number of corpus ids.
    first : int, default 2
        The model id of ``seen[0]``.

    Returns
    -------
    numpy.ndarray of int, shape (size,)
        The model id of every corpus id.
    """
    remap = np.full(size, UNK, dtype=np.int64)
    remap[seen] = np.arange(first, first + len(seen), dtype=np.int64)
    return remap


class BiLSTMTagger(SequenceTagger):
    """Bidirectional LSTM tagger with per-token softmax, trained with Adam on cross-entropy.

    Parameters
    ----------
    scheme : {"IOB2", "IOBES", "IOB1"}
        Tag scheme the network is trained in; predictions are returned in the corpus's scheme.
    word_dim : int
        Word embedding size (the paper's SRL comparison: 20 vs 10).
    feature_dim : int
        Embedding size of each extra column (POS); 0 ignores the columns.
    char_dim : int
        Character embedding size; 0 disables the character encoder.
    char_model : {"cnn", "lstm"}
        Character encoder: a width-3 CNN with max pooling, or a BiLSTM's final states.
    char_hidden : int
        CNN filters, or the character LSTM's hidden size per direction.
    hidden_size : int
        LSTM hidden size per direction.
    num_layers : int
        Stacked BiLSTM layers.
    dropout : float
        Dropout on the embeddings, between LSTM layers and before the output layer.
    epochs : int
        Training epochs (the most, with early stopping).
    batch_size : int
        Sentences per batch; batches group sentences of similar length.
    learning_rate : float
        Adam's learning rate.
    word_dropout : float
        Probability that a word seen once in training is replaced by UNK in a training batch, so
        the UNK embedding is trained for the unknown words it stands for at prediction time.
    validation_fraction : float
        Fraction of the training rows held back for early stopping (0: none). Their words are not
        in the vocabulary.
    patience : int
        Epochs without a better validation chunk F1 before stopping, counted once that F1 is
        above 0 (a network that finds no chunk yet has not started to learn); the best epoch's
        weights are kept.
    record_every : int
        With ``fit(..., eval_set=...)``, record chunk F1 on the eval set every this many epochs
        (and after the last) into ``learning_curve_``.
    device : {"cpu", "cuda"}
        Where to train; "cuda" without a CUDA device is an error, not a silent fallback.
    num_threads : int
        Torch intra-op threads while fitting and predicting (0: torch's own setting). One by
        default: a network this small gains little from a second thread, parallelism comes from
        running jobs side by side, and oversubscribed cores collapse throughput (two threads on a
        busy 2-core machine trained 5 to 10 times slower than one; benchmarks/RESULTS.md).
    random_state : int, RandomState or None
        Seeds initialization, dropout, batch order, word dropout and the validation split.

    Attributes
    ----------
    module_ : torch.nn.Module
        The trained network (on CPU after unpickling).
    words_ : list of str
        The vocabulary (normalized words of the training rows); model id ``k + 2`` is
        ``words_[k]``, 0 is padding, 1 UNK.
    labels_ : list of str
        Output labels, in the model's scheme.
    learning_curve_ : list of (int, float)
        (epoch, chunk F1 on ``eval_set``); empty without an eval set.
    validation_curve_ : list of (int, float)
        (epoch, chunk F1 on the held-back rows) with ``validation_fraction > 0``.
    validation_index_ : ndarray of int
        Positions (in the rows given to ``fit``) of the rows held back for early stopping.
    best_epoch_, n_epochs_ : int
        The epoch whose weights are kept, and how many epochs ran.
    """

    name = "bilstm"
    # 2: stops on a development split by default (validation_fraction 0.1, at most 50 epochs),
    # where 1 trained 10 epochs on every row: transfers to small and NER corpora
    # (benchmarks/RESULTS.md, "BiLSTM defaults")
    # 3: a character CNN (char_dim 30), learning rate 0.01 and patience 10 by default, measured
    # on chunking and NER at 300-4,000 sentences (benchmarks/RESULTS.md, "BiLSTM defaults
    # (issue 37)"): without characters a lower-cased word hides the capital letter NER needs
    version = 3
    uses_gpu = True
    trains_by_epochs = True
    needs_characters = True  # with char_dim > 0
    PARAMS = (
        SCHEME_PARAM,
        Param("word_dim", int, 50, between(1, 4096), help="word embedding size"),
        Param("feature_dim", int, 20, between(0, 4096),
              help="embedding size per extra column (0: none)"),
        Param("char_dim", int, 30, between(0, 4096), help="character embedding size (0: none)"),
        Param("char_model", str, "cnn", choices=("cnn", "lstm"), help="character encoder"),
        Param("char_hidden", int, 30, between(1, 4096), help="char CNN filters / char LSTM size"),
        Param("hidden_size", int, 100, between(1, 8192), help="LSTM size per direction"),
        Param("num_layers", int, 1, between(1, 32), help="stacked BiLSTM layers"),
        Param("dropout", float, 0.33, in_range(0.0, 1.0), help="dropout probability"),
        Param("epochs", int, 50, between(1, 100_000),
              help="training epochs (the most, with early stopping)"),
        Param("batch_size", int, 32, between(1, 1_000_000), help="sentences per batch"),
        Param("learning_rate", float, 0.01, between(1e-8, 10.0), help="Adam learning rate"),
        Param("word_dropout", float, 0.3, in_range(0.0, 1.0, high_open=False),
              help="P(singleton word -> UNK) in training"),
        Param("validation_fraction", float, 0.1, in_range(0.0, 1.0),
              help="training rows held back for early stopping (0: none)"),
        Param("patience", int, 10, between(1, 100_000), help="early stopping patience (epochs)"),
        Param("record_every", int, 1, between(1, 100_000), help="epochs between eval_set scores"),
        Param("device", str, "cpu", choices=("cpu", "cuda"), help="torch device"),
        Param("num_threads", int, 1, between(0, 4096), help="torch CPU threads (0: torch default)"),
    )

    def __init__(self, scheme="IOB2", word_dim=50, feature_dim=20, char_dim=30, char_model="cnn",
                 char_hidden=30, hidden_size=100, num_layers=1, dropout=0.33, epochs=50,
                 batch_size=32, learning_rate=0.01, word_dropout=0.3, validation_fraction=0.1,
                 patience=10, record_every=1, device="cpu", num_threads=1, random_state=None):
        self.scheme = scheme
        self.word_dim = word_dim
        self.feature_dim = feature_dim
        self.char_dim = char_dim
        self.char_model = char_model
        self.char_hidden = char_hidden
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.dropout = dropout
        self.epochs = epochs
        self.batch_size = batch_size
        self.learning_rate = learning_rate
        self.word_dropout = word_dropout
        self.validation_fraction = validation_fraction
        self.patience = patience
        self.record_every = record_every
        self.device = device
        self.num_threads = num_threads
        self.random_state = random_state

    # ----------------------------------------------------------------- features
    def feature_key(self) -> Hashable:
        """Ids do not depend on any hyperparameter: every BiLSTM shares one Featurized."""
        return ("bilstm", FEATURE_VERSION)

    def featurize(self, sentences: Sequence[Sentence]) -> Featurized:
        """Corpus-level id tables and per-sentence id arrays (see :func:`featurize_ids`)."""
        return featurize_ids(sentences)

    # ----------------------------------------------------------------- helpers
    def _remaps(self, tables: IdTables) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
        """Corpus id -> model id arrays for one Featurized's tables, through vocabulary strings."""
        def lookup(index: dict[str, int], strings: list[str]) -> np.ndarray:
            return np.fromiter((index.get(s, UNK) for s in strings), dtype=np.int64,
                               count=len(strings))
        words = lookup(self._word_index, tables.words)
        chars = lookup(self._char_index, tables.chars)
        chars[0] = PAD
        if len(tables.columns) != len(self._column_indexes):
            raise ValueError(f"these sentences have {len(tables.columns)} extra columns, the "
                             f"training sentences had {len(self._column_indexes)}")
        columns = [lookup(index, strings)
                   for index, strings in zip(self._column_indexes, tables.columns)]
        return words, chars, columns

    def _set_vocabulary(self, words: list[str], chars: list[str],
                        columns: list[list[str]]) -> None:
        self.words_ = words
        self.chars_ = chars
        self.column_values_ = columns
        self._build_indexes()

    def _build_indexes(self) -> None:
        def index(strings):
            return {s: k + 2 for k, s in enumerate(strings)}
        self._word_index = index(self.words_)
        self._char_index = index(self.chars_)
        self._column_indexes = [index(c) for c in self.column_values_]

    def _encode(self, featurized: Featurized) -> list[tuple]:
        """Rows in model ids: (words, chars or None without a char encoder, columns)."""
        words, chars, columns = self._remaps(featurized.shared)
        use_chars = bool(self.char_dim)
        encoded = []
        for w, c, cols in featurized.rows:
            mapped_columns = (np.stack([columns[j][cols[j]] for j in range(len(columns))])
                              if len(columns) else cols)
            encoded.append((words[w], chars[c] if use_chars else None, mapped_columns))
        return encoded

    # ----------------------------------------------------------------- training
    def fit(self, X, y, *, corpus_scheme: str | None = None,
            eval_set: tuple | None = None) -> "BiLSTMTagger":
        """Train on sentences (or a Featurized) and gold tags in the corpus's scheme.

        Parameters
        ----------
        X : list of Sentence or Featurized
        y : list of tag sequences
        corpus_scheme : str, optional
            Scheme of ``y`` and of the predictions; detected from ``y`` when omitted.
        eval_set : (X_eval, y_eval), optional
            Sentences (or a Featurized with this model's key) and gold tags in the corpus's
            scheme, scored every ``record_every`` epochs into ``learning_curve_``. Never used for
            training or stopping.

        Returns
        -------
        self
        """
        return super().fit(X, y, corpus_scheme=corpus_scheme, eval_set=eval_set)

    def _fit(self, featurized: Featurized, y: list[list[str]], eval_set=None) -> None:
        # lazy: torch, only when a BiLSTM trains (see the module docstring)
        from reprocompare.models import bilstm_torch

        bilstm_torch.fit(self, featurized, y, eval_set)

    def _predict(self, featurized: Featurized) -> list[list[str]]:
        from reprocompare.models import bilstm_torch  # lazy: torch

        return bilstm_torch.predict(self, featurized)

    # ----------------------------------------------------------------- pickling
    def __getstate__(self):
        state = super().__getstate__()
        for name in ("_word_index", "_char_index", "_column_indexes"):
            state.pop(name, None)  # rebuilt from the vocabulary lists
        module = state.pop("module_", None)
        if module is not None:
            state["module_state_"] = {k: v.detach().cpu() for k, v in module.state_dict().items()}
        return state

    def __setstate__(self, state):
        module_state = state.pop("module_state_", None)
        super().__setstate__(state)
        if module_state is not None:
            from reprocompare.models.bilstm_torch import Network  # lazy: torch

            self.module_ = Network(**self.module_config_)
            self.module_.load_state_dict(module_state)
            self.module_.eval()
        if hasattr(self, "words_"):
            self._build_indexes()
