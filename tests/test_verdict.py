"""Verdicts, predictive reproducibility and the replay of a study (estimators.verdict).

Values are built with an exact t statistic (mean t/sqrt(R), sd 1), so every case below sits
where the hand computation puts it: Phi^-1(0.8) = 0.8416 is the SNR the default threshold asks
the whole interval to clear.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from reprocompare.estimators.null import mixture_null_offset
from reprocompare.estimators.reproducibility import snr, snr_exact_interval
from reprocompare.estimators.sequential import snr_confidence_sequence, snr_interval
from reprocompare.estimators.verdict import (MAX_REPETITIONS, NO_DIFFERENCE, OPPOSED, SUPPORTED,
                                             THRESHOLD, UNDECIDED, decide, decision_bounds,
                                             decisions, predictive_reproducibility,
                                             repetitions_to_decide, replay, rule, verdict)

ROOT = Path(__file__).resolve().parents[1]
CHUNKING = ROOT / "studies" / "chunking" / "results" / "summaries" / "conll2000" \
    / "crf_iob2_vs_iobes.json"
Z = stats.norm.ppf(THRESHOLD)  # 0.8416


def with_snr(theta: float, r: int) -> np.ndarray:
    """r values with sample SNR exactly theta (sd 1), shaped as a normal sample (its scores),
    so that the normal model's diagnostic (estimators.normality) accepts them."""
    base = stats.norm.ppf((np.arange(r) + 0.5) / r)
    return (base - base.mean()) / base.std(ddof=1) + theta


def test_bounds_by_hand():
    assert decision_bounds() == pytest.approx((-0.8416212, 0.8416212), abs=1e-7)
    assert decision_bounds(0.9, 0.3) == pytest.approx((0.3 - 1.2815516, 0.3 + 1.2815516))
    assert decide(0.85, 3.0) == SUPPORTED
    assert decide(-3.0, -0.85) == OPPOSED
    assert decide(-0.8, 0.8) == NO_DIFFERENCE
    assert decide(0.5, 1.5) == UNDECIDED and decide(-1.0, 0.0) == UNDECIDED


def test_clear_winner_at_r5():
    # SNR 5 at R = 5: the fixed-R exact interval [1.49, 8.38] clears 0.84 ...
    fixed = verdict(with_snr(5.0, 5), time_uniform=False)
    assert fixed.decision == "A>B" and fixed.text == "A > B reproduces"
    assert fixed.snr_low > Z and fixed.reproducibility_low >= THRESHOLD and fixed.more is None
    # ... the confidence sequence, valid under stopping, needs one more repetition there
    sequential = verdict(with_snr(5.0, 5))
    assert sequential.decision == "undecided"
    assert sequential.text == \
        "undecided after 5 repetitions: about 1 more to reach 'A > B reproduces'"
    assert sequential.reaches == "A>B"
    assert verdict(with_snr(5.0, 6)).decision == "A>B"
    # and decides at R = 5 for a winner as clear as a tagger 25 F1 points behind (SNR >= 12)
    assert verdict(with_snr(12.0, 5)).text == "A > B reproduces"


def test_equal_models_at_r5_are_undecided_with_a_count():
    v = verdict(with_snr(0.0, 5))
    assert v.decision == "undecided" and v.more == 10
    assert v.text == ("undecided after 5 repetitions: about 10 more to reach "
                      "'neither direction reproduces with this estimator'")
    assert v.reaches == "none"
    # the projection is right: the same SNR seen at R = 15 decides, at R = 14 not yet
    assert verdict(with_snr(0.0, 15)).text == "neither direction reproduces with this estimator"
    assert verdict(with_snr(0.0, 14)).decision == "undecided"
    fixed = verdict(with_snr(0.0, 5), time_uniform=False)
    assert fixed.decision == "undecided" and fixed.more is not None and fixed.more < v.more


@pytest.mark.parametrize("kind", ["anytime", "fixed", "planned"])
@pytest.mark.parametrize("snr_value, conclusion, expected", [
    (1.5, "A>B", "A>B"), (-1.5, "A>B", "B>A"), (1.5, "B>A", "A>B"), (0.0, "A>B", "none")])
