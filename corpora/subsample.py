"""Subsamples of a corpus: the ``subsample``, ``subsample_seed`` and ``subsample_part`` of a
corpus in the config (samples that are what they are called).

One seed draws a sequence of disjoint subsamples (its parts): part 0 is the subsample a config
without ``subsample_part`` draws, and every later part is drawn from the sentences the earlier
ones left, so studies on parts 0, 1, 2 of one seed are studies on independent samples of the
corpus, where subsamples of different seeds overlap (by about n / size of their sentences).
"""

from __future__ import annotations

import numpy as np

from reprocompare.base.seeds import generator
from reprocompare.corpora.conll import Corpus


def subsample_indices(size: int, n: int, seed: int, part: int = 0) -> np.ndarray:
    """The positions of the ``part``-th of the disjoint ``n``-sentence subsamples one seed
    draws from a corpus of ``size`` sentences, in corpus order.

    Part 0 is ``n`` positions drawn without replacement; part p is drawn, by the same generator
    continuing, from the positions parts 0 to p - 1 left. So part 0 is the subsample a config
    without ``subsample_part`` has always drawn, and the parts of one seed are disjoint.

    Parameters
    ----------
    size : int
        The corpus's sentences.
    n : int
        Sentences per part.
    seed : int
        The draw's seed.
    part : int, default 0
        Which part; ``(part + 1) * n <= size``.

    Returns
    -------
    numpy.ndarray
        The sorted positions.

    Examples
    --------
    >>> a, b = (subsample_indices(10, 4, seed=0, part=p) for p in (0, 1))
    >>> len(a), len(b), set(a.tolist()) & set(b.tolist())
    (4, 4, set())
    """
    if (part + 1) * n > size:
        raise ValueError(f"part {part} of {n}-sentence subsamples needs {(part + 1) * n} "
                         f"sentences, not {size}")
    rng, left = generator(seed), np.arange(size)
    for _ in range(part + 1):
        drawn = rng.choice(len(left), size=n, replace=False)
        chosen, left = left[drawn], np.delete(left, drawn)
    return np.sort(chosen)


def subsample(corpus: Corpus, n: int, seed: int, part: int = 0) -> Corpus:
    """``n`` sentences drawn without replacement (seeded), kept in corpus order: the ``part``-th
    of the disjoint subsamples of :func:`subsample_indices`.

    Parameters
    ----------
    corpus : Corpus
        The corpus.
    n : int
        How many sentences.
    seed : int
        The draw's seed.
    part : int, default 0
        Which of the seed's disjoint subsamples.

    Returns
    -------
    Corpus
        The subsample.
    """
    chosen = subsample_indices(len(corpus), n, seed, part)
    return Corpus(corpus.path, tuple(corpus.sentences[i] for i in chosen.tolist()),
                  corpus.scheme, corpus.sha256)


def too_small(n: int, part: int, size: int) -> str:
    """Why a corpus of ``size`` sentences cannot give part ``part`` of ``n``-sentence subsamples
    (the config check and the corpus job say the same).

    Parameters
    ----------
    n : int
        Sentences per subsample.
    part : int
        Which part.
    size : int
        The corpus's sentences.

    Returns
    -------
    str
        The message.
    """
    if not part:
        return f"subsample of {n} sentences, but the corpus has {size}"
    return (f"subsample_part {part} of {n}-sentence subsamples needs {(part + 1) * n} sentences "
            f"(parts 0 to {part} share none), but the corpus has {size}")
