"""Futility stopping (issue 39, item 1): estimators/futility.py against the verdict it forecasts.

- the thresholds on t are the confidence sequence's ends (sequence_from_t), and the decisions
  they give are verdict()'s on the normal path, look for look; under a planned design, the
  exact interval's at each planned look's level, verdict(planned=True)'s;
- the predictive probability agrees with a brute-force one that draws the same posterior's
  continuations value by value and asks verdict() itself;
- a study is futile on its least likely undecided estimator, never on one off the normal path;
- the summary records the judgement and the tables say why the study stopped;
- simulated as the workflow runs it, futility stopping ends near-threshold studies early and
  changes no verdict.
"""

from __future__ import annotations

import numpy as np
import pytest

from reprocompare.estimators.futility import (_decided, _reached, decided_probability,
                                              exact_t_threshold, forecast, judge, stops,
                                              t_threshold)
from reprocompare.estimators.group_sequential import look_confidences
from reprocompare.estimators.planning import (futility_rule, normal_source, simulate,
                                              truth_of_snr)
from reprocompare.estimators.sequential import looks, sequence_from_t
from reprocompare.estimators.verdict import decision_bounds, verdict


@pytest.mark.parametrize("repetitions, snr", [(4, 0.0), (5, 0.84), (10, -0.84), (40, 1.5),
                                               (200, 0.3)])
def test_the_threshold_is_where_the_sequence_reaches_the_snr(repetitions, snr):
    t = t_threshold(repetitions, snr, 0.975)
    assert sequence_from_t(t, repetitions, confidence=0.975)[0] == pytest.approx(snr, abs=1e-7)
    # just below it the low end falls short of the SNR, just above it passes it
    assert sequence_from_t(t - 1e-3, repetitions, confidence=0.975)[0] < snr
    assert sequence_from_t(t + 1e-3, repetitions, confidence=0.975)[0] > snr


@pytest.mark.parametrize("repetitions, snr", [(2, 0.0), (3, 0.84), (6, 2.0)])
def test_with_few_repetitions_no_t_reaches_some_snrs(repetitions, snr):
    """The e-value of a few repetitions is bounded: however far T goes, the sequence's low end
    stays below the SNR, and the threshold is infinite (no look there can decide)."""
    assert t_threshold(repetitions, snr, 0.975) == np.inf
    assert sequence_from_t(300.0, repetitions, confidence=0.975)[0] < snr


def _threshold_decision(values, wave, confidence, snr0=0.0):
    bounds = decision_bounds(0.8, snr0)
    seen = np.zeros(4, dtype=bool)
    for n in looks(len(values), wave):
        part = values[:n]
        t = np.sqrt(n) * part.mean() / part.std(ddof=1)
        seen |= _reached(np.asarray(t), n, bounds, confidence, 2.0)
    return bool(_decided(seen))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_the_thresholds_decide_as_the_verdict_does(seed):
    """On the normal path, 'decided' from the thresholds over the looks is verdict()'s
    decision from its intersected confidence sequences, for every study drawn."""
    rng = np.random.default_rng(seed)
    checked = 0
    for _ in range(40):
        snr = rng.choice([0.0, 0.5, 0.84, 1.5, 3.0])
        values = snr + rng.standard_normal(int(rng.choice([5, 10, 15, 20])))
        found = verdict(values, confidence=0.975, wave=5, max_repetitions=200)
        if found.path != "normal" or np.all(values > 0) or np.all(values < 0):
            continue  # another path, or "neither" held back while every sign is one
        checked += 1
        assert _threshold_decision(values, 5, 0.975) == (found.decision != "undecided"), values
    assert checked >= 15


