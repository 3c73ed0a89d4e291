"""``reprocompare plan`` and its simulator (issue 39, item 3): the stopping rule as the workflow
runs it, checked against the workflow's own functions and against what the verdict is
calibrated for; the command's JSON keys and its refusals."""

from __future__ import annotations

import json
import math
import shutil

import numpy as np
import pytest
from scipy import stats

import conftest
from conftest import ROOT
from reprocompare.estimators import planning
from reprocompare.estimators.null import null_offsets
from reprocompare.estimators.verdict import replay
from reprocompare.study.config import section_defaults
from reprocompare.study.summary import verdicts as summary_verdicts

#: committed pilots, read only: never written under studies/
CHUNKING = ROOT / "studies" / "chunking"
NER_FULL = ROOT / "studies" / "ner-full"
KEYS = ("mean_repetitions", "median_repetitions", "p90_repetitions", "decided_share",
        "futility_share", "wrong_share")


def _pilot(directory):
    path, = (p for p in (directory / "results" / "summaries").glob("*/*.json")
             if not p.name.endswith(".claims.json"))
    record = json.loads(path.read_text())
    return record["values"], record["summary"]["conclusion"]


@pytest.mark.parametrize("snr_value", [-2.0, -0.8416, -0.84, 0.0, 0.5, 0.84, 0.8417, 3.0])
def test_truth_is_phi_of_the_snr_against_the_threshold(snr_value):
    p = stats.norm.cdf(snr_value)
    expected = "A>B" if p >= 0.8 else "B>A" if p <= 0.2 else "none"
    assert planning.truth_of_snr(snr_value, 0.8) == expected
    # decisions name a direction, whichever conclusion is under test
    assert planning.truth_of_snr(snr_value, 0.8, "B>A") == expected


@pytest.mark.parametrize("seed", range(4))
def test_one_estimator_stops_where_replay_does(seed):
    """For a single difference the simulator is verdict.replay's rule (an existing, separate
    implementation of the stop)."""
    rng = np.random.default_rng(seed)
    values = 1.2 + rng.standard_normal(40)
    study = planning.run_rule({"ST": values}, ["ST"], wave=5, max_repetitions=40,
                              design="anytime")
    expected = replay(values, 5, max_repetitions=40)
    assert (study.stopped_at, study.decided, study.looks) == \
        (expected.stopped_at, expected.decided, expected.looks)
    assert study.decisions["ST"] == expected.verdict.decision


@pytest.mark.parametrize("seed", range(4))
def test_a_planned_design_stops_where_its_replay_does(seed):
    """The planned (group-sequential) design: the simulator's stop is verdict.replay's with the
    repeated confidence intervals of the planned looks."""
    rng = np.random.default_rng(seed)
    values = 1.2 + rng.standard_normal(40)
    study = planning.run_rule({"ST": values}, ["ST"], wave=5, max_repetitions=40,
                              design="planned")
    expected = replay(values, 5, max_repetitions=40, time_uniform=False, planned=True)
    assert (study.stopped_at, study.decided, study.looks) == \
        (expected.stopped_at, expected.decided, expected.looks)
    assert study.decisions["ST"] == expected.verdict.decision
    assert study.verdicts["ST"].planned and not study.verdicts["ST"].time_uniform


@pytest.mark.slow
def test_a_planned_design_decides_more_studies_by_a_short_maximum():
    """At SNR 2 with a maximum of 20 the planned design's narrower intervals decide more of the
    same seeded studies than the confidence sequences do, its futility stops fewer (it forecasts
    its own verdicts), and the plan records which design it simulated."""
    def run(design):
        return planning.simulate(planning.normal_source(2.0), ["Avg"], studies=40, seed=3,
                                 wave=5, max_repetitions=20, design=design,
                                 futility=planning.futility_rule(0.2, wave=5, max_repetitions=20,
                                                                 design=design)).summary()
    anytime, planned = run("anytime"), run("planned")
    assert (anytime["design"], planned["design"]) == ("anytime", "planned")
    assert planned["decided_share"] > anytime["decided_share"] + 0.1
    assert planned["futility_share"] < anytime["futility_share"]


