"""Block-regularized m x 2 BCV (issue 51): every promise of a BCV split kept, the blocks balanced.

Checked here: the split of the regularized strategy is a BCV split (2^ceil(log2(m + 1)) blocks of
near-equal size, Table 1's combination, every sentence validated once per 2-fold CV, training
sets of two CVs overlapping by half, documents kept whole), deterministic from its seed, lower in
train/validation divergence than the plain BCV's of the same seed on real CoNLL-2000 sentences;
its scikit-learn splitter draws the same folds and pickles; bad input ends in one line; and the
strategy runs through the split document, the repetition's record, Table 4's values and the
claims under its own names.
"""

from __future__ import annotations

import importlib.util
import pickle
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from reprocompare.base.errors import UserError
from reprocompare.corpora.conll import read_conll
from reprocompare.splitters import load_split, make_splitter, split_document
from reprocompare.splitters.document import dumps
from reprocompare.splitters.drawing import bcv_layout, half_signs, n_blocks
from reprocompare.estimators.reproducibility import summarize
from reprocompare.reports.tables import table4_rows
from reprocompare.strategies import (CHOSE_VOTE, ESTIMATORS, MIXED, TESTS, kind_of_test, labels,
                                     of_estimator, repetition_tests, strategy)
from reprocompare.strategies.regularized_bcv import (BLOCKED_T_CONSTANT, BLOCKED_T_DF, FOLD_RHO1,
                                                     FOLD_RHO2, STRATEGY, Balance,
                                                     blocked_t_calibration, fold_divergences,
                                                     positional_tags, regularized_layout)
from reprocompare.splitters.document import repetition_seed
from reprocompare.study.summary import Repetition, estimator_values

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def conll_tags():
    """400 sentences of the shipped CoNLL-2000 test set: real chunk tags and lengths."""
    corpus = read_conll(ROOT / "data" / "conll2000" / "test.txt.gz")
    return corpus.tags[:400]


def _check_bcv(blocks, folds, validating, n, m):
    b = n_blocks(m)
    assert len(blocks) == b and len(folds) == 2 * m
    sizes = [len(block) for block in blocks]
    assert max(sizes) - min(sizes) <= 1
    assert sorted(np.concatenate(blocks).tolist()) == list(range(n))
    signs = half_signs(m)
    for r in range(m):
        (train_1, validation_1), (train_2, validation_2) = folds[2 * r], folds[2 * r + 1]
        assert np.array_equal(train_1, validation_2) and np.array_equal(train_2, validation_1)
        assert not set(train_1.tolist()) & set(validation_1.tolist())
        assert len(train_1) + len(validation_1) == n
        first = np.sort(np.concatenate([blocks[i] for i in range(b) if signs[r, i] < 0]))
        assert np.array_equal(validation_1, first)  # Table 1's combination of these blocks
        assert np.array_equal(validating[validation_1, r], np.full(len(validation_1), 2 * r))
    for r in range(m):  # training sets of two 2-fold CVs share half of each: n/4 (within ones)
        for s in range(r + 1, m):
            shared = len(set(folds[2 * r][0].tolist()) & set(folds[2 * s][0].tolist()))
            assert abs(shared - n / 4) <= b


@pytest.mark.slow
@pytest.mark.parametrize("m", [1, 2, 3, 4])
def test_a_regularized_split_is_a_bcv_split(conll_tags, m):
    n = len(conll_tags)
    blocks, folds, validating = regularized_layout(n, m=m, tags=conll_tags, random_state=7)
    _check_bcv(blocks, folds, validating, n, m)


@pytest.mark.slow
def test_it_is_deterministic_from_the_seed(conll_tags):
    n = len(conll_tags)
    one = regularized_layout(n, tags=conll_tags, random_state=11)[0]
    again = regularized_layout(n, tags=conll_tags, random_state=11)[0]
    other = regularized_layout(n, tags=conll_tags, random_state=12)[0]
    assert all(np.array_equal(a, b) for a, b in zip(one, again))
    assert not all(np.array_equal(a, b) for a, b in zip(one, other))


