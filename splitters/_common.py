"""Input checks shared by the splitters: corpus size, document ids and the integer index type."""

from __future__ import annotations

import numpy as np

from reprocompare.base.errors import UserError

#: Fold indices are always int64, whatever the platform's default integer: split files written on
#: one machine and compared byte for byte on another must not differ in their index type.
INDEX_DTYPE = np.int64


def num_sentences(X) -> int:
    """Number of sentences in ``X`` (anything with ``len()``, e.g. a list of sentences)."""
    if X is None:
        raise UserError("X is None: pass the corpus (anything with len(), e.g. its sentences)")
    try:
        return len(X)
    except TypeError:
        raise UserError(
            f"X of type {type(X).__name__} has no len(): pass the corpus's sentences"
        ) from None


def documents(groups, n: int) -> list[np.ndarray] | None:
    """Sentence indices of each document, documents in sorted id order, or None without groups.

    Sorting the ids first makes the document order (and so every split drawn from it) depend only
    on the ids and the seed, never on the order in which documents first appear.
    """
    if groups is None:
        return None
    groups = np.asarray(groups)
    if groups.ndim != 1 or len(groups) != n:
        raise UserError(
            f"groups must give one document id per sentence: got shape {groups.shape} "
            f"for {n} sentences"
        )
    _, inverse, counts = np.unique(groups, return_inverse=True, return_counts=True)
    # A stable sort keeps each document's sentences in corpus order.
    order = np.argsort(inverse, kind="stable").astype(INDEX_DTYPE)
    return np.split(order, np.cumsum(counts)[:-1])


def sorted_indices(parts) -> np.ndarray:
    """Sorted int64 union of a list of index arrays."""
    if not parts:
        return np.empty(0, dtype=INDEX_DTYPE)
    return np.sort(np.concatenate(parts)).astype(INDEX_DTYPE, copy=False)


def check_positive_int(value, name: str) -> int:
    """``value`` as an int if it is a positive integer (bools rejected), else a UserError."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise UserError(f"{name} must be a positive integer, got {value!r}")
    if value < 1:
        raise UserError(f"{name} must be a positive integer (>= 1), got {value}")
    return int(value)
