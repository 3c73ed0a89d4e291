"""Blocked m x 2 cross-validation (m x 2 BCV), with the 3 x 2 BCV of Table 1 as the default.

Xue et al., "We Need to Talk About Reproducibility in NLP Model Comparison", section 3.1: divide
the corpus into four equal-sized blocks B1..B4 and combine them by the rules of Table 1. Every
repetition is a 5:5 two-fold CV, so two training sets of different repetitions share only about
n/4 sentences (Dietterich, 1998; Markatou et al., 2005), and every sentence is in the same number
of training sets, which is what makes the vote estimator of section 3.2 possible.

General m (Wang et al., 2017a) uses ``b`` blocks, the smallest power of two with ``b - 1 >= m``,
combined by a two-level orthogonal array: the non-constant columns of the Sylvester-Hadamard
matrix of order ``b``, taken in Paley (dyadic) order. Repetition ``r`` uses column ``r`` of that
order; its validation side in the first fold is the half that holds block ``B(b/2 + 1)``. For
``b = 4`` this is exactly Table 1; for every ``b``, repetition 1 trains on the first ``b/2``
blocks and validates on the rest.
"""

from __future__ import annotations

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


class BlockedMx2CV(BaseCrossValidator):
    """Blocked m x 2 cross-validation: ``m`` orthogonal two-fold CVs over ``b`` blocks.

    With ``m = 3`` this is the 3 x 2 BCV recommended by Xue et al. (section 3.1, Table 1): four
    blocks, folds (train | validation) in this order::

        B1 B2 | B3 B4,   B3 B4 | B1 B2,     (repetition 1)
        B2 B4 | B1 B3,   B1 B3 | B2 B4,     (repetition 2)
        B1 B4 | B2 B3,   B2 B3 | B1 B4.     (repetition 3)

    Parameters
    ----------
    m : int, default=3
        Number of repetitions of two-fold CV. The corpus is cut into ``b`` blocks, the smallest
        power of two with ``b - 1 >= m`` (4 for m <= 3, 8 for m <= 7, ...).
    random_state : int, RandomState instance or None, default=None
        Controls the random assignment of sentences to blocks. Pass an int so that
        :meth:`split`, :meth:`blocks` and :meth:`validating_folds` describe the same BCV.

    Notes
    -----
    Sentences are permuted and cut into ``b`` blocks whose sizes differ by at most one. With
    ``groups`` (a document id per sentence), documents stay whole: permuted documents go, one by
    one, to the block with the fewest sentences so far (the lowest-numbered on a tie).

    Repetition ``r`` uses the ``r``-th Paley-ordered column of the Sylvester-Hadamard matrix of
    order ``b`` (see :func:`half_signs`); its first fold validates the half holding block
    ``B(b/2 + 1)``, its second fold the other half. Every sentence is validated exactly once and
    trained on exactly once per repetition.

    Examples
    --------
    >>> from reprocompare.splitters import BlockedMx2CV
    >>> sentences = [f"sentence {i}" for i in range(10)]
    >>> cv = BlockedMx2CV(m=3, random_state=0)
    >>> cv.get_n_splits()
    6
    >>> [len(block) for block in cv.blocks(sentences)]
    [3, 3, 2, 2]
    >>> [(len(train), len(validation)) for train, validation in cv.split(sentences)]
    [(6, 4), (4, 6), (5, 5), (5, 5), (5, 5), (5, 5)]
    >>> cv.validating_folds(sentences).shape
    (10, 3)
    """

    __metadata_request__split = {"groups": True}

    def __init__(self, *, m=3, random_state=None):
        self.m = m
        self.random_state = random_state

    def split(self, X, y=None, groups=None):
        """Generate indices to split the corpus into training and validation sets, ``2m`` times.

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
        _, folds, _ = self._layout(X, groups)
        yield from folds

    def get_n_splits(self, X=None, y=None, groups=None):
        """Number of splits: ``2m``.

        Parameters
        ----------
        X, y, groups : object
            Ignored, present for API compatibility.

        Returns
        -------
        int
        """
        return 2 * check_positive_int(self.m, "m")

    def blocks(self, X, y=None, groups=None):
        """The blocks B1..Bb of the BCV that :meth:`split` yields for the same ``random_state``.

        Parameters
        ----------
        X : sized
            The corpus; only ``len(X)`` is used.
        y : object
            Ignored.
        groups : array-like of shape (n_sentences,), default=None
            Document id of each sentence.

        Returns
        -------
        list of ndarray of int64
            ``b`` sorted index arrays, ``B1`` first.
        """
        blocks, _, _ = self._layout(X, groups)
        return blocks

    def validating_folds(self, X, y=None, groups=None):
        """For each sentence, the indices of the ``m`` folds that validate it.

        The vote estimator (section 3.2, Table 2) aggregates, for each sentence, the predictions
        of the ``m`` models that did not see it in training.

        Parameters
        ----------
        X : sized
            The corpus; only ``len(X)`` is used.
        y : object
            Ignored.
        groups : array-like of shape (n_sentences,), default=None
            Document id of each sentence.

        Returns
        -------
        ndarray of int64, shape (n_sentences, m)
            Row ``i`` holds, in fold order, the indices (``0 .. 2m - 1``, as in :meth:`split`)
            of the folds whose validation set contains sentence ``i``; column ``r`` is
            ``2r`` or ``2r + 1``.
        """
        _, _, validating = self._layout(X, groups)
        return validating

    def _layout(self, X, groups):
        # The one place randomness is used, so blocks, folds and validating folds always agree.
        m = check_positive_int(self.m, "m")
        b = n_blocks(m)
        n = num_sentences(X)
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
        rng = check_random_state(self.random_state)
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
        return blocks, folds, validating
