"""What every tagger shares: tag-scheme handling, the featurize-once contract, declared parameters.

A tagger is trained in its own tag scheme (``scheme``) but always answers in the scheme of the
corpus it was fitted on, so that model A and model B of a comparison are scored against the same
gold chunks whatever scheme each was trained with (the paper, section 4, compares one CRF trained
on IOB2 tags with the same CRF trained on IOBES tags). Conversions keep conlleval's chunks exactly
(:func:`corpora.schemes.convert`), so they change how chunks are written, never which chunks there
are.
"""

from __future__ import annotations

import copy
import inspect
import math
import numbers
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Hashable, Sequence

import numpy as np

from reprocompare.base.errors import UserError
from reprocompare.corpora.conll import Sentence
from reprocompare.corpora.schemes import SCHEMES, convert, detect_scheme
from reprocompare.models.processes import DEFAULT_TIMEOUT, MAX_TIMEOUT


class Featurized:
    """The features of a list of sentences, computed once and shared by every fold and model.

    A model computes it with ``model.featurize(sentences)``; ``fit`` and ``predict`` accept it in
    place of the sentences. ``take(indices)`` selects rows (a fold) without recomputing anything:
    the rows are the same objects, so a 3 x 2 BCV featurizes a corpus once, not twelve times.

    Parameters
    ----------
    key : hashable
        ``feature_key()`` of the model that made it. Models with equal keys compute identical
        features and may share one ``Featurized`` (a CRF trained with IOB2 and the same CRF trained
        with IOBES); a model refuses one made under another key.
    rows : list
        One entry per sentence, in the model's own format.
    shared : object, optional
        Corpus-level data every row refers to (the BiLSTM's id -> string tables); ``take`` keeps it.
    """

    __slots__ = ("key", "rows", "shared")

    def __init__(self, key: Hashable, rows: list, shared: Any = None):
        self.key = key
        self.rows = rows
        self.shared = shared

    def __len__(self) -> int:
        return len(self.rows)

    def take(self, indices: Sequence[int] | np.ndarray) -> "Featurized":
        """The rows at ``indices`` (an integer array from a splitter), in that order."""
        rows = self.rows
        return Featurized(self.key, [rows[i] for i in np.asarray(indices, dtype=np.int64).tolist()],
                          self.shared)

    def __repr__(self) -> str:
        return f"Featurized(key={self.key!r}, n={len(self.rows)})"


#: the largest integer hyperparameter: a C int, what python-crfsuite and torch accept
MAX_INT = 2**31 - 1


@dataclass(frozen=True)
class Param:
    """A declared hyperparameter: its type (for parsing specs), default and constraint.

    ``check`` returns None when a value is acceptable, else what is wrong with it ("must be >= 0").
    A ``required`` parameter has no usable default: a spec must give it.
    """

    name: str
    type: type
    default: Any
    check: Callable[[Any], str | None] | None = None
    choices: tuple | None = None
    help: str = ""
    required: bool = False

    def range_text(self) -> str:
        """The values it takes, in words (models/README.md)."""
        if self.choices is not None or self.type in (bool, str):
            return ""
        if self.check is not None and hasattr(self.check, "range"):
            return self.check.range
        return f"|v| <= {MAX_INT}" if self.type is int else "finite" if self.type is float else ""

    def problem(self, value: Any) -> str | None:
        # what the libraries behind the taggers can hold: python-crfsuite and torch take C ints
        # (a larger value wraps around to a negative one and trains nothing), and no float
        # hyperparameter means anything at infinity or NaN
        if self.type is int and not isinstance(value, bool) and isinstance(value, int) \
                and abs(value) > MAX_INT:
            return f"must be at most {MAX_INT} (a C int), got {value!r}"
        if self.type is float and isinstance(value, float) and not math.isfinite(value):
            return f"must be a finite number, got {value!r}"
        if self.choices is not None and value not in self.choices:
            return f"must be one of {', '.join(map(str, self.choices))}, got {value!r}"
        return self.check(value) if self.check is not None else None


def at_least(bound: float) -> Callable[[Any], str | None]:
    """The check of a hyperparameter that must be at least ``bound``.

    Parameters
    ----------
    bound : float
        The lowest value allowed.

    Returns
    -------
    callable
        A check: the value -> None when it is allowed, else what is wrong; its ``range`` attribute
        is the text models/README.md prints.
    """
    def check(v):
        return None if v >= bound else f"must be >= {bound}, got {v!r}"
    check.range = f">= {bound}"  # what models/README.md prints
    return check


