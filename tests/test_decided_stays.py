"""A verdict decided at one look stays decided at every later look, on every path, and it is
printed beside the interval it was decided on (which clears the threshold it claims).

Measured on seeded studies continued past their decision: normal estimates at SNR 0 (the
verdict "neither" comes early and the normal model is later rejected by chance in some), and
the left-skewed law of docs/statistics.md (a negated standardized Gamma(2)), whose
Shapiro-Wilk rejections at later looks used to re-read a decided study on the
distribution-free path and take its verdict back.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from reprocompare.estimators.verdict import (share_bounds, verdict, SUPPORTED, OPPOSED,
                                             THRESHOLD)

WAVE, CONTINUED = 5, 60


def _studies(law: str, snr: float, count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if law == "normal":
        noise = rng.standard_normal((count, CONTINUED))
    else:
        noise = -(rng.gamma(2.0, 1.0, (count, CONTINUED)) - 2.0) / math.sqrt(2.0)
    return 0.01 * (snr + noise)  # F1 shares: a point of F1 per unit


DESIGNS = {"anytime": dict(time_uniform=True, wave=WAVE),
           "planned": dict(time_uniform=False, planned=True, wave=WAVE,
                           max_repetitions=CONTINUED)}


def _clears(v) -> bool:
    """The interval the verdict read clears the threshold of the direction it names."""
    up, down = share_bounds(THRESHOLD, v.snr0)
    normal = v.path == "normal"
    if v.decision == v.conclusion:
        return v.reproducibility_low >= (THRESHOLD if normal else up)
    if v.decision not in ("undecided", "none", "degenerate", "equivalent"):
        # the opposite direction: its quantity is 1 - P(x > 0) on the normal path
        return 1 - v.reproducibility_high >= THRESHOLD if normal else True
    if v.decision == "none":
        return v.reproducibility_low > 1 - THRESHOLD and v.reproducibility_high < THRESHOLD \
            if normal else v.reproducibility_high < up
    return True


@pytest.mark.slow
@pytest.mark.parametrize("design", sorted(DESIGNS))
@pytest.mark.parametrize("law,snr", [("normal", 0.0), ("left-skewed", -1.2)])
def test_a_decided_verdict_is_never_taken_back(design, law, snr):
    taken_back, decided = 0, 0
    for study in _studies(law, snr, 15, seed=int(10 * abs(snr)) + len(law)):
        first = None
        for r in range(WAVE, CONTINUED + 1, WAVE):
            v = verdict(study[:r], **DESIGNS[design])
            assert _clears(v), (r, v)
            if first is None and v.decision != "undecided":
                first = v
                assert v.decided_at == r and f"at R = {r}" in v.claim
            elif first is not None:
                taken_back += (v.decision, v.decided_at, v.claim) != \
                    (first.decision, first.decided_at, first.claim)
        decided += first is not None
    assert decided >= 3, f"too few decided studies to test anything ({decided})"
    assert taken_back == 0


def test_a_later_rejection_of_the_normal_model_does_not_undo_the_decision():
    """Ten clear estimates decide at R = 10; an outlier at R = 11 makes Shapiro-Wilk reject
    the normal model, which once re-read the whole study on the distribution-free path
    (undecided at R = 15). The verdict, its path and its interval stay those of R = 10."""
    rng = np.random.default_rng(7)
    clear = 0.03 + 0.01 * rng.standard_normal(10)
    values = np.r_[clear, -0.2, 0.03 + 0.01 * rng.standard_normal(4)]
    at_ten = verdict(values[:10], time_uniform=True, wave=WAVE)
    later = verdict(values, time_uniform=True, wave=WAVE)
    assert at_ten.decision == later.decision == "A>B"
    assert later.decided_at == 10 and later.path == "normal"
    assert later.claim == at_ten.claim == \
        f"Phi(SNR) >= {at_ten.reproducibility_low:.2f} at R = 10, normal model (unchecked " \
        "below R = 15)"
    assert at_ten.reproducibility_low >= THRESHOLD
    # the SNR printed beside it is R's, narrowed by the later look
    assert later.snr_low >= at_ten.snr_low


def test_the_claim_names_the_direction_it_decides():
    rng = np.random.default_rng(2)
    b_better = -0.02 + 0.01 * rng.standard_normal(30)
    v = verdict(b_better)
    assert v.decision == "B>A"
    low = 1 - v.reproducibility_high
    assert v.claim == f"Phi(-SNR) >= {_floor2(low)} at R = 30, normal model"
    assert 1 - v.reproducibility_high >= THRESHOLD
    tied = np.round(0.03 + 0.01 * rng.standard_normal(80), 2)  # ties: distribution-free
    v = verdict(tied)
    assert v.path == "distribution-free" and v.decision == "A>B"
    assert v.claim.startswith("share P(A - B > 0) >= ") and "normal model" not in v.claim
    assert v.reproducibility_low >= THRESHOLD


def _floor2(x: float) -> str:
    """Two decimals, rounded down, by hand: the printed bound of a lower end."""
    hundredths = math.floor(round(x * 100, 9))
    return f"{hundredths // 100}.{hundredths % 100:02d}"


def test_a_claim_never_prints_a_bound_the_interval_does_not_reach():
    """The claim's ends round outward (a lower end down, an upper end up): a lower end of
    0.9967 rounded to the nearest would print ">= 1.00", more than the data say. Over seeded
    studies, every decided claim's printed bound lies within [threshold, the bound it read],
    and an undecided claim's printed interval contains the one read; a threshold with three
    decimals is printed with three."""
    import re

    rng = np.random.default_rng(11)
    seen_down = 0
    for threshold in (0.8, 0.99, 0.995):
        for snr in (1.5, 3.0, 6.0, 12.0):
            for _ in range(15):
                values = 0.01 * (snr + rng.standard_normal(int(rng.integers(5, 40))))
                v = verdict(values, threshold=threshold)
                if v.decision == "A>B":
                    printed = float(re.search(r">= ([0-9.]+) at R", v.claim).group(1))
                    assert threshold <= printed <= v.reproducibility_low, (v.claim, v)
                    seen_down += round(v.reproducibility_low, 2) > printed
                    if threshold == 0.995 and printed < 1:
                        assert re.search(r">= [0-9]\.[0-9]{3} at R", v.claim), v.claim
                elif v.decision == "undecided" and " in [" in v.claim:
                    low, high = map(float, re.search(r"in \[([0-9.]+), ([0-9.]+)\]",
                                                     v.claim).groups())
                    assert low <= v.reproducibility_low and high >= v.reproducibility_high
    assert seen_down > 0  # rounding to the nearest would have printed more than was read


def test_a_claim_takes_the_decimals_its_criterion_needs():
    """Off the normal model a mixture's A > B needs a share above tau (share_bounds: 0.996 at
    tau 0.99 and an offset of 0.4): its claim prints enough decimals to show it cleared that,
    not a rounded bound below it; "neither" prints an interval strictly inside both criteria."""
    import re

    from reprocompare.estimators.verdict import NO_DIFFERENCE, _Reading

    need_up, _ = share_bounds(0.99, 0.4)
    assert 0.995 < need_up < 0.998
    low = need_up + 0.0001  # cleared, but 0.99 at two decimals
    shares = _Reading(at=2000, code=SUPPORTED, path="distribution-free", reason="", point=1.0,
                      low=low, high=1.0, other_low=0.0, interval="", snr_low=0, snr_high=0,
                      snr0=0.4)
    claim = shares.claim(SUPPORTED, "A>B", 0.99)
    printed = float(re.search(r">= ([0-9.]+) at R", claim).group(1))
    assert need_up <= printed <= low, claim
    neither = _Reading(at=200, code=NO_DIFFERENCE, path="normal", reason="", point=0.5,
                       low=0.2003, high=0.7996, other_low=0.2004, interval="", snr_low=0,
                       snr_high=0, snr0=0.0)
    text = neither.claim(NO_DIFFERENCE, "A>B", 0.8)
    low, high = map(float, re.search(r"in \[([0-9.]+), ([0-9.]+)\]", text).groups())
    assert 0.2 < low <= 0.2003 and 0.7996 <= high < 0.8, text  # not [0.20, 0.80]


def test_the_terminal_says_the_claim_beside_a_decided_verdict():
    """reprocompare run's and sequential's lines (reports.tables.said): a decided verdict with
    the interval it was decided on; an undecided or spreadless one without a claim."""
    from reprocompare.reports.tables import said

    claim = "Phi(SNR) >= 0.93 at R = 10, normal model"
    assert said("A > B reproduces", "A>B", 10, None, 20, claim) == \
        f"A > B reproduces ({claim})"
    undecided = "undecided after 10 repetitions: about 5 more to reach 'A > B reproduces'"
    assert said(undecided, "undecided", 10, None, None,
                "Phi(SNR) in [0.55, 0.97] at R = 10, normal model") == undecided
    assert said("no verdict: no spread", "degenerate", 10, None, None, "") == \
        "no verdict: no spread"


def test_a_normal_path_verdict_below_r15_says_the_model_was_not_checked_in_every_format():
    """Shapiro-Wilk runs from R = 15 (estimators.normality): a verdict read on the normal model
    before it says so beside its interval and on its path, in the terminal, Table 4's CSV,
    Markdown and LaTeX, and the report's front page; from R = 15 it does not."""
    from reprocompare.estimators.reproducibility import model_interval, summarize
    from reprocompare.reports.front import answer_rst
    from reprocompare.reports.latex import table4_latex
    from reprocompare.reports.tables import (TABLE4_COLUMNS, said, table4_markdown, table4_rows,
                                             to_csv)
    from reprocompare.study.summary import verdicts

    rng = np.random.default_rng(3)
    early = 0.03 + 0.003 * rng.standard_normal(10)
    v = verdict(early, time_uniform=False, wave=WAVE, planned=True, max_repetitions=20)
    assert v.decision == "A>B" and v.decided_at < 15 and v.path == "normal"
    unchecked = "normal model (unchecked below R = 15)"
    assert v.claim.endswith(unchecked)
    assert v.path_reason == "not checked below R = 15, only for ties"
    assert unchecked in said(v.text, v.decision, v.repetitions, None, 20, v.claim)
    later = verdict(0.03 + 0.003 * rng.standard_normal(20), time_uniform=False)
    assert later.path == "normal" and later.claim.endswith(", normal model")
    assert "not checked" not in later.path_reason

    values = {"Avg": list(early)}
    summary = {"models": {"A": "crf:scheme=IOB2", "B": "crf:scheme=IOBES"}, "conclusion": "A>B",
               "table4_k": 2, "estimators": {"Avg": summarize(early).as_dict()},
               "per_model": {m: model_interval(0.9 + 0.001 * rng.standard_normal(10)).as_dict()
                             for m in "AB"},
               "corpus": {"name": "conll2000", "sentences": 600}, "typed": False,
               "strategies": {"bcv": {"m": 5}}}
    summary.update(verdicts(values, {}, "A>B"))
    rows = table4_rows({"crf on conll2000": summary})
    avg = next(r for r in rows if r["estimator"] == "Avg")
    assert avg["verdict_claim"].endswith(unchecked)
    assert avg["verdict_path"] == "normal (not checked below R = 15, only for ties)"
    assert unchecked in to_csv(rows, TABLE4_COLUMNS)
    markdown = table4_markdown(rows)
    assert unchecked in markdown and "Avg normal (not checked below R = 15" in markdown
    assert "unchecked below R" in " ".join(table4_latex(rows).split())
    assert "unchecked below R" in answer_rst(rows, {})  # RST escapes the brackets and "="
