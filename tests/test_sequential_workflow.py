"""`reprocompare sequential` (issue 22): waves of repetitions until the verdicts are decided.

- a comparison with a clear winner (a CRF against the majority baseline) stops at its first
  decision point, R = one wave, and every table says where and why;
- one whose models barely differ runs to the maximum and says it is still undecided;
- run again, the command resumes from what exists and trains nothing more.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import conftest
from conftest import TEST_DATA

pytestmark = pytest.mark.slow

REPROCOMPARE = [sys.executable, "-m", "reprocompare"]


def study(a: dict, b: dict, wave: int, maximum: int, futility: float | None = None,
          design: str | None = None) -> dict:
    stopping = {"enabled": True, "estimators": ["ST"], "wave": wave, "max_repetitions": maximum,
                **({"design": design} if design else {})}
    return {"corpora": {"tiny": {"path": str(TEST_DATA / "tiny.conll")}},
            "models": {"a": a, "b": b},
            "comparisons": {"p": {"a": "a", "b": "b", "corpora": ["tiny"]}},
            "strategies": {"holdout": {}},
            "stopping": stopping if futility is None else {**stopping, "futility": futility}}


def sequential(tmp_path, config: dict) -> subprocess.CompletedProcess:
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(config))
    result = conftest.run([*REPROCOMPARE, "sequential", "--configfile", str(path),
                           "--directory", str(tmp_path), "--", "--cores", "2", "--quiet"],
                          cwd=tmp_path)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    return result


def repetitions_run(tmp_path) -> int:
    return len(list(tmp_path.glob("results/compare/tiny/p/holdout/rep*/estimates.json")))


def test_a_clear_winner_stops_at_its_first_decision_point(tmp_path):
    """Under confidence sequences (stopping.design: anytime), whose intervals it prints.
    Waves of 3: undecided at R = 3, decided at 6 (waves of 5 decided at 10, after 4 more
    compare jobs)."""
    config = study({"type": "crf", "max_iterations": 10}, {"type": "majority"}, wave=3,
                   maximum=20, design="anytime")
    result = sequential(tmp_path, config)
    # the first wave whose verdict is decided is where it stops, and no repetition beyond
    lines = result.stdout.splitlines()
    waves = [int(line.split("R = ")[1].split()[0]) for line in lines if line.startswith("wave")]
    verdicts = [line.strip() for line in lines if line.startswith("  ST:")]
    first = next(i for i, text in enumerate(verdicts) if "undecided" not in text)
    assert first == len(waves) - 1 and waves[-1] < 20, result.stdout
    stop = waves[-1]
    # beside the verdict, the interval it was decided on, at the look that decided it
    assert verdicts[-1].startswith("ST: A > B reproduces (Phi(SNR) >= ")
    # (below R = 15 the normal model could not be checked, and the claim says so)
    assert verdicts[-1].endswith(f"at R = {stop}, normal model" + (
        " (unchecked below R = 15))" if stop < 15 else ")"))
    assert f"stopped at R = {stop}: every deciding estimator decided" in result.stdout
    assert repetitions_run(tmp_path) == stop
    table = (tmp_path / "results/tables/table4.md").read_text()
    assert "**A > B reproduces**" in table
    assert f"Sequential study: waves of 3 repetitions up to 20, decided by ST; {len(waves)} " \
           f"waves run, R = {stop}: every deciding estimator decided." in table
    # every interval it prints is a confidence sequence intersected over its looks (issue 33)
    assert "confidence sequences, intersected over the looks (R = 3, 6, ...)" in table
    assert "SNR: confidence sequence (normal model), intersected over looks" in table
    assert "reproducibility: beta-binomial confidence sequence (distribution-free)" in table
    # the report, as every run ends (issue 36 item 5), at the R it stopped at
    assert f"report: {tmp_path}/results/report.html" in result.stdout
    assert (tmp_path / "results/report.html").stat().st_size > 10_000
    # a clone of what a study commits resumes at the wave it reached and trains nothing:
    # tests/test_clean_clone.py, on a committed sequential study


def test_a_verdict_out_of_reach_stops_the_study_for_futility(tmp_path):
    """Two near-identical CRFs, a maximum of 20: the summary of a look judges the chance of a
    verdict by R = 20 (estimators/futility.py); below the level (here 0.9, so that the tiny
    corpus shows it within a wave or two) the study stops there, trains nothing more, and
    every table says why, with the probability."""
    result = sequential(tmp_path, study({"type": "crf", "max_iterations": 10},
                                        {"type": "crf", "max_iterations": 11},
                                        wave=2, maximum=20, futility=0.9))
    line = next(text for text in result.stdout.splitlines() if text.startswith("stopped at"))
    stop = int(line.split("R = ")[1].split(":")[0])
    assert stop < 20 and "no verdict reachable by R = 20 (predictive probability 0." in line
    assert repetitions_run(tmp_path) == stop
    summary = json.loads((tmp_path / "results/summaries/tiny/p.json").read_text())["summary"]
    judged = summary["stopping"]["futility_judgement"]
    assert summary["stopping"]["futile"] and judged["probability"] < 0.9 == judged["level"]
    table = (tmp_path / "results/tables/table4.md").read_text()
    assert (f"R = {stop}: stopped without a verdict, one by R = 20 being unlikely: predictive "
            f"probability {judged['probability']:.3f} (ST), below the futility level 0.9.") \
        in table


def test_a_planned_design_of_more_looks_than_it_spends_over_is_a_config_error():
    from reprocompare.base.errors import UserError
    from reprocompare.study.config import validate

    config = study({"type": "majority"}, {"type": "crf"}, wave=1, maximum=202)
    config["stopping"]["design"] = "planned"
    with pytest.raises(UserError) as error:
        validate(config, "study.yaml")
    assert str(error.value) == (
        "study.yaml: stopping.wave: waves of 1 up to 202 are 201 planned looks, more than the "
        "200 a planned design spends its error over: give a larger wave (or design: anytime)")
    # the confidence sequences look as often as they like
    config["stopping"]["design"] = "anytime"
    assert validate(config, "study.yaml")["stopping"]["wave"] == 1


def test_a_study_without_stopping_is_refused_in_one_line(tmp_path):
    config = study({"type": "majority"}, {"type": "crf"}, wave=2, maximum=4)
    config["stopping"]["enabled"] = False
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(config))
    result = conftest.run([*REPROCOMPARE, "sequential", "--configfile", str(path)],
                          cwd=tmp_path)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "stopping.enabled" in result.stderr


def test_plain_snakemake_on_a_sequential_study_warns_that_it_runs_the_configs_r(tmp_path):
    """Run without `reprocompare sequential`, a stopping config runs the R of its file, not the
    R the study has reached, which would summarize a grown study back down (or run past its
    maximum): the run says so (the driver passes R, no warning)."""
    from conftest import snakemake

    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(study({"type": "majority"}, {"type": "majority",
                                                                 "scheme": "IOBES"}, 2, 6)))
    command = ["--configfile", str(path), "-n", "--quiet"]
    alone = snakemake(tmp_path, *command, cores=None, check=False)
    assert alone.returncode == 0 and "warning: stopping.enabled" in alone.stderr, alone.stderr
    # the config's R (the default 10) is not a wave of this study: the warning says what it is
    assert "repetitions = 10 from " in alone.stderr and \
        "more than stopping.max_repetitions = 6, not the R the study has reached" in \
        alone.stderr and "waves of 2" in alone.stderr, alone.stderr
    # the commands that run the waves, both of them (the guide gives `run` for a study folder)
    assert "`reprocompare run DIR`" in alone.stderr and \
        f"`reprocompare sequential --configfile {path} --directory DIR`" in alone.stderr
    driven = snakemake(tmp_path, *command, "--config", "repetitions=4", cores=None, check=False)
    assert driven.returncode == 0 and "warning: stopping" not in driven.stderr, driven.stderr


def test_resume_and_sequential_widen_a_sequential_study_to_its_maximum():
    """Both read a sequential study's results up to stopping.max_repetitions (its waves went
    past the config's first R); a fixed study stays at its R."""
    from reprocompare.study.config import validate, widest

    config = validate({**study({"type": "majority"}, {"type": "crf"}, wave=2, maximum=6),
                       "repetitions": 2}, "study.yaml")
    assert (config["repetitions"], widest(config)["repetitions"]) == (2, 6)
    config["stopping"]["enabled"] = False
    assert widest(config) is config and config["repetitions"] == 2


