"""Issue 34's red-team cases on records, corpora and taggers: a catalogue (``CASES``, counted by
benchmarks/bench_hostile.py with tests/test_hostile.py's) and the end-to-end checks behind it.

- **records**: a finished repetition edited in range (estimates.json's avg set to 0.9 while its
  counts say otherwise, a fold difference, the vote, Eq. 8's choice, a per-model F1), counts out
  of their bounds (correct above gold or predicted, negative), counts of another split, scores
  that disagree with the counts. Each must be refused by both readers, ``resume``'s
  (:func:`reprocompare.commands.resume.run_problem`, which then trains it again) and the
  summaries' (:func:`reprocompare.study.summary.load_estimates`), with one line naming the file
  and why; a run as written, re-indented or without its predictions is accepted by both.
- resume's promise ("snakemake trains the other N") is what a real ``snakemake -n`` plans next,
  and the tampered repetition never reaches a table.
- **taggers**: a command tagger and a Python tagger meet one contract: the same tag checks
  (typed or bare as the task trains them; an integer 0, NaN or ``NOTATAG`` is no tag), one
  line naming fold and model for any failure (a raising ``predict`` included), the same
  ``timeout`` with everything the tagger started killed, and no escape through ``os._exit``,
  ``chdir`` or a process left running.
- **corpora**: one corpus under two names (the same sha256) is one corpus in the partial
  conjunction across corpora: counted once, and the claims table says why.
"""

from __future__ import annotations

import copy
import gzip
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from reprocompare.base.errors import UserError
from reprocompare.commands.resume import run_problem
from reprocompare.study.summary import load_estimates
from committed import committed_copy, derived_split
from test_hostile import ACCEPTANCE, REFUSAL, TINY, Case, _main, assert_ends_in_its_class

#: the pair every good run trains: two taggers that differ (the majority baseline and a short
#: CRF), so that every difference is far from 0 and an edit cannot hide in a zero
PAIR = ["--a", "majority", "--b", "crf:max_iterations=5"]
STRATEGIES = {"holdout": [], "repeated-holdout": ["--k", "3"], "bcv": ["--m", "2"]}


def good_run(root: Path, strategy: str) -> Path:
    """A complete repetition of ``strategy`` (with a settings.json, as the compare job leaves
    it), made once under ``root``."""
    run = root / f"good-{strategy}"
    if not (run / "estimates.json").is_file():
        status, err = _main(["compare", str(TINY), *PAIR, "--strategy", strategy,
                             *STRATEGIES[strategy], "--out", str(run)], root)
        assert status == 0, err
        (run / "settings.json").write_text('{"split": {"strategy": "%s"}}\n' % strategy)
    return run


# ------------------------------------------------------------------------ edits of a run

def _json_edit(name: str, edit):
    def apply(run: Path) -> None:
        record = json.loads((run / name).read_text())
        edit(record)
        (run / name).write_text(json.dumps(record, indent=1))
    return apply


def _set(path: str, value):
    """Set the dotted ``path`` (a list index as a number) of a record to ``value``, or to
    ``value(old)`` when it is callable."""
    def edit(record):
        *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]
        for part in parents:
            record = record[part]
        record[last] = value(record[last]) if callable(value) else value
    return edit


def _estimates(path: str, value):
    return _json_edit("estimates.json", _set(path, value))


def _consistent_fold_edit(record):
    """A fold difference and Avg edited together, so estimates.json agrees with itself: only
    the counts can tell."""
    record["fold_differences"][0] += 0.05
    record["avg"] = sum(record["fold_differences"]) / len(record["fold_differences"])
    chose = "vote" if record["vote"] > record["avg"] else "avg"
    record["mixture"], record["mixture_chose"] = record[chose], chose


def _flip_mixture(record):
    other = "avg" if record["mixture_chose"] == "vote" else "vote"
    record["mixture"], record["mixture_chose"] = record[other], other


