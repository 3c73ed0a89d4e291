"""Hold-out and repeated hold-out splits with a train:validation ratio (8:1 by default).

These are the two baselines of Xue et al., "We Need to Talk About Reproducibility in NLP Model
Comparison", section 3.3: the *standard splits* (ST), re-drawn at random as one 8:1 hold-out so
that they are not static, and the *random splits* (RS) of Gorman and Bedrick (2019), several
independent 8:1 hold-outs.

The classes are scikit-learn cross-validators over the draws of :mod:`.drawing` (numpy only),
from which the split documents of the workflow's jobs are drawn without scikit-learn.
"""

from __future__ import annotations

from sklearn.model_selection import BaseCrossValidator

from reprocompare.splitters._common import check_positive_int, num_sentences
# parse_ratio, format_ratio and n_validation stay importable from here, where they were defined
# before the drawing moved to drawing.py
from reprocompare.splitters.drawing import (  # noqa: F401
    format_ratio,
    holdout_splits,
    n_validation,
    parse_ratio,
    repeated_holdout_splits,
)


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
        yield from holdout_splits(num_sentences(X), ratio=self.ratio,
                                  random_state=self.random_state, groups=groups)

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
        yield from repeated_holdout_splits(num_sentences(X), k=k, ratio=self.ratio,
                                           random_state=self.random_state, groups=groups)

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

