"""A study from an installed wheel, in an empty folder, with no clone around (issue 36).

The wheel is built from the checkout and installed into a fresh virtual environment that holds
only what pip resolves for it (conftest's ``installed``: neither the repository nor the project
environment's packages are importable there, so a package the wheel forgets to declare is
missing, as pygments was for the report, issue 49); `reprocompare init` then writes a study's
config for a corpus it never saw and `reprocompare run` runs it with the workflow and profiles
the package carries: Table 4 with its verdicts, the report, and the verdicts on the terminal.
The bad inputs of `init` and `run` end in one line naming the cause, exit status 2 and nothing
written.
"""

from __future__ import annotations

import csv
import gzip
import subprocess
import sys

import pytest
import yaml

import conftest
from conftest import DATA, ROOT, TEST_DATA, bare_env, build_once
from reprocompare.commands.init import config_text, corpus_name, init_study
from reprocompare.study.config import SCHEMA_PATH, validate

#: the estimators of Table 4, one terminal line each
ESTIMATORS = ("ST", "RS", "Avg", "Vote", "Mixture")


def _slice(path, sentences: int) -> str:
    """The first ``sentences`` sentences of a CoNLL file (gzip) as text."""
    text = gzip.decompress(path.read_bytes()).decode("utf-8")
    return "\n\n".join(text.split("\n\n")[:sentences]) + "\n"


