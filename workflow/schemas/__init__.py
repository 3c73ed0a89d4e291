"""The config schema (config.schema.yaml), installed as ``reprocompare.schemas``.

It sits beside the workflow because Snakemake's ``validate`` reads it there; the wheel carries it
so that an installed ``reprocompare`` checks a config exactly as the workflow does. It is also
the one place a default lives: a module that needs one (Table 4's k, the verdict's threshold,
the most repetitions a study may run) reads it here with :func:`default` or :func:`bound`,
never retypes it.
"""

from __future__ import annotations

import copy
import functools
from pathlib import Path

import yaml

#: the schema file
PATH = Path(__file__).with_name("config.schema.yaml")


@functools.lru_cache(maxsize=1)
def _loaded() -> dict:
    # CSafeLoader where libyaml is there: the schema is read once per process, on import of the
    # modules whose constants come from it
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(PATH.read_text(encoding="utf-8"), Loader=loader)


def schema() -> dict:
    """The config schema, parsed (a copy: the caller may change it).

    Returns
    -------
    dict
        The JSON schema of a study's config.
    """
    return copy.deepcopy(_loaded())


def _node(key: str) -> dict:
    node = _loaded()
    for part in key.split("."):
        try:  # "k[]": the items of the list k
            node = node["properties"][part.removesuffix("[]")]
            node = node["items"] if part.endswith("[]") else node
        except KeyError:
            raise KeyError(f"the config schema has no key {key!r}") from None
    return node


def default(key: str):
    """The schema's default of a config key.

    Parameters
    ----------
    key : str
        Dotted, as a config error names it: ``"strategies.repeated_holdout.table4_k"``.

    Returns
    -------
    object
        A copy of the default.

    Raises
    ------
    KeyError
        For a key the schema lacks, or one without a default.

    Examples
    --------
    >>> default("verdict.threshold")
    0.8
    """
    node = _node(key)
    if "default" not in node:
        raise KeyError(f"the config schema gives {key!r} no default")
    return copy.deepcopy(node["default"])


def bound(key: str, which: str = "maximum"):
    """A bound the schema sets on a config key (``minimum``, ``maximum``, ``exclusiveMinimum``
    or ``exclusiveMaximum``).

    Parameters
    ----------
    key : str
        Dotted config key; ``"k[]"`` names the items of the list ``k``.
    which : str, default="maximum"
        Which bound.

    Returns
    -------
    int or float

    Examples
    --------
    >>> bound("stopping.max_repetitions")
    5000
    """
    node = _node(key)
    if which not in node:
        raise KeyError(f"the config schema sets no {which} on {key!r}")
    return node[which]


def choices(key: str) -> list:
    """The values the schema allows a config key (its ``enum``).

    Parameters
    ----------
    key : str
        Dotted config key; ``"k[]"`` names the items of the list ``k``.

    Returns
    -------
    list

    Examples
    --------
    >>> choices("stopping.design")
    ['planned', 'fixed', 'anytime']
    """
    node = _node(key)
    if "enum" not in node:
        raise KeyError(f"the config schema lists no values of {key!r}")
    return list(node["enum"])
