"""The split document: one JSON file per (corpus, strategy, seed, repetition).

``reprocompare split`` writes it and every later stage reads it, so a split is drawn once and
trained on, predicted and estimated from exactly as written. The file is a pure function of its
arguments (byte for byte), which lets the workflow skip a repetition whose split already exists.

The document is drawn by :mod:`.drawing` (numpy only), the very draws of the scikit-learn
cross-validators :func:`make_splitter` returns, so that no job imports scikit-learn for its split.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from reprocompare.base.errors import UserError
from reprocompare.base.files import read_json
from reprocompare.base.seeds import derive_seed
# the module, not its names: its strategies draw with this package's drawing module, whose
# import runs this package's __init__, so the registry may still be loading when this one does
from reprocompare import strategies



_COMMON_KEYS = ("strategy", "seed", "repetition", "n_sentences", "corpus_sha256", "folds")


def _document_keys(strategy: str) -> tuple[str, ...]:
    """What a split document of the strategy records beside the common keys: its settings, and
    the blocks of a voting strategy (BCV votes over them)."""
    found = strategies.strategy(strategy)
    return found.settings + (("blocks",) if found.votes else ())


def _check_strategy(strategy) -> str:
    if strategy not in strategies.NAMES:
        raise UserError(
            f"unknown splitting strategy {strategy!r}; expected one of {', '.join(strategies.NAMES)}"
        )
    return strategy


def _check_non_negative(value, name: str) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 0:
        raise UserError(f"{name} must be a non-negative integer, got {value!r}")
    return int(value)


def repetition_seed(seed: int, strategy: str, repetition: int) -> int:
    """The 32-bit seed of one repetition of one strategy, derived from the run's seed.

    ``derive_seed(seed, strategy(name).code, repetition)`` (:mod:`reprocompare.base.seeds`): the
    seeds of different repetitions and strategies are statistically independent, and the same on
    every run and machine (no ``hash()``, whose value changes from one Python process to the
    next). The paper's reproducibility (Eq. 1) is estimated over such independent repetitions.

    Parameters
    ----------
    seed : int
        The run's seed (non-negative).
    strategy : {"holdout", "repeated-holdout", "bcv"}
    repetition : int
        Repetition index (non-negative).

    Returns
    -------
    int
        In ``[0, 2**32)``.

    Examples
    --------
    >>> repetition_seed(0, "bcv", 0) == repetition_seed(0, "bcv", 0)
    True
    >>> repetition_seed(0, "bcv", 0) != repetition_seed(0, "bcv", 1)
    True
    """
    seed = _check_non_negative(seed, "seed")
    code = strategies.strategy(_check_strategy(strategy)).code
    repetition = _check_non_negative(repetition, "repetition")
    return derive_seed(seed, code, repetition)


def make_splitter(strategy, *, random_state=None, **settings):
    """The splitter object of a strategy.

    Parameters
    ----------
    strategy : str
        A strategy's name (:data:`reprocompare.strategies.NAMES`).
    random_state : int, RandomState instance or None, default=None
    **settings
        The strategy's settings (:attr:`~reprocompare.strategies.Strategy.SETTINGS`): ``k``
        (default 10), the hold-outs of ``"repeated-holdout"``; ``m`` (default 3), the
        repetitions of 2-fold CV of a BCV; ``ratio`` (default ``"8:1"``), the train:validation
        ratio of the hold-outs. A setting another strategy reads is ignored, but still checked.

    Returns
    -------
    HoldOut, RepeatedHoldOut or BlockedMx2CV

    Raises
    ------
    ValueError
        (a :class:`~reprocompare.base.errors.UserError`) for an unknown strategy, ``k < 1``,
        ``m < 1`` or a bad ratio.

    Examples
    --------
    >>> make_splitter("bcv", random_state=0)
    BlockedMx2CV(m=3, random_state=0)
    """
    found = strategies.strategy(_check_strategy(strategy))
    arguments, _ = found.split_settings(settings)
    # the class is imported on demand (scikit-learn, 1 s of CPU with SciPy and pandas): the
    # split documents every job draws need only numpy
    return found.splitter_class()(**arguments, random_state=random_state)


def split_document(strategy, n_sentences, *, groups=None, corpus_sha256="", seed=0,
                   repetition=0, tags=None, **settings) -> dict:
    """The split of one repetition of one strategy, as a JSON-ready dict.

    Parameters
    ----------
    strategy : str
        A strategy's name (:data:`reprocompare.strategies.NAMES`).
    n_sentences : int
        Corpus size.
    groups : sequence of length n_sentences, default=None
        Document id of each sentence; documents are kept whole.
    corpus_sha256 : str, default=""
        Identity of the corpus, recorded so that a split is never applied to another corpus.
    seed, repetition : int, default=0
        The splitter's ``random_state`` is ``repetition_seed(seed, strategy, repetition)``.
    tags : sequence of sequence of str, default=None
        Each sentence's tags, for a strategy whose draw reads them
        (:attr:`~reprocompare.strategies.Strategy.reads_tags`); ignored by the others.
    **settings
        The strategy's settings, as :func:`make_splitter` takes them.

    Returns
    -------
    dict
        Keys in this order: ``strategy``, ``seed``, ``repetition``, ``n_sentences``,
        ``corpus_sha256``, then the strategy's settings in its order (repeated-holdout: ``k``,
        ``ratio`` as ``"8:1"``; bcv: ``m``), the ``blocks`` of a voting strategy (bcv: B1..Bb),
        and ``folds``: a list of
        ``{"train": [...], "validation": [...]}`` in split order, sorted plain ints.

    Examples
    --------
    >>> doc = split_document("bcv", 8, seed=1)
    >>> list(doc)
    ['strategy', 'seed', 'repetition', 'n_sentences', 'corpus_sha256', 'm', 'blocks', 'folds']
    >>> len(doc["blocks"]), len(doc["folds"])
    (4, 6)
    """
    seed = _check_non_negative(seed, "seed")
    repetition = _check_non_negative(repetition, "repetition")
    n_sentences = _check_non_negative(n_sentences, "n_sentences")
    random_state = repetition_seed(seed, strategy, repetition)
    found = strategies.strategy(strategy)
    arguments, recorded = found.split_settings(settings)
    # The draw of make_splitter(...).split, without scikit-learn (tests/test_splitters.py checks
    # that the two agree).
    if found.reads_tags:
        if tags is None:
            raise UserError(f"{strategy} balances the corpus's tags: give them (tags=)")
        arguments["tags"] = tags
    folds, blocks = found.draw(n_sentences, groups, random_state, **arguments)
    document = {
        "strategy": strategy,
        "seed": seed,
        "repetition": repetition,
        "n_sentences": n_sentences,
        "corpus_sha256": str(corpus_sha256),
    }
    document.update(recorded)
    if found.votes:  # the blocks it votes over
        document["blocks"] = [block.tolist() for block in blocks]
    document["folds"] = [
        {"train": train.tolist(), "validation": validation.tolist()} for train, validation in folds
    ]
    return document


def _compact(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def dumps(document: dict) -> str:
    """Deterministic JSON text of a split document, ending with a newline.

    One key per line; each index list on one line, compact, so that a split of a large corpus
    stays small and a diff of two splits stays readable. Identical documents give identical bytes.

    Parameters
    ----------
    document : dict
        The split document.

    Returns
    -------
    str
        The JSON text.

    Examples
    --------
    >>> doc = {"strategy": "holdout", "folds": [{"train": [0, 1], "validation": [2]}]}
    >>> print(dumps(doc), end="")
    {
      "strategy": "holdout",
      "folds": [
        {"train": [0,1], "validation": [2]}
      ]
    }
    """
    lines = []
    for key, value in document.items():
        if key == "blocks":
            body = ",\n".join(f"    {_compact(block)}" for block in value)
            text = f"[\n{body}\n  ]" if value else "[]"
        elif key == "folds":
            body = ",\n".join(
                "    {" + ", ".join(f"{json.dumps(name)}: {_compact(indices)}"
                                    for name, indices in fold.items()) + "}"
                for fold in value
            )
            text = f"[\n{body}\n  ]" if value else "[]"
        else:
            text = json.dumps(value)
        lines.append(f"  {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def load_split(path) -> dict:
    """Read a split document written by :func:`dumps` and check its keys.

    Parameters
    ----------
    path : str or Path

    Returns
    -------
    dict

    Raises
    ------
    ValueError
        (a :class:`~reprocompare.base.errors.UserError` naming the file) if the file is not JSON, its
        strategy is unknown, or a required key is missing (the message names the key).
    """
    path = Path(path)
    document = read_json(path)  # the one reader of records: missing, not JSON, not an object
    if "strategy" not in document:
        raise UserError("missing key 'strategy'", path=path, key="strategy")
    if document["strategy"] not in strategies.NAMES:
        raise UserError(
            f"unknown splitting strategy {document['strategy']!r}; expected one of "
            f"{', '.join(strategies.NAMES)}", path=path, key="strategy",
        )
    for key in _COMMON_KEYS + _document_keys(document["strategy"]):
        if key not in document:
            raise UserError(f"missing key {key!r}", path=path, key=key)
    if not isinstance(document["folds"], list):
        raise UserError("'folds' must be a list", path=path, key="folds")
    for i, fold in enumerate(document["folds"]):
        for key in ("train", "validation"):
            if not isinstance(fold, dict) or key not in fold:
                raise UserError(f"fold {i} has no key {key!r}", path=path, key=f"folds[{i}]")
    return document
