"""Significance claims per strategy (issue 13 item 2, library side) against the tests they run."""

from __future__ import annotations

import gzip

import numpy as np
import pytest

from conftest import ROOT
from reprocompare.estimators.claims import (MEASURED_SIZE, Claim, calibration_note,
                                            claim_reproducibility, read_counts)
from reprocompare.strategies import TESTS, repetition_tests, strategy
from reprocompare.estimators.reproducibility import clopper_pearson
from reprocompare.estimators.significance import (approximate_randomization, blocked_3x2_t,
                                                  combined_f_mx2, corpus_f1,
                                                  corrected_resampled_t, mcnemar,
                                                  paired_bootstrap, paired_t_mx2)


def _fold(rng, n, p_a, p_b):
    gold = rng.integers(0, 5, n)
    return {"A": np.c_[gold, gold, rng.binomial(gold, p_a)],
            "B": np.c_[gold, gold, rng.binomial(gold, p_b)]}


def _tsv(folds, vote=True):
    lines = ["fold\tmodel\tsentence\tgold\tpred\tcorrect"]
    for f, fold in enumerate(folds):
        for name in ("B", "A"):  # order must not matter
            for s, (g, p, c) in reversed(list(enumerate(fold[name].tolist()))):
                lines.append(f"{f}\t{name}\t{10 * s + f}\t{g}\t{p}\t{c}")
    if vote:
        lines.append("vote\tA\t0\t1\t1\t1")
    return "\n".join(lines) + "\n"


def test_read_counts_round_trip():
    rng = np.random.default_rng(0)
    folds = [_fold(rng, 30, 0.8, 0.7) for _ in range(2)]
    parsed = read_counts(gzip.decompress(gzip.compress(_tsv(folds).encode())).decode())
    assert len(parsed) == 2
    for ours, theirs in zip(parsed, folds):
        for name in ("A", "B"):
            np.testing.assert_array_equal(ours[name], theirs[name])


@pytest.mark.parametrize("text, match", [
    ("", "header"),
    ("fold\tmodel\tsentence\tgold\tpred\tcorrect\n0\tA\t1\t2\n", "line 2: expected 6"),
    ("fold\tmodel\tsentence\tgold\tpred\tcorrect\n0\tC\t1\t2\t2\t2\n", "model must be A or B"),
    ("fold\tmodel\tsentence\tgold\tpred\tcorrect\nx\tA\t1\t2\t2\t2\n", "integers"),
    # a digit int() cannot read (superscript two), and a negative count
    ("fold\tmodel\tsentence\tgold\tpred\tcorrect\n0\tA\t1\t\u00b2\t2\t2\n", "integers"),
    ("fold\tmodel\tsentence\tgold\tpred\tcorrect\n0\tA\t1\t-2\t2\t2\n", "integers"),
    ("fold\tmodel\tsentence\tgold\tpred\tcorrect\n0\tA\t1\t2\t2\t2\n0\tB\t2\t2\t2\t2\n",
     "different sentences"),
    ("fold\tmodel\tsentence\tgold\tpred\tcorrect\nvote\tA\t1\t2\t2\t2\n", "no fold rows"),
])
def test_read_counts_errors(text, match):
    with pytest.raises(ValueError, match=match):
        read_counts(text)


def test_holdout_runs_bootstrap_randomization_and_mcnemar():
    rng = np.random.default_rng(1)
    fold = _fold(rng, 400, 0.85, 0.75)
    claims = repetition_tests([fold], "holdout", n_resamples=2000, random_state=5)
    assert tuple(claims) == strategy("holdout").tests
    boot = paired_bootstrap(fold["A"], fold["B"], n_resamples=2000, random_state=5)
    ar = approximate_randomization(fold["A"], fold["B"], n_permutations=2000, random_state=6)
    assert (claims["paired_bootstrap"].statistic, claims["paired_bootstrap"].p_value) == \
        (boot.statistic, boot.p_value)
    assert (claims["approximate_randomization"].statistic,
            claims["approximate_randomization"].p_value) == tuple(ar)
    # McNemar on sentence-level exact match: right when correct == gold == pred
    right = {n: (fold[n][:, 2] == fold[n][:, 0]) & (fold[n][:, 1] == fold[n][:, 0])
             for n in ("A", "B")}
    assert claims["mcnemar"].p_value == mcnemar(right["A"], right["B"]).p_value
    assert claims["mcnemar"].difference == np.sum(right["A"] & ~right["B"]) - np.sum(
        ~right["A"] & right["B"])
    assert all(c.a_better() for c in claims.values())  # A is far ahead on 400 sentences