def test_a_comparison_without_results_resumes_the_waves_from_its_first(tmp_path):
    # a study whose one comparison ran to R = 20 and whose other has no results (added later,
    # or moved away to train again) resumes at the first wave, not at the first's R: the other
    # would get no look before R = 20 and no chance to stop early (found rerunning a study's
    # BiLSTMs at new defaults beside its finished CRFs)
    from reprocompare.base.run_records import ESTIMATES
    from reprocompare.base.paths import run_directory
    from reprocompare.commands.sequential import _cloned, _complete
    from reprocompare.study.config import validate

    config = study({"type": "majority"}, {"type": "majority", "scheme": "IOBES"}, wave=5,
                   maximum=20)
    config["models"]["c"] = {"type": "majority", "scheme": "IOB1"}
    config["comparisons"]["q"] = {"a": "a", "b": "c", "corpora": ["tiny"]}
    config = validate(config, "study.yaml")
    for r in range(20):
        run = run_directory("tiny", "p", "holdout", r, root=tmp_path)
        run.mkdir(parents=True)
        (run / ESTIMATES.name).write_text("{}")
    assert _complete(config, tmp_path) == 0
    # and in a clone (no Snakemake records) the finished comparison is still resumed first,
    # or Snakemake would train its 20 repetitions again (found growing a committed study by
    # new samples in a clone)
    assert _cloned(config, tmp_path)
    (tmp_path / ".snakemake" / "metadata").mkdir(parents=True)
    assert not _cloned(config, tmp_path)
    for r in range(7):
        run = run_directory("tiny", "q", "holdout", r, root=tmp_path)
        run.mkdir(parents=True)
        (run / ESTIMATES.name).write_text("{}")
    assert _complete(config, tmp_path) == 7


