"""Random search: i.i.d. draws from the declared space, budget curves from the trials table,
clipped bands, budget to reach and crossings as written, spec errors naming the key, seed variance
and learning-curve bands, and the hook that feeds the best configuration to the comparisons."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy import stats

from conftest import TEST_DATA
from reprocompare.base.errors import UserError
from reprocompare.estimators.expected_max import budget_to_reach, crossings, expected_max
from reprocompare.search.budget import analyse, clipped_band, curves, markdown
from reprocompare.search.config import trial_jobs
from reprocompare.search.seed_variance import curve_band, spread, t_interval
from reprocompare.search.space import Dimension, draw, draws, parse_space
from reprocompare.search.trials import (SplitData, best_trial, fixed_split, read_trials_csv, run_trials,
                           trials_csv)

CRF = {"type": "crf", "max_iterations": 10}
BILSTM = {"type": "bilstm", "epochs": 2, "char_dim": 0}
SPACE = {"c1": {"distribution": "uniform", "low": 0.2, "high": 1.4},
         "c2": {"distribution": "log_uniform", "low": 0.001, "high": 10.0},
         "max_iterations": {"distribution": "int", "low": 3, "high": 9},
         "scheme": {"distribution": "choice", "values": ["IOB2", "IOBES", "IOB1"]}}
N = 3000


@pytest.fixture(scope="module")
def space():
    return parse_space("crf", CRF, SPACE)


@pytest.fixture(scope="module")
def many(space):
    return draws(space, 7, "crf", N)


def column(rows, name):
    return np.array([row[name] for row in rows])


# ---- draws -----------------------------------------------------------------------------------

def test_draws_are_reproducible_and_a_larger_budget_keeps_the_first(space, many):
    assert draws(space, 7, "crf", 50) == many[:50]
    assert draws(space, 7, "crf", 10) == many[:10]
    assert draw(space, 7, "crf", 123) == many[123]
    assert draws(space, 8, "crf", 10) != many[:10]  # another seed
    assert draws(space, 7, "crf2", 10) != many[:10]  # another model
    # adding a model to the search changes no other model's draws: the stream is (seed, model, i)
    assert all(set(d) == set(SPACE) for d in many)


def test_uniform_is_uniform_on_its_bounds(many):
    c1 = column(many, "c1")
    assert c1.min() >= 0.2 and c1.max() < 1.4
    assert stats.kstest(c1, stats.uniform(0.2, 1.2).cdf).pvalue > 1e-3
    # the test has power: the same draws are far from a uniform on other bounds
    assert stats.kstest(c1, stats.uniform(0.2, 1.5).cdf).pvalue < 1e-6


def test_log_uniform_is_uniform_in_log_space(many):
    c2 = column(many, "c2")
    assert c2.min() >= 0.001 and c2.max() <= 10.0
    assert stats.kstest(np.log(c2), stats.uniform(math.log(0.001), math.log(1e4)).cdf).pvalue > 1e-3
    assert stats.kstest(c2, stats.loguniform(0.001, 10.0).cdf).pvalue > 1e-3
    assert stats.kstest(c2, stats.uniform(0.001, 10.0).cdf).pvalue < 1e-6


@pytest.mark.parametrize("name,values", [("max_iterations", list(range(3, 10))),
                                         ("scheme", ["IOB2", "IOBES", "IOB1"])])
def test_int_and_choice_cover_their_values_uniformly(many, name, values):
    drawn = [d[name] for d in many]
    counts = np.array([drawn.count(v) for v in values])
    assert counts.sum() == N and (counts > 0).all(), "a value outside the declared set was drawn"
    assert stats.chisquare(counts).pvalue > 1e-3
    if name == "max_iterations":
        assert all(type(v) is int for v in drawn)


def test_draws_are_independent_across_trials_and_hyperparameters(many):
    c1, c2 = column(many, "c1"), np.log(column(many, "c2"))
    bound = 4 / math.sqrt(N)  # ~4 standard errors of a correlation under independence
    assert abs(np.corrcoef(c1[:-1], c1[1:])[0, 1]) < bound
    assert abs(np.corrcoef(c1, c2)[0, 1]) < bound
    assert abs(np.corrcoef(c1, column(many, "max_iterations"))[0, 1]) < bound


def test_bounds_text_and_choice_values_are_the_models():
    space = parse_space("crf", CRF, {"scheme": {"distribution": "choice",
                                                "values": ["iobes", "IOB2"]}})
    assert space["scheme"].values == ("IOBES", "IOB2")  # read as the spec reads them
    assert space["scheme"].bounds() == "choice {IOBES, IOB2}"
    assert Dimension("x", "int", low=1, high=3).bounds() == "uniform-integer [1, 3]"


# ---- space errors name the key ---------------------------------------------------------------

@pytest.mark.parametrize("entry,key,words", [
    ({"c9": {"distribution": "uniform", "low": 0, "high": 1}}, "space.c9",
     "unknown hyperparameter 'c9'"),
    ({"c1": {"distribution": "uniform", "low": -1.0, "high": 1}}, "space.c1.low", ">= 0"),
    ({"c1": {"distribution": "gauss", "low": 0, "high": 1}}, "space.c1.distribution",
     "unknown distribution"),
    ({"c1": {"distribution": "int", "low": 0, "high": 1}}, "space.c1.distribution",
     "integer hyperparameter"),
    ({"max_iterations": {"distribution": "uniform", "low": 1, "high": 5}},
     "space.max_iterations.distribution", "float hyperparameter"),
    ({"max_iterations": {"distribution": "int", "low": 0, "high": 5}},
     "space.max_iterations.low", "must be in [1, 1000000]"),
    ({"c1": {"distribution": "uniform", "low": 0.5}}, "space.c1.high", "missing"),
    ({"c1": {"distribution": "uniform", "low": 0.5, "high": 0.1}}, "space.c1.high", "> low"),
    ({"c2": {"distribution": "log_uniform", "low": 0, "high": 1}}, "space.c2.low", "> 0"),
    ({"c1": {"distribution": "choice", "values": [0.1], "low": 0}}, "space.c1.low",
     "not a key of a choice"),
    ({"scheme": {"distribution": "choice", "values": ["IOB2", "BIO"]}},
     "space.scheme.values.1", "must be one of"),
    ({"c1": {"distribution": "choice", "values": [0.1, 0.1]}}, "space.c1.values", "twice"),
])
def test_space_errors_name_the_key(entry, key, words):
    with pytest.raises(UserError) as error:
        parse_space("crf_a", CRF, entry)
    assert error.value.key == f"search.models.crf_a.{key}"
    assert words in error.value.message


def tiny_config(**search):
    from reprocompare.study.config import validate

    return validate({
        "corpora": {"tiny": {"path": str(TEST_DATA / "tiny.conll")}},
        "models": {"crf": CRF, "crf_b": {**CRF, "scheme": "IOBES"}, "lstm": BILSTM},
        "comparisons": {"pair": {"a": "crf", "b": "crf_b", "corpora": ["tiny"]}},
        **search}, "study.yaml")


@pytest.mark.parametrize("section,key", [
    ({"search": {"enabled": True, "models": {"nope": {"space": SPACE}}}}, "search.models.nope"),
    ({"search": {"enabled": True, "corpus": "other", "models": {"crf": {"space": SPACE}}}},
     "search.corpus"),
    ({"search": {"models": {"crf": {"space": {"word_dim": {"distribution": "int", "low": 1,
                                                           "high": 4}}}}}},
     "search.models.crf.space.word_dim"),
    ({"search": {"enabled": True}}, "search.models"),
    ({"search": {"feed_best": True, "models": {"crf": {"space": SPACE}}}}, "search.feed_best"),
    ({"learning_curves": {"enabled": True, "models": ["crf"]}}, "learning_curves.models.0"),
    ({"learning_curves": {"enabled": True, "models": ["lstm"], "corpus": "x"}},
     "learning_curves.corpus"),
])
def test_config_errors_name_the_key(section, key):
    # reprocompare.study.config.validate runs the search checks, so the study never gets past it
    with pytest.raises(UserError) as error:
        tiny_config(**section)
    assert error.value.key == key and str(error.value).startswith(f"study.yaml: {key}: ")


def test_trial_jobs_keep_full_jobs_when_the_budget_grows():
    config = tiny_config(search={"enabled": True, "trials_per_job": 3,
                                 "models": {"crf": {"trials": 5, "space": SPACE}}})
    assert trial_jobs(config, "crf") == [(0, 2), (3, 4)]
    config["search"]["models"]["crf"]["trials"] = 7
    assert trial_jobs(config, "crf") == [(0, 2), (3, 5), (6, 6)]


# ---- trials on the tiny corpus ---------------------------------------------------------------

@pytest.fixture(scope="module")
def split_data():
    from reprocompare.corpora.conll import read_conll

    corpus = read_conll(TEST_DATA / "tiny.conll")
    return SplitData.from_document(corpus, fixed_split(corpus, ratio="8:1", seed=5))


@pytest.mark.slow
def test_trials_draw_train_and_score_reproducibly(split_data, space):
    crf_space = parse_space("crf", CRF, {"c1": SPACE["c1"], "c2": SPACE["c2"]})
    first = run_trials(split_data, "crf", CRF, crf_space, seed=3, trials=range(3), progress=None)
    more = run_trials(split_data, "crf", CRF, crf_space, seed=3, trials=range(4), progress=None)
    strip = lambda rows: [{k: v for k, v in r.items() if k != "seconds"} for r in rows]  # noqa
    assert strip(more[:3]) == strip(first)
    assert [r["config"] for r in more] == draws(crf_space, 3, "crf", 4)
    for record in more:
        assert record["spec"].startswith("crf:scheme=IOB2,c1=")
        assert 0 < record["f1"] <= 1 and record["seconds"] > 0
    # the table round-trips exactly
    assert read_trials_csv(trials_csv(more), text=True) == more
    assert best_trial(more) == max(more, key=lambda r: (r["f1"], -r["trial"]))


def test_the_best_trial_breaks_ties_by_the_earliest_trial():
    rows = [{"trial": 0, "f1": 0.5}, {"trial": 1, "f1": 0.7}, {"trial": 2, "f1": 0.7}]
    assert best_trial(rows)["trial"] == 1


# ---- budget ----------------------------------------------------------------------------------

def records(scores: dict[str, list[float]]) -> list[dict]:
    return [{"model": m, "trial": i, "f1": f, "precision": f, "recall": f, "spec": m,
             "config": {"i": i}, "seconds": 1.0}
            for m, values in scores.items() for i, f in enumerate(values)]


def test_curves_equal_the_estimators_applied_to_the_trials_table():
    rng = np.random.default_rng(0)
    scores = {"a": rng.uniform(0.6, 0.9, 12).tolist(), "b": rng.uniform(0.5, 0.95, 9).tolist()}
    table = read_trials_csv(trials_csv(records(scores)), text=True)
    analysis = analyse(table, order=["b", "a"])
    assert list(analysis["models"]) == ["b", "a"]
    for model, values in scores.items():
        for estimator in ("unbiased", "meanmax"):
            curve = expected_max(values, estimator=estimator)
            got = analysis["models"][model]["curves"][estimator]
            assert got["expected"] == curve.expected.tolist()
            assert got["std"] == curve.std.tolist()
        assert analysis["models"][model]["trials"] == len(values)
        assert analysis["models"][model]["best"]["f1"] == max(values)


def test_band_is_clipped_to_the_observed_scores():
    low, high = clipped_band([0.5, 0.8, 0.9], [0.3, 0.05, 0.2], [0.4, 0.7, 0.9])
    assert low.tolist() == pytest.approx([0.4, 0.75, 0.7])
    assert high.tolist() == pytest.approx([0.8, 0.85, 0.9])
    scores = [0.1, 0.9, 0.2, 0.85, 0.3]
    for estimator, curve in curves(scores).items():
        expected, std = np.array(curve["expected"]), np.array(curve["std"])
        assert (np.array(curve["low"]) >= 0.1).all() and (np.array(curve["high"]) <= 0.9).all()
        inside = (expected - std >= 0.1) & (expected + std <= 0.9)
        assert np.allclose(np.array(curve["low"])[inside], (expected - std)[inside])
        assert not inside.all(), "the example must need clipping"


def test_budget_to_reach_and_crossings_as_written():
    # a: 0.8 whatever the budget; b (unbiased, sorted 0.5 0.6 0.9 0.95): n=1 0.7375, n=2 0.875,
    # n=3 0.9375, n=4 0.95. So b overtakes a at n = 2 and reaches 0.9 at n = 3.
    scores = {"a": [0.8, 0.8, 0.8, 0.8], "b": [0.5, 0.9, 0.6, 0.95]}
    analysis = analyse(records(scores), target_f1=0.9)
    b = analysis["models"]["b"]
    assert b["curves"]["unbiased"]["expected"] == pytest.approx([0.7375, 0.875, 0.9375, 0.95])
    assert b["budget_to_reach"]["unbiased"] == 3
    assert b["budget_to_reach"]["meanmax"] == budget_to_reach(
        b["curves"]["meanmax"]["expected"], 0.9)
    assert analysis["models"]["a"]["budget_to_reach"] == {"unbiased": None, "meanmax": None}
    (pair,) = analysis["pairs"]
    assert (pair["a"], pair["b"], pair["budgets"]) == ("a", "b", 4)
    assert pair["crossings"]["unbiased"] == [2]
    assert pair["crossings"]["meanmax"] == crossings(analysis["models"]["a"]["curves"]
                                                     ["meanmax"]["expected"],
                                                     b["curves"]["meanmax"]["expected"])
    assert pair["leader"]["unbiased"] == {"at_1": "a", "at_4": "b"}
    table = markdown(analysis)
    assert "| b | 4 | 0.7375 | 0.9500 | 3 | 0.9500 |" in table
    assert "| 3 |" in table and "| not reached | not reached |" in table
    assert "| a | b | 1..4 | a | b | 2 |" in table
    assert json.loads(json.dumps(analysis)) == analysis  # budget.json holds exactly this


def test_crossings_use_the_budgets_both_models_reached():
    analysis = analyse(records({"a": [0.8] * 6, "b": [0.5, 0.9, 0.6]}))
    assert analysis["pairs"][0]["budgets"] == 3


# ---- seed variance and learning curves -------------------------------------------------------

def test_spread_and_failure_rate():
    f1s = [0.91, 0.89, 0.12, 0.90]
    s = spread(f1s, failure_f1=0.5)
    assert s["runs"] == 4 and s["failures"] == 1 and s["failure_rate"] == 0.25
    assert s["mean"] == pytest.approx(np.mean(f1s)) and s["sd"] == pytest.approx(np.std(f1s, ddof=1))
    assert (s["min"], s["max"]) == (0.12, 0.91)
    low, high = stats.t.interval(0.95, 3, loc=np.mean(f1s), scale=stats.sem(f1s))
    assert (s["ci_low"], s["ci_high"]) == pytest.approx((low, high))
    one = spread([0.7], failure_f1=0.8)
    assert one["sd"] == 0.0 and one["failure_rate"] == 1.0 and one["ci_low"] == one["ci_high"]


def test_curve_band_is_a_t_interval_per_epoch():
    runs = [[[1, 0.2], [2, 0.5], [3, 0.6]], [[1, 0.3], [2, 0.6]], [[1, 0.1], [2, 0.4], [3, 0.7]]]
    rows = curve_band(runs)
    assert [r["epoch"] for r in rows] == [1, 2, 3]
    assert [r["runs"] for r in rows] == [3, 3, 2]
    assert rows[0]["mean"] == pytest.approx(0.2)
    assert (rows[1]["ci_low"], rows[1]["ci_high"]) == pytest.approx(t_interval([0.5, 0.6, 0.4]))
    low, high = stats.t.interval(0.95, 1, loc=0.65, scale=stats.sem([0.6, 0.7]))
    assert (rows[2]["ci_low"], rows[2]["ci_high"]) == pytest.approx((low, high))


# ---- feeding the best configuration to the comparisons ---------------------------------------

def test_resolve_models_uses_the_best_configuration(tmp_path):
    from reprocompare.pipeline.search_jobs import best_config, resolve_models

    config = tiny_config(search={"enabled": True, "feed_best": True,
                                 "models": {"crf": {"trials": 3, "space": SPACE}}})
    trials = tmp_path / "0-2.json"
    rows = records({"crf": [0.5, 0.9, 0.7]})
    for row in rows:
        row["config"] = {"c1": 0.1 * (row["trial"] + 1)}
    trials.write_text(json.dumps({"model": "crf", "trials": rows}))
    best = tmp_path / "best.json"
    from reprocompare.pipeline import provenance

    best_config([str(trials)], "tiny", provenance.search_best(config, "crf", [str(trials)]),
                str(best))
    record = json.loads(best.read_text())
    assert record["trial"] == 1 and record["mapping"] == {**CRF, "c1": 0.2}
    models = resolve_models(config, "pair", [str(best)])
    assert models == {"crf": {**CRF, "c1": 0.2}, "crf_b": config["models"]["crf_b"]}
    assert resolve_models(config, "pair", []) == {"crf": CRF, "crf_b": config["models"]["crf_b"]}
    assert config["models"]["crf"] == CRF  # the config itself is left as it was


@pytest.mark.slow
def test_seed_runs_repeat_random_models_and_train_deterministic_ones_once(tmp_path):
    from reprocompare.pipeline.jobs import prepare_corpus
    from reprocompare.pipeline.search_jobs import fixed_split as fixed_split_job, seed_runs
    from reprocompare.search.config import run_seed

    config = tiny_config(seed_variance={"enabled": True, "seeds": 2})
    config["comparisons"]["mixed"] = {"a": "lstm", "b": "crf", "corpora": ["tiny"]}
    conll, info, split = (str(tmp_path / name) for name in ("c.conll", "c.json", "split.json"))
    prepare_corpus(config["corpora"]["tiny"]["path"], config["corpora"]["tiny"], conll, info)
    from reprocompare.pipeline import provenance

    fixed_split_job(conll, info, provenance.fixed_split(config, "tiny"), split)
    outputs = []
    for attempt in range(2):
        out = tmp_path / f"runs{attempt}.json"
        seed_runs(conll, info, split, "tiny", "mixed", provenance.seed_runs(config, "tiny", "mixed"),
                  [], str(out))
        outputs.append(json.loads(out.read_text()))
    lstm, crf = outputs[0]["models"]["A"], outputs[0]["models"]["B"]
    assert (lstm["name"], lstm["random"], crf["name"], crf["random"]) == ("lstm", True, "crf", False)
    assert [r["seed"] for r in lstm["runs"]] == [run_seed(config["search"]["seed"], "tiny", 0),
                                                run_seed(config["search"]["seed"], "tiny", 1)]
    assert [r["seed"] for r in crf["runs"]] == [None]
    for side in ("A", "B"):  # the same seeds give the same scores
        assert [r["f1"] for r in outputs[0]["models"][side]["runs"]] == \
            [r["f1"] for r in outputs[1]["models"][side]["runs"]]
