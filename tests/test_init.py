"""`reprocompare init` and `reprocompare run` on what a user types (issues 49 and 50).

Names YAML would read as numbers, booleans, null or dates are written in quotes by `init` and
refused in one line naming the key when a config holds them bare; every path `init` is given is
written so that `run`, which works in the study's folder, finds it; models are named from their
specs; an empty name, a --cores below 1, a read-only study and `run DIR --help` end in one line
that names the cause (or in run's help), never in advice to run the same command again.
"""

from __future__ import annotations

import gzip
import os
import signal
import stat
import subprocess
import sys
import time

import pytest
import yaml

import conftest
from conftest import TEST_DATA
from reprocompare.base.errors import UserError
from reprocompare.commands import run as run_command
from reprocompare.commands.init import config_text, init_study, model_names, resolved_entry
from reprocompare.pipeline import significance_jobs
from reprocompare.study.config import load_yaml, model_entry, validate
from test_hostile import good_run

TINY = (TEST_DATA / "tiny.conll").read_text()


def _config(**sections) -> dict:
    base = {"corpora": {"c": {"path": str(TEST_DATA / "tiny.conll")}},
            "models": {"a": {"type": "crf"}, "b": {"type": "crf", "scheme": "IOBES"}},
            "comparisons": {"x": {"a": "a", "b": "b", "corpora": ["c"]}}}
    base.update(sections)
    return base


# ---------------------------------------------------------------- every name is a string

@pytest.mark.parametrize("file_name", ["2002.conll", "123.conll.gz", "1e3.conll", "yes.conll",
                                       "null.conll", "2002-01-01.conll"])
def test_init_quotes_a_name_yaml_would_read_as_another_type(tmp_path, file_name):
    corpus = tmp_path / file_name
    if file_name.endswith(".gz"):
        corpus.write_bytes(gzip.compress(TINY.encode()))
    else:
        corpus.write_text(TINY)
    target = init_study(tmp_path / "study", corpus)
    name = file_name.split(".")[0]
    config = validate(load_yaml(target), source=str(target))
    assert list(config["corpora"]) == [name]
    comparison = next(iter(config["comparisons"].values()))
    assert comparison["corpora"] == [name]
    text = target.read_text()
    assert f"  '{name}':\n" in text  # a name is written in quotes, whatever it looks like
    assert "  'crf_iob2': {type: crf" in text


@pytest.mark.parametrize("text, key, fragment", [
    ("comparisons: {7: {a: a, b: b, corpora: [c]}}", "comparisons",
     "the name 7 is read by YAML as the number 7, not as a name: write the name in quotes, "
     "e.g. '7'"),
    ("corpora: {2002: {path: P}}", "corpora", "the number 2002"),
    ("models: {a: {type: crf}, yes: {type: crf, scheme: IOBES}}", "models",
     "the boolean true, not as a name: write the name in quotes, e.g. 'yes'"),
    ("comparisons: {~: {a: a, b: b, corpora: [c]}}", "comparisons", "as null"),
    ("comparisons: {2002-01-01: {a: a, b: b, corpora: [c]}}", "comparisons",
     "the date 2002-01-01"),
    ("comparisons: {1.5: {a: a, b: b, corpora: [c]}}", "comparisons", "the number 1.5"),
    ("comparisons: {x: {a: a, b: b, corpora: [2002]}}", "comparisons.x.corpora.0",
     "YAML reads it as the number 2002; write it in quotes (e.g. '2002')"),
    ("models: {a: {type: crf, label: no}, b: {type: crf, scheme: IOBES}}", "models.a.label",
     "the boolean false; write it in quotes (e.g. 'no')"),
    ("verdict: {rope: 1e-3}", "verdict.rope", "YAML reads 1e-3 as text; write it as 1.0e-3"),
    ("verdict: {rope: 2E2}", "verdict.rope", "write it as 2.0e+2"),
])
def test_a_name_or_value_yaml_reads_as_another_type_is_refused_naming_its_key(
        tmp_path, text, key, fragment):
    path = tmp_path / "study.yaml"
    config = _config(**yaml.safe_load(text.replace("P", str(TEST_DATA / "tiny.conll"))))
    with pytest.raises(UserError) as raised:
        validate(config, source=str(path))
    message = str(raised.value)
    assert message.startswith(f"{path}: {key}: ") and fragment in message, message
    assert "\n" not in message