def test_a_waves_progress_line_says_the_forecast_not_a_point_n_more():
    """Issue 39, item 3: "more than the maximum of 10" at R = 5 read the current SNR as the
    true one; the line says the forecast where the summary has one, the verdict's text
    otherwise."""
    from reprocompare.commands.sequential import progress

    forecast = {"probability": 0.31, "median_more": 5, "p10_more": 5, "p90_more": 5,
                "paths": 4000}
    undecided = {"decision": "undecided", "repetitions": 5, "forecast": forecast,
                 "text": "undecided after 5 repetitions: more than the maximum of 10 "
                         "repetitions to decide"}
    assert progress("Avg", undecided, 10) == (
        "Avg: undecided after 5 repetitions: a verdict by R = 10 with probability 0.31, "
        "median 5 more (10th-90th percentile 5-5) where it comes")
    # a handful of paths deciding is not "probability 0.00"
    assert "with probability below 0.01, median 5 more" in progress(
        "Avg", {**undecided, "forecast": {**forecast, "probability": 0.004}}, 10)
    # no forecast (Eq. 1's shares), or decided: the verdict's own sentence
    assert progress("ST", {**undecided, "forecast": None}, 10) == "ST: " + undecided["text"]
    decided = {"decision": "B>A", "text": "B > A reproduces", "forecast": None}
    assert progress("Avg", decided, 10) == "Avg: B > A reproduces"


# ---------------------------------------------------------------- issue 50: what a user types

def _fast(tmp_path: Path) -> Path:
    """A sequential study of two CRFs that barely differ (seconds on the tiny corpus), a
    planned design (the default, stated) of waves of 2 up to 4, futility stopping off:
    undecided, it runs every wave to its maximum."""
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(study({"type": "crf", "max_iterations": 10},
                                         {"type": "crf", "max_iterations": 11}, wave=2,
                                         maximum=4, futility=0, design="planned")))
    return path


