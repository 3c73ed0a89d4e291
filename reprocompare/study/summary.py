"""From many repetitions' estimates to the paper's Table 3 and Table 4 figures.

Reads the ``estimates.json`` that :func:`reprocompare.study.compare.write_comparison` writes for each
(strategy, repetition) of one comparison, and summarizes each estimator over the repetitions:
ST (one 8:1 hold-out), RS (the mean of the first k hold-outs of a repeated hold-out, for every k
up to the number run; Table 4 uses k = 6 as the paper does), Avg, Vote and Mixture (3 x 2 BCV).
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

import numpy as np

from reprocompare.base.errors import UserError
from reprocompare.base.paths import ESTIMATES_FILE, SCORES_FILE, SPLIT_FILE
from reprocompare.strategies.repeated_holdout import TABLE4_K
from reprocompare.base.run_records import SCORES, read_split
from reprocompare.strategies import (CHOSE_VOTE, ESTIMATORS, STRATEGIES, Estimates,
                                     of_estimator, read_estimates, strategy as strategy_of)
from reprocompare.study.verify import check_run
from reprocompare.estimators.bayesian import POSTERIOR_ROPE, correlated_ttest
from reprocompare.estimators.difference import mixture
from reprocompare.estimators.designs import ANYTIME, FIXED, PLANNED, of_stopping
from reprocompare.estimators.effect import mean_interval
from reprocompare.estimators.futility import forecast, judge
from reprocompare.estimators.group_sequential import look_confidences
from reprocompare.estimators.null import null_offsets
from reprocompare.estimators.reproducibility import (clopper_pearson, model_interval,
                                                     snr_exact_interval, summarize)
from reprocompare.estimators.sequential import (looks, mean_confidence_sequence,
                                                running_intersection, share_confidence_sequence,
                                                snr_confidence_sequence)
from reprocompare.estimators.verdict import (CONFIDENCE, MAX_REPETITIONS, THRESHOLD,
                                             family_confidence, rule, verdict)



def _holds(directory: Path, name: str) -> None:
    """The record ``name`` is a file of ``directory``, else a UserError saying what a
    directory lacks (before its reader says the file is missing)."""
    if directory.exists() and not directory.is_dir():
        raise UserError("not a directory: give the output directories of `reprocompare "
                        "compare` (or results/compare/.../repN)", path=directory)
    if not (directory / name).exists():
        raise UserError(f"no {name}: not a finished comparison directory", path=directory)


#: every strategy's settings, as a split document records them (the ratio first, as ever)
_SETTINGS = tuple(dict.fromkeys(("ratio", *(key for s in STRATEGIES for key in s.settings))))


@dataclass(frozen=True)
class Repetition:
    """One repetition as the summaries read it: its strategy's typed record and what its split
    says of it.

    Parameters
    ----------
    estimates : Estimates
        Its ``estimates.json`` (:func:`reprocompare.strategies.read_estimates`).
    repetition : int
        Its number.
    directory : str
        Its run directory, as errors name it.
    seed : int, optional
        The seed its split was drawn with.
    corpus_sha256 : str, optional
        The identity of the corpus it split.
    settings : mapping
        The split's strategy settings (ratio, k or m).
    n_sentences : int, optional
        The sentences it split.
    """

    estimates: Estimates
    repetition: int
    directory: str
    seed: int | None = None
    corpus_sha256: str | None = None
    settings: Mapping = field(default_factory=dict)
    n_sentences: int | None = None

    @property
    def strategy(self) -> str:
        """Its strategy's name."""
        return self.estimates.strategy

    @property
    def models(self) -> Mapping[str, str]:
        """The specs of A and B (empty for a record without them)."""
        return self.estimates.models or {}


