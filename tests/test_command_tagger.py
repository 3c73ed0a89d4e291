"""``type: command``: a tagger as two shell commands, checked output, clear failures, no leftovers.

The end-to-end tests compare the built-in CRF with examples/perceptron_tagger.py (a standalone
pure-Python tagger that knows nothing of reprocompare) through ``reprocompare compare`` and through
the Snakemake workflow, on tests/data/tiny.conll.
"""

from __future__ import annotations

import glob
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import yaml

import conftest
from conftest import ROOT, TEST_DATA
from reprocompare.base.errors import UserError
from reprocompare.corpora.conll import read_conll
from reprocompare.corpora.schemes import convert
from reprocompare.corpora.scoring import count_chunks
from reprocompare.models import CommandTagger, build_model, parse_spec, spec_from_mapping
from reprocompare.models.command import read_predictions

PYTHON = shlex.quote(sys.executable)
SCRIPT = shlex.quote(str(ROOT / "examples" / "perceptron_tagger.py"))
TRAIN = f"{PYTHON} {SCRIPT} train {{train}} {{model_dir}} --seed {{seed}} --iterations 2"
PREDICT = f"{PYTHON} {SCRIPT} predict {{model_dir}} {{input}} {{output}}"
CORPUS = read_conll(TEST_DATA / "tiny.conll")


def command(train: str = TRAIN, predict: str = PREDICT, **params) -> CommandTagger:
    return CommandTagger(train=train, predict=predict, **params)


def fit_predict(model, n_train: int = 60, n_test: int = 20):
    train, test = CORPUS.sentences[:n_train], CORPUS.sentences[n_train:n_train + n_test]
    model.fit(train, [s.tags for s in train], corpus_scheme=CORPUS.scheme)
    return model.predict(test), [list(s.tags) for s in test]


def _fake_tagger(tmp_path: Path, body: str) -> str:
    """A predict command running ``body`` (Python) with the input and output paths as argv."""
    script = tmp_path / "fake.py"
    script.write_text("import sys\nsource, output = sys.argv[1], sys.argv[2]\n" + body)
    return f"{PYTHON} {shlex.quote(str(script))} {{input}} {{output}}"


# ---------------------------------------------------------------------------------- the spec


def test_a_spec_with_commands_round_trips_through_its_string_form():
    spec = spec_from_mapping("mine", {"type": "command", "train": "a, b {train}",
                                      "predict": 'echo "x" {input} > {output}'})
    assert str(spec).startswith("command:scheme=IOB2,predict=")
    assert parse_spec(str(spec)) == spec
    model = build_model(spec, random_state=7)
    assert model.get_params()["predict"] == 'echo "x" {input} > {output}'
    assert model.random_state == 7


@pytest.mark.parametrize("mapping, key, message", [
    ({"type": "command", "predict": PREDICT}, "models.m.train", "missing"),
    ({"type": "command", "train": TRAIN}, "models.m.predict", "missing"),
    ({"type": "command", "train": "fit {data}", "predict": PREDICT}, "models.m.train",
     "unknown placeholder {data}"),
    ({"type": "command", "train": "fit {model_dir}", "predict": PREDICT}, "models.m.train",
     "must use {train}"),
    ({"type": "command", "train": TRAIN, "predict": "tag {input}"}, "models.m.predict",
     "must use {output}"),
    ({"type": "command", "train": "awk '{print}' {train}", "predict": PREDICT},
     "models.m.train", "unknown placeholder {print}"),
    ({"type": "command", "train": "fit {train", "predict": PREDICT}, "models.m.train",
     "not a command template"),
])
def test_spec_errors_name_the_key(mapping, key, message):
    with pytest.raises(UserError) as error:
        spec_from_mapping("m", mapping)
    assert error.value.key == key
    assert message in str(error.value)


def test_literal_braces_are_written_doubled():
    spec = spec_from_mapping("m", {"type": "command", "train": "awk '{{print}}' {train}",
                                   "predict": PREDICT})
    assert spec.params["train"] == "awk '{{print}}' {train}"


