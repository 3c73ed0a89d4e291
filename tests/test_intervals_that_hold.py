"""Intervals that hold where they are printed (issue 33): the sequences behind a sequential
study's every interval, the normal model's diagnostic, the distribution-free path, the running
intersection, equivalence against statsmodels' TOST, zero variance, and the family's confidence.

Every formula is checked against an independent computation (statsmodels, scipy, a closed form)
or by a seeded simulation of its coverage.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import special, stats

from reprocompare.estimators.normality import normal_model
from reprocompare.estimators.effect import mean_interval
from reprocompare.estimators.group_sequential import look_confidences
from reprocompare.estimators.reproducibility import clopper_pearson, snr_exact_interval, summarize
from reprocompare.estimators.sequential import (looks, mean_confidence_sequence,
                                                running_intersection,
                                                share_confidence_sequence,
                                                snr_confidence_sequence, snr_e_value)
from reprocompare.estimators.verdict import (family_confidence, share_bounds,
                                             share_repetitions_to_decide, verdict)
from reprocompare.study.summary import interval_fields, verdicts


def normal_scores(theta: float, r: int) -> np.ndarray:
    base = stats.norm.ppf((np.arange(r) + 0.5) / r)
    return (base - base.mean()) / base.std(ddof=1) + theta


# ---- the sequences ---------------------------------------------------------------------------

def test_share_sequence_is_the_robbins_mixture_by_hand():
    # at each end the mixture's e-value B(1 + S, 1 + F) / (p^S (1 - p)^F) equals 1 / alpha
    s, n = 17, 25
    low, high = share_confidence_sequence(s, n)
    for p in (low, high):
        e = math.exp(special.betaln(1 + s, 1 + n - s) - s * math.log(p) - (n - s) * math.log1p(-p))
        assert e == pytest.approx(20.0, rel=1e-9)
    assert low < s / n < high
    # with every estimate positive, the lower end passes 0.8 at n = 29: (n + 1) 0.8^n <= 0.05
    assert share_confidence_sequence(28, 28)[0] < 0.8 <= share_confidence_sequence(29, 29)[0]
    assert share_confidence_sequence(0, 5) == (0.0, pytest.approx(0.6161, abs=1e-4))


@pytest.mark.slow
def test_share_sequence_covers_at_every_n_at_once():
    """Seeded: 400 Bernoulli(0.7) paths of 200; time-uniform coverage at least 95%."""
    rng = np.random.default_rng(33)
    covered = 0
    for _ in range(400):
        signs = rng.random(200) < 0.7
        counts = np.cumsum(signs)
        covered += all(low <= 0.7 <= high for low, high in
                       (share_confidence_sequence(int(counts[n - 1]), n)
                        for n in range(5, 201, 5)))
    assert covered / 400 >= 0.95


def test_mean_sequence_is_wider_than_student_and_solves_the_e_value():
    x = np.array([0.9, 1.1, 1.0, 1.2, 0.8, 1.05])
    low, high = mean_confidence_sequence(x)
    t_low, t_high = stats.t.interval(0.95, len(x) - 1, x.mean(), x.std(ddof=1) / np.sqrt(len(x)))
    assert low < t_low < x.mean() < t_high < high
    assert (low + high) / 2 == pytest.approx(x.mean())
    # its end is where the SNR-0 e-value of x - m reaches 20 (Wang & Ramdas, Theorem 4.9)
    assert snr_e_value(x - low) == pytest.approx(20.0, rel=1e-6)
    assert mean_confidence_sequence([0.3, 0.3]) == (0.3, 0.3)


@pytest.mark.slow
def test_mean_sequence_covers_normal_means_at_every_look():
    rng = np.random.default_rng(7)
    covered = sum(all(lo <= 0.2 <= hi for lo, hi in
                      (mean_confidence_sequence(x[:r]) for r in range(5, 101, 5)))
                  for x in rng.normal(0.2, 1.0, (300, 100)))
    assert covered / 300 >= 0.95


def test_running_intersection_and_looks():
    assert looks(12, 5) == [5, 10, 12] and looks(10, 5) == [5, 10] and looks(3, 1) == [2, 3]
    assert running_intersection([(0, 3), (1, 4), (-1, 2)]) == (1, 2)
    with pytest.raises(ValueError, match="wave"):
        looks(10, 0)


# ---- the normal model's diagnostic -------------------------------------------------------------

def test_the_diagnostic_rejects_ties_and_skew_and_keeps_normal_samples():
    assert not normal_model(normal_scores(0.5, 40)).rejected
    assert normal_model([0.1, 0.2, 0.1, 0.3]).reason == "ties among the estimates"
    skewed = -np.random.default_rng(1).exponential(size=60)
    model = normal_model(skewed)
    assert model.rejected and model.pvalue == pytest.approx(stats.shapiro(skewed).pvalue)
    # checked at looks, the first rejection wins and is remembered with its R
    x = np.concatenate([normal_scores(0, 10), [0.4, 0.4]])
    assert normal_model(x, [5, 10, 12]).at == 12 and not normal_model(x, [5, 10]).rejected


# ---- verdicts off the normal model -----------------------------------------------------------

@pytest.mark.slow
def test_discrete_estimates_decide_on_eq1_shares():
    """Ties (a small validation set): the verdict reads the shares, not Phi(SNR)."""
    rng = np.random.default_rng(3)
    x = np.round((1.0 + rng.standard_normal(300)) * 2) / 2  # P(x > 0) = 0.773 < 0.8
    v = verdict(x, time_uniform=False)
    assert v.path == "distribution-free" and v.path_reason == "ties among the estimates at R = 300"
    assert v.reproducibility == pytest.approx(np.mean(x > 0))
    assert v.decision != "A>B"  # Phi(SNR 1.0) = 0.84 would have said "A > B reproduces"
    clear = np.round((3.0 + rng.standard_normal(60)) * 2) / 2
    assert verdict(clear).decision == "A>B" and verdict(clear).path == "distribution-free"


def test_more_to_decide_on_the_share_path_never_passes_the_maximum():
    x = np.round((0.3 + np.random.default_rng(4).standard_normal(5)) * 2) / 2
    x[:2] = 0.5  # ties: the share path
    v = verdict(x, wave=5, max_repetitions=20)
    assert v.path == "distribution-free" and v.decision == "undecided"
    assert v.more is None or v.repetitions + v.more <= 20
    assert share_repetitions_to_decide(0.6, 0.4, 5, max_repetitions=20) is None


def test_share_bounds_map_the_mixture_offset():
    assert share_bounds(0.8, 0.0) == pytest.approx((0.8, 0.8))
    up, down = share_bounds(0.8, 0.35)
    assert up == pytest.approx(stats.norm.cdf(stats.norm.ppf(0.8) + 0.35))
    assert down == pytest.approx(stats.norm.cdf(stats.norm.ppf(0.8) - 0.35))


def test_a_decided_verdict_stays_decided_over_looks():
    # decided at R = 15 by its sequence; later waves widen the plain interval, not the verdict
    rng = np.random.default_rng(11)
    x = np.concatenate([normal_scores(2.5, 15), rng.normal(0.8, 1.0, 40)])
    assert verdict(x[:15], wave=5).decision == "A>B"
    assert verdict(x, wave=5).decision == "A>B"
    later = verdict(x, wave=5)
    assert later.snr_low >= max(snr_confidence_sequence(x[:r])[0] for r in (5, 10, 15)) - 1e-12


# ---- equivalence ---------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_fixed_r_equivalence_is_statsmodels_tost(seed):
    from statsmodels.stats.weightstats import ttost_paired

    rng = np.random.default_rng(seed)
    x = rng.normal(0.001 * seed, 0.002, 12)
    rope = 0.004
    v = verdict(x, time_uniform=False, rope=rope, confidence=0.95)
    pvalue = ttost_paired(x, np.zeros_like(x), -rope, rope)[0]
    assert (v.decision == "equivalent" or "no practical difference" in v.text) == (pvalue < 0.05)


def test_sequential_equivalence_reads_the_t_sequence():
    # mean 0.00005, sd 0.001: within +-0.5 F1 points; in the random order repetitions come in
    # (sorted, the first looks would hold only the lowest scores: "B > A", kept once decided)
    x = np.random.default_rng(0).permutation(normal_scores(0.05, 60)) * 0.001
    v = verdict(x, rope=0.005, wave=5)
    low, high = running_intersection(mean_confidence_sequence(x[:r]) for r in looks(60, 5))
    assert (v.mean_low, v.mean_high) == (low, high) and v.decision == "equivalent"
    assert v.text.startswith("no practical difference: the mean of A - B lies within +-0.5 F1")
    with pytest.raises(ValueError, match="rope"):
        verdict(x, rope=float("nan"))


# ---- zero variance, the family, the printed rule ----------------------------------------------

def test_zero_variance_is_no_verdict_and_no_traceback():
    for values in ([0.0] * 5, [0.02] * 5):
        record = verdicts({"Avg": values, "ST": values}, {}, "A>B")
        assert {v["decision"] for v in record["verdicts"].values()} == {"degenerate"}
        assert all("reproduces" not in v["text"] for v in record["verdicts"].values())
        fields = interval_fields(values, "A>B", time_uniform=True, wave=5,
                                 summary=summarize(values).as_dict())
        assert fields["mean_low"] == fields["mean_high"] == pytest.approx(values[0])


def test_family_confidence_is_bonferroni_and_printed():
    assert family_confidence(0.95, 4) == pytest.approx(0.9875)
    record = verdicts({"Avg": list(normal_scores(1.0, 20))}, {}, "A>B",
                      {"threshold": 0.8, "confidence": 0.95, "comparisons": 3,
                       "deciding": ["Avg"]})
    assert record["verdicts"]["Avg"]["confidence"] == pytest.approx(1 - 0.05 / 3)
    assert "3 verdicts (3 comparison(s) x deciding Avg)" in record["verdict_rule"]


def test_sequential_intervals_are_wider_than_fixed_r_ones():
    """Done-when of issue 33: every printed interval of a sequential study is time-uniform and
    wider than the fixed-R one from its own estimates."""
    x = np.random.default_rng(5).normal(-0.3, 0.4, 40) / 100
    fixed = summarize(x).as_dict()
    fixed.update(interval_fields(x, "A>B", time_uniform=False, wave=None, summary=fixed))
    seq = interval_fields(x, "A>B", time_uniform=True, wave=5, summary=fixed)
    for low, high in (("mean_low", "mean_high"), ("snr_low", "snr_high"),
                      ("reproducibility_low", "reproducibility_high")):
        assert seq[low] < fixed[low] and fixed[high] < seq[high], low
    assert "intersected over looks" in seq["interval_kinds"]["snr"]


def test_planned_intervals_are_each_looks_exact_interval_intersected():
    """Issue 39: under a planned design every printed interval is a repeated confidence
    interval: at a planned look, that look's fixed-R interval at its own level; at an R that
    was not planned, what the last planned look said; later, intersected with the next."""
    x = np.random.default_rng(5).normal(0.3, 0.4, 10) / 100
    levels = look_confidences(5, 10, 0.95)
    fields = lambda n: interval_fields(x[:n], "A>B", time_uniform=False, wave=5,  # noqa: E731
                                       summary={}, planned=True, max_repetitions=10)
    five, seven, ten = fields(5), fields(7), fields(10)
    mean = mean_interval(float(x[:5].mean()), float(x[:5].std(ddof=1)), 5, levels[5])
    assert (five["mean_low"], five["mean_high"]) == pytest.approx((mean.low, mean.high))
    assert (five["snr_low"], five["snr_high"]) == pytest.approx(
        snr_exact_interval(x[:5], confidence=levels[5]))
    assert (five["reproducibility_low"], five["reproducibility_high"]) == pytest.approx(
        clopper_pearson(int(np.sum(x[:5] > 0)), 5, levels[5]))
    assert {key: seven[key] for key in five} == five
    last = snr_exact_interval(x, confidence=levels[10])
    assert (ten["snr_low"], ten["snr_high"]) == pytest.approx(
        (max(five["snr_low"], last[0]), min(five["snr_high"], last[1])))
    assert ten["snr_method"] == "planned" and all(
        "planned look" in kind and "intersected over looks" in kind
        for kind in ten["interval_kinds"].values())


def test_tables_caution_where_the_normal_model_is_rejected():
    from reprocompare.reports.tables import table4_markdown, table4_rows

    ties = [0.01, 0.01, 0.02, 0.03, 0.02, 0.01]
    smooth = list(normal_scores(1.0, 6) / 100)
    summary = {"models": {"A": "a", "B": "b"}, "conclusion": "A>B", "estimators": {
        "ST": summarize(ties).as_dict(), "Avg": summarize(smooth).as_dict()}}
    summary.update(verdicts({"ST": ties, "Avg": smooth}, {}, "A>B"))
    markdown = table4_markdown(table4_rows({"p": summary}))
    assert "Caution: the estimates of ST fail the normal model's check" in markdown
    assert "Avg fail" not in markdown and "Path: ST distribution-free (ties" in markdown


def test_an_end_stays_open_while_every_estimate_lies_on_one_side():
    """P(x > 0) = 1 is what estimates that are all positive cannot rule out without the normal
    model's tails: the printed interval keeps its upper end at 1 (bench_intervals measured the
    coverage this buys where a law has no mass below 0), and 'neither' waits."""
    positive = normal_scores(3.0, 20)
    assert (positive > 0).all()
    v = verdict(positive, wave=5)
    assert v.path == "normal" and v.reproducibility_high == 1.0 and v.decision == "A>B"
    assert verdict(-positive, wave=5).reproducibility_low == 0.0
    mixed = normal_scores(0.0, 40)
    assert verdict(mixed, wave=5).reproducibility_high < 1.0