def test_n_more_names_the_verdict_it_reaches(kind, snr_value, conclusion, expected):
    """"About N more" says which verdict it leads to: the one the same SNR decides at R + N
    (a planned design looks at every wave, so only its direction is checked here: a sample
    whose every look has the same SNR is not what with_snr builds)."""
    options = {"anytime": {}, "fixed": {"time_uniform": False},
               "planned": {"time_uniform": False, "planned": True, "wave": 5}}[kind]
    v = verdict(with_snr(snr_value, 5), conclusion, max_repetitions=200, **options)
    assert v.decision == "undecided" and v.more is not None and v.reaches == expected
    named = {"A>B": "A > B reproduces", "B>A": "B > A reproduces",
             "none": "neither direction reproduces with this estimator"}[expected]
    assert v.text.endswith(f"about {v.more} more to reach '{named}'")
    if kind != "planned":
        later = verdict(with_snr(snr_value, 5 + v.more), conclusion, max_repetitions=200,
                        **options)
        assert later.decision == expected
        assert verdict(with_snr(snr_value, 4 + v.more), conclusion, max_repetitions=200,
                       **options).decision == "undecided"


def test_equal_models_with_many_repetitions_show_no_reproducible_difference():
    rng = np.random.default_rng(5)
    x = rng.normal(0.0, 1.0, 200)
    assert verdict(x[:5]).decision == "undecided"
    v = verdict(x)
    assert v.text == "neither direction reproduces with this estimator" and v.path == "normal"
    assert 1 - THRESHOLD < v.reproducibility_low < v.reproducibility_high < THRESHOLD


def test_b_over_a_mirror():
    values = with_snr(8.0, 8)
    a = verdict(values)
    b = verdict(-values)
    assert a.decision == "A>B" and b.decision == "B>A" and b.text == "B > A reproduces"
    assert b.snr == pytest.approx(-a.snr) and b.snr_low == pytest.approx(-a.snr_high)
    # testing "B>A" on values that favour A: the verdict names the direction the data support
    flipped = verdict(values, "B>A")
    assert flipped.decision == "A>B" and flipped.text == "A > B reproduces"
    assert flipped.snr == pytest.approx(-a.snr)
    assert flipped.reproducibility == pytest.approx(1 - a.reproducibility)
    assert verdict(-values, "B>A").decision == "B>A"


def test_mixture_offset_shifts_the_decision():
    values = with_snr(1.3, 1000)
    low, high = snr_exact_interval(values)  # about [1.21, 1.39]
    assert verdict(values, time_uniform=False).decision == "A>B"
    # with the mixture's lean towards A > B, the same values no longer clear the threshold
    shifted = verdict(values, snr0=0.45, time_uniform=False)
    assert shifted.decision == "undecided"
    assert shifted.reproducibility_low == pytest.approx(stats.norm.cdf(low - 0.45))
    assert verdict(values, snr0=0.6, time_uniform=False).decision == "none"
    # a mixture at 0 while its null offset is 1: below what equal models show, so B > A
    assert verdict(with_snr(0.0, 1000), snr0=1.0, time_uniform=False).decision == "B>A"


def test_mixture_offset_of_a_study():
    record = json.loads(CHUNKING.read_text())
    values = record["values"]
    offset = mixture_null_offset(values["Vote"], values["Avg"]).snr
    assert offset > 0
    plain = verdict(values["Mixture"], time_uniform=False)
    offset_verdict = verdict(values["Mixture"], snr0=offset, time_uniform=False)
    assert offset_verdict.reproducibility < plain.reproducibility
    assert offset_verdict.snr_low == plain.snr_low  # the offset moves the threshold, not the SNR


def test_a_snr_on_the_threshold_never_decides():
    assert repetitions_to_decide(Z, 5) is None
    v = verdict(with_snr(Z, 50))
    assert v.more is None
    assert v.text == (f"undecided after 50 repetitions: more than the maximum of "
                      f"{MAX_REPETITIONS} repetitions to decide")
    assert verdict(with_snr(0.0, 5), max_repetitions=10).text == (
        "undecided after 5 repetitions: more than the maximum of 10 repetitions to decide")
    assert repetitions_to_decide(0.0, 20, max_repetitions=20) is None