def _planned_threshold_decision(values, wave, maximum, confidence):
    """'Decided' from the planned design's thresholds over its looks up to len(values)."""
    bounds = decision_bounds(0.8)
    seen = np.zeros(4, dtype=bool)
    for n, level in look_confidences(wave, maximum, confidence).items():
        if n <= len(values):
            part = values[:n]
            t = np.sqrt(n) * part.mean() / part.std(ddof=1)
            seen |= _reached(np.asarray(t), n, bounds, level, 2.0, planned=True)
    return bool(_decided(seen))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_the_planned_thresholds_decide_as_the_planned_verdict_does(seed):
    """Under a planned design, 'decided' from the noncentral t quantiles at each planned look's
    own confidence is verdict(planned=True)'s decision from its repeated confidence intervals,
    look by look (an unplanned look, R = 7, claims nothing on either side)."""
    rng = np.random.default_rng(seed)
    checked = decided = 0
    for _ in range(25):
        snr = rng.choice([0.0, 0.5, 0.84, 1.5, 3.0])
        maximum = int(rng.choice([20, 40]))
        values = snr + rng.standard_normal(20)
        for r in (5, 7, 10, 15, 20):
            found = verdict(values[:r], confidence=0.975, time_uniform=False, wave=5,
                            max_repetitions=maximum, planned=True)
            one_sign = np.all(values[:r] > 0) or np.all(values[:r] < 0)
            if found.path != "normal" or (one_sign and found.decision == "undecided"):
                continue  # another path, or maybe "neither" held back while every sign is one
            checked += 1
            decided += found.decision != "undecided"
            assert _planned_threshold_decision(values[:r], 5, maximum, 0.975) == \
                (found.decision != "undecided"), (values[:r], maximum)
    assert checked >= 50 and decided >= 10


def test_a_planned_look_that_spends_nothing_reaches_nothing():
    assert exact_t_threshold(10, 0.84, 1.0) == np.inf
    reached = _reached(np.array([np.inf, 50.0, -50.0]), 10, decision_bounds(0.8), 1.0, 2.0,
                       planned=True)
    assert reached.shape == (3, 4) and not reached.any()


def test_the_planned_forecast_is_the_planned_designs():
    """At SNR 2 with a maximum of 20 the planned design's narrower intervals make a verdict by
    the maximum likelier, and sooner, than the confidence sequences do; each is its own
    verdict's: a study decided now under one design is certain under it."""
    values = 2.0 + np.random.default_rng(1).standard_normal(5)
    settings = dict(wave=5, max_repetitions=20, confidence=0.95, seed=1)
    assert verdict(values, confidence=0.95, wave=5, max_repetitions=20).decision == "undecided"
    assert verdict(values, confidence=0.95, time_uniform=False, wave=5, max_repetitions=20,
                   planned=True).decision == "undecided"
    anytime, planned = forecast(values, **settings), forecast(values, planned=True, **settings)
    assert planned["probability"] > anytime["probability"] + 0.05, (anytime, planned)
    assert planned["median_more"] <= anytime["median_more"]
    assert planned["probability"] == decided_probability(values, planned=True, **settings)
    # decided already under the planned design (not under the anytime one): certain there
    clear = 3.0 + np.random.default_rng(0).standard_normal(5)
    assert verdict(clear, confidence=0.95, time_uniform=False, wave=5, max_repetitions=20,
                   planned=True).decision == "A>B"
    assert forecast(clear, planned=True, **settings)["probability"] == 1.0
    assert forecast(clear, **settings)["probability"] < 1.0


def _brute_force(values, wave, maximum, confidence, draws, seed):
    """The same posterior, drawn value by value, each continuation judged by verdict()."""
    rng = np.random.default_rng(seed)
    r, mean = len(values), float(np.mean(values))
    ss = float(np.sum((values - mean) ** 2))
    decided = 0
    for _ in range(draws):
        sigma2 = ss / rng.chisquare(r - 1)
        mu = mean + np.sqrt(sigma2 / r) * rng.standard_normal()
        path = np.concatenate([values, mu + np.sqrt(sigma2) * rng.standard_normal(maximum - r)])
        for n in looks(maximum, wave):
            if n > r and _threshold_decision(path[:n], wave, confidence):
                decided += 1
                break
    return decided / draws


