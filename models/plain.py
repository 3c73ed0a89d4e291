"""Your class as a tagger: any class with ``fit`` and ``predict`` over tokens and tags.

``type: python`` names a class; it need not know reprocompare. A class with

- ``fit(sentences, tags)``: ``sentences`` a list of sentences, each a list of token strings;
  ``tags`` their gold tags, a list of tag lists in the model's ``scheme`` (IOB2 unless the spec
  says otherwise), and
- ``predict(sentences)``: a list of tag lists, one per sentence, one tag per token,

is wrapped here into a :class:`~reprocompare.models.base.SequenceTagger`: its hyperparameters
are its ``__init__``'s keyword arguments (each with a default of type int, float, bool or str,
which gives its type in specs), a ``random_state`` argument receives each fold's seed, and the
scheme conversion, the prediction checks and the provenance (its module's files hashed into the
jobs' settings) are those of every tagger. A subclass of ``SequenceTagger`` is used as it is.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Hashable, Sequence

from reprocompare.base.errors import UserError
from reprocompare.corpora.conll import Sentence
from reprocompare.models.base import (SCHEME_PARAM, TIMEOUT_PARAM, Featurized, Param,
                                      SequenceTagger, module_files)

#: the types a hyperparameter's default may have (they say how a spec's value is read)
SCALARS = (bool, int, float, str)
_adapters: dict[type, type[SequenceTagger]] = {}


def is_plain(cls) -> bool:
    """A class with fit and predict that is not a SequenceTagger.

    Parameters
    ----------
    cls : object
        The class.

    Returns
    -------
    bool
    """
    return (isinstance(cls, type) and not issubclass(cls, SequenceTagger)
            and callable(getattr(cls, "fit", None)) and callable(getattr(cls, "predict", None)))


def _declared(cls: type, target: str, key: str) -> tuple[tuple[Param, ...], bool]:
    """The hyperparameters of ``cls.__init__`` and whether it takes ``random_state``."""
    try:
        signature = inspect.signature(cls.__init__)
    except (TypeError, ValueError):
        return (), False
    params, seeded = [], False
    for name, parameter in list(signature.parameters.items())[1:]:
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        if name == "random_state":
            seeded = True
            continue
        default = parameter.default
        if default is parameter.empty or type(default) not in SCALARS:
            raise UserError(f"{target}.__init__ argument {name!r} needs a default that is an "
                            "int, float, bool or str: it is a hyperparameter, and its default "
                            "says how a spec's value is read", key=key)
        params.append(Param(name, type(default), default, help=f"{cls.__name__}'s {name}"))
    return tuple(params), seeded


def adapt(cls: type, target: str, *, key: str = "class") -> type[SequenceTagger]:
    """The SequenceTagger that trains and applies ``cls`` (one per class, so specs compare).

    Parameters
    ----------
    cls : type
        A class with fit and predict.
    target : str
        Its ``package.module:ClassName``.
    key : str, default 'class'
        The spec's key, for messages.

    Returns
    -------
    type
        A SequenceTagger subclass.
    """
    if cls in _adapters:
        return _adapters[cls]
    own, seeded = _declared(cls, target, key)
    takes_scheme = any(param.name == "scheme" for param in own)
    # its fit and predict run in a process of their own within ``timeout`` seconds
    # (models.processes); a class that takes a timeout of its own is given the same value
    takes_timeout = any(param.name == "timeout" for param in own)
    names = [param.name for param in own] + ([] if takes_scheme else ["scheme"]) \
        + ([] if takes_timeout else ["timeout"]) + (["random_state"] if seeded else [])

    def __init__(self, **kwargs):
        for param in own:
            setattr(self, param.name, kwargs.get(param.name, param.default))
        if not takes_scheme:
            self.scheme = kwargs.get("scheme", SCHEME_PARAM.default)
        if not takes_timeout:
            self.timeout = kwargs.get("timeout", TIMEOUT_PARAM.default)
        if seeded:
            self.random_state = kwargs.get("random_state")

    # scikit-learn reads an estimator's parameters off its __init__'s signature
    __init__.__signature__ = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None)
           for name in names])

    def _fit(self, featurized: Featurized, y: list[list[str]], **kwargs) -> None:
        arguments = {param.name: getattr(self, param.name) for param in own}
        if seeded:
            arguments["random_state"] = self.random_state
        self.model_ = cls(**arguments)
        self.model_.fit([list(tokens) for tokens in featurized.rows], y)

    def _predict(self, featurized: Featurized) -> list[list[str]]:
        # as it answered: SequenceTagger.predict checks every tag (an integer 0 or NaN is no tag,
        # and written as a string it would be read as O)
        return self.model_.predict([list(tokens) for tokens in featurized.rows])

    def feature_key(self) -> Hashable:
        return ("plain", target)

    def featurize(self, sentences: Sequence[Sentence]) -> Featurized:
        """The tokens: the class featurizes them itself."""
        return Featurized(self.feature_key(), [s.tokens for s in sentences])

    @classmethod
    def source_files(cls_, params: dict) -> list[Path]:
        return module_files(cls.__module__)

    adapter = type(cls.__name__, (SequenceTagger,), {
        "__init__": __init__, "_fit": _fit, "_predict": _predict, "feature_key": feature_key,
        "featurize": featurize, "source_files": source_files, "name": "python",
        "PARAMS": (*(() if takes_scheme else (SCHEME_PARAM,)), *own,
                   *(() if takes_timeout else (TIMEOUT_PARAM,))),
        "contained": True,
        "__doc__": f"{target} (a class with fit and predict), as a tagger.",
        # what the workflow asks of a model: the class may say so itself
        **{flag: bool(getattr(cls, flag, False))
           for flag in ("uses_gpu", "needs_characters")},
        "__module__": __name__, "__qualname__": f"plain.{cls.__name__}"})
    _adapters[cls] = adapter
    return adapter