def in_range(low: float, high: float, *, high_open: bool = True) -> Callable[[Any], str | None]:
    """The check of a hyperparameter that must lie between ``low`` and ``high``.

    Parameters
    ----------
    low, high : float
        The range's ends.
    high_open : bool, default True
        Whether ``high`` itself is excluded.

    Returns
    -------
    callable
        A check: the value -> None when it is allowed, else what is wrong; its ``range`` attribute
        is the text models/README.md prints.
    """
    def check(v):
        ok = low <= v < high if high_open else low <= v <= high
        return None if ok else f"must be in [{low}, {high}{')' if high_open else ']'}, got {v!r}"
    check.range = f"[{low}, {high}{')' if high_open else ']'}"
    return check


def between(low: float, high: float) -> Callable[[Any], str | None]:
    """low <= v <= high: the bounds a hyperparameter's consumer can hold in time and memory.

    Parameters
    ----------
    low, high : float
        The range's ends, both allowed.

    Returns
    -------
    callable
        A check: the value -> None when it is allowed, else what is wrong; its ``range`` attribute
        is the text models/README.md prints.
    """
    return in_range(low, high, high_open=False)


SCHEME_PARAM = Param("scheme", str, "IOB2", choices=SCHEMES,
                     help="tag scheme the model is trained in; predictions come back in the "
                          "corpus's scheme")


#: the seconds a user's tagger may take: a command each time it runs, a Python tagger for the
#: fit and predict of one fold (models.processes); then it is killed with everything it started
TIMEOUT_PARAM = Param("timeout", float, DEFAULT_TIMEOUT,
                      lambda v: None if 0 < v <= MAX_TIMEOUT else
                      f"must be in (0, {MAX_TIMEOUT:.0f}] seconds, got {v!r}",
                      help="seconds the tagger may run (a command each time, a Python tagger "
                           "its fit and predict of a fold) before it, and every process it "
                           f"started, is killed; at most {MAX_TIMEOUT:.0f}")

#: the chunk prefixes of each scheme
SCHEME_PREFIXES = {"IOB1": "BI", "IOB2": "BI", "IOBES": "BIES"}


def tag_problem(tag: Any, scheme: str, typed: bool | None) -> str | None:
    """What is wrong with one predicted tag, or None: ``O``, or a prefix of ``scheme`` with a
    hyphen and a type when the tagger trained on typed tags (``typed``), bare when it trained
    on boundaries only (an untyped task, ``typed=False``); either when it saw no chunk.

    The one check of every tagger's output, a command's {output} and a Python ``predict``
    alike: anything else (an integer 0, NaN, ``NOTATAG``) would be read as O without a word.

    Parameters
    ----------
    tag : object
        The predicted tag.
    scheme : str
        The tag scheme.
    typed : bool or None
        Whether the training tags carried types (None: no chunk seen).

    Returns
    -------
    str or None
        The problem, or None.
    """
    if not isinstance(tag, str):
        return f"{tag!r} ({type(tag).__name__}) is not a tag"
    if tag == "O":
        return None
    prefixes = SCHEME_PREFIXES[scheme]
    prefix, hyphen, chunk_type = tag.partition("-")
    if prefix in prefixes and ((hyphen and chunk_type) if typed else not hyphen) \
            or (typed is None and prefix in prefixes and bool(hyphen) == bool(chunk_type)):
        return None
    bare = f"a bare {'/'.join(prefixes)} (the tags it trained on carry no type)"
    wanted = {True: f"O or {'/'.join(prefixes)}-TYPE", False: f"O or {bare}",
              None: f"O, {'/'.join(prefixes)}-TYPE or {bare}"}[typed]
    return f"tag {tag!r} is not {wanted} (scheme {scheme})"


def typed_tags(y: Sequence[Sequence[str]]) -> bool | None:
    """Whether training tags carry types (True), are bare boundaries (False), or hold no chunk
    (None).

    Parameters
    ----------
    y : sequence of sequence of str
        The training tag sequences.

    Returns
    -------
    bool or None
    """
    for tags in y:
        for tag in tags:
            if tag != "O":
                return "-" in tag
    return None


