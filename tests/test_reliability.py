"""Reliability: bad corpora, a killed training job, atomic writes, and the security basics.

Every bad corpus must end in one clear line naming the file (and the line, where there is one),
a non-zero exit, no traceback and nothing written under results/, both from the command line and
from the workflow. Windows line endings and a byte-order mark simply work.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import psutil
import pytest
import yaml

import conftest
from conftest import ROOT, TEST_DATA
from reprocompare.base.errors import UserError
from reprocompare.base.files import write_text_atomic
from blocking import blocked, blocking_study, handshake
from test_cli import assert_user_error, run
from test_workflow import SNAKEMAKE, TINY, snakemake, tables, to_the_tables

GOOD = (TEST_DATA / "tiny.conll").read_text()
SENTENCES = GOOD.strip().split("\n\n")


def lines_of(text: str) -> list[str]:
    return text.split("\n")


def gzip_truncated() -> bytes:
    data = gzip.compress(GOOD.encode())
    return data[: len(data) // 2]


def token_line(at_least: int) -> int:
    """The index of the first token line (not a blank line) at or after ``at_least``."""
    return next(i for i, line in enumerate(lines_of(GOOD)) if i >= at_least and line)


def wrong_columns() -> str:
    lines, i = lines_of(GOOD), token_line(100)
    lines[i] = lines[i].split()[0] + " " + lines[i].split()[2]  # drop the POS column
    return "\n".join(lines)


def not_a_tag() -> str:
    lines, i = lines_of(GOOD), token_line(50)
    lines[i] = lines[i].rsplit(" ", 1)[0] + " NNP"
    return "\n".join(lines)


def mixed_schemes() -> str:
    # one sentence written in IOBES in an IOB2 corpus
    from reprocompare.corpora.schemes import convert

    first = [line.split() for line in SENTENCES[0].split("\n")]
    tags = convert([row[-1] for row in first], "IOBES")
    return "\n".join(" ".join([*row[:-1], tag]) for row, tag in zip(first, tags)) + "\n\n" + \
        "\n\n".join(SENTENCES[1:]) + "\n"


#: name -> (file content, expected line or None, fragment of the message)
BAD_CORPORA = {
    "empty": (b"", 1, "empty file"),
    "only blank lines": (b"\n\n\r\n  \n", 1, "empty file"),
    "docstart only": (b"-DOCSTART- -X- O\n\n", 2, "no sentences"),
    "wrong column count in the middle": (wrong_columns(), token_line(100) + 1,
                                         "2 columns, but line 1 has 3"),
    "a tag that is no chunk tag": (not_a_tag(), token_line(50) + 1, "is not a chunk tag"),
    "IOB2 and IOBES mixed": (mixed_schemes(), None, "not well-formed"),
    "non-UTF-8 bytes": (GOOD.encode()[:500] + b"\xff\xfe" + GOOD.encode()[500:], None,
                        "not UTF-8"),
    "binary file": (bytes(range(256)) * 8, 1, "not a text file"),
    "truncated gzip": (gzip_truncated(), None, "truncated or corrupt gzip"),
    "fewer sentences than bcv needs": ("\n\n".join(SENTENCES[:3]) + "\n", None,
                                       "needs at least 4 sentences"),
    "a sentence longer than anything sensible": (("word NN B-NP\n" + "word NN I-NP\n" * 6000),
                                                 5001, "longer than 5000 tokens"),
    "one column": ("a\nb\n\nc\n", 1, "one column only"),
    "a directory": (None, None, "is a directory"),
    "no chunks (every tag O)": ("\n".join(re.sub(r"\S+$", "O", line) if line else ""
                                          for line in GOOD.split("\n")), None, "no chunks"),
}


def make_corpus(tmp_path: Path, name: str) -> Path:
    content = BAD_CORPORA[name][0]
    path = tmp_path / "corpus.conll"
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content.encode() if isinstance(content, str) else content)
    return path


def expected_location(path: Path, name: str) -> str:
    line = BAD_CORPORA[name][1]
    return f"{path}:{line}: " if line else f"{path}"


@pytest.mark.slow
@pytest.mark.parametrize("name", list(BAD_CORPORA))
def test_bad_corpus_from_the_command_line(tmp_path, name):
    path = make_corpus(tmp_path, name)
    result = run("split", path, "--strategy", "bcv", "--out", tmp_path / "out.json", ok=False)
    assert_user_error(result, expected_location(path, name), BAD_CORPORA[name][2])
    if BAD_CORPORA[name][1] is None and name not in ("a directory", "fewer sentences than bcv "
                                                     "needs", "no chunks (every tag O)"):
        assert re.search(rf"{re.escape(str(path))}:\d+: ", result.stderr), result.stderr
    assert not (tmp_path / "out.json").exists()


@pytest.mark.slow
@pytest.mark.parametrize("name", list(BAD_CORPORA))
def test_bad_corpus_in_the_workflow(tmp_path, name):
    path = make_corpus(tmp_path, name)
    config = {**TINY, "corpora": {"tiny": {"path": str(path)}}}
    result = snakemake(tmp_path / "run", config, check=False)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "Traceback" not in output
    messages = [line for line in output.splitlines() if "reprocompare" in line and "error" in line]
    assert len(messages) == 1, output
    assert expected_location(path, name) in messages[0] and BAD_CORPORA[name][2] in messages[0]
    assert not (tmp_path / "run" / "results").exists()


def test_windows_line_endings_and_bom_simply_work(tmp_path):
    path = tmp_path / "windows.conll"
    path.write_bytes(("\ufeff" + GOOD.replace("\n", "\r\n")).encode())
    windows = run("split", path, "--strategy", "bcv").stdout
    unix = run("split", TEST_DATA / "tiny.conll", "--strategy", "bcv").stdout
    # the same sentences and folds; only the checksum of the raw text differs
    strip = lambda text: re.sub(r'"corpus_sha256": "[0-9a-f]+"', "", text)
    assert strip(windows) == strip(unix)


@pytest.mark.slow
@pytest.mark.parametrize("change,key", [
    ({"repetitions": "five"}, "repetitions"),
    ({"repetitions": -3}, "repetitions"),
    ({"strategies": {"repeated_holdout": {"k": [101]}}}, "strategies.repeated_holdout.k.0"),
    ({"strategies": {"bcv": {"m": 16}}}, "strategies.bcv.m"),
    ({"strategies": {"holdout": {"ratio": "8-1"}}}, "strategies.holdout.ratio"),
    ({"comparisons": {"crf": {"a": "crf_iob2", "b": "gone", "corpora": ["tiny"]}}},
     "comparisons.crf.b"),
    ({"comparisons": {"crf": {"a": "crf_iob2", "b": "crf_iobes", "corpora": ["nope"]}}},
     "comparisons.crf.corpora"),
    ({"models": {"crf_iob2": {"type": "svm"}, "crf_iobes": {"type": "crf"}}},
     "models.crf_iob2.type"),
    ({"models": {"crf_iob2": {"type": "crf", "scheme": "BIO"}, "crf_iobes": {"type": "crf"}}},
     "models.crf_iob2.scheme"),
    # issue 11: sane maxima (a dry run at R = 10^9 ate all memory) and names that stay inside
    # results/
    ({"repetitions": 1_000_000_000}, "repetitions"),
    ({"strategies": {"repeated_holdout": {"k": [3], "table4_k": 101}}},
     "strategies.repeated_holdout.table4_k"),
    ({"search": {"models": {"crf_iob2": {"trials": 10**6, "space": {
        "c1": {"distribution": "uniform", "low": 0, "high": 1}}}}}},
     "search.models.crf_iob2.trials"),
    ({"seed_variance": {"seeds": 10**6}}, "seed_variance.seeds"),
    ({"corpora": {"..": {"path": str(TEST_DATA / "tiny.conll")}}}, "corpora"),
    ({"comparisons": {".": {"a": "crf_iob2", "b": "crf_iobes", "corpora": ["tiny"]}}},
     "comparisons"),
])
def test_more_config_errors_name_the_key(tmp_path, change, key):
    result = snakemake(tmp_path, {**TINY, **change}, "-n", check=False)
    output = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in output
    assert f"study.yaml: {key}: " in output, output[-2000:]
    assert not (tmp_path / "results").exists()


@pytest.mark.slow
def test_killed_training_job_then_rerun_gives_identical_tables(tmp_path_factory, tmp_path):
    config, reference, tagger = blocking_study(tmp_path_factory, tmp_path, to_the_tables)
    workdir = tmp_path / "killed"
    workdir.mkdir()
    (workdir / "study.yaml").write_text(yaml.safe_dump(config))
    process = subprocess.Popen([*SNAKEMAKE, "--directory", str(workdir), "--configfile",
                                str(workdir / "study.yaml"), "--cores", "2"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env=blocked(tagger))
    os.kill(handshake(tagger / "fifo"), signal.SIGKILL)  # the training, as the OOM killer does
    assert process.wait(timeout=300) != 0  # the run stops: a job failed
    assert not (workdir / "results" / "tables" / "table4.csv").exists()
    to_the_tables(workdir, config)
    assert tables(workdir) == tables(reference)


@pytest.mark.slow
def test_a_python_tagger_dies_with_its_sigkilled_job(tmp_path):
    """A Python tagger's fit runs in a fork of the job in a process group of its own
    (models.processes.run_contained); when the job itself is SIGKILLed (the OOM killer, a
    scheduler's kill) it cannot end the fork, and the kernel does (PR_SET_PDEATHSIG)."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    job = subprocess.Popen([sys.executable, "-c", (
        "import os, time\n"
        "from reprocompare.models.processes import run_contained\n"
        "def fit():\n"
        f"    with open({str(fifo)!r}, 'w') as handshake:\n"
        "        handshake.write(str(os.getpid()))\n"
        "    time.sleep(600)\n"
        "run_contained(fit, timeout=900, what='the fit')\n")])
    fit = psutil.Process(handshake(fifo))  # the fit has started
    os.kill(job.pid, signal.SIGKILL)
    job.wait(timeout=60)
    fit.wait(timeout=60)  # raises psutil.TimeoutExpired if the fit outlived its job


