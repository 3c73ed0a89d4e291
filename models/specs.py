"""Model specs: which tagger, trained in which tag scheme, with which hyperparameters.

A spec is written on the command line as ``crf:scheme=IOBES,c1=0.05`` or in a YAML config as a
mapping ``{type: crf, scheme: IOBES, c1: 0.05}``; both parse to the same :class:`ModelSpec`, whose
values are typed and checked against the parameters the tagger class declares. The paper's three
comparisons (section 4) are pairs of specs that differ in one value::

    crf:scheme=IOB2         vs  crf:scheme=IOBES          (NER, chunking)
    bilstm:word_dim=20      vs  bilstm:word_dim=10        (SRL)

Every mistake is a :class:`~reprocompare.base.errors.UserError` naming the key (``c1``, or
``models.A.c1`` for the config entry ``A``); an unknown key lists the allowed ones.

Types come from :mod:`reprocompare.models.registry` (built-in, registered by a third-party
package, or ``python`` with ``class: "package.module:ClassName"``). A value with a comma or a
double quote is written as a JSON string in the string form
(``command:train="python t.py train {train} {model_dir}",...``).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any, Mapping

from reprocompare.base.errors import UserError
from reprocompare.models.base import Param, SequenceTagger
from reprocompare.models.registry import PYTHON, available, load_class, tagger_class


def model_class(model_type: str, target: str | None = None,
                path: str | None = None) -> type[SequenceTagger]:
    """The tagger class of a spec type ("crf", "bilstm", ...; "python" with ``target``,
    imported from the folder ``path`` when given).

    Parameters
    ----------
    model_type : str
        The spec type.
    target : str, optional
        ``"package.module:ClassName"`` for ``python``.
    path : str, optional
        The folder to import it from.

    Returns
    -------
    type
        A SequenceTagger subclass.
    """
    if model_type == PYTHON:
        return load_class(target or "", path=path)
    return tagger_class(model_type)


def tagger_class_of(mapping: Mapping) -> type[SequenceTagger]:
    """The tagger class of a config mapping (``type``, and ``class`` for ``type: python``).

    Its capability attributes (``uses_gpu``, ``trains_by_epochs``, ``needs_characters``) are what
    the workflow and the search ask of a model, never its type's name.

    Parameters
    ----------
    mapping : mapping
        The model's config mapping.

    Returns
    -------
    type
        A SequenceTagger subclass.
    """
    model_type = str(mapping.get("type", "")).strip().lower()
    path = mapping.get("path")
    return model_class(model_type, mapping.get("class"), None if path is None else str(path))

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
_INTEGER = re.compile(r"[+-]?\d+")


def _format(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and (any(c in value for c in ',"') or value != value.strip()):
        return json.dumps(value)  # parse_spec reads a quoted value back as a JSON string
    return repr(value) if isinstance(value, float) else str(value)


@dataclass(frozen=True)
class ModelSpec:
    """A tagger type, its training tag scheme and its non-default hyperparameters.

    Hyperparameters equal to the tagger's defaults are dropped, so equal models have equal specs
    (``crf:c2=1.0`` is ``crf``); ``build_model(spec).get_params()`` lists every value.

    Attributes
    ----------
    type : str
        A registered type ("crf", "bilstm", "majority", "command", a third party's) or "python".
    scheme : str
        "IOB2", "IOBES" or "IOB1".
    hyperparameters : tuple of (str, value)
        Sorted by name; hashable, so specs can key dictionaries.
    target : str or None
        ``"package.module:ClassName"`` of a ``python`` spec.
    path : str or None
        The folder a ``python`` spec's class is imported from (no PYTHONPATH needed).
    """

    type: str
    scheme: str = "IOB2"
    hyperparameters: tuple[tuple[str, Any], ...] = ()
    target: str | None = None
    path: str | None = None

    @property
    def params(self) -> dict[str, Any]:
        return dict(self.hyperparameters)

    def to_dict(self) -> dict[str, Any]:
        """The mapping form, as written in a YAML config (``spec_from_mapping`` reads it back)."""
        target = {"class": self.target} if self.target else {}
        path = {"path": self.path} if self.path else {}
        return {"type": self.type, **target, **path, "scheme": self.scheme, **self.params}

    @property
    def tagger_class(self) -> type[SequenceTagger]:
        return model_class(self.type, self.target, self.path)

    def __str__(self) -> str:
        """Canonical string form: ``type:scheme=...`` then the hyperparameters sorted by name."""
        items = [f"class={self.target}"] if self.target else []
        items += [f"path={self.path}"] if self.path else []
        items += [f"scheme={self.scheme}"]
        items += [f"{key}={_format(value)}" for key, value in self.hyperparameters]
        return f"{self.type}:{','.join(items)}"


def _declared(cls: type[SequenceTagger]) -> dict[str, Param]:
    return {param.name: param for param in cls.PARAMS}


def _convert(param: Param, raw: Any, key: str) -> Any:
    """A raw value (a string from the command line, or a YAML scalar) as the parameter's type."""
    kind = param.type.__name__
    if isinstance(raw, str):
        text = raw.strip()
        if param.type is bool:
            lowered = text.lower()
            if lowered in _TRUE or lowered in _FALSE:
                return lowered in _TRUE
        elif param.type is int:
            if _INTEGER.fullmatch(text):
                return int(text)
        elif param.type is float:
            try:
                value = float(text)
            except ValueError:
                value = None
            if value is not None and math.isfinite(value):
                return value
        else:
            if param.choices is not None:
                # "iobes" and "IOBES" are one scheme: match choices case-insensitively
                for choice in param.choices:
                    if text.lower() == str(choice).lower():
                        return choice
            return text
        raise UserError(f"expected {_KIND_WORDS[kind]}, got {raw!r}", key=key)
    if param.type is bool and isinstance(raw, bool):
        return raw
    if param.type is int and isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if param.type is float and isinstance(raw, (int, float)) and not isinstance(raw, bool):
        if math.isfinite(raw):
            return float(raw)
    raise UserError(f"expected {_KIND_WORDS[kind]}, got {raw!r}", key=key)


_KIND_WORDS = {"int": "an integer", "float": "a finite number", "bool": "true or false",
               "str": "a string"}


def _make_spec(model_type: Any, items: list[tuple[str, Any]], prefix: str) -> ModelSpec:
    if not isinstance(model_type, str) or not model_type.strip():
        raise UserError(f"unknown model type {model_type!r}; expected one of "
                        f"{', '.join(available())}", key=f"{prefix}type")
    model_type = model_type.strip().lower()
    target = path = None
    if model_type == PYTHON:
        given = [raw for name, raw in items if name == "class"]
        if len(given) != 1:
            raise UserError("type python names its tagger class once: class: "
                            "\"package.module:ClassName\"", key=f"{prefix}class")
        target = str(given[0]).strip()
        folders = [raw for name, raw in items if name == "path"]
        if len(folders) > 1:
            raise UserError("given twice", key=f"{prefix}path")
        path = str(folders[0]).strip() if folders else None
        cls = load_class(target, key=f"{prefix}class", path=path, path_key=f"{prefix}path")
        items = [(name, raw) for name, raw in items if name not in ("class", "path")]
    else:
        cls = tagger_class(model_type, key=f"{prefix}type")
    missing = cls.missing_dependency()
    if missing:
        raise UserError(missing, key=f"{prefix}type")
    declared = _declared(cls)
    values: dict[str, Any] = {}
    for name, raw in items:
        key = f"{prefix}{name}"
        param = declared.get(name)
        if param is None:
            raise UserError(f"unknown hyperparameter {name!r} for {model_type}; allowed: "
                            f"{', '.join(sorted(declared))}", key=key)
        if name in values:
            raise UserError("given twice", key=key)
        value = _convert(param, raw, key)
        problem = param.problem(value)
        if problem:
            raise UserError(problem, key=key)
        values[name] = value
    for param in cls.PARAMS:
        if param.required and param.name not in values:
            raise UserError(f"missing; {model_type} needs it ({param.help})",
                            key=f"{prefix}{param.name}")
    scheme = values.pop("scheme", declared["scheme"].default)
    kept = tuple(sorted((name, value) for name, value in values.items()
                        if value != declared[name].default))
    return ModelSpec(model_type, scheme, kept, target, path)


def parse_spec(text: str) -> ModelSpec:
    """Parse ``type[:key=value,...]``, e.g. ``crf:scheme=IOBES,c1=0.05`` or ``bilstm:word_dim=10``.

    Values take the declared parameter's type: integers, finite numbers, ``true``/``false``
    (also yes/no, on/off, 1/0), or strings (schemes match case-insensitively).

    Parameters
    ----------
    text : str
        The spec.

    Returns
    -------
    ModelSpec
        The type, the scheme and the parameters.

    Examples
    --------
    >>> spec = parse_spec("crf:scheme=IOBES,c1=0.05")
    >>> spec.type, spec.scheme, spec.params
    ('crf', 'IOBES', {'c1': 0.05})
    >>> str(parse_spec("bilstm: word_dim = 10, scheme=iob2"))
    'bilstm:scheme=IOB2,word_dim=10'
    """
    if not isinstance(text, str) or not text.strip():
        raise UserError(f"empty model spec {text!r}; expected type[:key=value,...], "
                        f"with type one of {', '.join(available())}", key="type")
    model_type, colon, rest = text.partition(":")
    return _make_spec(model_type, _items(text, rest) if colon else [], "")


_DECODER = json.JSONDecoder()


def _items(text: str, rest: str) -> list[tuple[str, str]]:
    """``key=value`` items separated by commas; a value may be a JSON string ("a, b")."""
    items: list[tuple[str, str]] = []
    position = 0
    while True:
        equals = rest.find("=", position)
        comma = rest.find(",", position)
        if equals < 0 or (0 <= comma < equals):
            item = rest[position:] if comma < 0 else rest[position:comma]
            raise UserError(f"expected key=value in model spec {text!r}, got {item!r}",
                            key=item.strip() or "type")
        name = rest[position:equals].strip()
        if not name:
            raise UserError(f"expected key=value in model spec {text!r}", key="type")
        start = equals + 1
        while start < len(rest) and rest[start] == " ":
            start += 1
        if rest.startswith('"', start):
            try:
                value, end = _DECODER.raw_decode(rest, start)
            except json.JSONDecodeError:
                raise UserError(f"unterminated quoted value in model spec {text!r}",
                                key=name) from None
            tail = rest[end:].lstrip(" ")
            if tail and not tail.startswith(","):
                raise UserError(f"expected a comma after the quoted value in {text!r}", key=name)
            end = len(rest) - len(tail)
        else:
            end = rest.find(",", start)
            end = len(rest) if end < 0 else end
            value = rest[start:end]
        items.append((name, value))
        if end >= len(rest):
            return items
        position = end + 1


def spec_from_mapping(name: str, mapping: Any) -> ModelSpec:
    """Read the config entry ``models.<name>``: a mapping with ``type`` and hyperparameters.

    Errors name the full key, ``models.<name>.<key>``.

    Parameters
    ----------
    name : str
        The model's name in the config.
    mapping : object
        Its config entry.

    Returns
    -------
    ModelSpec
        The spec.

    Examples
    --------
    >>> str(spec_from_mapping("A", {"type": "crf", "scheme": "IOBES", "c1": 0.05}))
    'crf:scheme=IOBES,c1=0.05'
    """
    prefix = f"models.{name}."
    if not isinstance(mapping, Mapping):
        raise UserError(f"expected a mapping with a type and hyperparameters, got {mapping!r}",
                        key=f"models.{name}")
    if "type" not in mapping:
        raise UserError(f"missing; expected one of {', '.join(available())}",
                        key=f"{prefix}type")
    # a label (its short name in tables) and resources (what its jobs ask a scheduler for) are
    # not hyperparameters
    items = [(str(key), value) for key, value in mapping.items()
             if key not in ("type", "label", "resources")]
    return _make_spec(mapping["type"], items, prefix)


def build_model(spec: ModelSpec | str, random_state=None) -> SequenceTagger:
    """A fresh, unfitted tagger for ``spec`` (a ModelSpec or its string form).

    ``random_state`` goes to the taggers whose training is random (those with a ``random_state``
    parameter: the BiLSTM, a command's {seed}); the CRF (L-BFGS) and the majority baseline are
    deterministic and take none.

    Parameters
    ----------
    spec : ModelSpec or str
        The spec.
    random_state : int, optional
        The training seed, for the taggers that take one.

    Returns
    -------
    SequenceTagger
        The tagger, unfitted.
    """
    if isinstance(spec, str):
        spec = parse_spec(spec)
    cls = spec.tagger_class
    kwargs = {"scheme": spec.scheme, **spec.params}
    if "random_state" in cls().get_params():
        kwargs["random_state"] = random_state
    return cls(**kwargs)