@pytest.mark.slow
def test_it_lowers_the_divergence_of_the_plain_bcv_of_the_same_seed(conll_tags):
    n = len(conll_tags)
    plain, regularized, tag_plain, tag_regularized = [], [], [], []
    balance = Balance(conll_tags)
    for seed in range(5):
        folds = bcv_layout(n, m=3, random_state=seed)[1]
        plain.append(np.mean(fold_divergences(conll_tags, folds)))
        tag_plain.append(np.mean([balance.tag_divergence(t, v) for t, v in folds]))
        folds = regularized_layout(n, m=3, tags=conll_tags, random_state=seed)[1]
        regularized.append(np.mean(fold_divergences(conll_tags, folds)))
        tag_regularized.append(np.mean([balance.tag_divergence(t, v) for t, v in folds]))
    # the target (at most half) on every seed, for the objective and its tag part alone
    assert all(r <= p / 2 for r, p in zip(regularized, plain))
    assert np.mean(tag_regularized) <= np.mean(tag_plain) / 2


def test_documents_stay_whole_and_blocks_as_even_as_the_plain_draw(conll_tags):
    n = len(conll_tags)
    groups = np.arange(n) // 5  # documents of five sentences
    plain = bcv_layout(n, m=3, random_state=3, groups=groups)[0]
    blocks, folds, validating = regularized_layout(n, m=3, tags=conll_tags, random_state=3,
                                                   groups=groups)
    spread = max(map(len, blocks)) - min(map(len, blocks))
    assert spread <= max(map(len, plain)) - min(map(len, plain))
    for block in blocks:
        assert set(groups[block].tolist()).isdisjoint(
            set(groups[np.setdiff1d(np.arange(n), block)].tolist()))
    assert sorted(np.concatenate(blocks).tolist()) == list(range(n))


def test_positions_are_read_scheme_free():
    iob1 = ["I-NP", "I-NP", "B-NP", "O", "I-VP"]
    iobes = ["B-NP", "E-NP", "S-NP", "O", "S-VP"]
    assert positional_tags(iob1) == positional_tags(iobes) == iobes


@pytest.mark.slow
def test_the_split_document_and_the_splitter_draw_the_same_folds(conll_tags):
    n = len(conll_tags)
    document = split_document("regularized-bcv", n, tags=conll_tags, seed=2, repetition=1)
    assert list(document)[-3:] == ["m", "blocks", "folds"]
    seed = repetition_seed(2, "regularized-bcv", 1)
    splitter = make_splitter("regularized-bcv", random_state=seed)
    folds = list(splitter.split(conll_tags, conll_tags))
    assert [f["validation"] for f in document["folds"]] == [v.tolist() for _, v in folds]
    assert [b.tolist() for b in splitter.blocks(conll_tags, conll_tags)] == document["blocks"]
    assert splitter.validating_folds(conll_tags, conll_tags).shape == (n, 3)
    assert type(pickle.loads(pickle.dumps(splitter))) is type(splitter)
    # byte for byte the same document on a second draw; readable by the one reader
    again = split_document("regularized-bcv", n, tags=conll_tags, seed=2, repetition=1)
    assert dumps(again) == dumps(document)


def test_the_split_document_round_trips(tmp_path, conll_tags):
    document = split_document("regularized-bcv", 40, tags=conll_tags[:40], seed=0)
    path = tmp_path / "split.json"
    path.write_text(dumps(document))
    assert load_split(path)["blocks"] == document["blocks"]


@pytest.mark.parametrize("call, message", [
    (lambda tags: regularized_layout(3, tags=tags[:3], random_state=0),
     r"^3x2 BCV needs at least 4 sentences \(one per block, 4 blocks\), got 3$"),
    (lambda tags: regularized_layout(8, tags=[["O"]] * 8, random_state=0),
     r"^regularized BCV balances the tag distribution, and the corpus has one tag only \(O\)$"),
    (lambda tags: regularized_layout(40, m=0, tags=tags[:40], random_state=0),
     r"^m must be a positive integer \(>= 1\), got 0$"),
    (lambda tags: regularized_layout(40, tags=tags[:39], random_state=0),
     r"^regularized BCV needs the tags of each of the 40 sentences, got 39$"),
    (lambda tags: split_document("regularized-bcv", 40),
     r"^regularized-bcv balances the corpus's tags: give them \(tags=\)$"),
])
def test_bad_input_ends_in_one_line(conll_tags, call, message):
    with pytest.raises(UserError, match=message):
        call(conll_tags)


