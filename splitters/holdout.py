"""Hold-out and repeated hold-out splits with a train:validation ratio (8:1 by default).

These are the two baselines of Xue et al., "We Need to Talk About Reproducibility in NLP Model
Comparison", section 3.3: the *standard splits* (ST), re-drawn at random as one 8:1 hold-out so
that they are not static, and the *random splits* (RS) of Gorman and Bedrick (2019), several
independent 8:1 hold-outs.
"""

from __future__ import annotations

import re

import numpy as np
from sklearn.model_selection import BaseCrossValidator
from sklearn.utils import check_random_state

from reprocompare.base.errors import UserError
from reprocompare.splitters._common import (
    INDEX_DTYPE,
    check_positive_int,
    documents,
    num_sentences,
    sorted_indices,
)

_RATIO = re.compile(r"\s*(\d+)\s*:\s*(\d+)\s*")


def parse_ratio(ratio) -> tuple[int, int]:
    """``(train, validation)`` parts of a ratio given as ``"8:1"`` or ``(8, 1)``.

    Parameters
    ----------
    ratio : str or tuple of two int
        Two positive integers, as ``"train:validation"`` or a pair.

    Returns
    -------
    tuple of two int

    Raises
    ------
    ValueError
        (a :class:`~reprocompare.base.errors.UserError`) for anything else.

    Examples
    --------
    >>> parse_ratio("8:1")
    (8, 1)
    >>> parse_ratio((5, 5))
    (5, 5)
    """
    problem = (
        f"ratio must be 'train:validation' with two positive integers, e.g. '8:1'; got {ratio!r}"
    )
    if isinstance(ratio, str):
        match = _RATIO.fullmatch(ratio)
        if match is None:
            raise UserError(problem)
        parts = (int(match.group(1)), int(match.group(2)))
    elif isinstance(ratio, (tuple, list)) and len(ratio) == 2 and all(
        isinstance(p, (int, np.integer)) and not isinstance(p, (bool, np.bool_)) for p in ratio
    ):
        parts = (int(ratio[0]), int(ratio[1]))
    else:
        raise UserError(problem)
    if min(parts) < 1:
        raise UserError(problem)
    return parts


def format_ratio(ratio) -> str:
    """The canonical ``"train:validation"`` string of a ratio (``(8, 1)`` -> ``"8:1"``).

    Parameters
    ----------
    ratio : str or (int, int)
        The ratio, as ``"8:1"`` or ``(8, 1)``.

    Returns
    -------
    str
        ``"train:validation"``.
    """
    train, validation = parse_ratio(ratio)
    return f"{train}:{validation}"


def n_validation(n: int, ratio) -> int:
    """Validation size of an ``n``-sentence hold-out: ``round(n * v / (t + v))`` in ``[1, n - 1]``.

    Rounding half up in integer arithmetic keeps the ratio right within one sentence with no
    floating-point ties, and the clamp keeps both sides non-empty.

    Parameters
    ----------
    n : int
        Sentences, at least 2.
    ratio : str or (int, int)
        The train:validation ratio.

    Returns
    -------
    int
        The validation sentences.

    Examples
    --------
    >>> n_validation(900, "8:1"), n_validation(10, "8:1"), n_validation(2, "8:1")
    (100, 1, 1)
    """
    train, validation = parse_ratio(ratio)
    total = train + validation
    size = (2 * n * validation + total) // (2 * total)
    return int(min(max(size, 1), n - 1))


def _sub_seeds(random_state, k: int) -> np.ndarray:
    # One seed per hold-out, drawn in order, so that the first j hold-outs of k are those of j
    # (the RS baseline can be grown from 3 to 10 repetitions, section 3.3, without retraining).
    rs = check_random_state(random_state)
    return rs.randint(2**32, size=k, dtype=np.uint32)


def _check_corpus(n: int, docs, what: str) -> None:
    if n < 2:
        raise UserError(f"{what} needs at least 2 sentences (one on each side), got {n}")
    if docs is not None and len(docs) < 2:
        raise UserError(
            f"{what} with groups needs at least 2 documents (one on each side), got {len(docs)}"
        )


def _one_hold_out(n: int, docs, ratio, seed) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.RandomState(seed)
    target = n_validation(n, ratio)
    if docs is None:
        permutation = rng.permutation(n).astype(INDEX_DTYPE)
        return np.sort(permutation[target:]), np.sort(permutation[:target])
    order = rng.permutation(len(docs))
    filled = np.cumsum([len(docs[d]) for d in order])
    # Whole documents, so the target is met as closely as documents allow; at least one document
    # on each side. argmin takes the fewest documents on a tie.
    n_docs = 1 + int(np.argmin(np.abs(filled[:-1] - target)))
    validation = sorted_indices([docs[d] for d in order[:n_docs]])
    train = sorted_indices([docs[d] for d in order[n_docs:]])
    return train, validation