def load_estimates(directory: str | Path) -> Repetition:
    """The estimates of one comparison directory, with its repetition, seed and provenance,
    read and verified (:func:`reprocompare.study.verify.check_run`).

    Parameters
    ----------
    directory : str or os.PathLike
        The repetition's directory.

    Returns
    -------
    Repetition
    """
    _holds(Path(directory), ESTIMATES_FILE)
    estimates = read_estimates(directory)  # the strategy known, its differences numbers
    _holds(Path(directory), SPLIT_FILE)
    split = read_split(directory)
    check_run(directory)  # the estimates recomputed from its own counts and scores (issue 34)
    try:
        settings = {key: split[key] for key in _SETTINGS if key in split}
        return Repetition(estimates, split["repetition"], str(directory), seed=split["seed"],
                          corpus_sha256=split.get("corpus_sha256"), settings=settings,
                          n_sentences=split.get("n_sentences"))
    except (KeyError, TypeError, AttributeError) as error:
        raise UserError(f"not a split document of reprocompare (no {error})",
                        path=Path(directory) / SPLIT_FILE) from None


def check_poolable(records: list[Repetition]) -> None:
    """Runs pooled into one summary must share the pair of specs, the corpus, typed, and each
    strategy's settings: one UserError naming two runs that differ, and in what.

    Parameters
    ----------
    records : list of Repetition
        The runs' records (:func:`load_estimates`).
    """
    first_of: dict = {}
    for record in records:
        keys = {"the specs of A and B": json.dumps(record.models, sort_keys=True),
                "corpus (sha256 of its sentences)": record.corpus_sha256,
                "typed/untyped scoring": record.estimates.typed,
                "typed/untyped training": record.estimates.train_typed,
                f"{record.strategy} settings": json.dumps(record.settings, sort_keys=True)}
        for what, value in keys.items():
            other = first_of.setdefault(what, (value, record.directory))
            if other[0] != value:
                raise UserError(f"cannot pool {other[1]} and {record.directory}: they differ "
                                f"in {what} ({other[0]} vs {value})")


def estimator_values(records: list[Repetition], table4_k: int = TABLE4_K,
                     conclusion: str = "A>B") -> dict:
    """The value of every estimator in every repetition, keyed by estimator name.

    Returns ``{"ST": [...], "RS": [...], "Avg": [...], "Vote": [...], "Mixture": [...],
    "RS@k": {k: [...]}, "models": {"A": [...], "B": [...]}, "mixture_chose_vote": [...]}`` with
    only the keys the records provide. Values are ordered by repetition. The mixture is Eq. 8 in
    the direction of ``conclusion``, computed here from each repetition's Vote and Avg (the
    ``mixture`` a compare run records is the one for "A > B").

    Parameters
    ----------
    records : list of Repetition
        The runs' records (:func:`load_estimates`).
    table4_k : int, default TABLE4_K
        The k of the random-splits estimate Table 4 prints.
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test.

    Returns
    -------
    dict
        The values, by estimator.
    """
    by_strategy: dict[str, list[Repetition]] = defaultdict(list)
    for record in records:
        by_strategy[record.strategy].append(record)
    values: dict = {}
    for name, group in by_strategy.items():
        group.sort(key=lambda r: r.repetition)
        repetitions = [r.repetition for r in group]
        if len(set(repetitions)) != len(repetitions):
            twice = sorted(r for r in repetitions if repetitions.count(r) > 1)[0]
            where = [r.directory for r in group if r.repetition == twice]
            raise UserError(f"repetition {twice} of strategy {name} is given twice: "
                            f"{' and '.join(where)} (runs of another seed or study? give one "
                            "directory per repetition)")
        values.update(strategy_of(name).values([r.estimates for r in group],
                                               table4_k=table4_k, conclusion=conclusion))
    return values