def test_a_quoted_number_is_a_name_and_runs(tmp_path):
    text = ("comparisons: {'7': {a: a, b: b, corpora: ['2002']}}\n"
            f"corpora: {{'2002': {{path: {TEST_DATA / 'tiny.conll'}}}}}\n")
    config = validate(_config(**yaml.safe_load(text)))
    assert list(config["comparisons"]) == ["7"] and list(config["corpora"]) == ["2002"]


@pytest.mark.slow
def test_a_study_of_a_corpus_named_2002_plans(tmp_path):
    corpus = tmp_path / "2002.conll"
    corpus.write_text(TINY)
    init_study(tmp_path / "study", corpus)
    result = conftest.reprocompare("run", "study", "-n", "--quiet", "rules", cwd=tmp_path)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    assert conftest.planned(result.stdout)["compare"] == 30


# ---------------------------------------------------------------- names from the specs

@pytest.mark.parametrize("a, b, names", [
    ("crf:scheme=IOB2", "crf:scheme=IOBES", ("crf_iob2", "crf_iobes")),
    ("crf:max_iterations=5", "crf:scheme=IOBES,max_iterations=5", ("crf_iob2", "crf_iobes")),
    ("crf:c1=0.1", "crf:c1=0.5", ("crf_c1-0.1", "crf_c1-0.5")),
    ("crf", "majority", ("crf_iob2", "majority_iob2")),
    ("bilstm:word_dim=10", "bilstm:word_dim=20", ("bilstm_word_dim-10", "bilstm_word_dim-20")),
])
def test_models_are_named_from_their_specs(a, b, names):
    assert model_names(model_entry(a, "--a"), model_entry(b, "--b")) == names


def _tiny_bert(folder):
    folder.mkdir(parents=True)
    (folder / "config.json").write_text("{}")
    (folder / "tokenizer.json").write_text("{}")


def test_a_relative_model_folder_is_written_so_that_run_finds_it(tmp_path, monkeypatch):
    """init --b transformers:model=models/x from the folder holding models/: the config names
    the folder absolute, and the study plans from another folder too (issue 49)."""
    here = tmp_path / "here"
    _tiny_bert(here / "models" / "tiny-bert")
    (here / "corpus.conll").write_text(TINY)
    monkeypatch.chdir(here)
    target = init_study("study", "corpus.conll", b="transformers:model=models/tiny-bert")
    config = validate(load_yaml(target))
    assert list(config["models"]) == ["crf_iob2", "transformers_tiny-bert"]
    assert config["models"]["transformers_tiny-bert"]["model"] == \
        str(here / "models" / "tiny-bert")
    assert "does crf_iob2 > transformers_tiny-bert reproduce on corpus?" in target.read_text()
    os.chdir(tmp_path)  # validated as the workflow reads it: in the study's folder
    with __import__("contextlib").chdir(here / "study"):
        validate(load_yaml("config.yaml"))


def test_a_relative_path_a_config_holds_is_read_from_the_study_folder(tmp_path):
    """A config written by hand with a relative model folder: `run` says where it looked,
    as typed and as resolved, before any job, with no rerun to try."""
    _tiny_bert(tmp_path / "models" / "tiny-bert")
    (tmp_path / "corpus.conll").write_text(TINY)
    target = init_study(tmp_path / "study", tmp_path / "corpus.conll",
                        b=f"transformers:model={tmp_path / 'models' / 'tiny-bert'}")
    target.write_text(target.read_text().replace(str(tmp_path / "models"), "models"))
    with pytest.raises(UserError) as raised:
        run_command.run_study(tmp_path / "study", ["-n"])
    message = str(raised.value)
    assert "models.transformers_tiny-bert.model: 'models/tiny-bert' (as a folder: " \
           f"{tmp_path / 'study' / 'models' / 'tiny-bert'})" in message, message
    assert "run the same command again" not in message
    # the config's fix first: a download would not help a folder the study reads elsewhere
    fix = message.index("give the model folder's absolute path")
    assert "hf download" not in message or fix < message.index("hf download"), message


