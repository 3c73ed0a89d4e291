"""Search spaces and i.i.d. trial draws for random hyperparameter search.

Dodge et al. (2019, section 3.1; seed 001) read the expected validation performance off N trials
whose hyperparameter assignments are drawn **i.i.d.** from the search space ("uniform sampling",
which Bergstra and Bengio 2012 found superior to grid search for most spaces): only then are the
N validation scores i.i.d. draws of one random variable, which both estimators of
:mod:`estimators.expected_max` assume. Every hyperparameter is drawn independently of the others
from one declared distribution:

``uniform`` (low, high)
    a float, uniform on [low, high) (Dodge et al.'s *uniform-float*);
``log_uniform`` (low, high)
    a float whose logarithm is uniform on [log low, log high) (*loguniform-float*: learning rates,
    regularization strengths), 0 < low < high;
``int`` (low, high)
    an integer, uniform on {low, ..., high}, both ends included (*uniform-integer*);
``choice`` (values)
    one of the listed values, each with probability 1 / len(values).

Trial i of model m draws from its own generator, seeded by (seed, m, i) and nothing else, so the
draw of trial i never depends on how many trials are run: growing the budget N keeps the first
trials and their scores, and reruns draw the same assignments.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from reprocompare.base.errors import UserError
from reprocompare.base.seeds import TRIAL_DRAW, TRIAL_TRAINING, derive_seed, generator
from reprocompare.models import spec_from_mapping, tagger_class_of

DISTRIBUTIONS = ("uniform", "log_uniform", "int", "choice")
#: The keys each distribution takes besides ``distribution``.
_KEYS = {"uniform": ("low", "high"), "log_uniform": ("low", "high"), "int": ("low", "high"),
         "choice": ("values",)}


@dataclass(frozen=True)
class Dimension:
    """One hyperparameter's distribution.

    Attributes
    ----------
    name : str
        The hyperparameter (a parameter the model type declares).
    distribution : {"uniform", "log_uniform", "int", "choice"}
    low, high : float or int or None
        Bounds of uniform, log_uniform (high exclusive) and int (both inclusive).
    values : tuple or None
        The values of a choice.
    """

    name: str
    distribution: str
    low: float | int | None = None
    high: float | int | None = None
    values: tuple | None = None

    def sample(self, rng: np.random.Generator) -> Any:
        """One draw, as a plain Python value (float, int, or the chosen value)."""
        if self.distribution == "uniform":
            return float(rng.uniform(self.low, self.high))
        if self.distribution == "log_uniform":
            log_low, log_high = math.log(self.low), math.log(self.high)
            # exp(log x) can round one ulp outside [low, high): keep the draw inside the bounds
            return float(min(max(math.exp(rng.uniform(log_low, log_high)), self.low), self.high))
        if self.distribution == "int":
            return int(rng.integers(self.low, self.high, endpoint=True))
        return self.values[int(rng.integers(len(self.values)))]

    def bounds(self) -> str:
        """How the checklist and tables write the space, in Dodge et al.'s Appendix B terms."""
        if self.distribution == "choice":
            return "choice {" + ", ".join(map(_text, self.values)) + "}"
        kind = {"uniform": "uniform-float", "log_uniform": "loguniform-float",
                "int": "uniform-integer"}[self.distribution]
        return f"{kind} [{_text(self.low)}, {_text(self.high)}]"

    def to_dict(self) -> dict:
        if self.distribution == "choice":
            return {"distribution": "choice", "values": list(self.values)}
        return {"distribution": self.distribution, "low": self.low, "high": self.high}


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def parse_space(model_name: str, model: Mapping, space: Any, *,
                prefix: str | None = None) -> dict[str, Dimension]:
    """Read and check the search space of the config entry ``models.<model_name>`` (``model``).

    Every key must be a hyperparameter the model's type declares, its distribution must suit the
    hyperparameter's type (floats: uniform or log_uniform; integers: int; anything: choice), and
    every value the space can produce must be valid for the model: the bounds and each choice
    are checked with the same machinery as a model spec (:func:`models.spec_from_mapping`), so a
    space can never draw a configuration the model would refuse.

    Parameters
    ----------
    model_name : str
        Name of the model (a key of ``models``).
    model : mapping
        Its config entry, ``{type: ..., <fixed hyperparameters>}``.
    space : mapping
        ``{hyperparameter: {distribution: ..., low/high or values}}``.
    prefix : str, optional
        Config key of the space, for error messages; default ``search.models.<model_name>.space``.

    Returns
    -------
    dict of str to Dimension
        Sorted by hyperparameter name (the order of the draws).

    Raises
    ------
    UserError
        Naming the key, e.g. ``search.models.crf.space.c1.low: must be >= 0, got -1.0``.

    Examples
    --------
    >>> space = parse_space("crf", {"type": "crf"},
    ...                     {"c2": {"distribution": "log_uniform", "low": 0.01, "high": 10}})
    >>> space["c2"].bounds()
    'loguniform-float [0.01, 10.0]'
    """
    prefix = prefix or f"search.models.{model_name}.space"
    if not isinstance(space, Mapping) or not space:
        raise UserError("expected a mapping of hyperparameters to distributions", key=prefix)
    model_type = str(model.get("type", "")).strip().lower()
    declared = {param.name: param for param in tagger_class_of(model).PARAMS}
    dimensions: dict[str, Dimension] = {}
    for name in sorted(space):
        entry = space[name]
        key = f"{prefix}.{name}"
        param = declared.get(name)
        if param is None:
            raise UserError(f"unknown hyperparameter {name!r} for {model_type}; allowed: "
                            f"{', '.join(sorted(declared))}", key=key)
        if not isinstance(entry, Mapping):
            raise UserError("expected {distribution: ..., low: ..., high: ...} or "
                            "{distribution: choice, values: [...]}", key=key)
        distribution = entry.get("distribution")
        if distribution not in DISTRIBUTIONS:
            raise UserError(f"unknown distribution {distribution!r}; expected one of "
                            f"{', '.join(DISTRIBUTIONS)}", key=f"{key}.distribution")
        wanted = _KEYS[distribution]
        for extra in sorted(set(entry) - {"distribution", *wanted}):
            raise UserError(f"not a key of a {distribution} distribution (it takes "
                            f"{', '.join(wanted)})", key=f"{key}.{extra}")
        for missing in wanted:
            if missing not in entry:
                raise UserError(f"missing; a {distribution} distribution needs "
                                f"{' and '.join(wanted)}", key=f"{key}.{missing}")

        def check(value: Any, where: str) -> Any:
            """The value as the model reads it, or the model's own complaint under ``where``."""
            try:
                spec = spec_from_mapping(model_name, {**model, name: value})
            except UserError as error:
                raise UserError(error.message, key=where) from None
            if name == "scheme":
                return spec.scheme
            return spec.params.get(name, param.default)

        if distribution == "choice":
            values = entry["values"]
            if not isinstance(values, list) or not values:
                raise UserError("expected a non-empty list of values", key=f"{key}.values")
            checked = tuple(check(v, f"{key}.values.{i}") for i, v in enumerate(values))
            if len(set(map(repr, checked))) != len(checked):
                raise UserError("a value is listed twice (each value must have the same "
                                "probability)", key=f"{key}.values")
            dimensions[name] = Dimension(name, "choice", values=checked)
            continue
        low, high = entry["low"], entry["high"]
        for bound, value in (("low", low), ("high", high)):
            if not _is_number(value):
                raise UserError(f"expected a finite number, got {value!r}", key=f"{key}.{bound}")
        if distribution == "int":
            if param.type is not int:
                raise UserError(f"an int distribution needs an integer hyperparameter; {name} "
                                f"is {param.type.__name__} (use uniform or log_uniform)",
                                key=f"{key}.distribution")
            for bound, value in (("low", low), ("high", high)):
                if isinstance(value, float) and not value.is_integer():
                    raise UserError(f"expected an integer, got {value!r}", key=f"{key}.{bound}")
            low, high = int(low), int(high)
            if low > high:
                raise UserError(f"must be >= low ({low}), got {high}", key=f"{key}.high")
        else:
            if param.type is not float:
                hint = "use int or choice" if param.type is int else "use choice"
                raise UserError(f"a {distribution} distribution needs a float hyperparameter; "
                                f"{name} is {param.type.__name__} ({hint})",
                                key=f"{key}.distribution")
            low, high = float(low), float(high)
            if distribution == "log_uniform" and low <= 0:
                raise UserError(f"must be > 0 for log_uniform, got {low!r}", key=f"{key}.low")
            if not low < high:
                raise UserError(f"must be > low ({low!r}), got {high!r}", key=f"{key}.high")
        check(low, f"{key}.low")
        check(high, f"{key}.high")
        dimensions[name] = Dimension(name, distribution, low=low, high=high)
    return dimensions