def test_atomic_write_leaves_old_file_or_new_file(tmp_path, monkeypatch):
    target = tmp_path / "table.csv"
    write_text_atomic(target, "old\n")

    def fail(*args):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(UserError, match="table.csv: cannot write: disk full"):
        write_text_atomic(target, "new\n")
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["table.csv"]  # no temporary left behind


def test_yaml_config_cannot_run_code(tmp_path):
    from reprocompare.study.config import load_yaml
    from reprocompare.base.errors import UserError

    marker = tmp_path / "PWNED"
    evil = tmp_path / "evil.yaml"
    evil.write_text(f'seed: !!python/object/apply:os.system ["touch {marker}"]\n')
    with pytest.raises(UserError, match="not valid YAML"):
        load_yaml(evil)
    result = conftest.run([*SNAKEMAKE, "--directory", str(tmp_path), "--configfile", str(evil),
                           "-n"])
    assert result.returncode != 0
    assert not marker.exists()


@pytest.mark.slow
def test_shell_metacharacters_in_paths_are_just_names(tmp_path):
    weird = tmp_path / "c;touch PWNED;$(touch PWNED)`touch PWNED`.conll"
    weird.write_text(GOOD)
    config = {**TINY, "corpora": {"tiny": {"path": str(weird)}}}
    snakemake(tmp_path / "run", config, "--until", "corpus")
    assert (tmp_path / "run" / "results" / "corpora" / "tiny" / "corpus.conll").exists()
    # a shell would have run `touch PWNED` in its working directory: the run's, or ours
    assert not list(tmp_path.rglob("PWNED")) and not Path("PWNED").exists()