# ---------------------------------------------------------------------------------- running


def test_the_example_tagger_learns_and_its_files_are_removed():
    model = command(random_state=3)
    predicted, gold = fit_predict(model)
    assert count_chunks(gold, predicted).f1() > 0.5  # it learned: majority-like taggers do less
    work = Path(model.work_dir_)
    assert work.is_dir() and sorted(p.name for p in work.iterdir()) == ["model", "train.conll"]
    del model
    assert not work.exists()


def test_the_seed_and_scheme_reach_the_command_and_the_train_file_is_conll(tmp_path):
    record = tmp_path / "record.txt"
    train = (f"cp {{train}} {shlex.quote(str(tmp_path / 'train.conll'))} && "
             f"echo {{seed}} {{scheme}} > {shlex.quote(str(record))}")
    copy = _fake_tagger(tmp_path, "out = open(output, 'w')\n"
                        "for line in open(source):\n"
                        "    f = line.split()\n"
                        "    out.write(f'{f[0]} O\\n' if f else '\\n')\n")
    model = command(train=train, predict=copy, scheme="IOBES", random_state=42)
    predicted, gold = fit_predict(model, 5, 3)
    assert record.read_text().split() == ["42", "IOBES"]
    lines = (tmp_path / "train.conll").read_text().splitlines()
    first = CORPUS.sentences[0]
    # token, the extra column (POS), the gold tag in the model's scheme (IOBES); a blank line
    expected = [f"{token} {pos} {tag}" for token, pos, tag in
                zip(first.tokens, first.features[0], convert(first.tags, "IOBES"))]
    assert lines[:len(first) + 1] == expected + [""]
    assert "E-NP" in lines[2] and "S-" in " ".join(expected)
    assert predicted == [["O"] * len(tags) for tags in gold]


def test_a_failing_command_shows_its_status_and_stderr_tail_and_leaves_nothing(tmp_path):
    before = _work_dirs()
    train = f"{PYTHON} -c \"import sys; [print('line', i, file=sys.stderr) for i in range(50)]; " \
            "sys.exit(3)\" {train}"
    model = command(train=train)
    with pytest.raises(UserError) as error:
        fit_predict(model)
    message = str(error.value)
    assert "train command failed with exit status 3" in message
    assert "line 49" in message and "line 29" not in message  # the tail: the last 20 lines
    assert _work_dirs() == before


@pytest.mark.parametrize("body, message, line", [
    ("open(output, 'w').write('')\n", "0 sentences, {input} has 3", None),
    ("pass\n", "was not written", None),
    ("lines = open(source).read().split('\\n')\n"
     "open(output, 'w').write('\\n'.join(l.split()[0] + ' O' if l else '' for l in lines[:-4])"
     " + '\\n')\n", "sentence 3 has", None),
    ("open(output, 'w').write('Xyz O\\n')\n", "token 1 of sentence 1 should be", 1),
    ("src = open(source).read().splitlines()\n"
     "open(output, 'w').write('\\n'.join((l.split()[0] + ' B-') if l else '' for l in src))\n",
     "tag 'B-' is not O or B/I-TYPE", 1),
    ("src = open(source).read().splitlines()\n"
     "open(output, 'w').write('\\n'.join((l.split()[0] + ' S-NP') if l else '' for l in src))\n",
     "tag 'S-NP' is not O or B/I-TYPE (scheme IOB2)", 1),
    ("src = open(source).read().splitlines()\n"
     "open(output, 'w').write('\\n'.join(l.split()[0] if l else '' for l in src))\n",
     "expected a token and a tag", 1),
    ("src = open(source).read()\n"
     "open(output, 'w').write(''.join(l.split()[0] + ' O\\n' if l.strip() else '\\n' "
     "for l in (src + src).splitlines(True)))\n", "more sentences than the 3", None),
])
def test_bad_output_is_an_error_naming_the_output_and_line(tmp_path, body, message, line):
    model = command(predict=_fake_tagger(tmp_path, body))
    with pytest.raises(UserError) as error:
        fit_predict(model, 20, 3)
    assert message in str(error.value)
    assert error.value.path == "the predict command's {output}"
    if line is not None:
        assert error.value.line == line