def _counts_edit(edit):
    """Edit the counts table's rows ([fold, model, sentence, gold, pred, correct] as strings)."""
    def apply(run: Path) -> None:
        lines = gzip.decompress((run / "counts.tsv.gz").read_bytes()).decode().splitlines()
        rows = [line.split("\t") for line in lines[1:]]
        rows = edit(rows)
        (run / "counts.tsv.gz").write_bytes(gzip.compress(
            "\n".join([lines[0], *("\t".join(row) for row in rows)]).encode() + b"\n"))
    return apply


def _first_with_chunks(rows, fold="0", model="A"):
    return next(row for row in rows if row[0] == fold and row[1] == model and int(row[4]))


def _correct_above_gold(rows):
    row = _first_with_chunks(rows)
    row[5] = str(int(row[3]) + 1)
    row[4] = str(max(int(row[4]), int(row[5])))
    return rows


def _correct_above_predicted(rows):
    row = _first_with_chunks(rows)
    row[5] = str(int(row[4]) + 1)
    row[3] = str(max(int(row[3]), int(row[5])))
    return rows


def _negative(rows):
    _first_with_chunks(rows)[3] = "-1"
    return rows


def _perfect_model_a(rows):
    """Model A right on every chunk of fold 0: counts within their bounds, another F1."""
    for row in rows:
        if row[0] == "0" and row[1] == "A":
            row[4] = row[5] = row[3]
    return rows


def _drop(fold):
    def edit(rows):
        first = next(i for i, row in enumerate(rows) if row[0] == fold)
        return rows[:first] + rows[first + 1:]
    return edit


def _renumber(rows):
    """Fold 0's sentences shifted by one: counts of another split."""
    for row in rows:
        if row[0] == "0":
            row[2] = str(int(row[2]) + 1)
    return rows


def _other_split(run: Path) -> None:
    split = json.loads((run / "split.json").read_text())
    split["folds"][0]["validation"], split["folds"][-1]["validation"] = \
        split["folds"][-1]["validation"], split["folds"][0]["validation"]
    (run / "split.json").write_text(json.dumps(split))


def _swap_models(record):
    record["models"] = {"A": record["models"]["B"], "B": record["models"]["A"]}


def _reindent(run: Path) -> None:
    for name in ("estimates.json", "scores.json"):
        (run / name).write_text(json.dumps(json.loads((run / name).read_text()), indent=4))