def test_a_script_a_command_model_names_is_written_absolute(tmp_path, monkeypatch):
    (tmp_path / "my tagger").mkdir()
    (tmp_path / "tag.py").write_text("")
    (tmp_path / "cfg.yaml").write_text("")
    monkeypatch.chdir(tmp_path)
    entry = resolved_entry(model_entry(
        'command:train="python tag.py train {train} {model_dir} --config=cfg.yaml",'
        'predict="python tag.py predict {model_dir} {input} {output}"', "--a"))
    assert entry["train"] == (f"python {tmp_path}/tag.py train {{train}} {{model_dir}} "
                              f"--config={tmp_path}/cfg.yaml")
    assert entry["predict"].startswith(f"python {tmp_path}/tag.py predict {{model_dir}}")
    assert model_names(entry, model_entry("crf", "--b"))[0] == "command_tag"


def test_the_config_text_is_the_same_from_any_folder(tmp_path, monkeypatch):
    corpus = tmp_path / "corpus.conll"
    corpus.write_text(TINY)
    first = config_text(corpus, "crf", "crf:scheme=IOBES", "c.yaml")
    monkeypatch.chdir(tmp_path)
    assert config_text(corpus.relative_to(tmp_path), "crf", "crf:scheme=IOBES", "c.yaml") == first


def test_an_untyped_corpus_is_written_untyped(tmp_path):
    corpus = tmp_path / "bio.conll"
    corpus.write_text("EU B\nrejects O\nGerman B\ncall I\n\nPeter B\nBlackburn I\n\n")
    text = init_study(tmp_path / "s", corpus).read_text()
    assert "typed: false" in text and "Chunks without types" in text
    assert "1 types" not in text


# ---------------------------------------------------------------- advice that helps

@pytest.mark.parametrize("args, fragment", [
    (["init", "", "--corpus", "corpus.conll"],
     "reprocompare init: error: DIR: is empty (an unset shell variable?): name the study "
     "folder"),
    (["init", "study", "--corpus", ""],
     "reprocompare init: error: --corpus: is empty (an unset shell variable?): name the "
     "corpus file"),
])
def test_init_refuses_an_empty_name_and_writes_nothing(tmp_path, args, fragment):
    (tmp_path / "corpus.conll").write_text(TINY)
    result = conftest.reprocompare(*args, cwd=tmp_path)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert fragment in result.stderr, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus.conll"]


def test_init_study_refuses_an_empty_name():
    with pytest.raises(UserError, match="DIR: is empty"):
        init_study("", TEST_DATA / "tiny.conll")


def test_init_warns_before_writing_into_a_folder_with_results(tmp_path):
    corpus = tmp_path / "corpus.conll"
    corpus.write_text(TINY)
    (tmp_path / "study" / "results" / "compare" / "other").mkdir(parents=True)
    said = []
    init_study(tmp_path / "study", corpus, warn=said.append)
    assert len(said) == 1 and "results/compare holds a study's results" in said[0]
    result = conftest.reprocompare("init", "study", "--corpus", corpus, "--force",
                                   cwd=tmp_path)
    assert result.returncode == 0
    assert result.stderr.startswith("reprocompare init: warning: study/results/compare holds")


def test_run_dir_help_is_runs_help():
    result = conftest.reprocompare("run", "study", "--help")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: reprocompare run [-h] DIR ...")
    assert "run the same command again" not in result.stdout + result.stderr


@pytest.mark.parametrize("cores", [["--cores", "-3"], ["--cores", "0"], ["-c0"], ["--jobs=0"],
                                   ["-j", "-1"], ["--cores", "x"]])
def test_run_refuses_cores_below_one(tmp_path, cores):
    (tmp_path / "corpus.conll").write_text(TINY)
    init_study(tmp_path / "study", tmp_path / "corpus.conll")
    result = conftest.reprocompare("run", "study", *cores, cwd=tmp_path)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "is not a number of cores: give a whole number of at least 1, or all" \
        in result.stderr, result.stderr
    assert not (tmp_path / "study" / ".snakemake").exists()