def test_read_predictions_accepts_extra_columns_and_blank_line_runs(tmp_path):
    sentences = CORPUS.sentences[:2]
    text = "\n\n".join("\n".join(f"{t} whatever {tag}" for t, tag in zip(s.tokens, s.tags))
                       for s in sentences) + "\n\n\n"
    (tmp_path / "out").write_text(text)
    assert read_predictions(str(tmp_path / "out"), sentences, "IOB2") == \
        [list(s.tags) for s in sentences]


def test_a_fitted_command_model_does_not_pickle():
    import pickle

    model = command()
    fit_predict(model, 10, 2)
    with pytest.raises(TypeError, match="does not pickle"):
        pickle.dumps(model)


# ---------------------------------------------------------------------------------- end to end


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return conftest.reprocompare(*args, cwd=cwd)


def _spec(train: str = TRAIN, predict: str = PREDICT) -> str:
    return f"command:train={json.dumps(train)},predict={json.dumps(predict)}"


@pytest.mark.slow
def test_compare_crf_against_the_example_script(tmp_path):
    out = tmp_path / "run"
    result = _cli("compare", str(TEST_DATA / "tiny.conll"), "--strategy", "bcv", "--m", "2",
                  "--a", "crf:max_iterations=15", "--b", _spec(), "--out", str(out))
    assert result.returncode == 0, result.stderr
    estimates = json.loads((out / "estimates.json").read_text())
    assert estimates["models"]["B"].startswith("command:")
    scores = json.loads((out / "scores.json").read_text())
    assert len(scores["folds"]) == 4
    # the script's predictions were written and scored like any model's
    f1_b = [fold["B"]["f1"] for fold in scores["folds"]]
    assert all(0.5 < f1 < 1 for f1 in f1_b)
    runtime = json.loads((out / "runtime.json").read_text())
    assert all(fold["B"] > 0 for fold in runtime["folds"])
    # the same split and seed give the same bytes (the script is seeded with {seed})
    again = tmp_path / "again"
    assert _cli("compare", str(TEST_DATA / "tiny.conll"), "--strategy", "bcv", "--m", "2",
                "--a", "crf:max_iterations=15", "--b", _spec(), "--out",
                str(again)).returncode == 0
    for name in ("estimates.json", "scores.json", "counts.tsv.gz", "fold3/B.conll"):
        assert (out / name).read_bytes() == (again / name).read_bytes(), name


@pytest.mark.slow
def test_compare_names_the_fold_and_model_of_a_failing_command_and_writes_nothing(tmp_path):
    out = tmp_path / "run"
    failing = f"{PYTHON} -c \"import sys; sys.exit('no GPU here')\" {{input}} {{output}}"
    result = _cli("compare", str(TEST_DATA / "tiny.conll"), "--strategy", "holdout",
                  "--a", "majority", "--b", _spec(predict=failing), "--out", str(out))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    error = result.stderr.split("reprocompare compare: error: ", 1)[1]
    assert error.startswith("fold 1/1, model B (command:") and "): predict: " in error
    assert "predict command failed with exit status 1" in result.stderr
    assert error.endswith("its stderr ends with:\n    no GPU here\n")
    assert not out.exists()