def _records_cases() -> list[Case]:
    refused = [
        # bcv: what the issue found, and its neighbours
        ("bcv", "avg set to 0.9, in range", _estimates("avg", 0.9), "has avg 0.9, but"),
        ("bcv", "avg moved by 0.01", _estimates("avg", lambda v: v + 0.01), "has avg"),
        ("bcv", "avg of the other sign", _estimates("avg", lambda v: -v), "has avg"),
        ("bcv", "vote edited", _estimates("vote", lambda v: v + 0.02), "has vote"),
        ("bcv", "mixture edited", _estimates("mixture", 0.5), "has mixture 0.5"),
        ("bcv", "Eq. 8's choice flipped", _json_edit("estimates.json", _flip_mixture),
         "mixture"),
        ("bcv", "mixture_chose alone flipped", _estimates(
            "mixture_chose", lambda v: "avg" if v == "vote" else "vote"), "mixture_chose"),
        ("bcv", "a fold difference edited", _estimates("fold_differences.1",
                                                       lambda v: v + 0.05),
         "fold_differences[1]"),
        ("bcv", "a fold difference and avg edited together",
         _json_edit("estimates.json", _consistent_fold_edit), "fold_differences[0]"),
        ("bcv", "per-model vote F1 edited", _estimates("per_model.A.vote", 0.99),
         "per_model.A.vote"),
        ("bcv", "per-model avg F1 edited", _estimates("per_model.B.avg", 0.5),
         "per_model.B.avg"),
        ("bcv", "strategy relabelled holdout", _json_edit("estimates.json", lambda r: r.update(
            strategy="holdout", holdout=r["avg"])), "split.json of bcv"),
        ("bcv", "scores.json of other models", _json_edit("scores.json", _swap_models),
         "names other models"),
        ("bcv", "scores.json F1 edited", _json_edit("scores.json", _set("folds.0.A.f1", 0.9)),
         "scores.json fold 0 gives model A f1 0.9"),
        ("bcv", "scores.json precision edited", _json_edit(
            "scores.json", _set("folds.1.B.precision", 0.1)), "precision"),
        ("bcv", "scores.json n_train edited", _json_edit("scores.json",
                                                         _set("folds.0.n_train", 3)), "n_train"),
        ("bcv", "counts: correct above gold", _counts_edit(_correct_above_gold),
         "correct can exceed neither"),
        ("bcv", "counts: correct above predicted", _counts_edit(_correct_above_predicted),
         "correct can exceed neither"),
        ("bcv", "counts: a negative gold count", _counts_edit(_negative), "must be integers"),
        ("bcv", "counts: model A perfect on fold 0", _counts_edit(_perfect_model_a),
         "scores.json fold 0 gives model A"),
        ("bcv", "counts: a sentence of fold 0 dropped", _counts_edit(_drop("0")),
         "the sentences of fold 0"),
        ("bcv", "counts: a sentence of the vote dropped", _counts_edit(_drop("vote")),
         "the sentences of the vote"),
        ("bcv", "counts of another split", _counts_edit(_renumber), "the sentences of fold 0"),
        ("bcv", "split.json of another repetition", _other_split, "split.json says"),
        # the other strategies
        ("holdout", "holdout edited in range", _estimates("holdout", lambda v: v + 0.05),
         "has holdout"),
        ("holdout", "per-model F1 edited", _estimates("per_model.A.holdout", 0.95),
         "per_model.A.holdout"),
        ("holdout", "counts: correct above gold", _counts_edit(_correct_above_gold),
         "correct can exceed neither"),
        ("repeated-holdout", "mean edited", _estimates("mean", lambda v: v + 0.03), "has mean"),
        ("repeated-holdout", "a fold difference edited", _estimates(
            "fold_differences.2", lambda v: v - 0.04), "fold_differences[2]"),
        ("repeated-holdout", "per-model mean edited", _estimates("per_model.B.mean", 0.2),
         "per_model.B.mean"),
        ("repeated-holdout", "counts: model A perfect on fold 0",
         _counts_edit(_perfect_model_a), "scores.json fold 0"),
    ]
    accepted = [(strategy, "as written", lambda run: None) for strategy in STRATEGIES] + [
        ("bcv", "re-indented", _reindent),
        ("bcv", "predictions deleted", lambda run: [shutil.rmtree(p) for p in run.glob("fold*")]),
        ("bcv", "runtime.json edited (wall times are not results)",
         _json_edit("runtime.json", _set("folds.0.A", 99.0))),
        ("repeated-holdout", "keys reordered", _json_edit(
            "estimates.json", lambda r: [r.update({k: r.pop(k)}) for k in list(r)[::-1]])),
    ]
    return ([Case("records", f"{strategy}: {name}", (strategy, edit), REFUSAL, fragment)
             for strategy, name, edit, fragment in refused]
            + [Case("records", f"{strategy}: {name}", (strategy, edit), ACCEPTANCE)
               for strategy, name, edit in accepted])


# ------------------------------------------------------------------------ corpora by content

#: the corpora of a comparison: name -> (its Avg over 5 repetitions, its sha256)
SHA = {"c1": "1" * 64, "c2": "2" * 64, "c3": "3" * 64}


def _corpora_cases() -> list[Case]:
    """Each input is the comparison's corpora as (name, the corpus its values and sha256 are
    of); each must be counted once per content."""
    named = [
        ("one corpus under two names", [("c1", "c1"), ("copy", "c1")]),
        ("two corpora and a copy of the first", [("c1", "c1"), ("c2", "c2"), ("copy", "c1")]),
        ("a copy named first", [("a_copy", "c2"), ("c1", "c1"), ("c2", "c2")]),
        ("two pairs of twins", [("c1", "c1"), ("x", "c1"), ("c2", "c2"), ("y", "c2")]),
        ("three names, one corpus", [("c1", "c1"), ("x", "c1"), ("y", "c1")]),
        ("three distinct corpora", [("c1", "c1"), ("c2", "c2"), ("c3", "c3")]),
        ("two distinct corpora", [("c1", "c1"), ("c2", "c2")]),
    ]
    return [Case("corpora", name, corpora, ACCEPTANCE) for name, corpora in named]