def test_run_names_a_read_only_study_before_any_job(tmp_path, monkeypatch):
    (tmp_path / "corpus.conll").write_text(TINY)
    init_study(tmp_path / "study", tmp_path / "corpus.conll")
    results = tmp_path / "study" / "results"
    (results / "tables").mkdir(parents=True)
    results.chmod(stat.S_IRUSR | stat.S_IXUSR)
    # as a user other than root reads the mode (root may write in any folder)
    access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: access(path, mode) and (
        os.geteuid() != 0 or not mode & os.W_OK or os.stat(path).st_mode & stat.S_IWUSR))
    try:
        with pytest.raises(UserError) as raised:
            run_command.run_study(tmp_path / "study", ["--cores", "1"])
    finally:
        results.chmod(stat.S_IRWXU)
    message = str(raised.value)
    assert message.startswith(f"{results}: cannot be written (a read-only folder)"), message
    assert "run the same command again" not in message
    assert not (tmp_path / "study" / ".snakemake").exists()  # no snakemake started


@pytest.mark.slow
def test_run_says_snakemake_refused_its_arguments_without_a_rerun(tmp_path):
    (tmp_path / "corpus.conll").write_text(TINY)
    init_study(tmp_path / "study", tmp_path / "corpus.conll")
    result = conftest.run([sys.executable, "-m", "reprocompare", "run", "study",
                           "--no-such-option"], cwd=tmp_path)
    assert result.returncode == 2
    last = result.stderr.strip().splitlines()[-1]
    assert last == ("reprocompare run: error: study: snakemake refused its arguments (its "
                    "message above): correct them (`reprocompare run -h`, `snakemake --help`)")


# ---------------------------------------------------------------- Ctrl-C at start-up

@pytest.mark.parametrize("delay", [0.05, 0.15, 0.3, 0.5, 0.8])
def test_ctrl_c_at_any_moment_of_start_up_is_one_line(tmp_path, delay):
    """SIGINT while the command imports its libraries (before main's guard is up) ends as it
    does later: exit 130 and one line, never a traceback from inside an import. Python itself
    may still be starting (killed by the signal, no output) or already done (exit 0)."""
    command = [sys.executable, "-m", "reprocompare", "split", str(TEST_DATA / "tiny.conll"),
               "--strategy", "bcv", "--m", "15"]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True, cwd=tmp_path, env=env)
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=120)
    frames = [line for line in err.splitlines() if line.lstrip().startswith('File "')]
    if "init_import_site" in err or frames and all('File "<frozen ' in f for f in frames):
        # CPython's own start-up (site; or runpy finding the package for -m, every frame its
        # own), before any code of ours ran: on a loaded machine 0.05 s can land there, and what
        # Python prints then is its own
        return
    assert "Traceback" not in err, err
    assert process.returncode in (0, 130, -signal.SIGINT), (process.returncode, err)
    if process.returncode == 130:
        assert len(err.strip().splitlines()) == 1 and err.strip().endswith("interrupted"), err


# ---------------------------------------------------------------- the last tracebacks

def test_run_says_a_corpus_too_small_for_a_strategy_before_snakemake(tmp_path):
    corpus = tmp_path / "two.conll"
    corpus.write_text("EU B-ORG\nrejects O\n\nPeter B-PER\nBlackburn I-PER\n\n")
    init_study(tmp_path / "study", corpus)
    with pytest.raises(UserError, match="two.conll: too small for bcv: 3x2 BCV needs at least 4 "
                                        "sentences"):
        run_command.run_study(tmp_path / "study", ["--cores", "1"])
    assert not (tmp_path / "study" / ".snakemake").exists()


def test_a_test_statistic_these_scores_leave_undefined_is_one_line(tmp_path, monkeypatch):
    """Data samples of 2 sentences: every fold's A - B equal, the t statistic undefined; the
    summary job ends in one line naming the repetition, not a ValueError's traceback."""
    run = good_run(tmp_path)

    def undefined(*args, **kwargs):
        raise ValueError("all differences are equal: their variance is zero and the t "
                         "statistic is undefined")

    monkeypatch.setattr(significance_jobs, "repetition_tests", undefined)
    with pytest.raises(UserError) as raised:
        significance_jobs._repetition(run, "bcv", {"resamples": 10}, 0)
    message = str(raised.value)
    assert message.startswith(f"{run}: the significance tests of this repetition cannot be "
                              "computed: all differences are equal"), message
    assert "a larger corpus, subsample or variation.sample_size" in message