def test_it_is_registered_with_its_own_names():
    assert strategy("regularized_bcv") is strategy("regularized-bcv") is STRATEGY
    assert STRATEGY.code == 4 and STRATEGY.votes and not STRATEGY.recommended
    assert ESTIMATORS[-3:] == ("rAvg", "rVote", "rMixture")
    assert of_estimator("rMixture") is STRATEGY and MIXED["rMixture"] == ("rVote", "rAvg")
    assert labels({"regularized_bcv": {"m": 3}})["rAvg"] == "regularized 3x2 BCV"
    assert labels(None)["rVote"] == "regularized m x 2 BCV (m not recorded)"
    # its tests have names of their own (a study's claims are keyed by them), the BCV's kinds
    assert len(set(TESTS)) == len(TESTS)
    assert [kind_of_test(t) for t in STRATEGY.tests] == ["paired_t_mx2", "combined_f_mx2",
                                                         "blocked_3x2_t"]


def test_its_record_and_table4_values_go_by_its_names():
    f1 = {"A": [0.8, 0.7, 0.9, 0.6, 0.8, 0.7], "B": [0.7, 0.7, 0.8, 0.7, 0.7, 0.7]}
    records = [Repetition(STRATEGY.estimate(f1, {"A": 0.8 + r / 100, "B": 0.75}), r, f"rep{r}")
               for r in range(3)]
    assert {r.strategy for r in records} == {"regularized-bcv"}
    values = estimator_values(records, 6, "A>B")
    assert values["rAvg"] == pytest.approx([0.2 / 6] * 3)
    assert values["rVote"] == pytest.approx([0.05, 0.06, 0.07])
    assert values["rMixture"] == pytest.approx([0.05, 0.06, 0.07])
    assert "Avg" not in values


def test_its_claims_carry_its_test_names():
    rng = np.random.default_rng(0)

    def counts(gold):
        correct = np.minimum(gold, rng.integers(0, 4, size=gold.shape))
        return np.hstack([gold, gold, correct])

    folds = [{"A": counts(g), "B": counts(g)} for g in
             (rng.integers(1, 4, size=(30, 1)) for _ in range(6))]
    tested = repetition_tests(folds, "regularized-bcv")
    assert tuple(tested) == STRATEGY.tests
    assert all(claim.test == name for name, claim in tested.items())
    plain = repetition_tests(folds, "bcv")
    for name, kind in zip(STRATEGY.tests[:2], ("paired_t_mx2", "combined_f_mx2")):
        assert tested[name].p_value == plain[kind].p_value
    # the blocked 3x2 t: the plain statistic over the regularized folds' constant, its own df
    blocked = tested["regularized_blocked_3x2_t"]
    t = plain["blocked_3x2_t"].statistic / BLOCKED_T_CONSTANT
    assert blocked.statistic == pytest.approx(t, rel=1e-12)
    assert blocked.p_value == pytest.approx(2 * stats.t.sf(abs(t), BLOCKED_T_DF), rel=1e-12)
    assert blocked.p_value < plain["blocked_3x2_t"].p_value


def test_the_blocked_t_constant_is_the_hand_computed_one():
    """C^2 = (1 + kappa) / (5 - kappa), kappa = rho1 + 4 rho2, and Satterthwaite's degrees of
    freedom of a chi^2_2 + b chi^2_3, a = 1 + rho1 - 2 rho2, b = 1 - rho1, by hand at the
    measured rho1 = 0.14, rho2 = -0.07: kappa = -0.14, C^2 = 0.86 / 5.14, a = 1.28, b = 0.86,
    df = (2.56 + 2.58)^2 / (2 * 1.6384 + 3 * 0.7396) = 26.4196 / 5.4956."""
    assert (FOLD_RHO1, FOLD_RHO2) == (0.14, -0.07)
    assert BLOCKED_T_CONSTANT == pytest.approx(0.409041776713915, rel=1e-12)
    assert BLOCKED_T_CONSTANT ** 2 == pytest.approx(0.86 / 5.14, rel=1e-12)
    assert BLOCKED_T_DF == pytest.approx(26.4196 / 5.4956, rel=1e-12)
    # the authors' 2014 test where the two correlations give kappa = 2 and a = b
    assert blocked_t_calibration(2 / 5, 2 / 5) == pytest.approx((1.0, 5.0))
    with pytest.raises(ValueError, match="no 3 x 2 BCV correlation"):
        blocked_t_calibration(0.2, -0.4)