@pytest.mark.parametrize("seed", range(3))
def test_several_estimators_stop_where_the_workflows_summaries_do(seed):
    """Avg and the mixture deciding, a pilot resampled: the stop is the first look whose
    summary (study.summary.verdicts, what the workflow writes and `sequential` reads) says
    decided, with the mixture's offset from the repetitions up to the look."""
    values, conclusion = _pilot(NER_FULL)
    pilot = {name: values[name] for name in ("Avg", "Vote", "Mixture")}
    drawn = planning.bootstrap_source(pilot)(np.random.default_rng(seed), 20)
    study = planning.run_rule(drawn, ["Avg", "Mixture"], wave=5, max_repetitions=20,
                              conclusion=conclusion)
    stopping = {**section_defaults("stopping"), "enabled": True,
                "estimators": ["Avg", "Mixture"], "max_repetitions": 20}
    for r in (5, 10, 15, 20):
        head = {name: list(v[:r]) for name, v in drawn.items()}
        record = summary_verdicts(head, null_offsets(head, conclusion), conclusion,
                                  stopping=stopping)
        if record["stopping"]["decided"] or r == 20:
            break
    assert study.stopped_at == r
    assert study.decided == record["stopping"]["decided"]
    assert study.decisions == {n: record["verdicts"][n]["decision"] for n in ("Avg", "Mixture")}


@pytest.mark.parametrize("wave,maximum,design", [
    pytest.param(20, 20, "anytime", id="fixed R", marks=pytest.mark.slow),
    pytest.param(5, 30, "anytime", id="waves", marks=pytest.mark.slow),
    pytest.param(5, 30, "planned", id="planned")])
def test_wrong_share_at_snr_0_is_within_the_verdicts_error(wave, maximum, design):
    """At SNR 0 the right verdict is "none"; a direction is decided only when the interval
    excludes SNR 0, which the 95% confidence sequence does with probability <= 5% at any
    stopping time (the planned design's repeated intervals at its looks): the wrong share stays
    within 5% plus three Monte Carlo standard errors."""
    studies = 200
    plan = planning.simulate(planning.normal_source(0.0), ["Avg"], studies=studies, seed=11,
                             wave=wave, max_repetitions=maximum, design=design,
                             truth={"Avg": planning.truth_of_snr(0.0)})
    summary = plan.summary()
    assert summary["truth"] == {"Avg": "none"}
    assert summary["wrong_share"] <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / studies)
    assert all(s.stopped_at <= maximum for s in plan.studies)


def test_decided_share_grows_with_the_snr():
    shares = [planning.simulate(planning.normal_source(s), ["Avg"], studies=60, seed=3,
                                wave=5, max_repetitions=20).summary()["decided_share"]
              for s in (1.0, 3.0, 8.0)]
    assert shares[0] <= shares[1] <= shares[2] and shares[0] < shares[2]


def test_the_same_seed_gives_the_same_numbers():
    def run(seed, studies=12):
        return planning.simulate(planning.normal_source(1.5, "RS"), ["RS"], studies=studies,
                                 seed=seed, wave=5, max_repetitions=20,
                                 truth={"RS": "A>B"})
    first, again = run(7).summary(), run(7).summary()
    assert first == again
    assert run(7, 6).repetitions.tolist() == run(7).repetitions[:6].tolist()
    assert run(8).repetitions.tolist() != run(7).repetitions.tolist() or \
        run(9).repetitions.tolist() != run(7).repetitions.tolist()


@pytest.mark.slow
def test_the_pilot_bootstrap_of_a_committed_study_gives_finite_numbers():
    values, conclusion = _pilot(CHUNKING)
    pilot = {name: values[name] for name in ("Avg", "Vote", "Mixture")}
    truth = planning.truth_of_values(pilot, ["Avg", "Mixture"], conclusion)
    plan = planning.simulate(planning.bootstrap_source(pilot), ["Avg", "Mixture"], studies=30,
                             seed=0, wave=5, max_repetitions=20, conclusion=conclusion,
                             truth=truth)
    summary = plan.summary()
    assert all(math.isfinite(summary[key]) for key in KEYS)
    assert 5 <= summary["median_repetitions"] <= summary["p90_repetitions"] <= 20
    assert summary["futility_share"] == 0.0


