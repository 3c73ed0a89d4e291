"""Which class a model ``type`` names: the built-in taggers, third-party ones, and ``type: python``.

Every tagger type is a name bound to a class that implements the fit/predict interface of
:class:`~reprocompare.models.base.SequenceTagger` (declared ``PARAMS`` and capability attributes
included). The built-in types register below exactly as a user's would, with :func:`register`;
a third-party package registers its own without touching ours, through the entry-point group
``reprocompare.taggers`` in its packaging metadata::

    [project.entry-points."reprocompare.taggers"]
    mytagger = "my_package.tagger:MyTagger"

after which ``type: mytagger`` works in configs and ``--a mytagger:...`` on the command line. A
class that is not registered at all can still be named in a spec: ``type: python`` with
``class: "my_package.tagger:MyTagger"``.

Targets are ``"module:Class"`` strings, imported on first use: a job comparing CRFs never imports
torch (seconds of start-up and hundreds of MB of memory).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import re
import sys
from pathlib import Path

from reprocompare.base.errors import UserError
from reprocompare.models.base import SequenceTagger
from reprocompare.models.plain import adapt, is_plain

#: The entry-point group third-party taggers register under.
ENTRY_POINT_GROUP = "reprocompare.taggers"
#: Spec types that are not names of a tagger: ``python`` names a class, ``command`` two commands.
PYTHON = "python"

_TARGET = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")
_NAME = re.compile(r"[a-z][a-z0-9_]*")
_registered: dict[str, str | type] = {}


def register(name: str, target: str | type) -> None:
    """Bind the spec type ``name`` (lower case, e.g. ``"crf"``) to a tagger class.

    ``target`` is the class or its ``"module:Class"`` path (imported on first use).

    Parameters
    ----------
    name : str
        The spec type.
    target : str or type
        The class, or its ``"module:Class"`` path.
    """
    if not isinstance(name, str) or not _NAME.fullmatch(name) or name == PYTHON:
        raise ValueError(f"a tagger type is a lower-case identifier other than {PYTHON!r}, "
                         f"got {name!r}")
    if isinstance(target, str) and not _TARGET.fullmatch(target):
        raise ValueError(f"expected 'package.module:ClassName', got {target!r}")
    _registered[name] = target


def _entry_points() -> dict[str, importlib.metadata.EntryPoint]:
    return {ep.name: ep for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}


def available() -> list[str]:
    """Every type a spec may name, sorted: registered, from entry points, and ``python``.

    Returns
    -------
    list of str
        The types.
    """
    return sorted({*_registered, *_entry_points(), PYTHON})


def import_path(path: str, *, key: str = "path") -> str:
    """Put the folder ``path`` (relative to the working directory, or absolute) first on
    ``sys.path``, so that ``class`` imports from it without PYTHONPATH; a file's folder for a
    ``.py`` file.

    Parameters
    ----------
    path : str
        The folder, or a ``.py`` file.
    key : str, default 'path'
        The config key named in errors.

    Returns
    -------
    str
        The folder put on ``sys.path``.
    """
    folder = Path(path).expanduser()
    if folder.suffix == ".py":
        folder = folder.parent
    if not folder.is_dir():
        raise UserError(f"{path!r} is not a folder (relative to the working directory "
                        f"{Path.cwd()}) to import the class from", key=key)
    resolved = str(folder.resolve())
    if resolved not in sys.path:
        sys.path.insert(0, resolved)
    return resolved


def load_class(target: str, *, key: str = "class", path: str | None = None,
               path_key: str = "path") -> type[SequenceTagger]:
    """The class at ``"package.module:ClassName"`` (imported from the folder ``path`` when
    given), checked to be a tagger, or a class with fit and predict wrapped into one
    (:mod:`reprocompare.models.plain`); UserError naming ``key``.

    Parameters
    ----------
    target : str
        ``"package.module:ClassName"``.
    key : str, default 'class'
        The config key named in errors.
    path : str, optional
        The folder to import from.
    path_key : str, default 'path'
        The config key of ``path``.

    Returns
    -------
    type
        A SequenceTagger subclass.
    """
    if not isinstance(target, str) or not _TARGET.fullmatch(target.strip()):
        raise UserError(f"expected 'package.module:ClassName', got {target!r}", key=key)
    if path is not None:
        import_path(path, key=path_key)
    module_name, _, qualname = target.strip().partition(":")
    try:
        found = importlib.import_module(module_name)
    except ImportError as error:
        raise UserError(f"cannot import {module_name!r}: {error}", key=key) from None
    for part in qualname.split("."):
        found = getattr(found, part, None)
        if found is None:
            raise UserError(f"module {module_name!r} has no {qualname!r}", key=key)
    return check_tagger_class(found, target, key=key)


def check_tagger_class(cls, target: str, *, key: str) -> type[SequenceTagger]:
    """``cls`` if it implements the interface (a SequenceTagger subclass with declared PARAMS),
    its wrapper if it is a plain class with fit and predict.

    Parameters
    ----------
    cls : type
        The class.
    target : str
        Where it came from, for messages.
    key : str
        The config key named in errors.

    Returns
    -------
    type
        A SequenceTagger subclass.
    """
    if is_plain(cls):
        return adapt(cls, target, key=key)
    if not isinstance(cls, type) or not issubclass(cls, SequenceTagger):
        raise UserError(f"{target} is neither a class with fit and predict nor a subclass of "
                        "reprocompare.models.SequenceTagger (README, 'Your own models')", key=key)
    if not any(param.name == "scheme" for param in cls.PARAMS):
        raise UserError(f"{target} declares no 'scheme' in PARAMS (add models.base.SCHEME_PARAM)",
                        key=key)
    return cls


def tagger_class(model_type: str, *, key: str = "type") -> type[SequenceTagger]:
    """The class of a registered type or of an entry point of ``reprocompare.taggers``.

    Parameters
    ----------
    model_type : str
        The spec type.
    key : str, default 'type'
        The config key named in errors.

    Returns
    -------
    type
        A SequenceTagger subclass.
    """
    target = _registered.get(model_type)
    if target is None:
        entry = _entry_points().get(model_type)
        if entry is None:
            raise UserError(f"unknown model type {model_type!r}; expected one of "
                            f"{', '.join(available())}", key=key)
        try:
            target = entry.load()
        except Exception as error:  # a broken third-party package: say which one
            raise UserError(f"the tagger {model_type!r} registered by {entry.value!r} "
                            f"({ENTRY_POINT_GROUP}) cannot be loaded: {error}", key=key) from None
        _registered[model_type] = target
    if isinstance(target, str):
        return load_class(target, key=key)
    return check_tagger_class(target, f"{target.__module__}:{target.__qualname__}", key=key)


# The built-in taggers, registered as any other.
register("crf", "reprocompare.models.crf:CRFTagger")
register("bilstm", "reprocompare.models.bilstm:BiLSTMTagger")
register("majority", "reprocompare.models.majority:MajorityTagger")
register("command", "reprocompare.models.command:CommandTagger")
register("transformers", "reprocompare.models.transformer:TransformerTagger")
#: The types this package ships (models/README.md documents these).
BUILTIN = ("crf", "bilstm", "majority", "command", "transformers")