# ------------------------------------------------------------------------ taggers

#: a Python tagger of the user's: fit learns nothing, predict tags every token with TAG (the
#: first chunk tag of its training data: typed or bare as the task is), then the two hooks
#: FIT and PREDICT (statements) run
TAGGER = """
import os, subprocess, sys, time

class Tagger:
    def __init__(self, random_state=0):
        self.random_state = random_state

    def fit(self, sentences, tags):
        self.tag = next(t for s in tags for t in s if t != "O")
        self.tag = "B" + self.tag[1:]
{fit}
        return self

    def predict(self, sentences):
        answer = [[self.tag] + ["O"] * (len(s) - 1) for s in sentences]
{predict}
        return answer
"""
#: a command tagger: train copies one chunk tag of {train} to the model; predict answers it
COMMAND_TRAIN = ("awk 'NF>1 && $NF!=\"O\" {{print \"B\" substr($NF,2); exit}}' {train} "
                 "> {model_dir}/tag")
COMMAND_PREDICT = ("awk -v t=\"$(cat {model_dir}/tag)\" 'NF {{print $1, (first ? \"O\" : t); "
                   "first=1; next}} {{print; first=0}}' {input} > {output}")


def _hook(code: str) -> str:
    return "\n".join(f"        {line}" for line in code.splitlines()) if code else ""


def _taggers_cases() -> list[Case]:
    python = [  # (name, fit hook, predict hook, spec extra, untyped, expected, fragment)
        ("a tagger that keeps the contract", "", "", "", False, ACCEPTANCE, ""),
        ("bare tags in an untyped task", "", "", "", True, ACCEPTANCE, ""),
        ("typed tags in an untyped task", "", "answer[0][0] = 'B-NP'", "", True, REFUSAL,
         "tag 'B-NP' is not O or a bare B/I"),
        ("an integer 0 for a tag", "", "answer[0][1] = 0", "", False, REFUSAL,
         "sentence 0, token 1: 0 (int) is not a tag"),
        ("NaN for a tag", "", "answer[1][0] = float('nan')", "", False, REFUSAL,
         "sentence 1, token 0: nan (float) is not a tag"),
        ("NOTATAG", "", "answer[2][0] = 'NOTATAG'", "", False, REFUSAL,
         "tag 'NOTATAG' is not O or B/I-TYPE"),
        ("a sentence too few", "", "answer = answer[:-1]", "", False, REFUSAL,
         "predict returned"),
        ("predict raises", "", "1 / 0", "", False, REFUSAL,
         "raised ZeroDivisionError: division by zero (at "),
        ("fit calls sys.exit", "sys.exit(3)", "", "", False, REFUSAL, "raised SystemExit: 3"),
        ("fit calls os._exit(0)", "os._exit(0)", "", "", False, REFUSAL,
         "ended its process without answering: it exited with status 0"),
        ("fit kills itself", "os.kill(os.getpid(), 9)", "", "", False, REFUSAL,
         "it was killed by signal 9"),
        ("fit sleeps past its timeout", "time.sleep(120)", "", ",timeout=1", False, REFUSAL,
         "did not finish within its timeout of 1 seconds and was killed"),
        ("fit changes directory", "os.chdir('/')", "", "", False, ACCEPTANCE, ""),
        ("fit leaves a process running",
         "open(os.environ['PIDS'], 'a').write(f\"{subprocess.Popen(['sleep', '300']).pid}\\n\")",
         "", "", False, ACCEPTANCE, ""),
        ("a process that left the group outlives the timeout",
         "open(os.environ['PIDS'], 'a').write(f\"{subprocess.Popen(['setsid', 'sleep', "
         "'300']).pid}\\n\")\ntime.sleep(120)", "", ",timeout=1", False, REFUSAL,
         "was killed with the 1 process it started"),
    ]
    cases = [Case("taggers", f"python: {name}", ("python", fit, predict, extra, untyped),
                  expected, fragment)
             for name, fit, predict, extra, untyped, expected, fragment in python]
    command = [  # (name, train, predict, extra, untyped, expected, fragment)
        ("a tagger that keeps the contract", COMMAND_TRAIN, COMMAND_PREDICT, "", False,
         ACCEPTANCE, ""),
        ("bare tags in an untyped task", COMMAND_TRAIN, COMMAND_PREDICT, "", True, ACCEPTANCE,
         ""),
        ("typed tags in an untyped task", COMMAND_TRAIN,
         COMMAND_PREDICT.replace("$(cat {model_dir}/tag)", "B-NP"), "", True, REFUSAL,
         "tag 'B-NP' is not O or a bare B/I"),
        ("NOTATAG", COMMAND_TRAIN, COMMAND_PREDICT.replace("$(cat {model_dir}/tag)",
                                                           "NOTATAG"), "", False, REFUSAL,
         "tag 'NOTATAG' is not O or B/I-TYPE"),
        ("train leaves a process running", "sleep 300 & echo $! >> \"$PIDS\"; "
         + COMMAND_TRAIN, COMMAND_PREDICT, "", False, ACCEPTANCE, ""),
        ("a process that left the group outlives the timeout",
         "setsid sleep 300 & echo $! >> \"$PIDS\"; sleep 120; : {train}", COMMAND_PREDICT,
         ",timeout=1", False, REFUSAL, "was killed with the 2 processes it started"),
    ]
    cases += [Case("taggers", f"command: {name}", ("command", train, predict, extra, untyped),
                   expected, fragment)
              for name, train, predict, extra, untyped, expected, fragment in command]
    return cases