def test_the_futility_hook_stops_without_a_verdict():
    asked = []

    def futility(r, found, observed):
        asked.append((r, sorted(found)))
        assert all(len(v) == r for v in observed.values())
        return r >= 10

    plan = planning.simulate(planning.normal_source(0.84), ["Avg"], studies=20, seed=0,
                             wave=5, max_repetitions=40, futility=futility)
    summary = plan.summary()
    assert all(s.stopped_at <= 10 for s in plan.studies)
    assert summary["futility_share"] + summary["decided_share"] == 1.0
    assert all(s.futile != s.decided for s in plan.studies)
    assert asked and all(names == ["Avg"] for _, names in asked)


def test_wall_times_pack_the_waves():
    # waves of 5 to R = 12: 5, 5 and 2 repetitions of 70 core-seconds each
    jobs = {"bcv": 60.0, "holdout": 10.0}
    # 7 slots: every wave waits for its longest job (60 s), more than 5 x 70 / 7 = 50 s
    assert planning.wall_times([12], 5, jobs, slots=7).tolist() == [180.0]
    # 2 slots: 5 x 70 / 2 = 175 s, 175 s, then 2 x 70 / 2 = 70 s
    assert planning.wall_times([12, 5], 5, jobs, slots=2).tolist() == [420.0, 175.0]