@pytest.mark.slow
@pytest.mark.parametrize("time_uniform", [True, False])
def test_vectorized_decisions_agree_with_the_interval_rule(time_uniform):
    rng = np.random.default_rng(3)
    for _ in range(120):
        r = int(rng.choice([2, 3, 5, 10, 40, 200]))
        theta = float(rng.choice([-4, -1.5, -0.9, -0.3, 0.0, 0.5, 1.0, 2.0, 6.0]))
        values = with_snr(theta, r) + 0  # exact t statistic sqrt(r) theta
        snr0 = float(rng.choice([0.0, 0.35]))
        low, high = snr_interval(values, confidence=0.95, time_uniform=time_uniform)
        expected = decide(low, high, snr0=snr0)
        got = decisions(math.sqrt(r) * theta, r, snr0=snr0, time_uniform=time_uniform)
        assert int(got) == expected, (r, theta, snr0, low, high)
    # constant estimates: T = +-inf
    assert int(decisions(np.inf, 5)) == SUPPORTED and int(decisions(-np.inf, 5)) == OPPOSED
    assert int(decisions(np.inf, 4)) == UNDECIDED
    assert int(decisions(np.inf, 2, time_uniform=False)) == SUPPORTED


def test_verdict_fields_and_rule():
    v = verdict(with_snr(0.7, 30), snr0=0.1)
    low, high = snr_confidence_sequence(with_snr(0.7, 30))
    assert (v.snr_low, v.snr_high) == (low, high)
    assert v.snr == pytest.approx(0.7)
    assert v.reproducibility == pytest.approx(stats.norm.cdf(0.6))
    assert v.repetitions == 30 and v.time_uniform and v.threshold == THRESHOLD
    d = v.as_dict()
    assert d["decision"] == v.decision and set(d) == {f.name for f in dataclasses.fields(v)}
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.decision = "A>B"
    text = rule(0.9, 0.95, time_uniform=True, snr0={"Avg": 0.0, "Mixture": 0.354},
                conclusion="A>B", wave=5)
    # every estimator's own criterion, on both paths (Phi(1.2816 + 0.354) = 0.949)
    assert "Avg: Phi(SNR) >= 0.9 (share path: P(x > 0) >= 0.900)" in text
    assert "Mixture: Phi(SNR - 0.354) >= 0.9 (share path: P(x > 0) >= 0.949)" in text
    assert "confidence sequences, intersected over the looks (R = 5, 10, ...)" in text
    assert "A - B" in text and "Shapiro-Wilk p < 0.05" in text
    assert "intervals for a fixed R" in rule(time_uniform=False)
    # several comparisons: Bonferroni over comparisons x deciding estimators
    family = rule(comparisons=2, deciding=["Avg", "Mixture"])
    assert "4 verdicts" in family and "each at 0.9875 (Bonferroni)" in family


def test_predictive_reproducibility():
    values = [0.5, 1.5, 1.0, 0.2, 1.3]
    p = predictive_reproducibility(values)
    low, high = snr_exact_interval(values)
    assert p.value == pytest.approx(stats.norm.cdf(snr(values)))
    assert (p.low, p.high) == pytest.approx((stats.norm.cdf(low), stats.norm.cdf(high)))
    q = predictive_reproducibility(values, "B>A")
    assert (q.value, q.low, q.high) == pytest.approx((1 - p.value, 1 - p.high, 1 - p.low))
    wide = predictive_reproducibility(values, time_uniform=True)
    assert wide.low < p.low and wide.high >= p.high
    assert predictive_reproducibility([0.0, 0.0, 0.0]).as_dict() == {
        "value": 0.5, "low": 0.5, "high": 0.5}
    assert predictive_reproducibility([2.0, 2.0]).value == 1.0