def test_a_small_simulation_finds_the_authors_constant_conservative_and_ours_near_alpha():
    """The bench's finding in little (benchmarks/bench_regularized_calibration.py): six normal
    fold differences at the regularized folds' correlation, no difference between A and B; the
    blocked t with C = 1 rejects far less than alpha / 2, with the module's constant within
    [alpha / 2, 1.5 alpha]."""
    corr = np.full((6, 6), FOLD_RHO2)
    for i in range(3):
        corr[2 * i, 2 * i + 1] = corr[2 * i + 1, 2 * i] = FOLD_RHO1
    np.fill_diagonal(corr, 1.0)
    folds = np.random.default_rng(51).standard_normal((40_000, 6)) @ np.linalg.cholesky(corr).T
    mean = folds.mean(axis=1)
    t = mean / np.sqrt(((folds - mean[:, None]) ** 2).mean(axis=1))
    authors = np.mean(2 * stats.t.sf(np.abs(t), 5) <= 0.05)
    ours = np.mean(2 * stats.t.sf(np.abs(t / BLOCKED_T_CONSTANT), BLOCKED_T_DF) <= 0.05)
    assert authors < 0.01
    assert 0.025 <= ours <= 0.075, ours


@pytest.mark.slow
def test_the_calibration_blocks_are_what_the_bench_writes():
    """benchmarks/RESULTS.md's and docs/statistics.md's blocks are those the bench renders from
    its saved cells (``--check``: nothing simulated)."""
    path = ROOT / "benchmarks" / "bench_regularized_calibration.py"
    spec = importlib.util.spec_from_file_location("bench_regularized_calibration", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--check"]) == 0


def test_beside_the_plain_bcv_each_keeps_its_own_values_and_table4_rows():
    """Both BCVs in one study: neither's values, mixture choices or Table 4 rows overwrite the
    other's (the finding of issue 51: a summary kept one ``mixture_chose_vote``)."""
    f1 = {"A": [0.8, 0.7, 0.9, 0.6, 0.8, 0.7], "B": [0.7, 0.7, 0.8, 0.7, 0.7, 0.7]}
    records = [Repetition(strategy(name).estimate(f1, {"A": 0.70 + (r + shift) / 100,
                                                       "B": 0.75}), r, f"{name}/rep{r}")
               for name, shift in (("bcv", 0), ("regularized-bcv", 8)) for r in range(4)]
    values = estimator_values(records, 6, "A>B")
    assert values["mixture_chose_vote"] == [False] * 4  # Vote below Avg: Case II
    assert values["rmixture_chose_vote"] == [False, True, True, True]
    summary = {"models": {"A": "a", "B": "b"}, "conclusion": "A>B", "table4_k": 6,
               "estimators": {name: summarize(values[name]).as_dict()
                              for name in ("Avg", "Vote", "Mixture", "rAvg", "rVote", "rMixture")},
               "strategies": {"bcv": {"m": 3}, "regularized_bcv": {"m": 3}},
               **{key: float(np.mean(values[key])) for key in CHOSE_VOTE.values()}}
    rows = {r["estimator"]: r for r in table4_rows({"a vs b on c": summary})}
    assert rows["Mixture"]["mixture_chose_vote"] == 0.0
    assert rows["rMixture"]["mixture_chose_vote"] == 0.75
    assert rows["rAvg"]["strategy"] == "regularized 3x2 BCV"
    assert rows["Avg"]["strategy"] == "3x2 BCV"
    assert rows["rVote"]["mixture_chose_vote"] is None