def test_rules_run_scripts_not_shell_commands():
    """No config or corpus value can reach a shell: every rule runs a Python script."""
    for rules in (ROOT / "workflow" / "rules").glob("*.smk"):
        text = rules.read_text()
        assert not re.search(r"^\s+(shell|run):", text, re.MULTILINE), rules.name


def test_no_unpickling_of_saved_files():
    """Nothing loads pickles from disk (models are trained in the job that uses them)."""
    sources = [p for d in ("corpora", "splitters", "models", "estimators", "reports",
                           "reprocompare", "workflow") for p in (ROOT / d).rglob("*.py")]
    for source in sources:
        text = source.read_text()
        if source == ROOT / "models" / "processes.py":
            # a user's tagger answers its parent through a pipe from a fork of the job itself
            # (the same code and trust), never through a file
            assert "os.pipe()" in text and not re.search(r"pickle\.load\(|joblib\.load\(", text)
            continue
        assert not re.search(r"pickle\.loads?\(|joblib\.load\(", text), source
        for call in re.findall(r"torch\.load\([^)]*\)", text):
            assert "weights_only=True" in call, (source, call)


# ---- issue 11: no NaN in JSON, the umask respected, a full disk one clear error -------------------

def test_json_writer_refuses_nan_naming_the_key(tmp_path):
    from reprocompare.base.errors import UserError
    from reprocompare.base.files import dumps_json, write_json_atomic

    assert dumps_json({"snr": float("inf")}) == '{\n "snr": Infinity\n}\n'
    with pytest.raises(UserError, match=r"NaN .* at summary\.estimators\.ST\.snr_low"):
        write_json_atomic(tmp_path / "s.json",
                          {"summary": {"estimators": {"ST": {"snr_low": float("nan")}}}})
    with pytest.raises(UserError, match=r"at values\[1\]"):
        dumps_json({"values": [0.1, float("nan")]})
    assert not list(tmp_path.iterdir())


