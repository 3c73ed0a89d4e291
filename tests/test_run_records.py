"""The typed records (issue 35, item 2): one reader and one writer per record, each record's
required keys stated once (reprocompare.base.run_records).

Checked here: every record goes round through its writer and reader unchanged, as the bytes
``write_json_atomic`` gives (so the same files as before); each refuses a missing or ill-typed
key in one UserError naming the file, on reading and on writing (nothing written); the
estimates hold their strategy's differences (the registry's) as numbers in [-1, 1]; the counts
reader names what is wrong with the file; and no code file but base/paths.py and the records
module spells a record's file name, so that a reader or writer elsewhere cannot bypass them.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from reprocompare.base import paths, run_records as rr
from reprocompare.base.errors import UserError
from reprocompare.base.files import dumps_json
from reprocompare.strategies import ESTIMATES as ESTIMATES_RECORD
from reprocompare.strategies import STRATEGIES, strategy

ROOT = Path(__file__).resolve().parents[1]

SETTINGS = {"split": {"strategy": "bcv", "m": 3, "seed": 1}, "typed": True}
SCORES = {"models": {"A": "crf", "B": "crf:c1=1"},
          "folds": [{"n_train": 10, "n_validation": 2,
                     "A": {"f1": 0.5, "precision": 0.5, "recall": 0.5},
                     "B": {"f1": 0.25, "precision": 0.25, "recall": 0.25}}]}
RUNTIME = {"folds": [{"A": 0.123, "B": 0.456}]}
ESTIMATES = {"models": {"A": "crf", "B": "crf:c1=1"}, "strategy": "holdout", "holdout": 0.25,
             "typed": True}
SUMMARY = {"comparison": "pair", "corpus": "tiny", "summary": {"estimators": {}},
           "values": {"ST": [0.1, 0.2]}}
CLAIMS = {"comparison": "pair", "corpus": "tiny", "alpha": 0.05, "resamples": 10,
          "repetitions": {"holdout": []}, "scores": {}}

#: each JSON record of a run directory: its reader, writer and a record it holds
RUN_RECORDS = {
    "settings": (rr.SETTINGS.read, rr.SETTINGS.write, SETTINGS),
    "scores": (rr.SCORES.read, rr.SCORES.write, SCORES),
    "runtime": (rr.RUNTIME.read, rr.RUNTIME.write, RUNTIME),
    "estimates": (ESTIMATES_RECORD.read, ESTIMATES_RECORD.write, ESTIMATES),
}
#: the summaries, read and written by path
SUMMARY_RECORDS = {
    "summary": (rr.SUMMARY.read_file, rr.SUMMARY.write_file, SUMMARY),
    "claims": (rr.CLAIMS.read_file, rr.CLAIMS.write_file, CLAIMS),
}


@pytest.mark.parametrize("name", RUN_RECORDS)
def test_a_run_record_goes_round_unchanged_as_the_writer_always_wrote_it(tmp_path, name):
    read, write, record = RUN_RECORDS[name]
    written = write(tmp_path, record)
    assert written == tmp_path / getattr(rr, name.upper()).name
    assert written.read_text(encoding="utf-8") == dumps_json(record)  # the same bytes
    assert read(tmp_path) == record
    assert [p.name for p in tmp_path.iterdir()] == [written.name]  # no temporary left


@pytest.mark.parametrize("name", SUMMARY_RECORDS)
def test_a_summary_record_goes_round_unchanged(tmp_path, name):
    read, write, record = SUMMARY_RECORDS[name]
    path = tmp_path / f"{name}.json"
    write(path, record)
    assert path.read_text(encoding="utf-8") == dumps_json(record)
    assert read(path) == record


def _every_record():
    for name, (read, write, record) in RUN_RECORDS.items():
        yield name, getattr(rr, name.upper()), read, write, record
    for name, (read, write, record) in SUMMARY_RECORDS.items():
        yield name, getattr(rr, name.upper()), read, write, record


@pytest.mark.parametrize("name,record,read,write,data",
                         [(n, *rest) for n, *rest in _every_record()],
                         ids=[n for n, *_ in _every_record()])
def test_each_record_refuses_a_missing_or_ill_typed_key_naming_the_file(tmp_path, name, record,
                                                                       read, write, data):
    by_path = name in SUMMARY_RECORDS
    where = tmp_path / f"{name}.json" if by_path else tmp_path
    path = where if by_path else where / record.name
    for key in record.required:
        for broken, said in (({k: v for k, v in data.items() if k != key}, f"lacks {key} "),
                             ({**data, key: True}, f"{key} is True, not ")):
            with pytest.raises(UserError) as raised:  # the writer refuses it: nothing written
                write(where, broken)
            assert str(raised.value).startswith(f"{path}: {said}"), raised.value
            assert "\n" not in str(raised.value)
            assert not path.exists()
            path.write_text(dumps_json(broken), encoding="utf-8")  # and the reader, as written
            with pytest.raises(UserError) as raised:
                read(where)
            assert str(raised.value).startswith(f"{path}: {said}"), raised.value
            path.unlink()
    with pytest.raises(UserError, match="missing"):
        read(where)


def test_the_required_keys_are_stated_once_in_the_records_module():
    assert rr.SETTINGS.required == {"split": (dict,)}
    assert rr.SCORES.required == rr.RUNTIME.required == {"folds": (list,)}
    assert set(rr.SUMMARY.required) == {"comparison", "corpus", "summary"}
    assert rr.OUTPUTS[-1] == paths.ESTIMATES_FILE  # written last
    assert {rr.SETTINGS.name, rr.SCORES.name, rr.RUNTIME.name, rr.ESTIMATES.name} \
        < set(rr.OUTPUTS)


@pytest.mark.parametrize("estimates,said", [
    ({"strategy": "loo", "holdout": 0.1}, "strategy 'loo' is not one of holdout, "),
    ({"strategy": "holdout", "holdout": "high"}, "holdout is 'high', not a number"),
    ({"strategy": "holdout", "holdout": float("nan")}, "holdout is nan, not a number"),
    ({"strategy": "holdout", "holdout": True}, "holdout is True, not a number"),
    ({"strategy": "holdout", "holdout": 1.5}, "holdout is 1.5, outside [-1, 1]"),
    ({"strategy": "repeated-holdout", "fold_differences": [0.1]}, "mean is None, not a number"),
    ({"strategy": "repeated-holdout", "mean": 0.1, "fold_differences": []},
     "fold_differences is [], not a number"),
    ({"strategy": "bcv", "avg": 0.1, "vote": 0.1}, "mixture is None, not a number"),
])
def test_the_estimates_hold_their_strategys_differences(tmp_path, estimates, said):
    path = tmp_path / paths.ESTIMATES_FILE
    path.write_text(dumps_json(estimates) if estimates["strategy"] != "holdout"
                    or estimates["holdout"] == estimates["holdout"]
                    else '{"strategy": "holdout", "holdout": NaN}')
    with pytest.raises(UserError) as raised:
        ESTIMATES_RECORD.read(tmp_path)
    assert str(raised.value).startswith(f"{path}: {said}"), raised.value


def test_the_differences_required_are_the_registrys(tmp_path):
    """A BCV's fold differences may be absent only from a directory of estimates alone (a
    hand-made one, or one whose job kept neither counts nor scores)."""
    for found in STRATEGIES:
        record = {"strategy": found.name, **{key: [0.1, -0.1] if key == "fold_differences"
                                             else 0.1 for key in found.estimates}}
        ESTIMATES_RECORD.write(tmp_path / found.name, record)
        assert ESTIMATES_RECORD.read(tmp_path / found.name) == record
    alone = {"strategy": strategy("bcv").name, "avg": 0.1, "vote": 0.1, "mixture": 0.1}
    ESTIMATES_RECORD.write(tmp_path / "alone", alone)
    assert ESTIMATES_RECORD.read(tmp_path / "alone") == alone
    (tmp_path / "alone" / paths.SCORES_FILE).write_text(dumps_json(SCORES))
    with pytest.raises(UserError, match="fold_differences is None, not a number"):
        ESTIMATES_RECORD.read(tmp_path / "alone")


def test_finished_and_unfinish_are_the_estimates_file(tmp_path):
    assert not rr.finished(tmp_path)
    rr.unfinish(tmp_path)  # nothing there: nothing to do
    ESTIMATES_RECORD.write(tmp_path, ESTIMATES)
    assert rr.finished(tmp_path)
    rr.unfinish(tmp_path)
    assert not rr.finished(tmp_path) and not list(tmp_path.iterdir())


def test_the_split_and_counts_go_round(tmp_path):
    rr.write_split(tmp_path, '{"strategy": "holdout"}\n')
    assert rr.read_split(tmp_path) == {"strategy": "holdout"}
    table = "fold\tmodel\tsentence\tgold\tpred\tcorrect\n0\tA\t3\t2\t2\t1\n0\tB\t3\t2\t1\t1\n"
    data = gzip.compress(table.encode(), mtime=0)
    assert rr.write_counts(tmp_path, data).read_bytes() == data
    assert rr.read_counts(tmp_path) == [("0", "A", 3, 2, 2, 1), ("0", "B", 3, 2, 1, 1)]


@pytest.mark.parametrize("content,said", [
    (b"not a gzip", "is not a whole gzip of text ("),
    (gzip.compress(b"fold\tmodel\n"), "is broken: not a counts table"),
    (gzip.compress(b"fold\tmodel\tsentence\tgold\tpred\tcorrect\n0\tA\t1\t1\t1\t2\n"),
     "is broken: line 2: 2 correct chunks"),
    (gzip.compress(b"fold\tmodel\tsentence\tgold\tpred\tcorrect\n"), "has no rows"),
], ids=["no gzip", "no header", "counts out of bounds", "no rows"])
def test_the_counts_reader_names_what_is_wrong_with_the_file(tmp_path, content, said):
    path = tmp_path / paths.COUNTS_FILE
    path.write_bytes(content)
    with pytest.raises(rr.UnreadableCounts) as raised:
        rr.read_counts(tmp_path)
    assert str(raised.value).startswith(f"{path}: {said}"), raised.value
    assert raised.value.cause  # the error alone, as the claims job's message quotes it


HEADER = "fold\tmodel\tsentence\tgold\tpred\tcorrect\n"


@pytest.mark.parametrize("body,fast", [
    ("0\tA\t3\t2\t2\t1\n0\tB\t3\t2\t1\t1\nvote\tA\t3\t0\t0\t0\n", True),
    ("12\tB\t7\t1\t1\t1", True),  # no final newline
    ("", True),
    ("0\tA\t3\t2\t2\t1\r\n0\tB\t3\t2\t1\t1\r\n", False),
    ("0\tA\t3\t2\t2\t1\n\n  \n0\tB\t3\t2\t1\t1\n", False),
    ("0\tA\t3\t2\t2\t1\n0\tB\t3\t" + "9" * 25 + "\t1\t1\n", False),  # past int64
    ("01\tA\t3\t2\t2\t1\n", False),  # a fold read back as "01", not "1"
    ("12345\tA\t3\t2\t2\t1\n", False),
], ids=["jobs' table", "no final newline", "no rows", "CRLF", "blank lines", "a long count",
        "fold 01", "fold 12345"])
def test_the_counts_are_read_at_once_as_line_by_line(monkeypatch, body, fast):
    """A table as the jobs write it is converted at once (numpy); anything else goes line by
    line; both give the same rows, of Python ints and strs."""
    text = HEADER + body
    rows = rr.counts_rows(text)
    assert (rr._valid_counts_rows(text) is not None) is fast
    monkeypatch.setattr(rr, "_valid_counts_rows", lambda text: None)
    assert rows == rr.counts_rows(text)
    assert [tuple(map(type, row)) for row in rows] == [(str, str, int, int, int, int)] * len(rows)


@pytest.mark.parametrize("body,said", [
    ("0\tA\t3\t2\t2\t1\n0\tB\t3\t2\t1\t2\n", "line 3: 2 correct chunks of 2 gold and 1 "
     "predicted"),
    ("0\tA\t3\t2\t2\t1\n0\tC\t3\t2\t1\t1\n", "line 3: model must be A or B, got 'C'"),
    ("0\tA\t3\t2\t2\t1\n0\tB\t3\t2\t1\n", "line 3: expected 6 tab-separated fields, got 5"),
], ids=["correct above pred", "model C", "a field short"])
def test_a_counts_table_the_fast_reading_refuses_names_its_line(body, said):
    assert rr._valid_counts_rows(HEADER + body) is None
    with pytest.raises(ValueError, match=f"^{re.escape(said)}"):
        rr.counts_rows(HEADER + body)


#: the file names of a run directory's records, which only these two modules spell out
RECORD_FILES = (paths.SPLIT_FILE, paths.SETTINGS_FILE, paths.SCORES_FILE, paths.COUNTS_FILE,
                paths.RUNTIME_FILE, paths.ESTIMATES_FILE)
OWNERS = {"reprocompare/base/paths.py", "reprocompare/base/run_records.py"}


def test_the_record_file_names_are_spelled_only_by_paths_and_the_records_module():
    """Issue 35, item 2: a record's file name as a literal in code (a path, a message, a rule's
    output) lives in base/paths.py; every other module reads, writes and names the records
    through reprocompare.base.run_records or those names. Docstrings and comments may say
    them."""
    from test_strategies import _code_lines

    spelled = re.compile("|".join(map(re.escape, RECORD_FILES)))
    found = {}
    for folder in ("reprocompare", "corpora", "splitters", "models", "estimators", "reports",
                   "search", "workflow"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".py", ".smk") or str(path.relative_to(ROOT)) in OWNERS:
                continue
            lines = [line.strip() for line in _code_lines(path.read_text(encoding="utf-8"))
                     if spelled.search(line)]
            if lines:
                found[str(path.relative_to(ROOT))] = lines
    assert found == {}, found
    assert all(name in (ROOT / "reprocompare/base/paths.py").read_text(encoding="utf-8")
               for name in RECORD_FILES)
