"""The splits themselves, drawn with numpy alone: hold-outs, repeated hold-outs and m x 2 BCV.

Every training job of the workflow draws its split document (:mod:`.document`) from these
functions, and the scikit-learn cross-validators :class:`~reprocompare.splitters.HoldOut`,
:class:`~reprocompare.splitters.RepeatedHoldOut` and :class:`~reprocompare.splitters.BlockedMx2CV`
are thin wrappers over them. Why not draw in the classes: importing scikit-learn costs about 1 s
of CPU (it imports SciPy and pandas), paid by every job, each a fresh process (issue 35); here the
same draws, byte for byte, cost numpy only.

The strategies are those of Xue et al., "We Need to Talk About Reproducibility in NLP Model
Comparison": one random 8:1 hold-out (the standard split re-drawn, section 3.3), repeated 8:1
hold-outs (the random splits of Gorman and Bedrick, 2019) and the blocked m x 2 cross-validation
(section 3.1, Table 1).
"""

from __future__ import annotations

import numbers
import re

import numpy as np

from reprocompare.base.errors import UserError
from reprocompare.splitters._common import (
    INDEX_DTYPE,
    check_positive_int,
    documents,
    sorted_indices,
)

_RATIO = re.compile(r"\s*(\d+)\s*:\s*(\d+)\s*")


def check_random_state(seed) -> np.random.RandomState:
    """The ``RandomState`` a ``random_state`` stands for, as scikit-learn's ``check_random_state``.

    The same rules, so the same random stream, as ``sklearn.utils.check_random_state``: every
    split ever written was drawn through it, and a committed study re-derives its splits from
    their seeds, so a single different draw would be a wrong result.

    Parameters
    ----------
    seed : None, int or numpy.random.RandomState
        ``None`` (or the ``numpy.random`` module): numpy's global ``RandomState``; an int:
        a new ``RandomState(seed)``; a ``RandomState``: itself.

    Returns
    -------
    numpy.random.RandomState
        The random state.

    Raises
    ------
    ValueError
        (a :class:`~reprocompare.base.errors.UserError`) for anything else.

    Examples
    --------
    >>> check_random_state(0).randint(100, size=3)
    array([44, 47, 64])
    >>> check_random_state(None) is np.random.mtrand._rand
    True
    """
    if seed is None or seed is np.random:
        return np.random.mtrand._rand
    if isinstance(seed, numbers.Integral):
        return np.random.RandomState(seed)
    if isinstance(seed, np.random.RandomState):
        return seed
    raise UserError(f"{seed!r} cannot be used to seed a numpy.random.RandomState instance")


# --- hold-out and repeated hold-out ---------------------------------------------------------------


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


def holdout_splits(n: int, *, ratio=(8, 1), random_state=None, groups=None):
    """The one random train:validation hold-out of :class:`~reprocompare.splitters.HoldOut`.

    Parameters
    ----------
    n : int
        Sentences in the corpus, at least 2.
    ratio : str or tuple of two int, default=(8, 1)
        ``train:validation``.
    random_state : int, RandomState instance or None, default=None
        As :func:`check_random_state`; the split equals the first of
        :func:`repeated_holdout_splits` with the same ``random_state``.
    groups : array-like of shape (n,), default=None
        Document id of each sentence; documents are never cut.

    Returns
    -------
    iterator of (ndarray of int64, ndarray of int64)
        One ``(train, validation)`` pair of sorted indices. Every argument is checked, and the
        random state drawn from, before this returns.

    Examples
    --------
    >>> [(len(t), len(v)) for t, v in holdout_splits(18, random_state=0)]
    [(16, 2)]
    """
    return _hold_outs(n, groups, ratio, random_state, 1, "hold-out")


def repeated_holdout_splits(n: int, *, k=10, ratio=(8, 1), random_state=None, groups=None):
    """The ``k`` random train:validation hold-outs of
    :class:`~reprocompare.splitters.RepeatedHoldOut`.

    Parameters
    ----------
    n : int
        Sentences in the corpus, at least 2.
    k : int, default=10
        Number of hold-outs; the first ``j`` of ``k`` are those of ``j`` (same ``random_state``).
    ratio : str or tuple of two int, default=(8, 1)
        ``train:validation``.
    random_state : int, RandomState instance or None, default=None
        As :func:`check_random_state`.
    groups : array-like of shape (n,), default=None
        Document id of each sentence; documents are never cut.

    Returns
    -------
    iterator of (ndarray of int64, ndarray of int64)
        ``k`` ``(train, validation)`` pairs of sorted indices, each computed when it is reached.
        Every argument is checked, and the random state drawn from, before this returns.

    Examples
    --------
    >>> [(len(t), len(v)) for t, v in repeated_holdout_splits(90, k=3, random_state=0)]
    [(80, 10), (80, 10), (80, 10)]
    """
    k = check_positive_int(k, "k")
    return _hold_outs(n, groups, ratio, random_state, k, "repeated hold-out")