@pytest.mark.slow
def test_the_workflow_compares_the_crf_with_the_example_script(tmp_path):
    """Also a ``type: python`` model (a class named by its path) in a second comparison."""
    config = {
        "corpora": {"tiny": {"path": str(TEST_DATA / "tiny.conll")}},
        "models": {"crf": {"type": "crf", "max_iterations": 10},
                   "perceptron": {"type": "command", "train": TRAIN, "predict": PREDICT},
                   "by_class": {"type": "python",
                                "class": "reprocompare.models.majority:MajorityTagger"}},
        "comparisons": {"crf_vs_script": {"a": "crf", "b": "perceptron", "corpora": ["tiny"]},
                        "class_vs_crf": {"a": "by_class", "b": "crf", "corpora": ["tiny"]}},
        # one strategy: the command's folds and the vote under bcv are
        # test_compare_crf_against_the_example_script's; here, that the workflow carries the spec
        "strategies": {"holdout": {}},
        "repetitions": 2,
        "seed": 3,
    }
    (tmp_path / "study.yaml").write_text(yaml.safe_dump(config))
    # up to Table 4, which names both comparisons (the figures, front page and checklist read
    # what the tables do)
    result = conftest.run(
        [sys.executable, "-m", "snakemake", "--snakefile", str(ROOT / "Snakefile"),
         "--directory", str(tmp_path), "--configfile", str(tmp_path / "study.yaml"),
         "--cores", "2", "--until", "tables"])
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    runs = sorted((tmp_path / "results" / "compare" / "tiny" / "crf_vs_script").glob(
        "*/rep*/estimates.json"))
    assert len(runs) == 2
    for path in runs:
        estimates = json.loads(path.read_text())
        assert estimates["models"]["B"] == str(spec_from_mapping("perceptron",
                                                                 config["models"]["perceptron"]))
        runtime = json.loads((path.parent / "runtime.json").read_text())
        assert all(fold["B"] > 0 for fold in runtime["folds"])
    by_class = sorted((tmp_path / "results" / "compare" / "tiny" / "class_vs_crf").glob(
        "*/rep*/estimates.json"))
    assert len(by_class) == 2
    assert json.loads(by_class[0].read_text())["models"]["A"] == \
        "python:class=reprocompare.models.majority:MajorityTagger,scheme=IOB2"
    table4 = (tmp_path / "results" / "tables" / "table4.md").read_text()
    shown = table4.replace("\\_", "_")  # the Markdown escapes of the names undone
    assert "crf_vs_script" in shown and "class_vs_crf" in shown


def test_the_example_script_is_standalone():
    """It imports the standard library only: what any framework's script looks like to us."""
    import ast

    tree = ast.parse((ROOT / "examples" / "perceptron_tagger.py").read_text())
    modules = {alias.name.split(".")[0] for node in ast.walk(tree)
               if isinstance(node, ast.Import) for alias in node.names}
    modules |= {node.module.split(".")[0] for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module}
    assert modules <= set(sys.stdlib_module_names) | {"__future__"}, modules


# ------------------------------------------------------------------ issue 23: time and kills


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting for init to reap it is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def _work_dirs() -> set[Path]:
    """This process's working copies (reprocompare-command-HOST-PID-*): another worker's, or a
    dead process's that a run sweeps away, come and go beside a test and say nothing of it."""
    mine = f"reprocompare-command-{socket.gethostname()}-{os.getpid()}-"
    return set(Path(tempfile.gettempdir()).glob(f"{glob.escape(mine)}*"))


def test_the_timeout_is_a_spec_key_whose_default_changes_no_spec():
    plain = {"type": "command", "train": "t {train}", "predict": "p {input} {output}"}
    assert str(spec_from_mapping("m", plain)) == \
        "command:scheme=IOB2,predict=p {input} {output},train=t {train}"  # as before issue 23
    assert spec_from_mapping("m", {**plain, "timeout": 86400}) == spec_from_mapping("m", plain)
    assert "timeout=60.0" in str(spec_from_mapping("m", {**plain, "timeout": 60}))
    for bad, message in ((0, "must be in (0, 31536000] seconds"), (-5, "got -5.0"),
                         (1e12, "got 1000000000000.0"), ("soon", "expected a finite number")):
        with pytest.raises(UserError, match=re.escape(message)) as error:
            spec_from_mapping("m", {**plain, "timeout": bad})
        assert error.value.key == "models.m.timeout"
    assert build_model(spec_from_mapping("m", {**plain, "timeout": 2})).timeout == 2.0


