"""Sources of variation per repetition: which data sample, split and training seed repetition r
is (the config's ``variation``).

A design of S samples x P splits x Q seeds numbers its repetitions seed-fastest:
r = (s P + p) Q + q. The split of repetition r is the split the paper's design would draw for
repetition s P + p (its "split key"), so the Q repetitions of one split share it exactly and
differ only in their training seed, which comes from r (``compare.model_seed``). Sample s is a
fresh draw of ``sample_size`` sentences of the corpus, seeded by the corpus's seed and s.
With the defaults (S = Q = 1) the split key is r and nothing else changes: the paper's design.
"""

from __future__ import annotations

from typing import NamedTuple


class Indices(NamedTuple):
    """Where a repetition sits in the study's design: its sample, split and seed, and the repetition
    its split is drawn for (``split_key``)."""
    sample: int
    split: int
    seed: int
    split_key: int


def is_default(variation: dict) -> bool:
    """One sample and one seed per split: every repetition a new split, as in the paper.

    Parameters
    ----------
    variation : dict
        The config's ``variation`` section, or its :func:`draw_record`.

    Returns
    -------
    bool
    """
    return variation["samples"] == 1 and variation["seeds"] == 1


def draw_record(variation: dict) -> dict:
    """What one repetition's sample, split and seed depend on: the training jobs' record.

    Not the number of samples (growing a study by samples adds repetitions and leaves the
    others as they are), nor, with one sample, the number of splits (the repetition is then its
    split), nor ``decompose`` (it reads the summaries). One sample is ``sample_size: null``.

    Parameters
    ----------
    variation : dict
        The config's ``variation`` section.

    Returns
    -------
    dict
        The record.
    """
    record = {"sample_size": variation["sample_size"], "seeds": variation["seeds"]}
    if variation["sample_size"] is not None:
        record["splits"] = variation["splits"]
    return record


def indices(variation: dict, repetition: int) -> Indices:
    """(sample, split, seed) of ``repetition``, and the repetition its split is drawn for;
    ``variation`` is the config's section or its :func:`draw_record`.

    Parameters
    ----------
    variation : dict
        The config's ``variation`` section, or its :func:`draw_record`.
    repetition : int
        The repetition's number.

    Returns
    -------
    Indices
    """
    seeds = variation["seeds"]
    q, rest = repetition % seeds, repetition // seeds
    if variation["sample_size"] is None:  # one sample: the corpus
        return Indices(0, rest, q, rest)
    splits = variation["splits"]
    s, p = divmod(rest, splits)
    return Indices(s, p, q, s * splits + p)
