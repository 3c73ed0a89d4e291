"""What a splitting strategy is and does: the base class every strategy of this package derives.

Xue et al. compare three ways to split a corpus (section 3.3, Table 4): the standard split (ST),
random splits (RS) and the blocked m x 2 cross-validation (BCV, section 3.1). A strategy here is
one object that does its own work, so that nothing outside its module asks which strategy it
holds: how it draws its folds (:meth:`Strategy.draw`), which differences of A and B it computes
from the folds and records (:meth:`Strategy.estimate`, the ``estimates.json`` of a repetition),
how that record is checked against itself and its counts (:meth:`Strategy.fit`,
:meth:`Strategy.check`), which of Table 4's estimators it feeds and how they are read from the
records of many repetitions (:meth:`Strategy.values`) and how those values correlate across
corpora (:meth:`Strategy.repetition_rho`), which significance tests fit one
repetition (:meth:`Strategy.repetition_tests`), and how a report names it
(:meth:`Strategy.label`, :meth:`Strategy.describe`).

A new strategy is one module of this package that derives from :class:`Strategy` (or from one of
its strategies) and names an instance ``STRATEGY``; :mod:`reprocompare.strategies` finds it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Callable, ClassVar, Mapping, Sequence

from reprocompare.base.errors import UserError
from reprocompare.splitters._common import check_positive_int
from reprocompare.splitters.drawing import format_ratio, parse_ratio

#: the two models of a comparison
PAIR = ("A", "B")


class UnfitEstimates(UserError):
    """An estimates.json whose strategy is unknown, or whose difference ``key`` is no F1
    difference: ``key`` and its ``value`` as read, for a reader that words it its own way
    (:mod:`reprocompare.study.verify`).

    Parameters
    ----------
    key : str
        The key: ``strategy``, or a difference.
    value : object
        Its value.
    message : str
        What is wrong, in one line.
    path : str or os.PathLike
        The file.
    """

    def __init__(self, key: str, value: Any, message: str, path: str | Path):
        super().__init__(message, path=path)
        self.key, self.value = key, value


class Checker:
    """What :meth:`Strategy.check` compares a record with: each recorded figure against the one
    its counts (or its own other figures) imply, raising ``untrusted(message)`` on the first that
    disagrees.

    Parameters
    ----------
    estimates : Estimates
        The record.
    close : callable
        ``close(recorded, implied) -> bool``.
    disagrees : callable
        ``disagrees(key, recorded, implied, source) -> Exception``.
    untrusted : callable
        ``untrusted(message) -> Exception``, for a finding that is not a figure.
    source : str
        What the implied figures come from, as the message says it.
    """

    def __init__(self, estimates: Estimates, close: Callable, disagrees: Callable,
                 untrusted: Callable, source: str):
        self.estimates, self.source = estimates, source
        self._close, self._disagrees, self.untrusted = close, disagrees, untrusted
        per_model = estimates.per_model
        self.per_model = per_model if isinstance(per_model, dict) else {}

    def figure(self, key: str, recorded, implied: float, where: str | None = None) -> None:
        """One recorded figure against the one implied."""
        if not self._close(recorded, implied):
            raise self._disagrees(key, recorded, implied, self.source if where is None else where)

    def models(self, figure: str, implied_of: Callable[[str], float]) -> None:
        """Each model's recorded ``figure`` (``per_model.A.avg``) against ``implied_of(model)``."""
        for name in PAIR:
            model = self.per_model.get(name)
            if isinstance(model, dict) and figure in model:
                self.figure(f"per_model.{name}.{figure}", model[figure], implied_of(name))


@dataclass(frozen=True)
class Setting:
    """A setting a split takes: its default, how a value given is checked into the argument of
    the draw, and how the split document records it.

    Parameters
    ----------
    default : object
        What a caller that does not give it gets.
    check : callable
        ``check(value, name) -> argument``: a UserError naming ``name`` for a bad value.
    record : callable
        ``record(value) -> JSON value``, the value as given.
    """

    default: Any
    check: Callable[[Any, str], Any]
    record: Callable[[Any], Any]