def _hold_outs(n, groups, ratio, random_state, k, what):
    # Everything is checked before the first split is yielded, so that a bad argument fails at
    # once rather than after a model has been trained on the first fold.
    parse_ratio(ratio)
    docs = documents(groups, n)
    if n < 2:
        raise UserError(f"{what} needs at least 2 sentences (one on each side), got {n}")
    if docs is not None and len(docs) < 2:
        raise UserError(
            f"{what} with groups needs at least 2 documents (one on each side), got {len(docs)}"
        )
    # One seed per hold-out, drawn in order, so that the first j hold-outs of k are those of j
    # (the RS baseline can be grown from 3 to 10 repetitions, section 3.3, without retraining).
    seeds = check_random_state(random_state).randint(2**32, size=k, dtype=np.uint32)
    # A generator, not a list: k hold-outs of a large corpus need not all be held at once.
    return (_one_hold_out(n, docs, ratio, seed) for seed in seeds)


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


# --- blocked m x 2 cross-validation ---------------------------------------------------------------


def n_blocks(m: int) -> int:
    """Number of blocks of an m x 2 BCV: the smallest power of two ``b`` with ``b - 1 >= m``.

    A two-level orthogonal array with ``b`` runs has at most ``b - 1`` columns, one per
    repetition, and the blocks must be equal-sized, hence a power of two.

    Parameters
    ----------
    m : int
        The repetitions m, at least 1.

    Returns
    -------
    int
        b.

    Examples
    --------
    >>> [n_blocks(m) for m in (1, 2, 3, 4, 7, 8)]
    [2, 4, 4, 8, 8, 16]
    """
    m = check_positive_int(m, "m")
    b = 2
    while b - 1 < m:
        b *= 2
    return b


def _bit_reverse(j: int, bits: int) -> int:
    return int(format(j, f"0{bits}b")[::-1], 2) if bits else 0