def test_outputs_respect_the_umask(tmp_path):
    import os

    from reprocompare.base.files import write_directory_atomic, write_text_atomic

    previous = os.umask(0o027)
    try:
        write_text_atomic(tmp_path / "a.txt", "x")
        write_directory_atomic(tmp_path / "run", lambda d: (d / "f").write_text("y"))
    finally:
        os.umask(previous)
    assert (tmp_path / "a.txt").stat().st_mode & 0o777 == 0o640
    assert (tmp_path / "run").stat().st_mode & 0o777 == 0o750


def test_full_disk_is_one_error_and_leaves_nothing(tmp_path, monkeypatch):
    import errno
    import os

    from reprocompare.base.errors import UserError
    from reprocompare.base.files import write_directory_atomic, write_text_atomic

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(UserError, match="a.txt: cannot write: No space left on device"):
        write_text_atomic(tmp_path / "a.txt", "x")
    monkeypatch.setattr(os, "rename", full)
    with pytest.raises(UserError, match="run: cannot write: No space left"):
        write_directory_atomic(tmp_path / "run", lambda d: (d / "f").write_text("y"))
    assert not list(tmp_path.iterdir())


@pytest.mark.slow
def test_device_cuda_without_a_gpu_stops_before_any_job(tmp_path):
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU: device: cuda is valid here")
    config = {**TINY, "models": {**TINY["models"], "bilstm": {"type": "bilstm", "epochs": 1}},
              "comparisons": {"b": {"a": "bilstm", "b": "crf_iob2", "corpora": ["tiny"]}},
              "device": "cuda"}
    result = snakemake(tmp_path, config, check=False)
    output = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in output
    assert "study.yaml: device: cuda, but torch sees no CUDA GPU" in output, output[-2000:]
    assert not (tmp_path / "results").exists()


@pytest.mark.slow
def test_keep_documents_and_ill_formed_keep_work_end_to_end(tmp_path):
    """Issue 11: the prepared copy dropped -DOCSTART- (one document), and ill_formed: keep failed
    inside the corpus job."""
    from reprocompare.corpora.conll import read_conll

    parts = []
    for i, sentence in enumerate(mixed_schemes().strip().split("\n\n")):
        if i % 15 == 0:
            parts.append("-DOCSTART- -X- O")
        parts.append(sentence)
    corpus = tmp_path / "documents.conll"
    corpus.write_text("\n\n".join(parts) + "\n")
    config = {**TINY, "corpora": {"tiny": {"path": str(corpus), "keep_documents": True,
                                           "ill_formed": "keep"}},
              "models": {"a": {"type": "majority"}, "b": {"type": "majority", "scheme": "IOBES"}},
              "comparisons": {"m": {"a": "a", "b": "b", "corpora": ["tiny"]}}, "repetitions": 2}
    # to Table 4, which reads every repetition (the figures and pages read no corpus)
    snakemake(tmp_path / "run", config, "--until", "tables")
    results = tmp_path / "run" / "results"
    prepared = read_conll(results / "corpora" / "tiny" / "corpus.conll", ill_formed="keep")
    docs = prepared.docs
    assert len(set(docs.tolist())) == 8
    splits = sorted((results / "compare" / "tiny" / "m").glob("*/rep*/split.json"))
    assert len(splits) == 6
    for path in splits:
        for fold in json.loads(path.read_text())["folds"]:
            train, validation = set(docs[fold["train"]]), set(docs[fold["validation"]])
            assert train and validation and not train & validation, path
    assert (results / "tables" / "table4.csv").exists()