#: the settings of the package's strategies (a split checks every one it is given, whichever
#: strategy reads it, so that a typo fails with any strategy); a strategy with a setting of its
#: own extends :attr:`Strategy.SETTINGS` in its module
SETTINGS = {"k": Setting(10, check_positive_int, int), "m": Setting(3, check_positive_int, int),
            "ratio": Setting("8:1", lambda value, name: parse_ratio(value), format_ratio)}


def _is_number(value) -> bool:
    # JSON's true and false are no numbers, though Python's bool is an int
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == value


def chose_vote_key(mixture: str) -> str:
    """Where a study's values and summary keep how often a mixture took its Vote (Eq. 8,
    Case I): ``mixture_chose_vote`` for the paper's Mixture, ``rmixture_chose_vote`` for a
    variant's ``rMixture``, so that two BCVs of one study keep theirs apart.

    Parameters
    ----------
    mixture : str
        The mixture's estimator name.

    Returns
    -------
    str

    Examples
    --------
    >>> chose_vote_key("Mixture")
    'mixture_chose_vote'
    """
    return f"{mixture.lower()}_chose_vote"


def mean(values: Sequence[float]) -> float:
    """The mean as the checks recompute it (exactly rounded sum, one division)."""
    import math

    return math.fsum(values) / len(values)


@dataclass(frozen=True, kw_only=True)
class Estimates:
    """One repetition's ``estimates.json`` as a typed value: what every repetition records
    (its strategy, the specs of A and B, how it scored and trained), and, in the fields a
    strategy's own record adds (:attr:`Strategy.record`), the differences of A and B its strategy
    computed from the folds. It writes itself (:meth:`as_json`, the file's key order) and reads
    itself (:meth:`from_json`, after :meth:`Strategy.fit` has judged the file).

    A field a record does not hold is None and is not written: a hand-made record (estimates
    and split alone) may lack the per-model figures or a BCV's fold differences.

    Parameters
    ----------
    strategy : str
        The strategy's name.
    models : mapping, optional
        The specs of "A" and "B".
    per_model : mapping, optional
        Each model's own figures (its F1 where the strategy's differences take it).
    typed : bool, optional
        Whether the chunks were scored with their types (None: a run that did not record it).
    train_typed : bool, optional
        For untyped scoring, whether the models trained on typed tags.
    """

    strategy: str
    models: Mapping[str, str] | None = None
    per_model: Mapping[str, Mapping[str, float]] | None = None
    typed: bool | None = None
    train_typed: bool | None = None

    #: the file's order: these first, then a strategy's own fields, then :attr:`TRAILING`
    LEADING: ClassVar[tuple[str, ...]] = ("models", "strategy")
    TRAILING: ClassVar[tuple[str, ...]] = ("per_model", "typed", "train_typed")

    def __post_init__(self):
        # a list read from JSON becomes a tuple: the record is a value, not a buffer
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, list):
                object.__setattr__(self, field.name, tuple(value))

    @classmethod
    def keys(cls) -> tuple[str, ...]:
        """Its keys in the file's order.

        Returns
        -------
        tuple of str
        """
        names = [field.name for field in fields(cls)]
        own = [name for name in names if name not in cls.LEADING + cls.TRAILING]
        return (*cls.LEADING, *own, *cls.TRAILING)

    def as_json(self) -> dict:
        """The record as ``estimates.json`` holds it (the keys it holds, in the file's order).

        Returns
        -------
        dict
        """
        out = {}
        for key in self.keys():
            value = getattr(self, key)
            if value is not None:
                out[key] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_json(cls, data: Mapping) -> "Estimates":
        """The record of a checked ``estimates.json`` (keys it does not know are not kept).

        Parameters
        ----------
        data : mapping
            The file's object, judged by :meth:`Strategy.fit`.

        Returns
        -------
        Estimates
        """
        return cls(**{key: data[key] for key in cls.keys() if key in data})

    def of_model(self, name: str, figure: str) -> float:
        """Model ``name``'s ``figure`` (``per_model.A.holdout``); a KeyError naming
        ``per_model`` for a record without it.

        Parameters
        ----------
        name : {'A', 'B'}
            The model.
        figure : str
            The figure.

        Returns
        -------
        float
        """
        if self.per_model is None:
            raise KeyError("per_model")
        return self.per_model[name][figure]


