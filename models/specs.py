"""Model specs: which tagger, trained in which tag scheme, with which hyperparameters.

A spec is written on the command line as ``crf:scheme=IOBES,c1=0.05`` or in a YAML config as a
mapping ``{type: crf, scheme: IOBES, c1: 0.05}``; both parse to the same :class:`ModelSpec`, whose
values are typed and checked against the parameters the tagger class declares. The paper's three
comparisons (section 4) are pairs of specs that differ in one value::

    crf:scheme=IOB2         vs  crf:scheme=IOBES          (NER, chunking)
    bilstm:word_dim=20      vs  bilstm:word_dim=10        (SRL)

Every mistake is a :class:`~reprocompare.errors.UserError` naming the key (``c1``, or
``models.A.c1`` for the config entry ``A``); an unknown key lists the allowed ones.
"""

from __future__ import annotations

import importlib
import math
import re
from dataclasses import dataclass
from typing import Any, Mapping

from reprocompare.models.base import Param, SequenceTagger
from reprocompare.errors import UserError

#: Spec type -> "module:class" of its tagger. Imported on first use, so that a job comparing CRFs
#: never imports torch (seconds of start-up and hundreds of MB of memory).
MODEL_TYPES: dict[str, str] = {
    "crf": "reprocompare.models.crf:CRFTagger",
    "bilstm": "reprocompare.models.bilstm:BiLSTMTagger",
    "majority": "reprocompare.models.majority:MajorityTagger",
}


def model_class(model_type: str) -> type[SequenceTagger]:
    """The tagger class of a spec type ("crf", "bilstm", "majority")."""
    module, _, name = MODEL_TYPES[model_type].partition(":")
    return getattr(importlib.import_module(module), name)

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
_INTEGER = re.compile(r"[+-]?\d+")


def _format(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


@dataclass(frozen=True)
class ModelSpec:
    """A tagger type, its training tag scheme and its non-default hyperparameters.

    Hyperparameters equal to the tagger's defaults are dropped, so equal models have equal specs
    (``crf:c2=1.0`` is ``crf``); ``build_model(spec).get_params()`` lists every value.

    Attributes
    ----------
    type : str
        "crf", "bilstm" or "majority".
    scheme : str
        "IOB2", "IOBES" or "IOB1".
    hyperparameters : tuple of (str, value)
        Sorted by name; hashable, so specs can key dictionaries.
    """

    type: str
    scheme: str = "IOB2"
    hyperparameters: tuple[tuple[str, Any], ...] = ()

    @property
    def params(self) -> dict[str, Any]:
        return dict(self.hyperparameters)

    def to_dict(self) -> dict[str, Any]:
        """The mapping form, as written in a YAML config (``spec_from_mapping`` reads it back)."""
        return {"type": self.type, "scheme": self.scheme, **self.params}

    def __str__(self) -> str:
        """Canonical string form: ``type:scheme=...`` then the hyperparameters sorted by name."""
        items = [f"scheme={self.scheme}"]
        items += [f"{key}={_format(value)}" for key, value in self.hyperparameters]
        return f"{self.type}:{','.join(items)}"


def _declared(model_type: str) -> dict[str, Param]:
    return {param.name: param for param in model_class(model_type).PARAMS}


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
    if not isinstance(model_type, str) or model_type.strip().lower() not in MODEL_TYPES:
        raise UserError(f"unknown model type {model_type!r}; expected one of "
                        f"{', '.join(sorted(MODEL_TYPES))}", key=f"{prefix}type")
    model_type = model_type.strip().lower()
    declared = _declared(model_type)
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
    scheme = values.pop("scheme", declared["scheme"].default)
    kept = tuple(sorted((name, value) for name, value in values.items()
                        if value != declared[name].default))
    return ModelSpec(model_type, scheme, kept)


def parse_spec(text: str) -> ModelSpec:
    """Parse ``type[:key=value,...]``, e.g. ``crf:scheme=IOBES,c1=0.05`` or ``bilstm:word_dim=10``.

    Values take the declared parameter's type: integers, finite numbers, ``true``/``false``
    (also yes/no, on/off, 1/0), or strings (schemes match case-insensitively).

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
                        f"with type one of {', '.join(sorted(MODEL_TYPES))}", key="type")
    model_type, colon, rest = text.partition(":")
    items: list[tuple[str, str]] = []
    if colon:
        for item in rest.split(","):
            name, equals, value = item.partition("=")
            name = name.strip()
            if not equals or not name:
                raise UserError(f"expected key=value in model spec {text!r}, got {item!r}",
                                key=name or "type")
            items.append((name, value))
    return _make_spec(model_type, items, "")


def spec_from_mapping(name: str, mapping: Any) -> ModelSpec:
    """Read the config entry ``models.<name>``: a mapping with ``type`` and hyperparameters.

    Errors name the full key, ``models.<name>.<key>``.

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
        raise UserError(f"missing; expected one of {', '.join(sorted(MODEL_TYPES))}",
                        key=f"{prefix}type")
    items = [(str(key), value) for key, value in mapping.items() if key != "type"]
    return _make_spec(mapping["type"], items, prefix)


def build_model(spec: ModelSpec | str, random_state=None) -> SequenceTagger:
    """A fresh, unfitted tagger for ``spec`` (a ModelSpec or its string form).

    ``random_state`` goes to the taggers whose training is random (the BiLSTM); the CRF (L-BFGS)
    and the majority baseline are deterministic and take none.
    """
    if isinstance(spec, str):
        spec = parse_spec(spec)
    cls = model_class(spec.type)
    kwargs = {"scheme": spec.scheme, **spec.params}
    if "random_state" in cls().get_params():
        kwargs["random_state"] = random_state
    return cls(**kwargs)
