"""Seed derivation: every seed of a study comes from one function of the run's seed and a path.

Randomness is derived, never global: a split, a fold's training run, a search trial each get the
seed ``derive_seed(seed, *path)``, where the path names the thing (a corpus, a strategy, a
repetition, a fold). Seeds of different paths are statistically independent (numpy's
``SeedSequence`` spawn keys), and the same on every run, process and machine: names enter through
CRC-32, not ``hash()``, whose value changes from one Python process to the next. Adding a corpus,
a strategy or a repetition never changes the seeds, and so the splits, of the existing ones.

This module sits on the ground floor with :mod:`reprocompare.base.errors`: it imports nothing from the
project, and every stage may import it.
"""

from __future__ import annotations

import zlib

import numpy as np

#: Frozen codes that keep the streams of different purposes apart (a path ends with one).
FOLD_TRAINING = 1  # a fold's training run in a comparison (after strategy, repetition, fold)
TRIAL_DRAW, TRIAL_TRAINING = 0, 1  # a search trial's hyperparameters / its training run
FIXED_SPLIT, SEED_RUN = 101, 102  # the search's fixed split / its seed-variance runs
SAMPLE = 103  # a data sample of a design of samples (reprocompare.study.variation)


def _key(part) -> int:
    if isinstance(part, str):
        return zlib.crc32(part.encode("utf-8"))
    if isinstance(part, (bool, np.bool_)) or not isinstance(part, (int, np.integer)) or part < 0:
        raise ValueError(f"a seed path holds names and non-negative integers, got {part!r}")
    return int(part)


def seed_sequence(seed: int, *path: int | str) -> np.random.SeedSequence:
    """``SeedSequence(entropy=seed, spawn_key=path)``, names in the path as their CRC-32.

    Parameters
    ----------
    seed : int
        The run's seed, non-negative.
    *path : int or str
        What it is for, outermost first (see :func:`derive_seed`).

    Returns
    -------
    numpy.random.SeedSequence
        The sequence.
    """
    return np.random.SeedSequence(entropy=int(seed), spawn_key=tuple(_key(p) for p in path))


def derive_seed(seed: int, *path: int | str, below: int = 2**32) -> int:
    """The seed of the thing at ``path`` under the run's ``seed``: an int in ``[0, below)``.

    Parameters
    ----------
    seed : int
        The run's (or the config's) seed, non-negative.
    *path : int or str
        What the seed is for, outermost first: names (a corpus, a model) and non-negative integers
        (a strategy's frozen code, :attr:`reprocompare.strategies.Strategy.code`, a repetition, a fold, a purpose code).
    below : int, default 2**32
        Exclusive upper bound; torch and ``RandomState`` take ``2**31 - 1``.

    Returns
    -------
    int
        The seed, in ``[0, below)``.

    Examples
    --------
    >>> derive_seed(0, 3, 0)  # BCV's code, repetition 0
    2377455350
    >>> derive_seed(0, "conll2000") == derive_seed(0, "conll2000")
    True
    """
    return int(seed_sequence(seed, *path).generate_state(1)[0]) % int(below)


def generator(seed: int, *path: int | str) -> np.random.Generator:
    """A numpy Generator for the thing at ``path``; with no path, ``default_rng(seed)`` itself.

    Parameters
    ----------
    seed : int
        The run's seed, non-negative.
    *path : int or str
        What it is for, outermost first (see :func:`derive_seed`).

    Returns
    -------
    numpy.random.Generator
        The generator.
    """
    return np.random.default_rng(seed_sequence(seed, *path))