def test_repeated_holdout_and_bcv_use_fold_f1():
    rng = np.random.default_rng(2)
    folds = [_fold(rng, 50, 0.8, 0.78) for _ in range(6)]
    d = [corpus_f1(f["A"]) - corpus_f1(f["B"]) for f in folds]
    rs = repetition_tests(folds, "repeated-holdout", n_train=400)["corrected_resampled_t"]
    assert (rs.statistic, rs.p_value) == tuple(corrected_resampled_t(d, n_train=400,
                                                                     n_validation=50))
    bcv = repetition_tests(folds, "bcv")
    f1_a = [corpus_f1(f["A"]) for f in folds]
    f1_b = [corpus_f1(f["B"]) for f in folds]
    assert bcv["paired_t_mx2"].p_value == paired_t_mx2(f1_a, f1_b).p_value
    f = combined_f_mx2(f1_a, f1_b)
    assert bcv["combined_f_mx2"].p_value == f.p_value
    assert bcv["combined_f_mx2"].difference == f.mean_difference
    # six folds are a 3 x 2 BCV: the blocked 3x2 t runs too, its sign the claim's direction
    assert tuple(bcv) == strategy("bcv").tests
    blocked = blocked_3x2_t(f1_a, f1_b)
    assert (bcv["blocked_3x2_t"].statistic, bcv["blocked_3x2_t"].p_value) == tuple(blocked)
    assert bcv["blocked_3x2_t"].difference == blocked.statistic
    with pytest.raises(ValueError, match="n_train"):
        repetition_tests(folds, "repeated-holdout")
    with pytest.raises(ValueError, match="unknown strategy"):
        repetition_tests(folds, "cv")
    with pytest.raises(ValueError, match="1 fold"):
        repetition_tests(folds, "holdout")
    with pytest.raises(ValueError, match="no folds"):
        repetition_tests([], "bcv")


def test_claim_reproducibility_counts_significant_wins_by_direction():
    reps = [{"t": Claim("t", 3.0, 0.01, 3.0)}, {"t": Claim("t", 2.5, 0.049, 2.5)},
            {"t": Claim("t", 1.0, 0.3, 1.0)}, {"t": Claim("t", -3.0, 0.01, -3.0)},
            {"t": Claim("t", 2.0, 0.05, 2.0)}]
    out = claim_reproducibility(reps)["t"]
    # p <= 0.05 with A ahead: repetitions 1, 2, 5; B significantly ahead: repetition 4
    assert (out.repetitions, out.a_better, out.b_better, out.share) == (5, 3, 1, 0.6)
    assert (out.share_low, out.share_high) == clopper_pearson(3, 5)
    assert claim_reproducibility(reps, alpha=0.01)["t"].a_better == 1
    with pytest.raises(ValueError, match="no repetitions"):
        claim_reproducibility([])
    with pytest.raises(ValueError, match="same tests"):
        claim_reproducibility([{"t": reps[0]["t"]}, {"u": reps[0]["t"]}])


def test_identical_systems_never_claim_significance():
    rng = np.random.default_rng(3)
    fold = _fold(rng, 100, 0.8, 0.8)
    same = {"A": fold["A"], "B": fold["A"]}
    claims = repetition_tests([same], "holdout", n_resamples=500)
    assert not any(c.a_better() or c.b_better() for c in claims.values())
    assert claims["paired_bootstrap"].p_value == 1.0


@pytest.mark.parametrize("n_folds", [4, 10])
def test_blocked_3x2_t_runs_only_with_m_3(n_folds):
    rng = np.random.default_rng(7)
    folds = [_fold(rng, 40, 0.8, 0.75) for _ in range(n_folds)]
    claims = repetition_tests(folds, "bcv")
    assert tuple(claims) == ("paired_t_mx2", "combined_f_mx2")  # no row, no error