def _sequential(tmp_path, path, *arguments) -> subprocess.CompletedProcess:
    return conftest.run([*REPROCOMPARE, "sequential", "--configfile", str(path), "--directory",
                         str(tmp_path / "run"), "--", *arguments], cwd=tmp_path)


def _run_to_its_end(directory: Path) -> None:
    result = _sequential(directory, _fast(directory), "--cores", "2", "--quiet")
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    (directory / "sequential.out").write_text(result.stdout)


@pytest.fixture
def finished(tmp_path_factory, tmp_path) -> Path:
    """A copy of the :func:`_fast` study run to its end (R = 4): its folder, with study.yaml,
    run/ and what the command printed (sequential.out). The run is made once a session
    (conftest.build_once); each test changes its own copy."""
    shared = conftest.build_once(tmp_path_factory, "sequential-undecided", _run_to_its_end)
    return conftest.copy_study(shared, tmp_path / "finished")


def test_no_clear_difference_runs_to_the_maximum_and_says_so(finished):
    # futility stopping off: the study runs every wave up to its maximum
    said = (finished / "sequential.out").read_text()
    assert "wave to R = 2" in said and "wave to R = 4" in said
    assert "stopped at R = 4: the maximum of 4 repetitions reached, still undecided" in said
    assert repetitions_run(finished / "run") == 4
    table = (finished / "run/results/tables/table4.md").read_text()
    assert "R = 4: the maximum reached, undecided." in table


def test_a_planned_study_runs_its_plan_and_refuses_another_once_it_has_results(finished):
    """Issue 39: under ``stopping.design: planned`` (the :func:`_fast` study's) the summaries,
    the verdicts and Table 4 say the design; with results, a changed maximum (the plan) or a
    return to confidence sequences (the analysis chosen after the results) is refused in one
    line naming the key and the summary it was made under, and nothing runs."""
    directory, path = finished / "run", finished / "study.yaml"
    config = yaml.safe_load(path.read_text())
    assert config["stopping"]["design"] == "planned"
    summary_path = directory / "results/summaries/tiny/p.json"
    summary = json.loads(summary_path.read_text())["summary"]
    stop = summary["stopping"]["repetitions"]
    assert summary["stopping"]["design"] == "planned" and repetitions_run(directory) == stop
    assert summary["verdicts"]["ST"]["planned"] and not summary["verdicts"]["ST"]["time_uniform"]
    assert summary["estimators"]["ST"]["snr_method"] == "planned"
    table = (directory / "results/tables/table4.md").read_text()
    assert "repeated confidence intervals of a planned design, looks at R = 2, 4" in table
    assert "SNR: exact noncentral t at each planned look's level (group-sequential" in table
    # the report's front page names the same design, never the confidence sequences
    report = " ".join((directory / "results/report.html").read_text().replace("\\n", " ")
                      .split())
    assert "prints is each planned look's fixed-R interval at that look's level" in report
    assert "prints is a confidence sequence" not in report
    before = {p: p.stat().st_mtime_ns for p in directory.glob("results/**/*")}
    for change, key, said in (({"max_repetitions": 6}, "stopping.max_repetitions",
                               "6, but {} was made under max_repetitions 4"),
                              ({"design": "anytime"}, "stopping.design",
                               "anytime, but {} was made under design planned")):
        path.write_text(yaml.safe_dump({**config, "stopping": {**config["stopping"], **change}}))
        result = conftest.run([*REPROCOMPARE, "sequential", "--configfile", str(path),
                               "--directory", str(directory)], cwd=finished)
        assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, \
            result.stderr
        assert f"{path}: {key}: " + said.format(summary_path) in result.stderr
        assert "new study directory" in result.stderr and result.stdout == ""
    assert {p: p.stat().st_mtime_ns for p in directory.glob("results/**/*")} == before


