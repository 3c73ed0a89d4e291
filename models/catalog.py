"""Every tagger type's hyperparameters and capabilities, read from the classes that declare them.

models/README.md is :func:`markdown` (regenerate it with
``python -m reprocompare.models.catalog > models/README.md``; a test keeps it in sync), and
``reprocompare models`` prints :func:`text`, which also lists types that third-party packages
registered. Nothing here is written by hand: a parameter added to a tagger's ``PARAMS`` appears
in both.
"""

from __future__ import annotations

import inspect
from typing import Any

from reprocompare.base.errors import UserError
from reprocompare.base.markdown import md_table
from reprocompare.models.base import Param, SequenceTagger
from reprocompare.models.registry import BUILTIN, PYTHON, available, tagger_class

CAPABILITIES = {
    "uses_gpu": "trains on a GPU with device: cuda (its workflow jobs ask for one)",
    "trains_by_epochs": "trains in epochs and can record a learning curve",
    "needs_characters": "reads the characters of tokens (shapes, affixes, character embeddings)",
}


def _default(param: Param) -> str:
    if param.required:
        return "(required)"
    value: Any = param.default
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, (float, str)) else str(value)


def _kind(param: Param) -> str:
    if param.choices is not None:
        return " / ".join(map(str, param.choices))
    return {int: "integer", float: "number", bool: "true/false", str: "string"}[param.type]


def _summary(cls: type[SequenceTagger]) -> str:
    return (cls.__doc__ or "").strip().splitlines()[0] if cls.__doc__ else ""


def _capabilities(cls: type[SequenceTagger]) -> list[str]:
    return [name for name in CAPABILITIES if getattr(cls, name, False)]


def _seed_text(cls: type[SequenceTagger]) -> str:
    if "random_state" in inspect.signature(cls).parameters:
        return "random: trained with the fold's derived seed (models A and B of a fold share it)"
    return "deterministic: takes no seed"


def markdown(types=None) -> str:
    """models/README.md: one table of hyperparameters per type, from the classes' ``PARAMS``.

    Parameters
    ----------
    types : sequence of str, optional
        The model types; default every built-in one.

    Returns
    -------
    str
        The Markdown.
    """
    lines = ["# Models", "",
             "Every model type, its capabilities and its hyperparameters: a spec names the type "
             "and any of them, on the command line (`crf:scheme=IOBES,c1=0.05`) or in a config "
             "(`{type: crf, scheme: IOBES, c1: 0.05}`). Generated from the tagger classes "
             "(`python -m reprocompare.models.catalog > models/README.md`); "
             "`reprocompare models` prints the same, with types other packages registered.", "",
             f"A class of your own: `type: {PYTHON}` with `class: \"package.module:ClassName\"`, "
             "or register it under the entry-point group `reprocompare.taggers` (see docs/models.md, "
             "\"Your own models\"). Its hyperparameters are the `PARAMS` it declares.", "",
             "Capabilities (class attributes):", ""]
    lines += [f"- `{name}`: {text}" for name, text in CAPABILITIES.items()]
    lines.append("")
    for name in types or BUILTIN:
        cls = tagger_class(name)
        capabilities = ", ".join(f"`{c}`" for c in _capabilities(cls)) or "none"
        lines += [f"## {name}", "", f"`{cls.__module__}:{cls.__qualname__}`: {_summary(cls)}", "",
                  f"Capabilities: {capabilities}. Training is {_seed_text(cls)}.", ""]
        # the help and the range are Markdown written by the class (code spans included): only
        # their pipes are escaped, so that none splits a cell
        lines += md_table(["parameter", "type", "range", "default", "description"],
                          [[f"`{param.name}`", _kind(param), param.range_text().replace("|", "\\|"),
                            f"`{_default(param)}`", param.help.replace("|", "\\|")]
                           for param in cls.PARAMS])
        lines.append("")
    return "\n".join(lines)


def text(types=None) -> str:
    """``reprocompare models``: every available type (or ``types``), its parameters and help.

    Parameters
    ----------
    types : sequence of str, optional
        The model types; default every available one.

    Returns
    -------
    str
        The text.
    """
    out = []
    for name in types or [t for t in available() if t != PYTHON]:
        try:
            cls = tagger_class(name)
        except UserError as error:  # one broken third-party package must not hide the others
            out += [f"{name}  (cannot be loaded: {error.message})", ""]
            continue
        capabilities = ", ".join(_capabilities(cls)) or "none"
        out += [f"{name}  ({cls.__module__}:{cls.__qualname__})", f"  {_summary(cls)}",
                f"  capabilities: {capabilities}; training is {_seed_text(cls)}"]
        width = max(len(p.name) for p in cls.PARAMS)
        for param in cls.PARAMS:
            out.append(f"  {param.name:<{width}}  {_kind(param)}, default {_default(param)}: "
                       f"{param.help}")
        out.append("")
    out.append(f"{PYTHON}  (any class: class=\"package.module:ClassName\"; its PARAMS)")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