# ---- the claims table's calibration notes ----------------------------------------------------

def _size_table() -> dict[str, tuple[str, ...]]:
    """The rows of "Measured size and power at alpha = 0.05" in docs/statistics.md."""
    text = (ROOT / "docs" / "statistics.md").read_text()
    section = text.split("## Measured size and power at alpha = 0.05", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and cells[0] != "test" and len(cells) == 5:
            rows[cells[0]] = tuple(cells[1:])
    return rows


def _regularized_size_table() -> dict[str, tuple[str, str]]:
    """The regularized BCV's rows of docs/statistics.md's block "Size at alpha = 0.05" (its
    tests at its folds' measured correlation): test -> (normal, skewed) at that point."""
    text = (ROOT / "docs" / "statistics.md").read_text()
    block = text.split("<!-- regularized-calibration-docs:begin -->", 1)[1].split(
        "<!-- regularized-calibration-docs:end -->", 1)[0]
    rows = {}
    for line in block.split("Size at alpha", 1)[1].split("\n\n", 2)[1].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| regularized |"):
            rows[cells[1]] = (cells[2].split(" / ")[0], cells[3].split(" / ")[0])
    return rows


def test_measured_sizes_agree_with_the_calibration_table():
    table, regularized = _size_table(), _regularized_size_table()
    assert "corrected_resampled_t (J = 6)" in table  # the parsers found the tables
    assert "blocked_3x2_t (C = 0.409, 4.81 df)" in regularized
    for test, measured in MEASURED_SIZE.items():
        if test.startswith("regularized_"):  # measured under its own folds, its own table
            sizes = regularized[measured.row]
        else:
            assert measured.row in table, f"{test}: row {measured.row!r} not in statistics.md"
            normal_size, _, skewed_size, _ = table[measured.row]
            sizes = normal_size, skewed_size
        assert sizes == (f"{100 * measured.normal:.1f}", f"{100 * measured.skewed:.1f}"), test


def test_every_claims_test_has_a_measured_size():
    # the regularized BCV's tests carry their own, measured under its folds (issue 51)
    assert set(MEASURED_SIZE) == set(TESTS)


def test_a_regularized_test_names_its_folds_and_two_strategies_name_whose_note():
    """The regularized blocked t is liberal under skew (8.3%, its C = 0.409): its note says so
    and names its folds, and a claims table that holds both BCVs names the strategy before each
    note, their tests' names being the same."""
    from reprocompare.reports.tables import calibration_text

    note = calibration_note("regularized_blocked_3x2_t")
    assert note.startswith("liberal, measured size 8.3% at alpha 0.05 under skew")
    assert "regularized BCV's folds" in note and "C = 0.409" in note
    assert calibration_note("regularized_paired_t_mx2") == ""  # near alpha: nothing to say
    group = [{"strategy": "3x2 BCV", "test": "blocked_3x2_t",
              "calibration": calibration_note("blocked_3x2_t")},
             {"strategy": "regularized 3x2 BCV", "test": "regularized_blocked_3x2_t",
              "calibration": note}]
    text = calibration_text(group)
    assert "3x2 BCV, blocked 3x2 t (Wang et al.): conservative" in text
    assert "regularized 3x2 BCV, blocked 3x2 t (Wang et al.): liberal" in text
    assert calibration_text(group[:1]).startswith(" Calibration: blocked 3x2 t (Wang et al.):")


def test_calibration_notes_flag_liberal_and_conservative_tests_with_their_size():
    assert calibration_note("corrected_resampled_t") == (
        "liberal, measured size 9.7% at alpha 0.05 under skew (J = 6, simulated)")
    blocked = calibration_note("blocked_3x2_t")
    assert blocked.startswith("conservative, measured size at most 0.6% at alpha 0.05")
    assert "rho1 = -0.2, rho2 = 0" in blocked
    for test in ("paired_t_mx2", "combined_f_mx2"):
        assert calibration_note(test).startswith("conservative")
    # near alpha: nothing to say; not measured: nothing to say
    for test in ("paired_bootstrap", "approximate_randomization", "mcnemar", "wilcoxon", "x"):
        assert calibration_note(test) == ""