CASES: list[Case] = [*_records_cases(), *_corpora_cases(), *_taggers_cases()]


def _tagger_outcome(case: Case, tmp: Path) -> tuple[str, str]:
    """Compare the user's tagger (model A) with the majority baseline, from ``tmp`` as the
    working directory and into a relative --out: acceptance only when the run was written where
    it was asked, and nothing the tagger started still runs."""
    import os

    kind, first, second, extra, untyped = case.input
    if kind == "python":
        # a module name of its own: Python imports a name once per process
        module = f"mytag_{tmp.name.replace('-', '_')}"
        (tmp / f"{module}.py").write_text(TAGGER.format(fit=_hook(first),
                                                        predict=_hook(second)))
        spec = f"python:class={module}:Tagger,path={tmp}{extra}"
    else:
        spec = f"command:train={json.dumps(first)},predict={json.dumps(second)}{extra}"
    pids = tmp / "pids"
    pids.touch()
    before, environ = os.getcwd(), dict(os.environ)
    os.chdir(tmp)
    os.environ["PIDS"] = str(pids)
    try:
        status, err = _main(["compare", str(TINY), "--a", spec, "--b", "majority",
                             "--strategy", "holdout", "--out", "out",
                             *(["--untyped"] if untyped else [])], tmp)
    finally:
        os.chdir(before)
        os.environ.clear()
        os.environ.update(environ)
    running = [int(p) for p in pids.read_text().split() if _running(int(p))]
    if running:
        return "left running", f"processes still running: {running}; {err}"
    if status == 0:
        written = (tmp / "out" / "estimates.json").is_file()
        return (ACCEPTANCE, err) if written else ("silent", f"nothing in {tmp}/out; {err}")
    # the progress lines come first; the error is the last line, and nothing after it
    message = err.strip().splitlines()[-1] if err.strip() else ""
    one_line = message.startswith("reprocompare compare: error: fold 1/1, model A (") \
        and "Traceback" not in err
    return (REFUSAL if status in (1, 2) and one_line else f"exit {status}"), message


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return False