def check_tags(predicted, scheme: str, typed: bool | None) -> list[list[str]]:
    """Every tag of a ``predict``'s answer one of ``scheme``'s (:func:`tag_problem`), as lists;
    a ValueError naming the sentence and token (0-based) of the first that is not.

    Parameters
    ----------
    predicted : sequence of sequence of str
        A ``predict``'s answer.
    scheme : str
        The tag scheme.
    typed : bool or None
        As :func:`tag_problem` takes it.

    Returns
    -------
    list of list of str
        The tags.
    """
    if isinstance(predicted, (str, bytes)) or not hasattr(predicted, "__iter__"):
        raise ValueError(f"predict returned {type(predicted).__name__}, not a list of tag "
                         "sequences (one per sentence)")
    checked = []
    for s, tags in enumerate(predicted):
        if isinstance(tags, (str, bytes)) or not hasattr(tags, "__iter__"):
            raise ValueError(f"sentence {s}: {type(tags).__name__}, not a sequence of tags")
        tags = list(tags)
        for t, tag in enumerate(tags):
            problem = tag_problem(tag, scheme, typed)
            if problem:
                raise ValueError(f"sentence {s}, token {t}: {problem}")
        checked.append(tags)
    return checked


_TYPE_WORDS = {int: "an integer", float: "a number", bool: "true or false", str: "a string"}


def _has_type(value: Any, kind: type) -> bool:
    # numpy scalars (from a parameter grid) count as numbers; a bool never does
    if isinstance(value, (bool, np.bool_)):
        return kind is bool
    if kind is int:
        return isinstance(value, numbers.Integral)
    if kind is float:
        return isinstance(value, numbers.Real)
    return isinstance(value, kind)


def module_files(name: str) -> list[Path]:
    """The source files of a user's module ``name`` (see :meth:`SequenceTagger.source_files`):
    its file, or every ``.py`` file of its top-level package when that is a folder; none for
    this package's modules and for installed packages.

    Parameters
    ----------
    name : str
        The module's dotted name.

    Returns
    -------
    list of pathlib.Path
        The files.
    """
    module = sys.modules.get(name)
    path = getattr(module, "__file__", None)
    if not path or name.split(".")[0] == "reprocompare":
        return []
    path = Path(path).resolve()
    if any(part in ("site-packages", "dist-packages") for part in path.parts):
        return []
    top = sys.modules.get(name.split(".")[0])
    top_file = getattr(top, "__file__", None)
    if top is not module and top_file and Path(top_file).name == "__init__.py":
        return sorted(Path(top_file).resolve().parent.rglob("*.py"))
    return [path]


class Estimator:
    """The parameters of a scikit-learn estimator, without importing scikit-learn.

    ``get_params``, ``set_params``, the ``repr`` and the pickling of scikit-learn's
    ``BaseEstimator``, as it gives them to a class outside scikit-learn: the parameters are the
    arguments of ``__init__`` (its signature, or its ``__signature__``), stored under their own
    names. scikit-learn's ``clone`` and ``get_params``-based tools take it as they take any
    estimator. Why not the original: importing ``sklearn.base`` imports SciPy and pandas (1.2 s
    of CPU), which every snakemake start paid, since the Snakefile reads each tagger's
    class (its version, capabilities and source files), and so did the jobs that only read a
    tagger's class (the checklist). The training jobs still import scikit-learn: the splitters
    are its cross-validators.
    """

    @classmethod
    def _get_param_names(cls) -> list[str]:
        """The names of ``__init__``'s arguments, sorted (``**kwargs`` is none of them)."""
        init = getattr(cls.__init__, "deprecated_original", cls.__init__)
        if init is object.__init__:
            return []
        parameters = [p for p in inspect.signature(init).parameters.values()
                      if p.name != "self" and p.kind != p.VAR_KEYWORD]
        for p in parameters:
            if p.kind == p.VAR_POSITIONAL:
                raise RuntimeError(f"{cls.__name__} should not take *args in __init__ (its "
                                   f"parameters are its named arguments)")
        return sorted(p.name for p in parameters)

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """The estimator's parameters.

        Parameters
        ----------
        deep : bool, default True
            Also the parameters of parameters that are estimators, as ``name__parameter``.

        Returns
        -------
        dict
            Parameter name to value.
        """
        out = {}
        for key in self._get_param_names():
            value = getattr(self, key)
            if deep and hasattr(value, "get_params") and not isinstance(value, type):
                out.update((f"{key}__{k}", v) for k, v in value.get_params().items())
            out[key] = value
        return out

    def set_params(self, **params) -> "Estimator":
        """Set parameters (``name__parameter`` for a parameter of a parameter).

        Parameters
        ----------
        **params
            Parameter name to new value.

        Returns
        -------
        Estimator
            This estimator.
        """
        if not params:
            return self
        valid = self.get_params(deep=True)
        nested: dict[str, dict] = {}
        for key, value in params.items():
            key, delimiter, sub_key = key.partition("__")
            if key not in valid:
                raise ValueError(f"Invalid parameter {key!r} for estimator {self}. Valid "
                                 f"parameters are: {self._get_param_names()!r}.")
            if delimiter:
                nested.setdefault(key, {})[sub_key] = value
            else:
                setattr(self, key, value)
                valid[key] = value
        for key, sub_params in nested.items():
            valid[key].set_params(**sub_params)
        return self

    def __repr__(self) -> str:
        """``Class(name=value, ...)`` with the parameters that differ from their defaults."""
        init = getattr(type(self).__init__, "deprecated_original", type(self).__init__)
        defaults = {} if init is object.__init__ else {
            p.name: p.default for p in inspect.signature(init).parameters.values()}
        changed = []
        for key, value in sorted(self.get_params(deep=False).items()):
            default = defaults.get(key, inspect.Parameter.empty)
            try:
                same = default is not inspect.Parameter.empty and bool(value == default) and \
                    type(value) is type(default)
            except (TypeError, ValueError):  # an array's comparison has no one truth value
                same = False
            if not same:
                changed.append(f"{key}={value!r}")
        return f"{type(self).__name__}({', '.join(changed)})"

    def __getstate__(self) -> dict:
        # a copy: subclasses drop what does not pickle from it (a network, a C++ tagger), and
        # object.__getstate__ would hand them the live instance's own __dict__
        return dict(self.__dict__)

    def __setstate__(self, state: dict) -> None:
        # the pickled state is the instance's __dict__, as with BaseEstimator for a class
        # outside scikit-learn
        state = dict(state)
        state.pop("_sklearn_version", None)
        self.__dict__.update(state)