@dataclass(frozen=True)
class Strategy:
    """One splitting strategy: what it is called and what it does.

    Parameters
    ----------
    name : str
        The name in split documents, run directories, seed paths and summaries.
    key : str
        The config's key under ``strategies:`` (a Python identifier).
    code : int
        Frozen code in seed paths (:mod:`reprocompare.base.seeds`): never a position, so that
        adding a strategy changes no existing seed; strategies are listed in its order.
    short : str
        The paper's abbreviation (ST, RS, BCV).
    settings : tuple of str
        The settings its splitter takes, in the order its split documents record them.
    estimates : tuple of str
        The differences its ``estimates.json`` records: what that record must hold.
    estimators : tuple of str
        Table 4's estimators of A - B it gives (section 3.2).
    tests : tuple of str
        The significance tests of one repetition (:meth:`repetition_tests`).
    model_f1 : str
        What Table 3 takes as a model's F1 in one repetition (the score Table 4's estimators see).
    votes : bool, default False
        Whether a repetition also votes over the whole corpus (BCV's Vote, Table 2): its split
        records its blocks, its job votes and counts the vote, its settings hold ``voting``.
    grows : str, optional
        The setting whose growth keeps the folds already trained (RS's k: the first k hold-outs
        of a repetition are a k-repetition RS), so that a rerun trains only the new ones.
    standard : bool, default False
        Whether it is the paper's standard split (a study of it alone says so in Table 3).
    recommended : bool, default False
        Whether it is the paper's recommendation (the 3 x 2 BCV): what ``reprocompare split``
        draws when not told.
    """

    name: str
    key: str
    code: int
    short: str
    settings: tuple[str, ...]
    estimates: tuple[str, ...]
    estimators: tuple[str, ...]
    tests: tuple[str, ...]
    model_f1: str
    votes: bool = False
    grows: str | None = None
    standard: bool = False
    recommended: bool = False

    #: the type of its ``estimates.json`` (:class:`Estimates` with its differences as fields)
    record: ClassVar[type[Estimates]] = Estimates

    @property
    def mixtures(self) -> tuple[tuple[str, str, str], ...]:
        """Its estimators that mix two others (Eq. 8), as (mixture, vote, avg): a mixture's null
        offset and its resampling need the two it mixes, not a value of its own.

        Returns
        -------
        tuple
        """
        return ()

    # ---- names -------------------------------------------------------------------------------

    def label(self, settings: Mapping, table4_k=None) -> str:
        """How a report names it, from a run's settings (a setting not recorded is said so).

        Parameters
        ----------
        settings : mapping
            Its settings as a summary records them (ratio, k, m); empty when not recorded.
        table4_k : int, optional
            The k of Table 4's RS.

        Returns
        -------
        str
        """
        raise NotImplementedError

    def describe(self, settings: Mapping) -> str:
        """One line for the experimental-results checklist, from a checked config's settings.

        Parameters
        ----------
        settings : mapping
            ``config["strategies"][key]``, the schema's defaults filled in.

        Returns
        -------
        str
        """
        raise NotImplementedError

    # ---- splitting ---------------------------------------------------------------------------

    #: every setting a split may be given (:class:`Setting`), of this strategy and the others
    SETTINGS: ClassVar[Mapping[str, Setting]] = SETTINGS

    def split_settings(self, given: Mapping) -> tuple[dict, dict]:
        """The draw's arguments and the split document's record of its :attr:`settings`, from
        the settings given (each checked, its own defaulted).

        Parameters
        ----------
        given : mapping
            Setting -> value, as a caller gives them (``k=6, ratio="8:1"``).

        Returns
        -------
        tuple of dict
            ``(arguments, recorded)``, each keyed by :attr:`settings`, in their order.

        Raises
        ------
        TypeError
            For a setting no strategy takes.
        """
        unknown = sorted(set(given) - set(self.SETTINGS))
        if unknown:
            raise TypeError(f"a split takes no setting {unknown[0]!r}; the settings are "
                            f"{', '.join(self.SETTINGS)}")
        checked = {name: self.SETTINGS[name].check(value, name) for name, value in given.items()}
        arguments, recorded = {}, {}
        for name in self.settings:
            kind = self.SETTINGS[name]
            value = given.get(name, kind.default)
            arguments[name] = checked[name] if name in given else kind.check(value, name)
            recorded[name] = kind.record(value)
        return arguments, recorded

    def splitter_arguments(self, settings: Mapping) -> dict:
        """The arguments of its splitter from its config settings.

        Parameters
        ----------
        settings : mapping
            ``config["strategies"][key]``.

        Returns
        -------
        dict
            Keyed by :attr:`settings`.
        """
        return {name: settings[name] for name in self.settings}

    def check_settings(self, settings: Mapping, path: str) -> None:
        """Settings the schema cannot judge alone (RS: Table 4's k among the k run): one
        UserError naming the key.

        Parameters
        ----------
        settings : mapping
            ``config["strategies"][key]``.
        path : str
            The config file, as errors name it.
        """

    def draw(self, n: int, groups, random_state, **arguments) -> tuple[list, list | None]:
        """Its folds over ``n`` sentences (numpy only), and the blocks a voting strategy votes
        over (None otherwise).

        Parameters
        ----------
        n : int
            Sentences.
        groups : sequence or None
            Each sentence's document, to keep documents whole.
        random_state : int
            The repetition's seed.
        **arguments
            Its :attr:`settings`.

        Returns
        -------
        tuple
            ``(folds, blocks)``: folds as (train, validation) index arrays.
        """
        raise NotImplementedError

    #: whether :meth:`draw` reads the corpus's tags (keyword ``tags``: each sentence's tag
    #: sequence), as a strategy that balances them does
    reads_tags = False

    def splitter_class(self) -> type:
        """The scikit-learn cross-validator that draws the same folds (imported on demand).

        Returns
        -------
        type
        """
        raise NotImplementedError

    # ---- the record of one repetition --------------------------------------------------------

    def estimate(self, f1: Mapping[str, Sequence[float]],
                 vote_f1: Mapping[str, float] | None) -> Estimates:
        """The differences of A and B one repetition records, from its fold F1s (and, for a
        voting strategy, the F1 of each model's vote): its :attr:`record`, of this strategy.

        Parameters
        ----------
        f1 : mapping
            ``{"A": [fold F1...], "B": [...]}``.
        vote_f1 : mapping or None
            ``{"A": F1, "B": F1}`` of the votes.

        Returns
        -------
        Estimates
        """
        raise NotImplementedError

    def read(self, data: Mapping) -> Estimates:
        """Its typed record of a checked ``estimates.json`` (:meth:`fit`).

        Parameters
        ----------
        data : mapping
            The file's object.

        Returns
        -------
        Estimates
        """
        return self.record.from_json(data)

    def fit(self, estimates: dict, path: Path, alone: bool) -> None:
        """Every difference its record holds (:attr:`estimates`) a number in [-1, 1], where a
        difference of two F1 scores lies. A directory of estimates and split alone (``alone``:
        hand-made, or a job that kept neither counts nor scores) may lack a voting strategy's
        fold differences: its Avg, Vote and Mixture are what the summaries read.

        Parameters
        ----------
        estimates : dict
            The record.
        path : pathlib.Path
            Its file.
        alone : bool
            Whether its directory holds neither counts nor scores.

        Raises
        ------
        UnfitEstimates
        """
        for key in self.estimates:
            if key == "fold_differences" and self.votes and alone and key not in estimates:
                continue
            value = estimates.get(key)
            numbers = value if isinstance(value, list) and value else [value]
            if not all(_is_number(v) for v in numbers):
                raise UnfitEstimates(key, value, f"{key} is {value!r}, not a number (a tampered "
                                     "or foreign file?)", path)
            if not all(-1 <= v <= 1 for v in numbers):
                raise UnfitEstimates(key, value, f"{key} is {value!r}, outside [-1, 1], where a "
                                     "difference of two F1 scores lies (a tampered or foreign "
                                     "file?)", path)

    def check(self, checker: Checker, f1: Mapping | None, vote: Mapping | None) -> None:
        """Its record against itself, and against the fold and vote F1s where known (the
        repetition's counts or scores): the fold differences here; a strategy adds its own.

        Parameters
        ----------
        checker : Checker
            The record, and what a disagreement raises.
        f1 : mapping or None
            Each model's fold F1s, when the directory gives them.
        vote : mapping or None
            Each model's vote F1, when the counts give it.
        """
        differences = getattr(checker.estimates, "fold_differences", None)
        if f1 is None:
            return
        if len(f1["A"]) != len(differences):
            raise checker.untrusted(f"has {len(differences or ())} fold differences, "
                                    f"{checker.source} {len(f1['A'])} folds")
        implied = [a - b for a, b in zip(f1["A"], f1["B"])]
        for f, (recorded, value) in enumerate(zip(differences, implied)):
            checker.figure(f"fold_differences[{f}]", recorded, value)

    # ---- many repetitions: Table 4 -----------------------------------------------------------

    def values(self, records: Sequence[Estimates], *, table4_k: int, conclusion: str) -> dict:
        """Its estimators' values over the repetitions (one each, in repetition order).

        Parameters
        ----------
        records : sequence of Estimates
            Its repetitions' records (:attr:`record`), in repetition order.
        table4_k : int
            The k of Table 4's RS.
        conclusion : {'A>B', 'B>A'}
            The conclusion under test.

        Returns
        -------
        dict
            Estimator -> values (and whatever else its tables read).
        """
        raise NotImplementedError

    def repetition_rho(self, settings: Mapping, table4_k: int) -> dict[str, float]:
        """The correlation across corpora of each of its estimators' per-repetition values: the
        rho of the correlated Bayesian t-test (Benavoli et al. 2017, Eq. 7; Nadeau and Bengio's
        test share, :mod:`reprocompare.estimators.bayesian`).

        Parameters
        ----------
        settings : mapping
            Its settings as a summary records them (ratio, k, m); a setting not recorded is its
            split's default (:attr:`SETTINGS`).
        table4_k : int
            The k of Table 4's RS.

        Returns
        -------
        dict
            Estimator -> rho in [0, 1), for each of :attr:`estimators`.
        """
        raise NotImplementedError

    def _setting(self, settings: Mapping, name: str):
        # a hand-made record may not hold it: the split's default, as its draw would have taken
        return settings.get(name, self.SETTINGS[name].default)

    def asked(self, summary: dict, values: dict, settings: Mapping) -> None:
        """Keep, of what its repetitions ran, what the config asks to report (RS: the k of
        ``k``, where each repetition ran max(k) hold-outs), in ``summary`` and ``values``.

        Parameters
        ----------
        summary : dict
            The comparison's summary (:func:`reprocompare.study.summary.summarize_runs`).
        values : dict
            Its estimators' values.
        settings : mapping
            Its settings in the config.
        """

    # ---- one repetition: significance tests --------------------------------------------------

    def tested_folds(self, folds: list, settings: Mapping) -> list:
        """The folds its tests read from a repetition's folds (RS: Table 4's k of them).

        Parameters
        ----------
        folds : list
            Every fold's counts.
        settings : mapping
            Its settings (the summary's).

        Returns
        -------
        list
        """
        return folds

    def test_kind(self, test: str) -> str:
        """The test one of :attr:`tests` runs, as the reports name and calibrate tests: the name
        itself, unless a variant gives a shared test a name of its own (test names are unique
        across strategies, as a study's claims are keyed by them).

        Parameters
        ----------
        test : str
            One of :attr:`tests`.

        Returns
        -------
        str
        """
        return test

    #: whether :meth:`repetition_tests` needs the training size of one fold
    needs_train_size = False

    def repetition_tests(self, folds: Sequence[dict], *, n_train: int | None = None,
                         n_resamples: int = 10_000, random_state: int = 0) -> dict:
        """The significance tests that fit one repetition, by the test's name.

        Parameters
        ----------
        folds : sequence of {"A": array (n, 3), "B": array (n, 3)}
            Per-sentence (gold, pred, correct) chunk counts of each fold's validation set.
        n_train : int, optional
            Training sentences of one fold (when :attr:`needs_train_size`).
        n_resamples : int
            Resamples of the resampling tests.
        random_state : int
            Seed of the resampling tests.

        Returns
        -------
        dict of str to reprocompare.estimators.claims.Claim
        """
        raise NotImplementedError