class HoldOut(BaseCrossValidator):
    """One random train:validation hold-out: the paper's standard split (ST).

    Xue et al. (section 3.3) re-draw the standard split at random with a ratio of 8:1, because a
    static split invites over-fitting to it. The validation side has
    ``round(n * v / (t + v))`` sentences (clamped to ``[1, n - 1]``), so the ratio holds within
    one sentence.

    Parameters
    ----------
    ratio : str or tuple of two int, default=(8, 1)
        ``train:validation`` as ``"8:1"`` or ``(8, 1)``.
    random_state : int, RandomState instance or None, default=None
        Controls the split. Pass an int for reproducible output across calls. ``HoldOut`` with a
        given int equals the first split of :class:`RepeatedHoldOut` with the same int.

    Notes
    -----
    With ``groups`` (a document id per sentence), documents stay whole: documents are permuted
    and put on the validation side until it is as close as possible to the target number of
    sentences, with at least one document on each side.

    Examples
    --------
    >>> from reprocompare.splitters import HoldOut
    >>> sentences = [f"sentence {i}" for i in range(18)]
    >>> cv = HoldOut(random_state=0)
    >>> cv.get_n_splits()
    1
    >>> for train, validation in cv.split(sentences):
    ...     print(len(train), len(validation))
    16 2
    """

    __metadata_request__split = {"groups": True}

    def __init__(self, *, ratio=(8, 1), random_state=None):
        self.ratio = ratio
        self.random_state = random_state

    def split(self, X, y=None, groups=None):
        """Generate indices to split the corpus into training and validation sets.

        Parameters
        ----------
        X : sized
            The corpus (e.g. a list of sentences); only ``len(X)`` is used.
        y : object
            Ignored, present for API compatibility.
        groups : array-like of shape (n_sentences,), default=None
            Document id of each sentence; documents are never cut.

        Yields
        ------
        train : ndarray of int64
            Sorted training indices.
        validation : ndarray of int64
            Sorted validation indices.
        """
        yield from _hold_outs(X, groups, self.ratio, self.random_state, 1, "hold-out")

    def get_n_splits(self, X=None, y=None, groups=None):
        """Number of splits: always 1.

        Parameters
        ----------
        X, y, groups : object
            Ignored, present for API compatibility.

        Returns
        -------
        int
        """
        return 1


class RepeatedHoldOut(BaseCrossValidator):
    """``k`` independent random train:validation hold-outs: the paper's random splits (RS).

    Gorman and Bedrick (2019) recommend repeated 8:1 hold-outs; Xue et al. (section 3.3) use 3 to
    10 repetitions and compare the 3x2 BCV with 6. Each hold-out comes from its own sub-seed,
    drawn in order from ``random_state``, so the first ``j`` splits of a ``k``-repetition object
    equal those of a ``j``-repetition object with the same ``random_state``: ``k`` can grow
    without retraining the models already trained.

    Parameters
    ----------
    k : int, default=10
        Number of hold-outs.
    ratio : str or tuple of two int, default=(8, 1)
        ``train:validation`` as ``"8:1"`` or ``(8, 1)``.
    random_state : int, RandomState instance or None, default=None
        Controls the splits. Pass an int for reproducible output across calls.

    Notes
    -----
    With ``groups``, each hold-out keeps documents whole as :class:`HoldOut` does.

    Examples
    --------
    >>> from reprocompare.splitters import RepeatedHoldOut
    >>> sentences = [f"sentence {i}" for i in range(90)]
    >>> cv = RepeatedHoldOut(k=3, random_state=0)
    >>> [(len(train), len(validation)) for train, validation in cv.split(sentences)]
    [(80, 10), (80, 10), (80, 10)]
    >>> first = [v for _, v in RepeatedHoldOut(k=2, random_state=0).split(sentences)]
    >>> all((a == b).all() for a, b in zip(first, [v for _, v in cv.split(sentences)]))
    True
    """

    __metadata_request__split = {"groups": True}

    def __init__(self, *, k=10, ratio=(8, 1), random_state=None):
        self.k = k
        self.ratio = ratio
        self.random_state = random_state

    def split(self, X, y=None, groups=None):
        """Generate indices to split the corpus into training and validation sets, ``k`` times.

        Parameters
        ----------
        X : sized
            The corpus (e.g. a list of sentences); only ``len(X)`` is used.
        y : object
            Ignored, present for API compatibility.
        groups : array-like of shape (n_sentences,), default=None
            Document id of each sentence; documents are never cut.

        Yields
        ------
        train : ndarray of int64
            Sorted training indices.
        validation : ndarray of int64
            Sorted validation indices.
        """
        k = check_positive_int(self.k, "k")
        yield from _hold_outs(X, groups, self.ratio, self.random_state, k, "repeated hold-out")

    def get_n_splits(self, X=None, y=None, groups=None):
        """Number of splits: ``k``.

        Parameters
        ----------
        X, y, groups : object
            Ignored, present for API compatibility.

        Returns
        -------
        int
        """
        return check_positive_int(self.k, "k")


def _hold_outs(X, groups, ratio, random_state, k, what):
    # Everything is checked before the first split is yielded, so that a bad argument fails at
    # once rather than after a model has been trained on the first fold.
    n = num_sentences(X)
    parse_ratio(ratio)
    docs = documents(groups, n)
    _check_corpus(n, docs, what)
    for seed in _sub_seeds(random_state, k):
        yield _one_hold_out(n, docs, ratio, seed)