def trial_rng(seed: int, model_name: str, trial: int) -> np.random.Generator:
    """The generator of trial ``trial`` of ``model_name``: a function of these three only.

    Parameters
    ----------
    seed : int
        The search's seed.
    model_name : str
        The model's name in the config.
    trial : int
        The trial number, 0-based.

    Returns
    -------
    numpy.random.Generator
        The generator.
    """
    return generator(seed, model_name, int(trial), TRIAL_DRAW)


def training_seed(seed: int, model_name: str, trial: int) -> int:
    """The seed trial ``trial`` trains with (initialization, dropout, batch order).

    Dodge et al.'s maximization runs over hyperparameters *and* random initializations: each
    trial gets its own, independent of its assignment's stream.

    Parameters
    ----------
    seed : int
        The search's seed.
    model_name : str
        The model's name in the config.
    trial : int
        The trial number, 0-based.

    Returns
    -------
    int
        The training seed.
    """
    return derive_seed(seed, model_name, int(trial), TRIAL_TRAINING, below=2**31 - 1)


def draw(space: Mapping[str, Dimension], seed: int, model_name: str, trial: int) -> dict:
    """The hyperparameter assignment of trial ``trial`` (0-based) of ``model_name``.

    Dimensions are drawn in name order from :func:`trial_rng`; the result does not depend on how
    many trials there are, so ``[draw(..., i) for i in range(N)]`` is a prefix of the same list
    for any larger N.

    Parameters
    ----------
    space : mapping of str to Dimension
        The search space, by hyperparameter.
    seed : int
        The search's seed.
    model_name : str
        The model's name in the config.
    trial : int
        The trial number, 0-based.

    Returns
    -------
    dict
        The value of every hyperparameter, by name.

    Examples
    --------
    >>> space = {"c1": Dimension("c1", "uniform", low=0.0, high=1.0)}
    >>> draw(space, 0, "crf", 3) == draw(space, 0, "crf", 3)
    True
    """
    rng = trial_rng(seed, model_name, trial)
    return {name: space[name].sample(rng) for name in sorted(space)}


def draws(space: Mapping[str, Dimension], seed: int, model_name: str, n: int) -> list[dict]:
    """The assignments of trials 0..n-1.

    Parameters
    ----------
    space : mapping of str to Dimension
        The search space, by hyperparameter.
    seed : int
        The search's seed.
    model_name : str
        The model's name in the config.
    n : int
        How many trials.

    Returns
    -------
    list of dict
        One assignment per trial.
    """
    return [draw(space, seed, model_name, i) for i in range(n)]