def verdicts(values: dict, offsets: dict, conclusion: str, verdict_settings: dict | None = None,
             stopping: dict | None = None) -> dict:
    """Every Table 4 estimator's verdict (estimators.verdict), its rule, and where a sequential
    study stands.

    ``verdict_settings``: the config's ``verdict`` (threshold, confidence, rope in F1 points)
    with the family the workflow adds (``comparisons``: how many comparison-corpus pairs the
    study decides; ``deciding``: the estimators whose verdicts are its claims), so that the
    confidence is Bonferroni-adjusted over them; ``stopping``: its ``stopping`` section when
    enabled (the verdicts then read confidence sequences intersected over the study's looks,
    valid however early it stops, or under ``design: planned`` the repeated confidence
    intervals of its planned looks; "more to decide" counts up to its maximum). The
    mixture's verdict is read against its null offset (closed form for normal Vote and Avg).

    Parameters
    ----------
    values : dict
        The estimators' values (:func:`estimator_values`).
    offsets : dict
        Each estimator's null offset.
    conclusion : str
        The conclusion under test.
    verdict_settings : dict, optional
        The config's ``verdict`` as the schema filled it, with the family; when not given, the
        schema's threshold and confidence (:data:`~reprocompare.estimators.verdict.THRESHOLD`,
        :data:`~reprocompare.estimators.verdict.CONFIDENCE`).
    stopping : dict, optional
        The config's ``stopping`` as the schema filled it, when enabled.

    Returns
    -------
    dict
        The verdicts, the rule and the study's stopping state.
    """
    # the config's section as the schema filled it, or for a caller without a config the
    # schema's defaults (estimators.verdict reads them there): never merged into a given one
    settings = verdict_settings if verdict_settings is not None else {
        "threshold": THRESHOLD, "confidence": CONFIDENCE}
    sequential = bool(stopping and stopping.get("enabled"))
    maximum = stopping["max_repetitions"] if sequential else MAX_REPETITIONS
    # a study without stopping looks once, at its R; a sequential one as its design says
    time_uniform, planned, wave = of_stopping(stopping).looked(stopping["wave"], maximum) \
        if sequential else (False, False, None)
    deciding = list(settings.get("deciding") or (stopping["estimators"] if sequential else []))
    # only an estimator the study ran can decide (a study of ST alone has no Avg to claim by)
    deciding = [name for name in deciding if len(values.get(name, ())) >= 2]
    comparisons = int(settings.get("comparisons") or 1)
    each = family_confidence(settings["confidence"], comparisons * max(1, len(deciding)))
    rope = settings.get("rope")
    rope = None if rope is None else rope / 100  # F1 points in the config, shares of F1 here
    found, snr0s = {}, {}
    for name in ESTIMATORS:
        if len(values.get(name, ())) < 2:
            continue
        snr0s[name] = offsets[name].snr_normal if name in offsets else 0.0
        found[name] = verdict(values[name], conclusion, threshold=settings["threshold"],
                              confidence=each, snr0=snr0s[name],
                              time_uniform=time_uniform, planned=planned,
                              max_repetitions=maximum, wave=wave, rope=rope).as_dict()
        if sequential and found[name]["decision"] == "undecided" and \
                found[name]["repetitions"] < maximum:
            # "N more" as a predictive distribution (issue 39, item 3), seeded by the look
            found[name]["forecast"] = forecast(
                values[name], conclusion, wave=wave, max_repetitions=maximum,
                threshold=settings["threshold"], confidence=each, snr0=snr0s[name],
                seed=found[name]["repetitions"], planned=planned)
    record = {"verdicts": found,
              "verdict_rule": rule(settings["threshold"], settings["confidence"],
                                   time_uniform=time_uniform, planned=planned,
                                   max_repetitions=maximum, conclusion=conclusion,
                                   snr0=snr0s, wave=wave, rope=rope, deciding=deciding,
                                   comparisons=comparisons)}
    if sequential:
        deciding = [name for name in stopping["estimators"] if name in found]
        repetitions = max((v["repetitions"] for v in found.values()), default=0)
        decided = bool(deciding) and all(found[n]["decision"] != "undecided" for n in deciding)
        judged = None
        if deciding and not decided and repetitions < stopping["max_repetitions"]:
            # futility on the forecasts' paths (estimators/futility.py); an equivalence verdict
            # (rope) reads the mean's interval, which they do not forecast: not judged
            judged = judge({n: (found[n].get("forecast") or {}).get("probability")
                            if rope is None else None
                            for n in deciding if found[n]["decision"] == "undecided"},
                           stopping["futility"]).as_dict()
        futile = bool(judged and judged["futile"])
        record["stopping"] = {
            **stopping, "repetitions": repetitions, "decided": decided,
            "waves": -(-repetitions // stopping["wave"]), "futile": futile,
            "futility_judgement": judged,
            "stopped": decided or futile or repetitions >= stopping["max_repetitions"]}
    return record


def posteriors(values: dict, strategies: Mapping, table4_k: int, rope: float) -> dict:
    """Every Table 4 estimator's posterior of the mean of A - B beside its verdict: the
    correlated Bayesian t-test (Benavoli et al. 2017, Sec. 4, Eq. 8) at the rho its strategy
    says (:meth:`~reprocompare.strategies.strategy.Strategy.repetition_rho`), for ``rope``.

    The question it answers is "is A practically better on corpora like this one?"
    (docs/bayesian.md): a posterior, not a reproducibility.

    Parameters
    ----------
    values : dict
        The estimators' values (:func:`estimator_values`).
    strategies : mapping
        Each strategy's settings as its splits recorded them (ratio, k, m), by name.
    table4_k : int
        The k of Table 4's RS.
    rope : float
        The rope's half-width in F1 points (``verdict.posterior_rope``).

    Returns
    -------
    dict
        Estimator -> ``{"p_a_better", "p_rope", "p_b_better", "rope", "rho", "point"}``, in
        Table 4's order, for each estimator with two values or more.
    """
    found = {}
    for name in ESTIMATORS:
        if len(values.get(name, ())) < 2:
            continue
        strategy = of_estimator(name)
        rho = strategy.repetition_rho(strategies.get(strategy.name, {}), table4_k)[name]
        found[name] = correlated_ttest(values[name], rope=rope, rho=rho).as_record()
    return found


def _planned_intervals(values: np.ndarray, conclusion: str, wave: int, max_repetitions: int,
                       confidence: float) -> dict:
    """Repeated confidence intervals (:mod:`reprocompare.estimators.group_sequential`): each
    planned look's fixed-R interval at that look's confidence, intersected over the looks up
    to R (a look that spends no error claims nothing)."""
    signed = values if conclusion == "A>B" else -values
    taken = [(r, level) for r, level in
             look_confidences(wave, max_repetitions, confidence).items()
             if r <= values.size and level < 1]
    # constant estimates give the point, as at a fixed R; a constant look among varying ones
    # has no t interval and claims nothing
    means = [(-math.inf, math.inf)] if values.std() > 0 else [(float(values.mean()),) * 2]
    for r, level in taken:
        sd = float(values[:r].std(ddof=1))
        if sd > 0:
            _, low, high = mean_interval(float(values[:r].mean()), sd, r, level)
            means.append((low, high))
    mean = running_intersection(means)
    ratio = running_intersection([(-math.inf, math.inf)] + [
        snr_exact_interval(values[:r], conclusion, confidence=level) for r, level in taken])
    share = running_intersection([(0.0, 1.0)] + [
        clopper_pearson(int(np.sum(signed[:r] > 0)), r, level) for r, level in taken])
    return {"mean_low": mean[0], "mean_high": mean[1], "snr_low": ratio[0],
            "snr_high": ratio[1], "snr_method": "planned", "reproducibility_low": share[0],
            "reproducibility_high": share[1]}


def interval_fields(values, conclusion: str, *, time_uniform: bool, wave: int | None,
                    summary: dict, confidence: float = 0.95, planned: bool = False,
                    max_repetitions: int | None = None) -> dict:
    """The 95% intervals Table 4 prints for one estimator: as summarized (fixed R), or, where
    the study looked after every wave, the confidence sequences intersected over its looks
    (issue 33: a stopped study's fixed-R intervals are too narrow), or under a planned design
    the repeated confidence intervals of its looks (:func:`_planned_intervals`), with their
    kinds.

    Parameters
    ----------
    values : array_like of float
        The estimator's values.
    conclusion : str
        The conclusion under test.
    time_uniform : bool
        Whether the study looked after every wave with confidence sequences.
    wave : int or None
        Repetitions per look.
    summary : dict
        The estimator's summary at fixed R.
    confidence : float, default 0.95
        The intervals' confidence.
    planned : bool, default False
        A planned design of looks every ``wave`` up to ``max_repetitions`` (with
        ``time_uniform`` False).
    max_repetitions : int, optional
        A planned design's last look.

    Returns
    -------
    dict
        The intervals' ends and their kinds.
    """
    values = np.asarray(values, dtype=np.float64)
    if planned:
        return {**_planned_intervals(values, conclusion, wave, max_repetitions, confidence),
                "interval_kinds": PLANNED.interval_kinds}
    kinds = (ANYTIME if time_uniform else FIXED).interval_kinds
    if not time_uniform:
        if summary["sd"] > 0:
            fixed = mean_interval(summary["mean"], summary["sd"], len(values), confidence)
            low, high = fixed.low, fixed.high
        else:
            low = high = summary["mean"]
        return {"mean_low": low, "mean_high": high, "interval_kinds": kinds}
    taken = looks(len(values), wave or 1)
    signed = values if conclusion == "A>B" else -values
    mean = running_intersection(mean_confidence_sequence(values[:r], confidence=confidence)
                                for r in taken)
    ratio = running_intersection(snr_confidence_sequence(values[:r], conclusion,
                                                         confidence=confidence)
                                 for r in taken)
    share = running_intersection(share_confidence_sequence(int(np.sum(signed[:r] > 0)), r,
                                                           confidence=confidence)
                                 for r in taken)
    return {"mean_low": mean[0], "mean_high": mean[1], "snr_low": ratio[0],
            "snr_high": ratio[1], "snr_method": "sequence", "reproducibility_low": share[0],
            "reproducibility_high": share[1], "interval_kinds": kinds}


def summarize_runs(directories, *, conclusion: str = "A>B", table4_k: int = TABLE4_K,
                   random_state: int = 0, verdict_settings: dict | None = None,
                   stopping: dict | None = None) -> dict:
    """Table 4 (per estimator), Figure 1 (RS by k) and Table 3 (per model) from run directories,
    with every estimator's null offset and verdict (:func:`verdicts`).

    Parameters
    ----------
    directories : iterable of str or os.PathLike
        The comparison's run directories, one per repetition.
    conclusion : {'A>B', 'B>A'}, default 'A>B'
        The conclusion under test.
    table4_k : int, default TABLE4_K
        The k of the random-splits estimate Table 4 prints.
    random_state : int, default 0
        Seed of the bootstrap intervals.
    verdict_settings : dict, optional
        As :func:`verdicts` takes it.
    stopping : dict, optional
        As :func:`verdicts` takes it.

    Returns
    -------
    dict
        The summary.
    """
    return summarize_records([load_estimates(d) for d in directories], conclusion=conclusion,
                             table4_k=table4_k, random_state=random_state,
                             verdict_settings=verdict_settings, stopping=stopping)


def summarize_records(records: list[dict], *, conclusion: str = "A>B",
                      table4_k: int = TABLE4_K, random_state: int = 0,
                      verdict_settings: dict | None = None, stopping: dict | None = None) -> dict:
    """:func:`summarize_runs` of runs already read and checked (:func:`load_estimates`), for a
    caller that reads their values too: each run is read and verified once.

    Parameters
    ----------
    records : list of Repetition
        The runs' records.
    conclusion, table4_k, random_state, verdict_settings, stopping
        As :func:`summarize_runs` takes them.

    Returns
    -------
    dict
        The summary.
    """
    if not records:
        raise UserError("no comparison directories given")
    check_poolable(records)
    try:
        values = estimator_values(records, table4_k, conclusion)
    except (KeyError, TypeError, IndexError) as error:
        raise UserError(f"an {ESTIMATES_FILE} lacks {error} (a tampered or foreign file?)",
                        path=", ".join(r.directory for r in records[:3])) from None
    # R = 1 has no spread: an error naming the comparison, never a silently empty Table 4
    short = [name for name in ESTIMATORS if name in values and len(values[name]) < 2]
    if short:
        models = records[0].models
        raise UserError(f"comparison A = {models.get('A', '?')} vs B = {models.get('B', '?')}: "
                        f"{', '.join(short)} has 1 repetition, and SNR, reproducibility and "
                        "their intervals need at least 2; run more repetitions (`compare "
                        "--repetition 1, 2, ...`, or `repetitions: 5` in the config; finished "
                        "ones are kept)")
    first = records[0]
    typed, train_typed = first.estimates.typed, first.estimates.train_typed
    summary: dict = {"models": first.models, "conclusion": conclusion,
                     "corpus_sha256": first.corpus_sha256, "sentences": first.n_sentences,
                     "typed": typed, **({} if typed or train_typed is None
                                        else {"train_typed": train_typed}),
                     "strategies": {r.strategy: r.settings for r in records},
                     "degenerate": degenerate_models([r.directory for r in records]),
                     "table4_k": table4_k, "estimators": {}, "random_splits_by_k": {}, "per_model": {}}
    design = of_stopping(stopping)
    # the study's looks: a sequential study's intervals hold over them; a fixed design's one
    # look is its R (its intervals are the fixed-R ones)
    at_looks = design.time_uniform or design.planned
    looked = {"time_uniform": design.time_uniform, "planned": design.planned,
              "wave": stopping["wave"] if at_looks else None,
              "max_repetitions": stopping["max_repetitions"] if at_looks else None}
    for name in ESTIMATORS:
        if name in values and len(values[name]) >= 2:
            row = summarize(values[name], conclusion, random_state=random_state).as_dict()
            row.update(interval_fields(values[name], conclusion, summary=row, **looked))
            summary["estimators"][name] = row
    offsets = null_offsets(values, conclusion)
    if offsets:  # what each estimator shows when A and B do not differ (estimators.null)
        summary["null_offsets"] = {name: offset.as_dict() for name, offset in offsets.items()}
    summary.update(verdicts(values, offsets, conclusion, verdict_settings, stopping))
    # beside each verdict, the posterior at the config's rope (a caller without a config: the
    # schema's, as the verdicts read theirs)
    rope = POSTERIOR_ROPE if verdict_settings is None else verdict_settings["posterior_rope"]
    summary["posteriors"] = posteriors(values, summary["strategies"], table4_k, rope)
    for k, ks in values.get("RS@k", {}).items():
        if len(ks) >= 2:  # Figure 1's intervals: sequences too where the study looked
            row = summarize(ks, conclusion, random_state=random_state).as_dict()
            row.update(interval_fields(ks, conclusion, summary=row, **looked))
            summary["random_splits_by_k"][k] = row
    for name, f1s in values.get("models", {}).items():
        if len(f1s) >= 2:
            summary["per_model"][name] = model_interval(f1s).as_dict()
    for key in CHOSE_VOTE.values():  # each mixture's (the BCV's, a variant's)
        if values.get(key):
            summary[key] = float(np.mean(values[key]))
    return summary


def degenerate_models(directories) -> list[str]:
    """"A" and/or "B" if that model's chunk F1 is 0 on every fold of every run directory.

    Such a model learned nothing (too few iterations, a broken spec): its difference to the other
    model is the other model's F1, and the tables must say so rather than print it as a finding.

    Parameters
    ----------
    directories : iterable of str or os.PathLike
        The comparison's run directories, one per repetition.

    Returns
    -------
    list of str
        The models that learned nothing.
    """
    # scores.json is written with estimates.json; a directory without one says nothing here
    folds = [fold for d in directories if (Path(d) / SCORES_FILE).exists()
             for fold in SCORES.read(d)["folds"]]
    return [name for name in ("A", "B")
            if folds and all(fold[name]["f1"] == 0 for fold in folds)]