def test_errors_name_the_argument():
    values = [0.1, 0.2, 0.3]
    for bad in (0.5, 1.0, 0.3, 1.5):
        with pytest.raises(ValueError, match="threshold"):
            verdict(values, threshold=bad)
    for bad in (0.0, 1.0, -0.1):
        with pytest.raises(ValueError, match="confidence"):
            verdict(values, confidence=bad)
    with pytest.raises(ValueError, match="values"):
        verdict([0.1])
    with pytest.raises(ValueError, match="values"):
        predictive_reproducibility([])
    with pytest.raises(ValueError, match="conclusion"):
        verdict(values, "A=B")
    with pytest.raises(ValueError, match="snr0"):
        verdict(values, snr0=math.nan)
    with pytest.raises(ValueError, match="max_repetitions"):
        verdict(values, max_repetitions=1)
    with pytest.raises(ValueError, match="wave"):
        replay(values, 0)
    with pytest.raises(ValueError, match="wave"):
        replay(values, 2.5)
    with pytest.raises(ValueError, match="threshold"):
        replay(values, 1, threshold=0.2)
    with pytest.raises(ValueError, match="threshold"):
        decisions(1.0, 3, threshold=1.0)


def test_replay_stops_at_the_first_decision_point():
    rng = np.random.default_rng(9)
    winner = 12.0 + rng.standard_normal(40) * 0.2  # SNR 60: clear at the first look
    first = replay(winner, 5)
    assert first.stopped_at == 5 and first.looks == (5,) and first.decided
    assert first.verdict.text == "A > B reproduces"
    equal = rng.standard_normal(12)
    stopped = replay(equal, 5, max_repetitions=12)
    assert stopped.looks == (5, 10, 12) and not stopped.decided and stopped.stopped_at == 12
    assert stopped.verdict.text == ("undecided after 12 repetitions: more than the maximum of 12 "
                                    "repetitions to decide")
    assert replay(equal, 1).looks[0] == 2  # a wave of 1 first looks at R = 2


@pytest.mark.slow
@pytest.mark.parametrize("estimator", ["ST", "RS", "Avg", "Vote", "Mixture"])
@pytest.mark.parametrize("wave", [1, 5, 10])
def test_replay_of_the_chunking_study(estimator, wave, monkeypatch):
    """The replay stops at the first look whose verdict is decided, with that look's verdict.

    The verdicts of the looks before it are the ones the replay computed, seen through a spy on
    the :func:`verdict` it calls (each of the prefix ``values[:r]``, all with the arguments of
    the last, whose verdict is computed again here). Computing every look's verdict a second
    time doubled the cost: a look's verdict reads each look up to it, so the replay at wave 1
    reads 20,000 looks (the Mixture's: 9.6 CPU s, and 19 with the second computation)."""
    record = json.loads(CHUNKING.read_text())
    values = np.asarray(record["values"][estimator])
    assert record["summary"]["conclusion"] == "A>B" and len(values) == 200
    calls = []

    def spy(prefix, *args, **kwargs):
        seen = verdict(prefix, *args, **kwargs)
        calls.append((np.array(prefix), args, kwargs, seen))
        return seen

    monkeypatch.setitem(replay.__globals__, "verdict", spy)
    result = replay(values, wave)
    monkeypatch.undo()
    assert result.looks[-1] == result.stopped_at and result.stopped_at % wave == 0
    assert result.verdict == verdict(values[:result.stopped_at], wave=wave)
    assert [len(prefix) for prefix, *_ in calls] == list(result.looks)
    for (prefix, args, kwargs, seen), r in zip(calls, result.looks):
        assert np.array_equal(prefix, values[:r]) and (args, kwargs) == calls[-1][1:3]
        assert seen.decision == "undecided" or r == result.stopped_at
    assert calls[-1][3] == result.verdict
    # the committed study: IOB2 vs IOBES, A behind on Avg and Vote (SNR -1.2 and -1.3 at R = 200)
    # Looking at every repetition (wave 1) gives the normal model's diagnostic 199 looks, and
    # Vote's is rejected by chance at R = 26 (Shapiro-Wilk p = 0.048): the distribution-free
    # path then decides, and needs more than 200. No wave ever names the wrong direction.
    assert result.verdict.decision in ("B>A", "none", "undecided")
    if estimator == "Avg" or (estimator == "Vote" and wave > 1):
        assert result.decided and result.verdict.decision == "B>A" and result.stopped_at < 100
    if estimator == "ST":
        assert result.decided and result.verdict.decision == "none"