def half_signs(m: int) -> np.ndarray:
    """The orthogonal array: ``(m, b)`` array of +1 (validated in fold 2r+1) / -1 (in fold 2r).

    Row ``r`` is Paley-ordered Walsh function ``r + 1``, i.e. Sylvester-Hadamard column
    ``bit_reverse(r + 1)``, signed so that block ``B(b/2 + 1)`` is validated in the first fold of
    every repetition (entry -1). Any two rows agree on exactly ``b/2`` blocks: the repetitions are
    orthogonal.

    Parameters
    ----------
    m : int
        The repetitions m, at least 1.

    Returns
    -------
    numpy.ndarray of int, shape (m, b)
        The signs.

    Examples
    --------
    >>> half_signs(3)
    array([[ 1,  1, -1, -1],
           [-1,  1, -1,  1],
           [ 1, -1, -1,  1]])
    """
    b = n_blocks(m)
    bits = b.bit_length() - 1
    hadamard = np.ones((1, 1), dtype=int)
    while len(hadamard) < b:
        hadamard = np.block([[hadamard, hadamard], [hadamard, -hadamard]])
    # Paley order lists the Walsh functions as products of Rademacher functions, coarsest first:
    # for b = 4 that is {B1,B2|B3,B4}, {B1,B3|B2,B4}, {B1,B4|B2,B3}, the order of Table 1.
    columns = hadamard[:, [_bit_reverse(r + 1, bits) for r in range(m)]].T
    # Table 1 validates B3 first in every repetition (rep. 2 trains on B2,B4 first, not B1,B3);
    # B(b/2 + 1) generalizes B3 and keeps "first half of the blocks | second half" as rep. 1.
    return columns * -columns[:, [b // 2]]


def bcv_layout(n: int, *, m=3, random_state=None, groups=None):
    """The blocks, folds and validating folds of one m x 2 BCV
    (:class:`~reprocompare.splitters.BlockedMx2CV`).

    The one place the BCV's randomness is used, so that its blocks, folds and validating folds
    always describe the same BCV: sentences (or, with ``groups``, whole documents) are permuted
    and cut into ``b = n_blocks(m)`` blocks, combined by the orthogonal array of
    :func:`half_signs`.

    Parameters
    ----------
    n : int
        Sentences in the corpus, at least ``b``.
    m : int, default=3
        Repetitions of two-fold CV.
    random_state : int, RandomState instance or None, default=None
        As :func:`check_random_state`.
    groups : array-like of shape (n,), default=None
        Document id of each sentence; documents are never cut, and go one by one to the block
        with the fewest sentences so far (the lowest-numbered on a tie).

    Returns
    -------
    blocks : list of ndarray of int64
        ``b`` sorted index arrays, ``B1`` first.
    folds : list of (ndarray of int64, ndarray of int64)
        ``2m`` ``(train, validation)`` pairs of sorted indices, in split order.
    validating : ndarray of int64, shape (n, m)
        Row ``i``: the indices of the folds whose validation set holds sentence ``i``.

    Examples
    --------
    >>> blocks, folds, validating = bcv_layout(10, m=3, random_state=0)
    >>> [len(block) for block in blocks], len(folds), validating.shape
    ([3, 3, 2, 2], 6, (10, 3))
    """
    m = check_positive_int(m, "m")
    b = n_blocks(m)
    docs = documents(groups, n)
    what = f"{m}x2 BCV"
    if n < b:
        raise UserError(
            f"{what} needs at least {b} sentences (one per block, {b} blocks), got {n}"
        )
    if docs is not None and len(docs) < b:
        raise UserError(
            f"{what} with groups needs at least {b} documents (one per block, {b} blocks), "
            f"got {len(docs)}"
        )
    rng = check_random_state(random_state)
    if docs is None:
        permutation = rng.permutation(n).astype(INDEX_DTYPE)
        blocks = [np.sort(part) for part in np.array_split(permutation, b)]
    else:
        members = [[] for _ in range(b)]
        sizes = np.zeros(b, dtype=np.int64)
        for d in rng.permutation(len(docs)):
            smallest = int(np.argmin(sizes))  # argmin: lowest block index on a tie
            members[smallest].append(docs[d])
            sizes[smallest] += len(docs[d])
        blocks = [sorted_indices(parts) for parts in members]
    folds, validating = bcv_folds(blocks, m=m)
    return blocks, folds, validating


def bcv_folds(blocks, *, m=3):
    """The folds and validating folds of an m x 2 BCV over given blocks (Table 1's combination).

    :func:`bcv_layout` draws its blocks at random and combines them here; a variant of the BCV
    that chooses its blocks otherwise (:mod:`reprocompare.strategies.regularized_bcv`) combines
    its own the same way, so that both keep every promise of the orthogonal array.

    Parameters
    ----------
    blocks : list of ndarray of int64
        ``b = n_blocks(m)`` disjoint sorted index arrays covering ``0 .. n - 1``, ``B1`` first.
    m : int, default=3
        Repetitions of two-fold CV.

    Returns
    -------
    folds : list of (ndarray of int64, ndarray of int64)
        ``2m`` ``(train, validation)`` pairs of sorted indices, in split order.
    validating : ndarray of int64, shape (n, m)
        Row ``i``: the indices of the folds whose validation set holds sentence ``i``.

    Examples
    --------
    >>> blocks = [np.array([0, 1]), np.array([2]), np.array([3]), np.array([4])]
    >>> folds, validating = bcv_folds(blocks, m=3)
    >>> [v.tolist() for _, v in folds[:2]], validating[0].tolist()
    ([[3, 4], [0, 1, 2]], [1, 2, 5])
    """
    m = check_positive_int(m, "m")
    b = n_blocks(m)
    if len(blocks) != b:
        raise UserError(f"{m}x2 BCV combines {b} blocks, got {len(blocks)}")
    n = sum(len(block) for block in blocks)
    block_of = np.empty(n, dtype=INDEX_DTYPE)
    for i, block in enumerate(blocks):
        block_of[block] = i
    signs = half_signs(m)
    folds = []
    validating = np.empty((n, m), dtype=INDEX_DTYPE)
    for r in range(m):
        first = sorted_indices([blocks[i] for i in range(b) if signs[r, i] < 0])
        second = sorted_indices([blocks[i] for i in range(b) if signs[r, i] > 0])
        folds.append((second, first))
        folds.append((first, second))
        validating[:, r] = np.where(signs[r, block_of] < 0, 2 * r, 2 * r + 1)
    return folds, validating