def clone(estimator):
    """A new, unfitted estimator with the parameters of ``estimator`` (scikit-learn's ``clone``).

    Parameters
    ----------
    estimator : Estimator
        An estimator (anything with ``get_params``).

    Returns
    -------
    Estimator
        Of the same class, made from a copy of each parameter (a parameter that is an
        estimator cloned in turn), with none of the fitted state.
    """
    params = {name: clone(value) if hasattr(value, "get_params") and not isinstance(value, type)
              else copy.deepcopy(value)
              for name, value in estimator.get_params(deep=False).items()}
    return type(estimator)(**params)


class SequenceTagger(Estimator):
    """Base class: scheme conversion around ``_fit`` / ``_predict`` in the model's scheme.

    Subclasses declare ``PARAMS`` (a tuple of :class:`Param`, in ``__init__`` order, ``scheme``
    included), store their keyword arguments unchanged in ``__init__`` (scikit-learn convention,
    so ``get_params``/``clone`` work: :class:`Estimator`) and implement ``featurize``,
    ``feature_key``, ``_fit`` and ``_predict``.
    """

    PARAMS: tuple[Param, ...] = ()
    #: the registry name used in specs ("crf", "bilstm", "majority")
    name: str = ""

    # Capabilities: what the workflow and the search ask of a model, instead of its type's name.
    #: Trains on a GPU when the config says ``device: cuda`` (it takes a ``device`` parameter);
    #: its workflow jobs then ask the scheduler for one.
    uses_gpu: bool = False
    #: Trains in epochs and records ``learning_curve_`` with ``fit(..., eval_set=...)`` every
    #: ``record_every`` epochs (it takes that parameter): it can draw a learning curve.
    trains_by_epochs: bool = False
    #: Reads the characters of tokens (shapes, affixes, character embeddings), not only whole
    #: tokens: lower-casing or mapping tokens to ids beforehand would change what it learns.
    needs_characters: bool = False
    #: Runs the user's code: its fit and predict run in a process of their own, within its
    #: ``timeout`` (models.processes). None: decided by where the class lives (this package's
    #: own taggers run in the job's process, any other class in its own).
    contained: bool | None = None
    @classmethod
    def missing_dependency(cls) -> str | None:
        """What to install before this type can train (an optional dependency of the package,
        absent here), or None. Asked when a spec of the type is read, so that a config or a
        command naming it stops in one line before any job runs.

        Returns
        -------
        str or None
            The message, naming what to install.
        """
        return None

    #: What the same spec trains, as a number: bumped when a change to the class (a default,
    #: the training loop) changes its results, so that the jobs that trained it rerun (the
    #: workflow records it beside the spec from version 2 on).
    version: int = 1

    # ----------------------------------------------------------------- provenance
    @classmethod
    def source_files(cls, params: dict) -> list[Path]:
        """The files whose content this tagger's results depend on beyond its parameters.

        The workflow hashes them into the settings of every job that trains the tagger, so that
        editing them reruns exactly those jobs. For a class of this package: none (the package's
        version is the code). For a user's class: its module file, or every ``.py`` file of its
        top-level package when that package is a folder outside an installed location (a
        helper module of the same package changes results as much as the class does). An
        installed package (site-packages) is not hashed: upgrade it and rerun (README).
        """
        return module_files(cls.__module__)

    # ----------------------------------------------------------------- featurization
    def feature_key(self) -> Hashable:
        """Hashable identity of this model's features: equal keys may share a Featurized."""
        raise NotImplementedError

    def featurize(self, sentences: Sequence[Sentence]) -> Featurized:
        """Compute the features of ``sentences`` once; ``take`` selects folds from the result."""
        raise NotImplementedError

    def _featurized(self, X) -> Featurized:
        if isinstance(X, Featurized):
            if X.key != self.feature_key():
                raise ValueError(f"these features were made for {X.key!r}, not for this model's "
                                 f"{self.feature_key()!r}")
            return X
        return self.featurize(list(X))

    # ----------------------------------------------------------------- checks
    def _check_params(self) -> None:
        """Raise UserError(key=name) for the first invalid hyperparameter."""
        for param in self.PARAMS:
            value = getattr(self, param.name)
            if not _has_type(value, param.type):
                raise UserError(f"must be {_TYPE_WORDS[param.type]}, got {value!r}",
                                key=param.name)
            problem = param.problem(value)
            if problem:
                raise UserError(problem, key=param.name)

    # ----------------------------------------------------------------- schemes
    def _resolve_corpus_scheme(self, y: Sequence[Sequence[str]], corpus_scheme: str | None) -> str:
        if corpus_scheme is None:
            corpus_scheme, _ = detect_scheme(y)
        elif corpus_scheme not in SCHEMES:
            raise UserError(f"unknown tag scheme {corpus_scheme!r}; expected one of "
                            f"{', '.join(SCHEMES)}", key="corpus_scheme")
        return corpus_scheme

    def _to_model_scheme(self, y: Sequence[Sequence[str]]) -> list[list[str]]:
        return [convert(tags, self.scheme) for tags in y]

    def _to_corpus_scheme(self, predicted: list[list[str]]) -> list[list[str]]:
        # Always convert, even when the schemes agree: a model may emit ill-formed sequences
        # (I-NP after O); writing them well-formed keeps conlleval's chunks and makes models A and B
        # answer in exactly the same form.
        return [convert(tags, self.corpus_scheme_) for tags in predicted]

    # ----------------------------------------------------------------- public API
    def fit(self, X, y: Sequence[Sequence[str]], *, corpus_scheme: str | None = None,
            **kwargs) -> "SequenceTagger":
        """Train on sentences (or a Featurized) and their gold tags.

        Parameters
        ----------
        X : list of Sentence or Featurized
            Training sentences; a ``Featurized`` from ``featurize(...).take(fold)`` avoids
            recomputing features.
        y : list of tag sequences
            Gold tags in the corpus's scheme (any scheme: they are converted to ``self.scheme``).
        corpus_scheme : {"IOB1", "IOB2", "IOBES"}, optional
            The scheme predictions are returned in; detected from ``y`` when omitted (pass
            ``corpus.scheme`` to make it explicit).

        Returns
        -------
        self
        """
        self._check_params()
        y = [list(tags) for tags in y]
        featurized = self._featurized(X)
        if len(featurized) != len(y):
            raise ValueError(f"{len(featurized)} sentences but {len(y)} tag sequences")
        if not y:
            raise ValueError("cannot fit on zero sentences")
        self.corpus_scheme_ = self._resolve_corpus_scheme(y, corpus_scheme)
        self.typed_tags_ = typed_tags(y)  # what its predictions must be: typed or bare
        self._fit(featurized, self._to_model_scheme(y), **kwargs)
        return self

    def predict(self, X) -> list[list[str]]:
        """Tag sentences (or a Featurized); tags are in the scheme of the corpus fitted on."""
        if not hasattr(self, "corpus_scheme_"):
            raise ValueError(f"this {type(self).__name__} is not fitted yet; call fit first")
        predicted = self._predict(self._featurized(X))
        # checked as it came, before the conversion reads anything unknown as O
        return self._to_corpus_scheme(
            check_tags(predicted, self.scheme, getattr(self, "typed_tags_", None)))

    def _fit(self, featurized: Featurized, y: list[list[str]], **kwargs) -> None:
        raise NotImplementedError

    def _predict(self, featurized: Featurized) -> list[list[str]]:
        raise NotImplementedError