@pytest.mark.slow
@pytest.mark.parametrize("snr, seed", [(0.84, 2), (0.5, 2), (1.3, 2)])
def test_the_predictive_probability_matches_a_brute_force_draw(snr, seed):
    values = snr + np.random.default_rng(seed).standard_normal(10)
    found = verdict(values, confidence=0.975, wave=5, max_repetitions=40)
    assert found.decision == "undecided" and found.path == "normal"
    fast = decided_probability(values, wave=5, max_repetitions=40, confidence=0.975,
                               draws=4000, seed=seed)
    slow = _brute_force(values, 5, 40, 0.975, draws=600, seed=seed)
    # two Monte Carlo estimates of one probability: 4 standard errors of the smaller sample
    assert abs(fast - slow) <= 4 * np.sqrt(max(slow * (1 - slow), 0.01) / 600), (fast, slow)
    assert 0.0 < fast < 1.0


def test_decided_now_is_certain_and_no_look_left_is_hopeless():
    clear = [0.9, 1.1, 1.0, 1.2, 0.8]
    assert verdict(clear, confidence=0.9, wave=5).decision == "A>B"
    assert decided_probability(clear, wave=5, max_repetitions=20, confidence=0.9) == 1.0
    unclear = np.random.default_rng(0).standard_normal(10) + 0.84
    assert decided_probability(unclear, wave=5, max_repetitions=10, confidence=0.975) == 0.0


def test_the_probability_is_seeded():
    values = np.random.default_rng(5).standard_normal(10) + 0.7
    first = decided_probability(values, wave=5, max_repetitions=100, confidence=0.975, seed=3)
    assert first == decided_probability(values, wave=5, max_repetitions=100, confidence=0.975,
                                        seed=3)


def test_off_the_normal_path_nothing_is_judged():
    ties = [0.1, 0.1, 0.2, 0.3, 0.1]  # ties: the distribution-free path decides
    settings = dict(wave=5, max_repetitions=50, confidence=0.975)
    assert decided_probability(ties, **settings) is None
    assert decided_probability([0.2] * 5, **settings) is None
    assert forecast(ties, **settings) is None
    judged = judge({"ST": None}, 0.5)
    assert judged.probability is None and not judged.futile and judged.not_judged == ("ST",)


def test_a_study_is_futile_on_its_least_likely_estimator():
    judged = judge({"Avg": 0.31, "Vote": 0.12, "ST": None}, 0.2)
    assert (judged.estimator, judged.probability, judged.futile) == ("Vote", 0.12, True)
    assert judged.not_judged == ("ST",)
    assert not judge({"Avg": 0.31, "Vote": 0.12}, 0.12).futile  # below the level, strictly
    off = judge({"Avg": 0.01}, 0.0)
    assert off.probability is None and not off.futile
    with pytest.raises(ValueError, match="level"):
        judge({"Avg": 0.5}, 1.0)


@pytest.mark.slow
def test_futility_ends_near_threshold_studies_early_and_changes_no_verdict():
    """The rule as the workflow runs it, seeded: at a true SNR on the threshold no verdict is
    reachable by R = 60, and futility stops most studies well before; a clear SNR is decided as
    without it, at the same R, with the same verdicts."""
    design = dict(wave=5, max_repetitions=60)
    near, clear = normal_source(0.84), normal_source(2.5)
    off = simulate(near, ["Avg"], studies=30, truth={"Avg": truth_of_snr(0.84)}, **design)
    on = simulate(near, ["Avg"], studies=30, truth={"Avg": truth_of_snr(0.84)},
                  futility=futility_rule(0.2, **design), **design)
    assert on.summary()["futility_share"] >= 0.5
    assert on.summary()["mean_repetitions"] < off.summary()["mean_repetitions"] - 10
    # a futile stop claims nothing: every study decided with futility was decided alike without
    for with_rule, without in zip(on.studies, off.studies):
        if with_rule.decided:
            assert with_rule.decisions == without.decisions
        assert with_rule.stopped_at <= without.stopped_at
    fast = simulate(clear, ["Avg"], studies=30, futility=futility_rule(0.2, **design), **design)
    plain = simulate(clear, ["Avg"], studies=30, **design)
    assert fast.repetitions.tolist() == plain.repetitions.tolist()
    assert fast.summary()["futility_share"] == 0.0