def test_a_dry_run_plans_the_next_wave_and_writes_nothing(tmp_path, finished):
    """`sequential ... -- -n` ended in "summaries/...json: missing" (issue 50): it plans the
    wave the study would run next, says so, and writes no result, summary or report."""
    path = _fast(tmp_path)
    result = _sequential(tmp_path, path, "-n", "--cores", "1")
    assert result.returncode == 0, result.stderr[-3000:]
    assert "dry run: the wave to R = 2 (waves of 2, at most 4; 0 complete repetitions " \
           "found)" in result.stdout
    assert "dry run: no job run, no result written; whether waves to R = 4 and beyond run " \
           "depends on its verdicts" in result.stdout
    assert "compare" in result.stdout + result.stderr  # snakemake's plan: the wave's jobs
    assert "missing" not in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "run" / "results").exists()
    # run to its end, then dry-run again: the wave it resumes at, nothing to do
    again = _sequential(finished, finished / "study.yaml", "-n", "--cores", "1")
    assert again.returncode == 0 and "dry run: the wave to R = 4 (waves of 2, at most 4; 4 " \
        "complete repetitions found)" in again.stdout, again.stdout + again.stderr
    assert "and beyond" not in again.stdout


def test_a_dry_run_of_a_clone_names_resume_in_one_line(tmp_path):
    path = _fast(tmp_path)
    table = tmp_path / "run/results/compare/tiny/p/holdout/records.jsonl"
    table.parent.mkdir(parents=True)
    table.write_text("")
    result = _sequential(tmp_path, path, "--dry-run")
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, \
        result.stderr
    assert "a dry run would plan every one of them again" in result.stderr
    assert f"`reprocompare resume --configfile {path} --directory {tmp_path / 'run'}`" \
        in result.stderr
    assert not (tmp_path / "run" / ".snakemake").exists()


def test_a_summary_without_its_stopping_record_is_named_and_rebuilt_as_advised(finished):
    """A summary that lost its `stopping` key (edited by hand, cut short) ended in a KeyError
    traceback; it is named in one line, and its advice (delete it, run again) works: the same
    command resumes at the wave the study reached and trains nothing. An emptied table
    (`: > table4.md`) is written again by the next wave, as `run` does it."""
    tmp_path, path = finished, finished / "study.yaml"  # the study run to its end
    summary_path = tmp_path / "run/results/summaries/tiny/p.json"
    record = json.loads(summary_path.read_text())
    good = record["summary"].pop("stopping")
    summary_path.write_text(json.dumps(record))
    result = _sequential(tmp_path, path, "--cores", "2", "--quiet")
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, \
        result.stderr
    assert f"{summary_path}: has no `stopping` record (edited by hand or cut short?): delete " \
           "this summary, then run the same command again" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    summary_path.unlink()
    table = tmp_path / "run/results/tables/table4.md"
    table.write_text("")
    trained = {p: p.stat().st_mtime_ns for p in tmp_path.glob("run/results/compare/**/*")}
    result = _sequential(tmp_path, path, "--cores", "2", "--quiet")
    assert result.returncode == 0, result.stderr[-3000:]
    # the same command again resumes at the wave the study reached and trains nothing
    assert "4 complete repetitions found; resuming at R = 4" in result.stdout
    assert {p: p.stat().st_mtime_ns for p in tmp_path.glob("run/results/compare/**/*")} \
        == trained
    assert "results/tables/table4.md was empty: removed" in result.stdout
    assert json.loads(summary_path.read_text())["summary"]["stopping"] == good
    assert "Sequential study: waves of 2" in table.read_text()
    assert repetitions_run(tmp_path / "run") == 4


def test_run_dry_runs_a_sequential_study_as_sequential_does(tmp_path):
    """`reprocompare run DIR -n` on a stopping config planned the config file's R (the warning
    that it is not the R the study reached); it plans the next wave, as sequential's does."""
    from reprocompare.commands.run import run_study

    (tmp_path / "study").mkdir()
    (tmp_path / "study" / "config.yaml").write_text(_fast(tmp_path).read_text())
    said = []
    assert run_study(tmp_path / "study", ["-n", "--cores", "1", "--quiet"], say=said.append) \
        == []
    assert said[0] == "dry run: the wave to R = 2 (waves of 2, at most 4; 0 complete " \
                      "repetitions found)", said
    assert said[-1].startswith("dry run: no job run, no result written")
    assert not (tmp_path / "study" / "results").exists()