def _claims_lines(tmp: Path, corpora: list[tuple[str, str]]) -> dict[str, str]:
    """The replicability sentence of each corpus in the claims table of one comparison."""
    from reprocompare.pipeline.significance_jobs import claims_tables
    from test_claims_aso import _claims_record, _summary_record

    paths = []
    for name, content in corpora:
        claims = {**_claims_record(content), "corpus": name}
        summary = _summary_record(content)
        summary.update(corpus=name)
        summary["summary"].update(corpus=name, corpus_sha256=SHA[content])
        for kind, record in (("claims", claims), ("summary", summary)):
            path = tmp / f"{name}.{kind}.json"
            path.write_text(json.dumps(record))
            paths.append((kind, str(path)))
    outputs = {kind: str(tmp / f"claims.{kind}") for kind in ("csv", "md", "html", "tex",
                                                               "wide_tex")}
    claims_tables([p for k, p in paths if k == "claims"],
                  [p for k, p in paths if k == "summary"], outputs)
    # the Markdown table: a section per comparison on a corpus, its sentence in it
    # read as a reader sees it: the Markdown escapes of names (a\_copy) undone
    text = re.sub(r"\\([\\`*_{}\[\]()#+\-.!|<>~])", r"\1", (tmp / "claims.md").read_text())
    sections = text.split("### Significance claims: x on ")[1:]
    return {section.split("\n", 1)[0]: next((line for line in section.splitlines()
                                             if line.startswith("Replicability")), "")
            for section in sections}


# ------------------------------------------------------------------------ running a case

def outcome(case: Case, tmp: Path) -> tuple[str, str]:
    """(the class the case ended in, its message); ``tmp`` is an empty folder of its own, whose
    parent keeps the good runs."""
    if case.family == "records":
        strategy, edit = case.input
        run = tmp / "run"
        shutil.copytree(good_run(tmp.parent, strategy), run)
        edit(run)
        # both readers: resume's (which then trains it again) and the summaries'
        problem = run_problem(run)
        try:
            load_estimates(run)
            read = None
        except UserError as error:
            read = str(error)
        if (problem is None) != (read is None):
            return "readers disagree", f"resume: {problem}; summaries: {read}"
        if problem is None:
            return ACCEPTANCE, ""
        # one line each, naming the run (resume) and the file (the summaries)
        assert str(run) in read and "\n" not in read + problem, (problem, read)
        return REFUSAL, f"{run}: {problem}"
    if case.family == "taggers":
        return _tagger_outcome(case, tmp)
    if case.family == "corpora":
        sentences = _claims_lines(tmp, case.input)
        distinct = len({content for _, content in case.input})
        twins = [name for i, (name, content) in enumerate(case.input)
                 if content in {c for _, c in case.input[:i]}]
        for name, _ in case.input:
            sentence = sentences.get(name, "")
            counted = f"of {distinct} corpora" in sentence if distinct > 1 else \
                "not computed, the" in sentence
            said = all(f"{twin} is " in sentence for twin in twins) and (
                bool(twins) == ("count once across corpora" in sentence))
            if not (counted and said):
                return "misleading", f"{name}: {sentence!r}"
        return ACCEPTANCE, ""
    raise AssertionError(f"no runner for family {case.family!r}")


