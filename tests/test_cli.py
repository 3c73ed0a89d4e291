"""The command line: the documented behaviour, byte-identical output, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import conftest
from conftest import DATA, write
from reprocompare.corpora.conll import read_conll
from seqeval.metrics import f1_score

CLI = [sys.executable, "-m", "reprocompare"]


def run(*args, ok=True):
    result = conftest.reprocompare(*args)
    if ok:
        assert result.returncode == 0, result.stderr
    return result


def assert_user_error(result, *fragments):
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    for fragment in fragments:
        assert fragment in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("strategy,extra,n_folds", [("holdout", [], 1),
                                                    ("repeated-holdout", ["--k", "4"], 4),
                                                    ("bcv", [], 6)])
def test_split_is_byte_identical_and_complete(tmp_path, strategy, extra, n_folds):
    args = [DATA / "test.txt.gz", "--strategy", strategy, "--seed", "7", "--repetition", "3",
            *extra]
    run("split", *args, "--out", tmp_path / "a.json")
    run("split", *args, "--out", tmp_path / "b.json")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    document = json.loads((tmp_path / "a.json").read_text())
    assert document["strategy"] == strategy and document["n_sentences"] == 2012
    assert (document["seed"], document["repetition"]) == (7, 3)
    assert document["corpus_sha256"] == read_conll(DATA / "test.txt.gz").sha256
    assert len(document["folds"]) == n_folds
    for fold in document["folds"]:
        assert sorted(fold["train"] + fold["validation"]) == list(range(2012))
    assert ("blocks" in document) == (strategy == "bcv")
    other = run("split", *args[:-4], "--seed", "7", "--repetition", "4", *extra).stdout
    assert other != (tmp_path / "a.json").read_text()


@pytest.mark.slow
def test_split_bcv_blocks_follow_table1():
    document = json.loads(run("split", DATA / "test.txt.gz", "--strategy", "bcv").stdout)
    b1, b2, b3, b4 = (set(b) for b in document["blocks"])
    expected = [(b1 | b2, b3 | b4), (b3 | b4, b1 | b2), (b2 | b4, b1 | b3), (b1 | b3, b2 | b4),
                (b1 | b4, b2 | b3), (b2 | b3, b1 | b4)]
    assert [(set(f["train"]), set(f["validation"])) for f in document["folds"]] == expected


def test_split_too_small_is_a_clear_error(tmp_path):
    path = write(tmp_path / "tiny.txt", "a B-NP\n\nb B-NP\n\nc O\n")
    assert_user_error(run("split", path, "--strategy", "bcv", ok=False), str(path), "4")


def test_score_json_equals_seqeval(tmp_path, conll2000_test):
    # gold + a prediction that drops every other VP chunk tag to O
    pred_lines, golds, preds = [], [], []
    for s in conll2000_test.sentences[:300]:
        p = [("O" if t.endswith("VP") and i % 2 else t) for i, t in enumerate(s.tags)]
        golds.append(list(s.tags))
        preds.append(p)
        pred_lines += [f"{tok} {pos} {g} {q}" for tok, pos, g, q in
                       zip(s.tokens, s.features[0], s.tags, p)] + [""]
    both = write(tmp_path / "both.txt", "\n".join(pred_lines) + "\n")
    result = json.loads(run("score", both, "--json").stdout)
    assert set(result) == {"precision", "recall", "f1", "gold_chunks", "pred_chunks",
                           "correct_chunks", "per_type"}
    assert result["f1"] == pytest.approx(f1_score(golds, preds), abs=1e-12)
    assert 0 <= result["precision"] <= 1 and result["per_type"]["VP"]["recall"] < 1
    text = run("score", both).stdout
    assert f"FB1: {100 * result['f1']:6.2f}" in text.splitlines()[1]

    gold_file = write(tmp_path / "gold.txt", "\n".join(
        " ".join(line.split()[:3]) if line else "" for line in pred_lines) + "\n")
    pred_file = write(tmp_path / "pred.txt", "\n".join(
        " ".join(line.split()[::3]) if line else "" for line in pred_lines) + "\n")
    two_files = json.loads(run("score", gold_file, pred_file, "--json").stdout)
    assert two_files == result
    untyped = json.loads(run("score", gold_file, pred_file, "--json", "--untyped").stdout)
    assert list(untyped["per_type"]) == [""]


def test_score_errors(tmp_path):
    gold = write(tmp_path / "gold.txt", "a B-NP\nb I-NP\n\nc O\n")
    short = write(tmp_path / "short.txt", "a B-NP\n\nc O\n")
    assert_user_error(run("score", gold, short, ok=False), "short.txt:1", "1 tokens", "2")
    bad = write(tmp_path / "bad.txt", "a B-NP\nb XX\n\nc O\n")
    assert_user_error(run("score", gold, bad, ok=False), "bad.txt:2", "'XX'")
    assert_user_error(run("score", tmp_path / "missing.txt", ok=False), "missing.txt",
                      "no such file")
    binary = write(tmp_path / "bin.txt", b"\x00\x01\x02")
    assert_user_error(run("split", binary, "--strategy", "holdout", ok=False), "bin.txt:1",
                      "not a text file")


# ---- issue 11: aligned scoring, safe --out, summaries that pool only what belongs together ----

def test_score_compares_tokens_and_names_the_first_mismatch(tmp_path):
    gold = write(tmp_path / "gold.txt", "a B-NP\nb I-NP\n\nc B-VP\nd O\n\ne B-NP\nf O\n")
    xxx = write(tmp_path / "xxx.txt", "XXX B-NP\nXXX I-NP\n\nXXX B-VP\nXXX O\n\nXXX B-NP\nXXX O\n")
    assert_user_error(run("score", gold, xxx, ok=False), "xxx.txt:1", "'XXX'", "gold.txt:1",
                      "not aligned")
    # two sentences of equal length swapped: their tokens differ at the first token
    swapped = write(tmp_path / "swapped.txt", "a B-NP\nb I-NP\n\ne B-NP\nf O\n\nc B-VP\nd O\n")
    assert_user_error(run("score", gold, swapped, ok=False), "swapped.txt:4", "'e'",
                      "gold.txt:4")
    fewer = write(tmp_path / "fewer.txt", "a B-NP\nb I-NP\n\nc B-VP\nd O\n")
    assert_user_error(run("score", gold, fewer, ok=False), "2 sentences", "has 3",
                      "gold.txt:7")
    same = write(tmp_path / "same.txt", gold.read_text())
    assert json.loads(run("score", gold, same, "--json").stdout)["f1"] == 1.0


def test_split_out_is_never_the_corpus_nor_a_directory(tmp_path):
    corpus = write(tmp_path / "c.txt", (DATA / "test.txt.gz").read_bytes())
    before = corpus.read_bytes()
    assert_user_error(run("split", corpus, "--strategy", "holdout", "--out", corpus, ok=False),
                      "--out", "overwrite")
    assert corpus.read_bytes() == before
    assert_user_error(run("split", corpus, "--strategy", "holdout", "--out", tmp_path,
                          ok=False), "--out", "is a directory")


def test_compare_out_must_be_new_or_empty_and_is_complete_or_absent(tmp_path):
    corpus = DATA.parent.parent / "tests" / "data" / "tiny.conll"
    args = ["compare", corpus, "--a", "majority", "--b", "majority:scheme=IOBES",
            "--strategy", "holdout"]
    file = write(tmp_path / "file", "x")
    assert_user_error(run(*args, "--out", file, ok=False), "--out", "is a file")
    full = tmp_path / "full"
    full.mkdir()
    write(full / "old.json", "{}")
    assert_user_error(run(*args, "--out", full, ok=False), "--out", "not empty")
    assert sorted(p.name for p in full.iterdir()) == ["old.json"]
    run(*args, "--out", tmp_path / "new")
    assert (tmp_path / "new" / "estimates.json").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary left


def test_a_fifo_is_not_a_corpus(tmp_path):
    import os

    fifo = tmp_path / "fifo.conll"
    os.mkfifo(fifo)
    result = conftest.run([*CLI, "split", str(fifo), "--strategy", "holdout"], timeout=60)
    assert_user_error(result, "fifo.conll", "not a regular file")


# ---- issue 23: every number has a range, and the world failing ends in one line ----

def _options_taking_numbers():
    """(subcommand, option, its type) for every option of every subcommand that takes one."""
    from reprocompare.commands.cli import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    return [(name, action.option_strings[0], action.type)
            for name, sub in commands.items() for action in sub._actions
            if action.option_strings and action.type not in (None, Path, str)]


def test_every_number_an_option_takes_has_a_checked_range():
    from reprocompare.commands.options import BOUNDS, OPEN_BOUNDS

    found = _options_taking_numbers()
    assert {option for _, option, _ in found} >= {"--k", "--m", "--trials", "--simulations"}
    for command, option, kind in found:
        assert kind not in (int, float), f"{command} {option} takes any {kind.__name__}"
        if option == "--ratio":
            continue
        if option in OPEN_BOUNDS:  # both ends excluded, and what lies beyond
            number, low, high = OPEN_BOUNDS[option]
            assert kind(str((low + high) / 2)) == (low + high) / 2
            for outside in (low, high, low - 1, high + 1, "nan", ""):
                with pytest.raises(Exception, match=r"in \(|must be in"):
                    kind(str(outside))
            continue
        bound = BOUNDS["--table4-k" if (command, option) == ("summarize", "--k") else option]
        number, low, high = bound
        assert kind(str(low)) == low and kind(str(high)) == high
        step = 1 if number is int else 1e-6 * max(1.0, abs(high))
        outside = [low - step, high + step, "nan", ""] + (["1e3"] if number is int else [])
        for value in outside:
            with pytest.raises(Exception, match=r"in \[|must be in"):
                kind(str(value))


@pytest.mark.parametrize("argv,fragment", [
    (["split", "c", "--strategy", "repeated-holdout", "--k", "1000000000"],
     "argument --k: must be in [1, 100], got 1000000000"),
    (["split", "c", "--strategy", "bcv", "--m", "0"], "argument --m: must be in [1, 15], got 0"),
    (["expected-max-bias", "--trials", "100000000"], "argument --trials: must be in [1, 10000]"),
    (["expected-max-bias", "--simulations", "1"], "argument --simulations: must be in [2, "),
    (["expected-max-bias", "--budgets", "0"], "argument --budgets: must be in [1, 10000]"),
    (["split", "c", "--strategy", "holdout", "--seed", "-1"], "argument --seed: must be in"),
    (["split", "c", "--strategy", "holdout", "--ratio", "10000000:1"], "not a ratio like 8:1"),
    (["summarize", "d", "--k", "x"], "argument --k: expected an integer in [1, 100], got 'x'"),
])
def test_an_option_out_of_range_is_one_line_before_any_work(capsys, argv, fragment):
    from reprocompare.commands.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(argv)  # the corpus "c" does not exist: the option is refused before it is read
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert fragment in err and len(err.strip().splitlines()) == 1 and "usage" not in err


def test_simulations_times_trials_is_bounded_by_memory(capsys):
    from reprocompare.commands.cli import main

    assert main(["expected-max-bias", "--trials", "10000", "--simulations", "1000000"]) == 2
    assert "10,000,000,000 scores would not fit in memory" in capsys.readouterr().err


@pytest.mark.slow
def test_a_full_disk_and_a_closed_pipe_are_one_line(tmp_path):
    full = subprocess.run(f"{' '.join(CLI)} split {DATA / 'test.txt.gz'} --strategy bcv "
                          "> /dev/full", shell=True, capture_output=True, text=True)
    assert full.returncode == 1, full.stderr
    assert full.stderr == "reprocompare split: error: no space left on the device (the output)\n"
    scores = write(tmp_path / "scores.txt", "\n".join(str(i / 7e4) for i in range(70_000)))
    closed = subprocess.run(f"{' '.join(CLI)} expected-max {scores} | head -c 1", shell=True,
                            capture_output=True, text=True, executable="/bin/bash")
    assert closed.stdout == " " and "Traceback" not in closed.stderr
    assert closed.stderr == ("reprocompare expected-max: error: the output was closed before "
                             "it was written (broken pipe)\n")


@pytest.mark.parametrize("failure,status,message", [
    (KeyboardInterrupt(), 130, "reprocompare split: interrupted"),
    (OSError(28, "No space left on device", "out.json"), 1,
     "reprocompare split: error: no space left on the device: out.json"),
    (BrokenPipeError(32, "Broken pipe"), 1,
     "reprocompare split: error: the output was closed before it was written (broken pipe)"),
    (MemoryError(), 1, "reprocompare split: error: out of memory"),
])
def test_the_world_failing_inside_a_command_is_one_line(monkeypatch, capsys, failure, status,
                                                        message):
    from reprocompare.commands import cli

    def fail(args):
        raise failure

    monkeypatch.setattr(cli, "cmd_split", fail)
    assert cli.main(["split", str(DATA / "test.txt.gz"), "--strategy", "holdout"]) == status
    err = capsys.readouterr().err
    assert err.startswith(message) and len(err.strip().splitlines()) == 1