def test_a_command_past_its_timeout_is_killed_with_its_children_and_leaves_nothing(tmp_path):
    before = _work_dirs()
    pid_file = tmp_path / "child.pid"
    train = f"sleep 300 & echo $! > {shlex.quote(str(pid_file))}; wait; : {{train}}"
    model = command(train=train, timeout=1)
    started = time.monotonic()
    with pytest.raises(UserError) as error:
        fit_predict(model)
    assert time.monotonic() - started < 30
    message = str(error.value)
    assert message.startswith("train: the train command did not finish within its timeout of 1 "
                              "seconds and was killed") and "\n" not in message
    deadline = time.monotonic() + 10
    while _running(int(pid_file.read_text())) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(int(pid_file.read_text())), "the command's child outlived it"
    assert _work_dirs() == before


def test_compare_names_the_model_and_the_timeout_in_one_line(tmp_path, capsys):
    from reprocompare.commands.cli import main

    spec = f"command:train=\"sleep 30; : {{train}}\",predict={json.dumps(PREDICT)},timeout=0.5"
    status = main(["compare", str(TEST_DATA / "tiny.conll"), "--strategy", "holdout",
                   "--a", "majority", "--b", spec, "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err.strip().splitlines()[-1]  # after the folds' progress lines
    assert status == 2
    assert err.startswith("reprocompare compare: error: fold 1/1, model B (command:")
    assert "timeout of 0.5 seconds" in err and not (tmp_path / "run").exists()


def test_a_sigterm_removes_the_temporary_copy_and_kills_the_command(tmp_path):
    pid_file = tmp_path / "child.pid"
    script = tmp_path / "fit.py"
    script.write_text(
        "import sys\n"
        "from reprocompare.corpora.conll import read_conll\n"
        "from reprocompare.models import CommandTagger\n"
        f"corpus = read_conll({str(TEST_DATA / 'tiny.conll')!r})\n"
        f"model = CommandTagger(train='sleep 300 & echo $! > {pid_file}; wait; : {{train}}',\n"
        "                      predict='p {input} {output}')\n"
        "s = corpus.sentences[:5]\n"
        "model.fit(s, [x.tags for x in s], corpus_scheme=corpus.scheme)\n")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    # stderr into a file, not a pipe: the command's `sleep` inherits it, and reading a pipe
    # waits for its end, so a sleep the SIGTERM left running held the test 300 s and then
    # passed its check below, the sleep gone by itself
    stderr = (tmp_path / "stderr").open("w")
    process = subprocess.Popen([sys.executable, str(script)], env={**os.environ, "TMPDIR": str(tmp)},
                               stderr=stderr, text=True)
    deadline = time.monotonic() + 60
    while not (pid_file.exists() and pid_file.read_text().strip()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(tmp.glob("reprocompare-command-*"))  # the copy exists while it trains
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 128 + signal.SIGTERM
    stderr.close()
    assert "Traceback" not in (tmp_path / "stderr").read_text()
    assert not list(tmp.glob("reprocompare-command-*"))
    deadline = time.monotonic() + 10
    while _running(int(pid_file.read_text())) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(int(pid_file.read_text()))


def test_what_a_sigkill_left_behind_is_swept_by_the_next_run(tmp_path, monkeypatch):
    from reprocompare.models import command as module

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    gone = subprocess.Popen(["true"])
    gone.wait()  # a process id that no longer runs
    dead = Path(tempfile.mkdtemp(prefix=module._work_prefix(gone.pid)))
    (dead / "train.conll").write_text("x\n")
    alive = Path(tempfile.mkdtemp(prefix=module._work_prefix(os.getppid())))
    other_host = tmp_path / f"reprocompare-command-elsewhere-{gone.pid}-x"
    other_host.mkdir()
    model = command(train="true {train}")
    train = CORPUS.sentences[:5]
    model.fit(train, [s.tags for s in train], corpus_scheme=CORPUS.scheme)
    assert not dead.exists() and alive.is_dir() and other_host.is_dir()
    assert Path(model.work_dir_).name.startswith(module._work_prefix())