@pytest.fixture(scope="module")
def shared(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("redteam")


def test_the_catalogue_has_both_classes_in_every_family():
    assert len({str(case) for case in CASES}) == len(CASES), "every case has its own name"
    for family in {case.family for case in CASES}:
        classes = {case.expected for case in CASES if case.family == family}
        # a corpus under two names is no error: it is counted once, and said
        assert classes == ({ACCEPTANCE} if family == "corpora" else {REFUSAL, ACCEPTANCE}), \
            family
    assert all(case.fragment for case in CASES if case.expected == REFUSAL)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_red_team_case_ends_in_its_class(case, shared):
    tmp = Path(tempfile.mkdtemp(dir=shared))
    assert_ends_in_its_class(case, *outcome(case, tmp))


@pytest.mark.slow
def test_a_tampered_run_is_refused_by_summarize_in_one_line(shared):
    """`reprocompare summarize` on a run whose avg was set to 0.9: exit 2 and one line naming
    estimates.json, where it printed +90 points before."""
    runs = [shared / f"summarize-{r}" for r in range(2)]
    for r, run in enumerate(runs):
        status, err = _main(["compare", str(TINY), *PAIR, "--strategy", "bcv", "--m", "2",
                             "--repetition", str(r), "--out", str(run)], shared)
        assert status == 0, err
    status, err = _main(["summarize", *map(str, runs)], shared)
    assert status == 0, err
    _estimates("avg", 0.9)(runs[1])
    status, err = _main(["summarize", *map(str, runs)], shared)
    assert status == 2 and len(err.strip().splitlines()) == 1, err
    assert f"{runs[1]}/estimates.json: has avg 0.9, but" in err, err


def test_the_bounds_are_the_parsers_so_every_reader_refuses_them():
    """counts_rows is the one parser of counts.tsv.gz (resume, the summaries' check, the
    significance tests, kept folds): the bounds hold for all of them."""
    from reprocompare.base.run_records import counts_rows
    from reprocompare.estimators.claims import read_counts

    header = "fold\tmodel\tsentence\tgold\tpred\tcorrect\n"
    for row, fragment in (("0\tA\t0\t2\t3\t3", "3 correct chunks of 2 gold"),
                          ("0\tA\t0\t3\t2\t3", "3 correct chunks of 3 gold and 2 predicted"),
                          ("0\tA\t0\t-1\t2\t0", "must be integers"),
                          ("0\tA\t0\t²\t2\t0", "must be integers")):
        for read in (counts_rows, read_counts):
            with pytest.raises(ValueError, match=re.escape(fragment)):
                read(header + row + "\n")
    assert counts_rows(header + "0\tA\t0\t3\t2\t2\nvote\tB\t0\t0\t0\t0\n") == [
        ("0", "A", 0, 3, 2, 2), ("vote", "B", 0, 0, 0, 0)]


def test_a_hand_made_run_is_checked_against_itself(tmp_path):
    """A directory of estimates.json and split.json alone (no counts, no scores: a run made by
    hand, as the figure tests make them) is still checked against itself."""
    run = tmp_path / "run"
    run.mkdir()
    (run / "split.json").write_text(json.dumps({"repetition": 0, "seed": 1}))
    estimates = {"models": {"A": "a", "B": "b"}, "strategy": "repeated-holdout",
                 "mean": 0.02, "fold_differences": [0.01, 0.03]}
    (run / "estimates.json").write_text(json.dumps(estimates))
    assert load_estimates(run).estimates.mean == 0.02
    (run / "estimates.json").write_text(json.dumps({**estimates, "mean": 0.5}))
    with pytest.raises(UserError, match="has mean 0.5, but its fold differences give 0.02"):
        load_estimates(run)
    bcv = {"models": {"A": "a", "B": "b"}, "strategy": "bcv", "avg": 0.01, "vote": 0.03,
           "mixture": 0.01, "mixture_chose": "avg"}
    (run / "estimates.json").write_text(json.dumps(bcv))
    with pytest.raises(UserError, match=r"has mixture 0.01, but Eq. 8 on its vote and avg"):
        load_estimates(run)
    (run / "estimates.json").write_text(json.dumps({**bcv, "mixture": 0.03,
                                                    "mixture_chose": "vote"}))
    assert load_estimates(run).estimates.mixture == 0.03


@pytest.mark.slow
def test_the_committed_studies_pass_the_check(tmp_path):
    """Every committed repetition is what its own counts say (no committed record was edited,
    and the check reads them as the jobs wrote them)."""
    runs = committed_copy(tmp_path)  # as git holds them, written back as resume does (issue 35)
    assert len(runs) > 1000
    assert [(run, problem) for run in runs
            if (problem := run_problem(run, split=derived_split(run)))] == []


# ------------------------------------------------------------------------ resume's promise

@pytest.mark.slow
def test_resume_promises_what_snakemake_then_plans_and_no_table_takes_the_edit(small_study,
                                                                               tmp_path):
    """In a finished study (its .snakemake records kept), a repetition edited in range and
    another deleted: resume removes the edited one's estimates.json, says how many repetitions
    snakemake trains, and a real dry run plans exactly those; the run up to the tables then
    rebuilds Table 4 as it was before the edit, and leaves nothing up to them to do."""
    import conftest

    study = conftest.copy_study(small_study, tmp_path / "study")
    table4 = (study / "results/tables/table4.csv").read_bytes()
    edited = study / "results/compare/tiny/p1/bcv/rep1"
    _estimates("avg", 0.9)(edited)
    shutil.rmtree(study / "results/compare/tiny/p1/holdout/rep0")
    result = conftest.run([sys.executable, "-m", "reprocompare", "resume",
                           "--configfile", str(study / "study.yaml"), "--directory", str(study)],
                          cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    said = result.stdout
    assert f"{edited}: estimates.json has avg 0.9, but" in said, said
    assert "its estimates.json is removed, so snakemake trains this repetition again" in said
    promised = int(re.search(r"snakemake trains the other (\d+)", said).group(1))
    assert promised == 2, said
    dry = conftest.snakemake(study, "--configfile", "study.yaml", "-n", "--quiet", "rules",
                             cores=None)
    assert conftest.planned(dry.stdout + dry.stderr).get("compare") == promised
    conftest.snakemake(study, "--configfile", "study.yaml", "--until", "tables")
    assert (study / "results/tables/table4.csv").read_bytes() == table4
    dry = conftest.snakemake(study, "--configfile", "study.yaml", "-n", "--quiet", "rules",
                             "--until", "tables", cores=None)
    assert conftest.planned(dry.stdout + dry.stderr) == {}


@pytest.mark.slow
def test_resume_of_a_complete_study_promises_nothing_and_plans_nothing(small_study, tmp_path):
    import conftest

    study = conftest.copy_study(small_study, tmp_path / "study")
    result = conftest.run([sys.executable, "-m", "reprocompare", "resume",
                           "--configfile", str(study / "study.yaml"), "--directory", str(study)],
                          cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "snakemake trains the other 0" in result.stdout, result.stdout
    dry = conftest.snakemake(study, "--configfile", "study.yaml", "-n", "--quiet", "rules",
                             cores=None)
    # the checklist names the config's path, which the copy changed: it alone reruns
    assert conftest.planned(dry.stdout + dry.stderr) == {"checklist": 1, "all": 1}


# ------------------------------------------------------------------------ corpora by content

def test_one_per_content_keeps_the_first_name_of_each_content():
    from reprocompare.estimators.replicability import one_per_content

    assert one_per_content(["a", "b", "c", "d"], ["x", None, "x", None]) == ([0, 1, 3],
                                                                              {"c": "a"})
    assert one_per_content([], []) == ([], {})
    with pytest.raises(ValueError, match="2 corpora but 1 checksums"):
        one_per_content(["a", "b"], ["x"])


def test_a_copy_of_a_corpus_is_counted_once_with_the_reason(tmp_path):
    """c1 and c2 are ahead (A > B on both, Bonferroni), c1 again as 'copy': the conclusion is
    claimed on 2 of 2 corpora, not 3 of 3, and every corpus's sentence says why."""
    sentences = _claims_lines(tmp_path, [("c1", "c1"), ("c2", "c2"), ("copy", "c1")])
    for name in ("c1", "c2", "copy"):
        assert "partial conjunction over the 2 corpora c1, c2;" in sentences[name]
        assert "A > B can be claimed on Avg 2 / 2, Vote 2 / 2 of 2 corpora" in sentences[name]
        assert sentences[name].endswith(
            "Corpora with the same sentences count once across corpora: copy is c1 (sha256 "
            "111111111111...), the same bytes under another name.")
