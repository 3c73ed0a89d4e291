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

from sklearn.model_selection import BaseCrossValidator

from reprocompare.splitters._common import check_positive_int, num_sentences
# n_blocks and half_signs stay importable from here, where they were defined before the drawing
# moved to drawing.py
from reprocompare.splitters.drawing import bcv_layout, half_signs, n_blocks  # noqa: F401


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
        # One draw (drawing.bcv_layout) gives blocks, folds and validating folds, so they agree.
        m = check_positive_int(self.m, "m")
        return bcv_layout(num_sentences(X), m=m, random_state=self.random_state, groups=groups)