@pytest.mark.parametrize("call,message", [
    (lambda: planning.normal_source(math.inf), "finite"),
    (lambda: planning.normal_source(1.0, "Mixture"), "pilot"),
    (lambda: planning.simulate(planning.normal_source(1.0), ["Avg"], studies=0, wave=5,
                               max_repetitions=10), "studies"),
    (lambda: planning.simulate(planning.normal_source(1.0), ["Avg"], studies=1, wave=10,
                               max_repetitions=5), "one wave"),
    (lambda: planning.bootstrap_source({"Avg": [0.1]}), "at least 2"),
    (lambda: planning.simulate(planning.normal_source(1.0), ["Avg"], studies=1, wave=5,
                               max_repetitions=10, design="sequential"), "design"),
    (lambda: planning.futility_rule(0.2, wave=1, max_repetitions=300, design="planned"),
     "at most 200 looks"),
])
def test_the_library_refuses_bad_designs(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# the command line


def _cli(*args):
    return conftest.reprocompare("plan", *map(str, args))


def test_plan_snr_json_has_the_issues_keys():
    result = _cli("--snr", "2", "--max-repetitions", "20", "--studies", "30", "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    for key in KEYS:
        assert key in out
    assert out["truth"] == {"Avg": "A>B"}
    assert (out["wave"], out["max_repetitions"], out["threshold"], out["confidence"],
            out["futility"], out["design"]) == (5, 20, 0.8, 0.95, 0.0, "planned")  # the schema's


@pytest.mark.slow
def test_plan_runs_a_planned_design_and_says_so():
    """--design chooses the design: the table's first line names it (the default is the
    planned one), the JSON's "design" key too, and the planned design's shorter intervals
    decide more studies by R = 20 at SNR 2 than the confidence sequences do."""
    common = ("--snr", "2", "--max-repetitions", "20", "--studies", "30")
    table = _cli(*common)
    assert table.returncode == 0, table.stderr
    assert "true SNR 2: planned design (group-sequential), waves of 5 up to 20," in \
        table.stdout.splitlines()[0]
    assert "true SNR 2: confidence sequences, waves of 5 up to 20," in \
        _cli(*common, "--design", "anytime").stdout.splitlines()[0]
    assert "true SNR 2: fixed design (one look, at the maximum), waves of 5 up to 20," in \
        _cli(*common, "--design", "fixed").stdout.splitlines()[0]
    planned = json.loads(_cli(*common, "--design", "planned", "--json").stdout)
    anytime = json.loads(_cli(*common, "--design", "anytime", "--json").stdout)
    assert (planned["design"], anytime["design"]) == ("planned", "anytime")
    assert planned["decided_share"] > anytime["decided_share"]


def test_plan_study_takes_the_design_its_pilot_records(tmp_path):
    """With --study, the design defaults to the one the pilot's summary records (its config's
    stopping.design); --design overrides it, and a pilot that records none gets the schema's."""
    study = tmp_path / "pilot"
    source, = (NER_FULL / "results" / "summaries").glob("*/*_vs_*[!s].json")
    record = json.loads(source.read_text())
    (study / "results" / "summaries" / "c").mkdir(parents=True)
    target = study / "results" / "summaries" / "c" / "x.json"
    common = ("--study", study, "--max-repetitions", "10", "--studies", "3", "--json")
    record["summary"]["stopping"]["design"] = "anytime"
    target.write_text(json.dumps(record))
    assert json.loads(_cli(*common).stdout)["design"] == "anytime"
    record["summary"]["stopping"]["design"] = "fixed"
    target.write_text(json.dumps(record))
    assert json.loads(_cli(*common).stdout)["design"] == "fixed"
    assert json.loads(_cli(*common, "--design", "anytime").stdout)["design"] == "anytime"
    del record["summary"]["stopping"]["design"]  # a summary from before the key: anytime
    target.write_text(json.dumps(record))
    assert json.loads(_cli(*common).stdout)["design"] == "anytime"


@pytest.mark.slow
def test_plan_simulates_futility_stopping_as_the_workflow_runs_it():
    """On the threshold no verdict is reachable by R = 40: at a level of 0.2 most simulated
    studies stop early for futility and say so; with the default, 0, none does, and they run
    to the maximum."""
    common = ("--snr", "0.84", "--max-repetitions", "40", "--studies", "20", "--json")
    on = json.loads(_cli(*common, "--futility", "0.2").stdout)
    off = json.loads(_cli(*common).stdout)
    assert on["futility_share"] >= 0.5 and off["futility_share"] == 0.0
    assert on["mean_repetitions"] < off["mean_repetitions"]
    table = _cli("--snr", "0.84", "--max-repetitions", "40", "--studies", "20", "--futility",
                 "0.2").stdout
    assert "a verdict by R = 40 less likely than 0.2" in table
    refused = _cli("--snr", "1", "--futility", "1")
    assert refused.returncode == 2 and "--futility" in refused.stderr


def test_plan_study_prints_cost_and_writes_nothing(tmp_path):
    """A committed pilot, read in place (nothing written under studies/): the table and the
    JSON with the core-hours and wall time from its records.jsonl."""
    before = sorted(p.stat().st_mtime_ns for p in (NER_FULL / "results").rglob("*"))
    result = _cli("--study", NER_FULL, "--max-repetitions", "15", "--studies", "20",
                  "--estimator", "Avg", "--estimator", "Mixture", "--cores", "4")
    assert result.returncode == 0, result.stderr
    assert "repetitions at the stop" in result.stdout and "wall time on 4 cores" in result.stdout
    result = _cli("--study", NER_FULL, "--max-repetitions", "15", "--studies", "20", "--jobs",
                  "50", "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["core_hours_per_repetition"] > 0 and out["parallel"] == {"jobs": 50}
    # nearly every study stops at the first look: a few later ones can lift the mean above
    # the 90th percentile
    assert 0 < out["mean_wall_hours"] < math.inf and 0 < out["p90_wall_hours"] < math.inf
    assert sorted(p.stat().st_mtime_ns for p in (NER_FULL / "results").rglob("*")) == before


def test_plan_study_reads_run_directories(tmp_path):
    """A study whose repetitions are still files (runtime.json per run directory)."""
    study = tmp_path / "pilot"
    source, = (NER_FULL / "results" / "summaries").glob("*/*_vs_*[!s].json")
    (study / "results" / "summaries" / "c").mkdir(parents=True)
    shutil.copyfile(source, study / "results" / "summaries" / "c" / "x.json")
    run = study / "results" / "compare" / "c" / "x"
    for strategy, seconds in (("holdout", 30.0), ("bcv", 90.0)):
        for r in range(3):
            path = run / strategy / f"rep{r}" / "runtime.json"
            path.parent.mkdir(parents=True)
            path.write_text(json.dumps({"folds": [{"A": seconds / 2, "B": seconds / 2}]}))
    result = _cli("--study", study, "--max-repetitions", "10", "--studies", "5", "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["job_seconds"] == {"bcv": 90.0, "holdout": 30.0}
    assert out["core_hours_per_repetition"] == pytest.approx(120 / 3600)


@pytest.mark.parametrize("args,fragment", [
    (["--snr", "inf"], "must be in [-1000.0, 1000.0], got inf"),
    (["--snr", "nan"], "must be in [-1000.0, 1000.0], got nan"),
    (["--snr", "1", "--studies", "0"], "[1, 10000]"),
    (["--snr", "1", "--studies", "10001"], "[1, 10000]"),
    (["--snr", "1", "--wave", "10", "--max-repetitions", "5"], "below one wave"),
    (["--snr", "1", "--estimator", "Mixture"], "--study"),
    (["--snr", "1", "--cores", "4"], "need --study"),
    (["--snr", "1", "--design", "planned", "--wave", "1", "--max-repetitions", "300"],
     "at most 200 looks, and waves of 1 up to 300 make 299: give a larger --wave, a smaller "
     "--max-repetitions or --design anytime"),
    (["--snr", "1", "--design", "sequential"], "--design"),
    (["--study", "{tmp}"], "no summaries"),
    (["--study", "{tmp}/missing"], "no such study directory"),
    (["--study", str(ROOT / "studies" / "two-comparisons")], "--comparison"),
])
def test_plan_refuses_bad_input_in_one_line(tmp_path, args, fragment):
    result = _cli(*[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert result.returncode == 2, result.stdout
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert fragment in result.stderr
    assert result.stdout == ""


def test_a_continued_study_replays_its_observed_looks():
    """What a futility rule asks at look R: the observed values first, then draws; a study
    already decided at R = 5 stays stopped there in every continuation, an undecided one
    goes on."""
    decided = {"Avg": [1.0, 1.1, 0.9, 1.05, 0.95]}  # A > B reproduces at R = 5 (verdict's doctest)
    plan = planning.simulate(planning.continuation_source(decided, planning.normal_source(0.0)),
                             ["Avg"], studies=10, wave=5, max_repetitions=20)
    assert {(s.stopped_at, s.decisions["Avg"]) for s in plan.studies} == {(5, "A>B")}
    undecided = {"Avg": [0.3, -0.2, 0.5, 0.1, -0.4]}
    plan = planning.simulate(planning.continuation_source(undecided, planning.normal_source(3.0)),
                             ["Avg"], studies=10, wave=5, max_repetitions=20)
    assert all(s.stopped_at > 5 for s in plan.studies)


def _law(law: str, snr: float):
    if law == "normal":
        return lambda rng, n: {"Avg": snr + rng.standard_normal(n)}
    if law == "left-skewed":  # Shapiro-Wilk rejects some looks: the distribution-free path
        return lambda rng, n: {"Avg": snr - (rng.gamma(2.0, 1.0, n) - 2) / math.sqrt(2)}
    return lambda rng, n: {"Avg": np.round((snr + rng.standard_normal(n)) * 2) / 2}  # ties


@pytest.mark.parametrize("design,maximum", [pytest.param("planned", 40, marks=pytest.mark.slow),
                                            ("fixed", 20), ("planned", 10)])
@pytest.mark.parametrize("law,snr", [("normal", 0.84), ("normal", 2.0), ("normal", 0.0),
                                     ("left-skewed", 0.6), ("tied", 1.5)])
def test_all_studies_at_once_stop_where_the_rule_does(design, maximum, law, snr):
    """simulate's vectorized rule (estimators.simulated_rule) against run_rule, the verdict
    asked at every look: the same stop, looks and decisions for every study."""
    drawn = [_law(law, snr)(np.random.default_rng([3, i]), maximum) for i in range(25)]
    fast = planning._all_at_once(drawn, ("Avg",), wave=5, max_repetitions=maximum,
                                 conclusion="A>B", threshold=0.8, confidence=0.95,
                                 comparisons=1, design=design)
    for quick, study in zip(fast, drawn):
        slow = planning.run_rule(study, ["Avg"], wave=5, max_repetitions=maximum,
                                 design=design)
        assert (quick.stopped_at, quick.decided, quick.looks, quick.decisions) == \
            (slow.stopped_at, slow.decided, slow.looks, slow.decisions)


def test_the_smoothed_bootstrap_keeps_the_pilots_mean_and_covariance_and_makes_no_ties():
    pilot = {"Avg": [0.010, 0.014, 0.009, 0.012, 0.013], "Vote": [0.02, 0.03, 0.01, 0.02, 0.04]}
    drawn = planning.smoothed_source(pilot)(np.random.default_rng(0), 200_000)
    table = np.column_stack([drawn["Avg"], drawn["Vote"]])
    given = np.column_stack([pilot["Avg"], pilot["Vote"]])
    assert table.mean(axis=0) == pytest.approx(given.mean(axis=0), rel=0.02)
    assert np.cov(table, rowvar=False) == pytest.approx(np.cov(given, rowvar=False), rel=0.03)
    assert np.unique(drawn["Avg"][:1000]).size == 1000  # resampling alone would repeat values
    with pytest.raises(ValueError, match="the pilot's Vote has no spread"):
        planning.smoothed_source({"Avg": [0.1, 0.2], "Vote": [0.3, 0.3]})


@pytest.mark.slow
def test_a_pilot_forecasts_what_its_snr_forecasts():
    """A 10-repetition pilot at SNR 2.17 exactly: the smoothed bootstrap's stop is the one a
    true SNR of 2.17 gives (median 20 both, maximum 40), where resampling with replacement made
    ties and forecast a median of 30."""
    x = np.random.default_rng(4).standard_normal(10)
    pilot = {"Avg": 2.17 + (x - x.mean()) / x.std(ddof=1)}
    common = dict(studies=400, seed=1, wave=5, max_repetitions=40)
    smoothed = planning.simulate(planning.smoothed_source(pilot), ["Avg"], **common).summary()
    normal = planning.simulate(planning.normal_source(2.17), ["Avg"], **common).summary()
    resampled = planning.simulate(planning.bootstrap_source(pilot), ["Avg"], **common).summary()
    assert smoothed["median_repetitions"] == normal["median_repetitions"]
    assert abs(smoothed["mean_repetitions"] - normal["mean_repetitions"]) < 2
    assert resampled["median_repetitions"] > normal["median_repetitions"]


@pytest.mark.slow
def test_plan_study_of_ner_full_stops_where_it_did():
    """studies/ner-full decided at R = 10 (Avg SNR about 13): its plan stops at the first look."""
    out = json.loads(_cli("--study", NER_FULL, "--max-repetitions", "20", "--studies", "200",
                          "--json").stdout)
    assert out["median_repetitions"] <= 10 and out["decided_share"] > 0.95


def test_a_pilot_without_spread_is_refused_in_one_line(tmp_path):
    study = tmp_path / "pilot"
    source, = (NER_FULL / "results" / "summaries").glob("*/*_vs_*[!s].json")
    record = json.loads(source.read_text())
    record["values"]["Avg"] = [0.01] * len(record["values"]["Avg"])
    (study / "results" / "summaries" / "c").mkdir(parents=True)
    (study / "results" / "summaries" / "c" / "x.json").write_text(json.dumps(record))
    result = _cli("--study", study, "--max-repetitions", "10", "--studies", "3")
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "x.json" in result.stderr and "the pilot's Avg has no spread" in result.stderr