def test_the_forecast_is_the_paths_stops():
    """'N more' in a sequential study: the share of paths that decide is the predictive
    probability, and the repetitions still to run are whole waves within the maximum."""
    values = 1.3 + np.random.default_rng(2).standard_normal(10)
    settings = dict(wave=5, max_repetitions=60, confidence=0.975, seed=4)
    found = forecast(values, **settings)
    assert found["probability"] == decided_probability(values, **settings)
    assert 0 < found["p10_more"] <= found["median_more"] <= found["p90_more"] <= 50
    assert all(found[k] % 5 == 0 for k in ("p10_more", "median_more", "p90_more"))
    paths = stops(values, **settings)
    decided = np.sort(paths[paths > 0]) - 10
    assert found["median_more"] == int(np.quantile(decided, 0.5, method="higher"))
    hopeless = forecast(values, wave=5, max_repetitions=10, confidence=0.975)
    assert hopeless["probability"] == 0.0 and hopeless["median_more"] is None


def test_table4_prints_the_forecast_under_a_sequential_study():
    from reprocompare.reports.tables import verdict_lines

    base = {"estimator": "Avg", "verdict": "undecided", "verdict_path": "normal",
            "repetitions_to_decide": 12, "repetitions": 10, "repetitions_by_k": None}
    row = {**base, "forecast": {"probability": 0.62, "median_more": 10, "p10_more": 5,
                                "p90_more": 35, "paths": 4000}}
    stopping = {"decided": False, "stopped": False, "futile": False, "wave": 5,
                "max_repetitions": 60, "estimators": ["Avg"], "waves": 2, "repetitions": 10,
                "futility_judgement": {"probability": 0.62, "estimator": "Avg", "level": 0.2,
                                       "futile": False, "not_judged": []}}
    lines = verdict_lines([row], "rule", stopping)
    assert ("Forecast over 4,000 paths of the normal model's posterior predictive "
            "(estimators/futility.py): Avg a verdict by R = 60 with probability 0.62, median "
            "10 more (10th-90th percentile 5-35) where it comes.") in lines
    assert lines[-1].endswith("R = 10: still running: the next wave adds repetitions (a verdict "
                              "by R = 60: predictive probability 0.620 (Avg)).")
    futile = {**stopping, "futile": True, "stopped": True,
              "futility_judgement": {**stopping["futility_judgement"], "probability": 0.08}}
    assert verdict_lines([row], "rule", futile)[-1].endswith(
        "R = 10: stopped without a verdict, one by R = 60 being unlikely: predictive probability "
        "0.080 (Avg), below the futility level 0.2.")


def test_the_rule_names_only_deciding_estimators_the_study_ran():
    """A study of ST alone, with the default deciding estimator (Avg) it never ran: the rule
    does not claim a verdict by Avg, and ST's verdict is read at the family's confidence."""
    from reprocompare.study.summary import verdicts

    values = {"ST": list(1.0 + np.random.default_rng(3).standard_normal(10))}
    found = verdicts(values, {}, "A>B", {"threshold": 0.8, "confidence": 0.95,
                                          "deciding": ["Avg"], "comparisons": 1})
    assert "(Avg)" not in found["verdict_rule"]
    assert found["verdicts"]["ST"]["confidence"] == pytest.approx(0.95)