def _python(installed, *args, cwd):
    python, _ = installed
    return subprocess.run([str(python), *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, env=bare_env(python))


def _init_and_run(installed, base) -> None:
    """In ``base``: a corpus, an empty folder, and there `init` and `run` from the wheel, what
    each printed kept beside the folder (init.out, run.out)."""
    corpus = base / "corpora" / "mine.conll"
    corpus.parent.mkdir()
    corpus.write_text(_slice(DATA / "train.txt.gz", 60))
    here = base / "empty"
    here.mkdir()
    init = _python(installed, "-m", "reprocompare", "init", "study", "--corpus", corpus,
                   "--a", "crf:max_iterations=5", "--b", "crf:scheme=IOBES,max_iterations=5",
                   cwd=here)
    assert init.returncode == 0, init.stderr
    (base / "init.out").write_text(init.stdout)
    # the study made small: what init wrote is tested on its own below
    path = here / "study" / "config.yaml"
    config = yaml.safe_load(path.read_text())
    config["repetitions"] = 2
    config["strategies"] = {"holdout": {}, "repeated_holdout": {"k": [2], "table4_k": 2},
                            "bcv": {"m": 1}}
    config["stopping"] = {"enabled": True, "wave": 2, "max_repetitions": 2,
                          "estimators": ["Avg"]}
    path.write_text(yaml.safe_dump(config))
    run = _python(installed, "-m", "reprocompare", "run", "study", "--cores", "1", cwd=here)
    assert run.returncode == 0, (run.stdout + run.stderr)[-3000:]
    (base / "run.out").write_text(run.stdout)


@pytest.fixture
def study(installed, tmp_path_factory):
    """(the empty folder it ran from, the study's folder, what init and run printed), made
    once a session (conftest.build_once: these tests may run on different workers). The
    study is sequential (one wave of R = 2), so that its one run from the wheel also shows
    `run` running a stopping config in waves."""
    base = build_once(tmp_path_factory, "wheel-study",
                      lambda directory: _init_and_run(installed, directory))
    here = base / "empty"
    return here, here / "study", (base / "init.out").read_text(), (base / "run.out").read_text()


@pytest.mark.slow
def test_the_wheel_runs_without_the_repository(installed, tmp_path):
    probe = ("import reprocompare\n"
             "from reprocompare.pipeline.workflow_files import snakefile, profile\n"
             "print(reprocompare.__file__); print(snakefile()); print(profile('local'))")
    result = _python(installed, "-c", probe, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    python, _ = installed
    venv = python.parent.parent
    for line in result.stdout.splitlines():
        assert line.startswith(str(venv)) and str(ROOT) not in line, result.stdout
    assert "workflow/Snakefile" in result.stdout


@pytest.mark.slow
def test_init_and_run_give_table4_the_report_and_the_verdicts(study):
    here, directory, init, run = study
    assert "wrote study/config.yaml" in init
    table4 = (directory / "results" / "tables" / "table4.csv").read_text()
    rows = list(csv.DictReader(table4.splitlines()))
    assert [row["estimator"] for row in rows] == list(ESTIMATORS)
    assert all(row["verdict"] and row["verdict_text"] for row in rows), rows
    assert (directory / "results" / "report.html").stat().st_size > 10_000
    lines = run.strip().splitlines()
    verdicts = lines[-len(ESTIMATORS):]
    for estimator, line, row in zip(ESTIMATORS, verdicts, rows):
        assert line.startswith(f"crf_iob2_vs_crf_iobes on mine, {estimator} ("), run
        assert row["verdict_text"] in line and "F1 points" in line
    assert any(line.startswith("report: study/results/report.html") for line in lines)
    # the study stays in its folder: nothing beside it in the folder it ran from
    assert sorted(p.name for p in here.iterdir()) == ["study"]


@pytest.mark.slow
def test_resume_runs_from_the_wheel(installed, study):
    """resume runs the workflow too: the installed one, with no clone to find it in."""
    here, directory, _, _ = study
    result = _python(installed, "-m", "reprocompare", "resume", "--configfile",
                     "study/config.yaml", "--directory", "study", cwd=here)
    assert result.returncode == 0, result.stderr
    assert "6 repetitions (of at most 6) are complete" in result.stdout, result.stdout


def test_init_writes_a_commented_config_from_the_corpus_and_the_schema(tmp_path):
    corpus = tmp_path / "ner.conll"
    # a 4-column corpus whose chunk tags are not the last column: found by init
    corpus.write_text("EU NNP B-ORG x\nrejects VBZ O x\n\nPeter NNP B-PER x\nBlackburn NNP "
                      "I-PER x\n\n")
    target = init_study(tmp_path / "s", corpus)
    text = target.read_text()
    config = validate(yaml.safe_load(text), source=str(target))
    entry = config["corpora"][corpus_name(corpus)]
    assert entry["tag_column"] == 2 and entry["scheme"] == "IOB2"
    assert entry["path"] == str(corpus)
    # the values init does not decide are the schema's defaults, each under its description
    bare = validate({key: config[key] for key in ("corpora", "models", "comparisons")})
    assert config["strategies"] == bare["strategies"] and config["verdict"] == bare["verdict"]
    schema = yaml.safe_load(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert config["repetitions"] == schema["properties"]["repetitions"]["default"]
    assert "# Independent repetitions R of every strategy" in text
    # every comment a sentence of its description: a folded one's newline no escape in it
    assert "\\n" not in text
    assert "2 sentences (4 tokens)" in text and "2 types: ORG, PER" in text
    assert text == config_text(corpus, "crf:scheme=IOB2", "crf:scheme=IOBES", str(target))


@pytest.mark.parametrize("case", ["no such file", "not a corpus", "no chunks", "bad spec",
                                  "DIR is a file"])
def test_init_refuses_bad_input_in_one_line_and_writes_nothing(tmp_path, case):
    corpus = tmp_path / "corpus.conll"
    corpus.write_text((TEST_DATA / "tiny.conll").read_text())
    args = ["init", tmp_path / "study", "--corpus", corpus]
    if case == "no such file":
        args[-1] = tmp_path / "missing.conll"
    elif case == "not a corpus":
        args[-1] = ROOT / "README.md"
    elif case == "no chunks":
        corpus.write_text("a X O\nb X O\n")
    elif case == "bad spec":
        args += ["--a", "crf:no_such_parameter=1"]
    else:
        (tmp_path / "study").write_text("")
    before = sorted(tmp_path.rglob("*"))
    result = conftest.reprocompare(*args, cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert result.stderr.startswith("reprocompare init: error: ")
    expected = {"no such file": "missing.conll: --corpus: no such file",
                "not a corpus": "README.md:1: not a corpus reprocompare can study",
                "no chunks": "no chunks", "bad spec": "--a: 'crf:no_such_parameter=1'",
                "DIR is a file": "is a file"}[case]
    assert expected in result.stderr
    assert sorted(tmp_path.rglob("*")) == before  # no folder made, no file written


def test_init_repairs_ill_formed_tags_only_when_asked(tmp_path):
    """A public corpus with one stray I- tag (CoNLL-2002's esp.testa has one): init says which
    option lets it through, and with it writes the corpus's ill_formed: repair, commented."""
    corpus = tmp_path / "corpus.conll"
    corpus.write_text("EU B-ORG\nrejects O\n\nPeter O\nBlackburn I-PER\n\n")
    refused = conftest.reprocompare("init", "study", "--corpus", corpus, cwd=tmp_path)
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1
    assert "corpus.conll:5: not a corpus" in refused.stderr
    assert "give --ill-formed repair" in refused.stderr
    assert not (tmp_path / "study").exists()
    made = conftest.reprocompare("init", "study", "--corpus", corpus, "--ill-formed", "repair",
                                 cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    text = (tmp_path / "study" / "config.yaml").read_text()
    config = validate(yaml.safe_load(text))
    assert config["corpora"][corpus_name(corpus)]["ill_formed"] == "repair"
    assert "(init --ill-formed repair)" in text


def test_init_never_overwrites_a_config_without_force(tmp_path):
    corpus = tmp_path / "corpus.conll"
    corpus.write_text((TEST_DATA / "tiny.conll").read_text())
    first = conftest.reprocompare("init", "study", "--corpus", corpus, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    config = tmp_path / "study" / "config.yaml"
    config.write_text(config.read_text() + "# my own edit\n")
    again = conftest.reprocompare("init", "study", "--corpus", corpus, "--b", "majority",
                                  cwd=tmp_path)
    assert again.returncode == 2 and len(again.stderr.strip().splitlines()) == 1
    assert "study/config.yaml: exists" in again.stderr and "--force" in again.stderr
    assert config.read_text().endswith("# my own edit\n")
    forced = conftest.reprocompare("init", "study", "--corpus", corpus, "--b", "majority",
                                   "--force", cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert "'majority_iob2': {type: majority" in config.read_text()
    assert sorted(p.name for p in (tmp_path / "study").iterdir()) == ["config.yaml"]


@pytest.mark.parametrize("case", ["no folder", "no config", "own option"])
def test_run_refuses_a_folder_without_a_config_in_one_line(tmp_path, case):
    args = ["run", "study"]
    if case != "no folder":
        (tmp_path / "study").mkdir()
    if case == "own option":
        corpus = tmp_path / "corpus.conll"
        corpus.write_text((TEST_DATA / "tiny.conll").read_text())
        init_study(tmp_path / "study", corpus)
        args += ["--cores", "1", "--directory", "elsewhere"]
    before = sorted(tmp_path.rglob("*"))
    result = conftest.reprocompare(*args, cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    expected = {"no folder": "study: no such study folder",
                "no config": "study: no config.yaml in this folder",
                "own option": "--directory is what `reprocompare run` sets"}[case]
    assert expected in result.stderr
    assert sorted(tmp_path.rglob("*")) == before


@pytest.mark.slow
def test_run_plans_a_study_with_the_installed_workflow(tmp_path):
    """A dry run from a folder far from the repository: the packaged Snakefile and profiles."""
    corpus = tmp_path / "corpus.conll"
    corpus.write_text((TEST_DATA / "tiny.conll").read_text())
    init_study(tmp_path / "study", corpus)
    result = conftest.run([sys.executable, "-m", "reprocompare", "run", "study", "-n",
                           "--quiet", "rules"], cwd=tmp_path)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    counts = conftest.planned(result.stdout)
    # 3 strategies x 10 repetitions (the schema's default R) of the one comparison
    assert counts["compare"] == 30 and counts["front_page"] == 1, counts
    assert not (tmp_path / "study" / "results").exists()


@pytest.mark.slow
def test_run_runs_a_sequential_config_in_waves_and_reports_it(study):
    _, directory, _, run = study
    assert "wave to R = 2 (waves of 2, at most 2)" in run
    assert "stopped at R = 2" in run
    summary = yaml.safe_load((directory / "results" / "summaries" / "mine" /
                              "crf_iob2_vs_crf_iobes.json").read_text())
    assert summary["summary"]["stopping"]["waves"] == 1


def test_a_file_name_is_data_in_the_config_never_a_key(tmp_path):
    corpus = tmp_path / "x\nrepetitions: 4999\n#.conll"
    corpus.write_text((TEST_DATA / "tiny.conll").read_text())
    target = init_study(tmp_path / "s", corpus)
    config = yaml.safe_load(target.read_text())
    assert config["repetitions"] != 4999
    assert next(iter(config["corpora"].values()))["path"] == str(corpus)
