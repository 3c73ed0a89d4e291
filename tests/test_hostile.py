"""Hostile input (issue 23): a catalogue of bad, odd and hostile cases, each with its class.

Every case is a clean **refusal** (a UserError or ValueError, or an exit status of 2 -- 1 or 130
when the world fails under a command -- with one line naming the file, line, key or option and no
traceback) or a correct **acceptance**. The catalogue (``CASES``) spans the families of issue 23:
malformed corpora, CLI options out of range, model specs, the Python API, configs, the files a
rerun of ``resume`` trusts, the world failing inside a command, expected-max's scores file, and
(issue 50) what a user passes to ``reprocompare sequential`` or damages under it.
Cases run in-process (``reprocompare.commands.cli.main`` with its streams captured, ``validate``, the
estimators); ``benchmarks/bench_hostile.py`` counts them per family and class into
benchmarks/RESULTS.md.
"""

from __future__ import annotations

import contextlib
import datetime
import errno
import gzip
import io
import json
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from reprocompare.base import paths
from reprocompare.base.errors import UserError
from reprocompare.base.run_records import (TABULATED, finished, restore_tabulated,
                                           tabulate_repetitions)
from reprocompare.commands import cli, sequential
from reprocompare.commands.resume import run_problem
from reprocompare.estimators import difference, expected_max, expected_max_bias, reproducibility
from reprocompare.models import parse_spec
from reprocompare.models.registry import tagger_class
from reprocompare.strategies import TABULATED_RECORDS
from reprocompare.study.config import validate

TESTS = Path(__file__).resolve().parent
TINY = TESTS / "data" / "tiny.conll"
GOOD = TINY.read_text(encoding="utf-8")
REFUSAL, ACCEPTANCE = "refusal", "acceptance"


@dataclass(frozen=True)
class Case:
    """One hostile input: its family, the input itself, the class it must end in and a piece of
    the message a refusal must carry (the file, key or option it names)."""

    family: str
    name: str
    input: Any = field(compare=False)
    expected: str
    fragment: str = ""

    def __str__(self) -> str:
        return f"{self.family}: {self.name}"


# ------------------------------------------------------------------------ malformed corpora

LINES = GOOD.split("\n")
TOKEN_LINES = [i for i, line in enumerate(LINES) if line]


def _with_line(i: int, text: str) -> bytes:
    lines = list(LINES)
    lines[i] = text
    return "\n".join(lines).encode()


def _inserted(at: int, junk: bytes) -> bytes:
    data = GOOD.encode()
    at = data.index(b"\n", at) + 1  # at the start of a line, so the line is known
    return data[:at] + junk + data[at:]


def _corpus_cases() -> list[Case]:
    cases = [
        Case("corpus", "empty file", b"", REFUSAL, "empty file"),
        Case("corpus", "blank lines only", b"\n\n \n\t\n", REFUSAL, "empty file"),
        Case("corpus", "-DOCSTART- only", b"-DOCSTART- -X- O\n\n", REFUSAL, "no sentences"),
        Case("corpus", "one column", b"a\nb\n\nc\n", REFUSAL, "one column only"),
        Case("corpus", "every tag O", "\n".join(
            " ".join([*line.split()[:-1], "O"]) if line else "" for line in LINES).encode(),
            REFUSAL, "no chunks"),
        Case("corpus", "CR-only line endings", GOOD.replace("\n", "\r").encode(), REFUSAL,
             "corpus.conll:1: a carriage return inside a line"),
        Case("corpus", "one sentence without blank lines", "\n".join(
            line for line in LINES if line).encode() * 3, REFUSAL, "corpus.conll"),
        Case("corpus", "truncated gzip, half", gzip.compress(GOOD.encode())[:400], REFUSAL,
             "truncated or corrupt gzip"),
    ]
    for seed in range(12):
        junk = np.random.default_rng(seed).integers(0, 256, 600, dtype=np.uint8).tobytes()
        cases.append(Case("corpus", f"binary junk {seed}", junk, REFUSAL, "corpus.conll"))
    for k, at in enumerate((0, 900, 2500, 4000, 6000)):
        cases += [Case("corpus", f"NUL byte at {at}", _inserted(at, b"x\x00y B-NP\n"), REFUSAL,
                       "not a text file (NUL byte)"),
                  Case("corpus", f"non-UTF-8 bytes at {at}", _inserted(at, b"\xff\xfe B-NP\n"),
                       REFUSAL, "not UTF-8"),
                  Case("corpus", f"gzip cut at {300 + 100 * k}",
                       gzip.compress(GOOD.encode())[:300 + 100 * k], REFUSAL, "gzip")]
    for i in TOKEN_LINES[3::len(TOKEN_LINES) // 6][:6]:
        cases.append(Case("corpus", f"a CR inside line {i + 1}",
                          _with_line(i, LINES[i].replace(" ", "\r", 1)), REFUSAL,
                          f"corpus.conll:{i + 1}: a carriage return"))
    for i in TOKEN_LINES[5::len(TOKEN_LINES) // 20][:20]:
        token, *rest = LINES[i].split()
        cases.append(Case("corpus", f"wrong column count at line {i + 1}",
                          _with_line(i, f"{token} {rest[-1]}"), REFUSAL, f"corpus.conll:{i + 1}"))
    bad_tags = ("NNP", "X-NP", "B_NP", "B-", "-NP", "b-np", "BNP", "E_NP", "O-NP", "S")
    for n, i in enumerate(TOKEN_LINES[7::len(TOKEN_LINES) // 20][:20]):
        tag = bad_tags[n % len(bad_tags)]
        cases.append(Case("corpus", f"ill-formed tag {tag!r} at line {i + 1}",
                          _with_line(i, LINES[i].rsplit(" ", 1)[0] + " " + tag), REFUSAL,
                          "corpus.conll"))
    # the encoding named (issue 50): a corpus saved as UTF-16 or UTF-32, or in Latin-1
    accented = GOOD.replace("Tulsa", "Tulsá")
    cases += [
        Case("corpus", "UTF-16 with a byte-order mark", GOOD.encode("utf-16"), REFUSAL,
             "corpus.conll: not UTF-8 text: it is in UTF-16LE (its byte-order mark says so); "
             "convert it to UTF-8 first (e.g. iconv -f UTF-16LE -t UTF-8)"),
        Case("corpus", "UTF-16BE without a mark", GOOD.encode("utf-16-be"), REFUSAL,
             "it is in UTF-16BE (a NUL byte beside every letter)"),
        Case("corpus", "UTF-16LE without a mark", GOOD.encode("utf-16-le"), REFUSAL,
             "it is in UTF-16LE"),
        Case("corpus", "UTF-32 with a byte-order mark", GOOD.encode("utf-32"), REFUSAL,
             "it is in UTF-32LE"),
        Case("corpus", "UTF-16, gzipped", gzip.compress(GOOD.encode("utf-16")), REFUSAL,
             "it is in UTF-16LE"),
        Case("corpus", "Latin-1", accented.encode("latin-1"), REFUSAL,
             "corpus.conll:5: not UTF-8 text (byte 0xe1): it looks like Latin-1 or "
             "Windows-1252 text (that byte is 'á' there)"),
        Case("corpus", "Windows-1252", GOOD.replace("Tulsa", "Tulsa\u20ac").encode("cp1252"),
             REFUSAL, "(byte 0x80): it looks like Latin-1 or Windows-1252 text"),
    ]
    # one stray tag of another scheme: named by its line, the scheme of the rest kept
    for n, i in enumerate(TOKEN_LINES[11::len(TOKEN_LINES) // 4][:4]):
        token = LINES[i].rsplit(" ", 1)
        stray = ("E-", "S-")[n % 2] + (token[1].split("-", 1)[1] if "-" in token[1] else "NP")
        cases.append(Case("corpus", f"a stray {stray[:2]} tag at line {i + 1}",
                          _with_line(i, f"{token[0]} {stray}"), REFUSAL,
                          f"corpus.conll:{i + 1}: {stray!r} is not well-formed IOB2"))
    cases += [
        Case("corpus", "the test corpus", GOOD.encode(), ACCEPTANCE),
        Case("corpus", "Windows line endings", GOOD.replace("\n", "\r\n").encode(), ACCEPTANCE),
        Case("corpus", "a byte-order mark", b"\xef\xbb\xbf" + GOOD.encode(), ACCEPTANCE),
        Case("corpus", "gzip", gzip.compress(GOOD.encode()), ACCEPTANCE),
        Case("corpus", "runs of blank lines", GOOD.replace("\n\n", "\n\n\n\n").encode(),
             ACCEPTANCE),
        Case("corpus", "tabs between columns", GOOD.replace(" ", "\t").encode(), ACCEPTANCE),
        Case("corpus", "trailing spaces", GOOD.replace("\n", "  \n").encode(), ACCEPTANCE),
        Case("corpus", "no final newline", GOOD.rstrip("\n").encode(), ACCEPTANCE),
    ]
    return cases


# ------------------------------------------------------------------------ CLI options

SPLIT = ["split", str(TINY)]
BAD_NUMBERS = {
    "--k": ["0", "101", "1000000000", "x", "2.5", ""],
    "--m": ["0", "16", "-1", "x"],
    "--seed": ["-1", str(2**63), "x", "1e3"],
    "--repetition": ["-1", "1000000", "x"],
    "--token-column": ["1000", "-1001", "x"],
    "--tag-column": ["1000", "-1001", "one"],
    "--ratio": ["0:1", "8:0", "8", "a:b", "10000000:1", "8:1:1", "-8:1"],
}
GOOD_NUMBERS = {"--k": ["1", "100"], "--m": ["1", "15"], "--seed": ["0", str(2**63 - 1)],
                "--repetition": ["999999"], "--token-column": ["0"], "--tag-column": ["-1"],
                "--ratio": ["1:1", "3:1"]}
STRATEGY = {"--k": "repeated-holdout", "--m": "bcv"}


def _cli_cases() -> list[Case]:
    cases = []
    for option, values in BAD_NUMBERS.items():
        strategy = ["--strategy", STRATEGY.get(option, "holdout")]
        cases += [Case("cli", f"split {option} {value!r}", [*SPLIT, *strategy, option, value],
                       REFUSAL, f"argument {option}: ")
                  for value in values]
    for option, values in GOOD_NUMBERS.items():
        strategy = ["--strategy", STRATEGY.get(option, "holdout")]
        cases += [Case("cli", f"split {option} {value}", [*SPLIT, *strategy, option, value],
                       ACCEPTANCE) for value in values]
    compare = ["compare", str(TINY), "--a", "majority", "--b", "majority:scheme=IOBES",
               "--out", "{tmp}/out"]
    cases += [
        Case("cli", "compare --k 0", [*compare, "--strategy", "repeated-holdout", "--k", "0"],
             REFUSAL, "--k"),
        Case("cli", "compare --m 99", [*compare, "--strategy", "bcv", "--m", "99"], REFUSAL,
             "--m"),
        Case("cli", "compare --a out of a C int",
             [*compare, "--strategy", "holdout", "--a", "crf:max_iterations=2147483648"],
             REFUSAL, "--a: max_iterations"),
        Case("cli", "compare --out a device", [*compare[:-1], "/dev/null", "--strategy",
                                               "holdout"], REFUSAL, "/dev/null: --out: is a file"),
    ]
    for value in ("0", "101", "x"):
        cases.append(Case("cli", f"summarize --k {value}", ["summarize", "d", "--k", value],
                          REFUSAL, "--k"))
    bias = ["expected-max-bias"]
    for option, values in {"--trials": ["0", "10001", "1e9", "x"],
                           "--simulations": ["1", "1000001", "x"],
                           "--budgets": ["0", "10001"], "--seed": ["-1"]}.items():
        cases += [Case("cli", f"expected-max-bias {option} {value}", [*bias, option, value],
                       REFUSAL, option) for value in values]
    cases += [
        Case("cli", "expected-max-bias: 1e8 scores in all",
             [*bias, "--trials", "10000", "--simulations", "10000"], REFUSAL,
             "would not fit in memory"),
        Case("cli", "expected-max-bias: a budget above N",
             [*bias, "--trials", "10", "--budgets", "11"], REFUSAL, "budgets"),
        Case("cli", "expected-max-bias at its smallest",
             [*bias, "--trials", "4", "--simulations", "2", "--budgets", "1", "4"], ACCEPTANCE),
        Case("cli", "expected-max --estimator unknown", ["expected-max", "f", "--estimator",
                                                          "best"], REFUSAL, "--estimator"),
        Case("cli", "no command", [], REFUSAL, "COMMAND"),
        Case("cli", "unknown command", ["train"], REFUSAL, "invalid choice"),
        Case("cli", "split without --strategy", SPLIT, REFUSAL, "--strategy"),
    ]
    # what a user types into init and run (issue 50): an unset shell variable, cores below 1,
    # run's own help after DIR
    study = "{tmp}/study"
    cases += [
        Case("cli", "init '' (an unset variable)", ["init", "", "--corpus", str(TINY)], REFUSAL,
             "DIR: is empty (an unset shell variable?)"),
        Case("cli", "init --corpus ''", ["init", study, "--corpus", ""], REFUSAL,
             "--corpus: is empty"),
        Case("cli", "init --corpus 2002.conll", ["init", study, "--corpus", "{tmp}/2002.conll"],
             ACCEPTANCE),
        Case("cli", "init --corpus 123.conll.gz", ["init", study, "--corpus",
                                                    "{tmp}/123.conll.gz"], ACCEPTANCE),
        Case("cli", "run DIR --help", ["run", study, "--help"], ACCEPTANCE),
        Case("cli", "run DIR -h", ["run", study, "-h"], ACCEPTANCE),
    ]
    for cores in (["--cores", "-3"], ["--cores", "0"], ["-c0"], ["--jobs=0"], ["-j", "-1"],
                  ["--cores", "two"]):
        cases.append(Case("cli", f"run DIR {' '.join(cores)}", ["run", study, *cores], REFUSAL,
                          "is not a number of cores: give a whole number of at least 1"))
    return cases


# ------------------------------------------------------------------------ model specs

BAD_VALUES = {int: [("2147483648", "must be at most 2147483647 (a C int)"),
                    ("1e20", "expected an integer"), ("abc", "expected an integer"),
                    ("-1", "must be")],
              float: [("nan", "expected a finite number"), ("inf", "expected a finite number"),
                      ("abc", "expected a finite number"), ("-1", "must be")],
              bool: [("maybe", "expected true or false")]}
COMMAND = 'command:train="t {train}",predict="p {input} {output}"'


def _spec_cases() -> list[Case]:
    cases = []
    for model in ("crf", "bilstm", "majority", "command"):
        base = COMMAND if model == "command" else model
        for param in tagger_class(model).PARAMS:
            if param.name in ("train", "predict"):
                continue
            default = str(param.default).lower() if param.type is bool else str(param.default)
            cases.append(Case("spec", f"{model}:{param.name}={default}",
                              f"{base}{',' if ':' in base else ':'}{param.name}={default}",
                              ACCEPTANCE))
            for value, fragment in BAD_VALUES.get(param.type, []):
                if (model, param.name, value) == ("crf", "c1", "-1") or \
                        param.name == "num_threads" and value == "-1":
                    continue
                cases.append(Case("spec", f"{model}:{param.name}={value}",
                                  f"{base}{',' if ':' in base else ':'}{param.name}={value}",
                                  REFUSAL, f"{param.name}: {fragment}"))
    cases += [Case("spec", f"malformed {text!r}", text, REFUSAL, fragment) for text, fragment in [
        ("", "empty model spec"), ("crf:", "expected key=value"), ("crf:c1", "expected key=value"),
        ("crf:c1=0.1,c1=0.2", "given twice"), ("svm", "unknown"), ("crf:scheme=IOB3", "scheme"),
        ("crf:c3=1", "unknown hyperparameter"), ('command:train="x {train}', "unterminated"),
        ("command:train=\"x\",predict=\"p {input} {output}\"", "must use {train}"),
        ("command:train=\"x {train} {gpu}\",predict=\"p {input} {output}\"", "unknown placeholder"),
        (f"{COMMAND},timeout=0", "timeout: must be in (0, 31536000]"),
        (f"{COMMAND},timeout=1e9", "timeout: must be in"),
        ("crf:max_iterations=100000000000000000000", "a C int"),
    ]]
    return cases


# ------------------------------------------------------------------------ the Python API

NAN, INF = float("nan"), float("inf")
API = {"avg": difference.avg, "repeated_holdout": difference.repeated_holdout,
       "holdout": difference.holdout, "mixture": difference.mixture,
       "chebyshev_bound": reproducibility.chebyshev_bound,
       "model_interval": reproducibility.model_interval, "snr": reproducibility.snr,
       "snr_exact_interval": reproducibility.snr_exact_interval,
       "reproducibility": reproducibility.reproducibility,
       "repetitions_for_snr": reproducibility.repetitions_for_snr,
       "bcv_estimates": difference.bcv_estimates,
       "fold_differences": difference.fold_differences,
       "expected_max": expected_max.expected_max, "simulate_bias": expected_max_bias.simulate_bias}


def _api_cases() -> list[Case]:
    refused = [
        ("avg", ([0.5, NAN], [0.4, 0.3]), {}, "f1_a[1] is nan"),
        ("avg", ([0.5, 0.6], [INF, 0.3]), {}, "f1_b[0] is inf"),
        ("avg", ([], []), {}, "non-empty"),
        ("avg", ([0.5], [0.4, 0.3]), {}, "equal-length"),
        ("repeated_holdout", ([-INF], [0.4]), {}, "f1_a[0] is -inf"),
        ("holdout", (NAN, 0.5), {}, "f1_a is nan"),
        ("mixture", (NAN, 0.01), {}, "vote is nan"),
        ("mixture", (0.01, INF), {}, "avg is inf"),
        ("mixture", (0.01, 0.02, "A<B"), {}, "unknown conclusion"),
        ("chebyshev_bound", (NAN,), {}, "snr_value must be a number"),
        ("chebyshev_bound", (None,), {}, "snr_value must be a number"),
        ("model_interval", ([0.5, 0.6],), {"confidence": 2}, "confidence must lie in (0, 1)"),
        ("model_interval", ([0.5, 0.6],), {"confidence": NAN}, "confidence"),
        ("model_interval", ([0.5, 0.6],), {"confidence": 0}, "confidence"),
        ("model_interval", ([0.5, NAN],), {}, "F1 values must be finite"),
        ("model_interval", ([0.5],), {}, "at least 2"),
        ("snr", ([0.1, NAN],), {}, "estimates must be finite"),
        ("snr", ([0.1, 0.2], "A=B"), {}, "unknown conclusion"),
        ("snr", ([0.1],), {}, "at least 2"),
        ("snr_exact_interval", ([0.1, 0.2],), {"confidence": 1.5}, "confidence"),
        ("reproducibility", ([INF, 0.1],), {}, "estimates must be finite"),
        ("expected_max", ([0.5, NAN],), {}, "NaN"),
        ("expected_max", ([0.5, INF],), {}, "infinite"),
        ("expected_max", ([],), {}, "empty"),
        ("expected_max", ([0.5],), {"estimator": "best"}, "unknown estimator"),
        ("simulate_bias", (), {"n_trials": 0}, "n_trials"),
        ("simulate_bias", (), {"n_simulations": 1}, "n_simulations"),
        ("simulate_bias", (), {"n_trials": 10_000, "n_simulations": 10_000}, "memory"),
        # what the CLI refuses, refused by the API too (issue 50)
        ("bcv_estimates", ({"A": [0.5, 5.0], "B": [0.4, 0.3]}, {"A": 0.5, "B": 0.4}), {},
         "f1_a[1] is 5.0: an F1 score lies in [0, 1]"),
        ("bcv_estimates", ({"A": [0.5, 0.6], "B": [0.4, 0.3]}, {"A": 50.0, "B": 0.4}), {},
         "f1_a is 50.0: an F1 score lies in [0, 1] (a fraction, not F1 points)"),
        ("bcv_estimates", ({"A": [0.5, 0.6], "B": [0.4, 0.3]}, {"A": 0.5, "B": NAN}), {},
         "f1_b is nan"),
        ("holdout", (1.5, 0.5), {}, "f1_a is 1.5: an F1 score lies in [0, 1]"),
        ("fold_differences", ([0.5, 0.6], [-0.1, 0.3]), {}, "f1_b[0] is -0.1"),
        ("avg", ([0.5, 0.6], [0.4, 30.0]), {}, "f1_b[1] is 30.0"),
        ("repetitions_for_snr", (NAN,), {}, "snr_value must be a number or an infinity, got nan"),
        ("repetitions_for_snr", (None,), {}, "snr_value must be a number"),
        ("repetitions_for_snr", (1.0, 0.0), {}, "half_width must be a positive number"),
        ("repetitions_for_snr", (1.0, NAN), {}, "half_width"),
        ("repetitions_for_snr", (1.0,), {"confidence": 1.0}, "confidence must lie in (0, 1)"),
    ]
    accepted = [
        ("avg", ([0.5, 0.6], [0.4, 0.3]), {}), ("mixture", (0.02, 0.01), {}),
        ("chebyshev_bound", (INF,), {}), ("chebyshev_bound", (1e200,), {}),
        ("chebyshev_bound", (-2.0,), {}), ("model_interval", ([0.5, 0.6], 0.5), {}),
        ("snr", ([1e300, 2e300, 3e300],), {}), ("snr", ([1e-300, 2e-300, 3e-300],), {}),
        ("snr", ([0.0, 0.0],), {}), ("snr", ([0.1, 0.1],), {}),
        ("expected_max", ([0.5] * 3,), {"estimator": "meanmax"}),
        ("bcv_estimates", ({"A": [0.0, 1.0], "B": [1.0, 0.0]}, {"A": 1.0, "B": 0.0}), {}),
        ("repetitions_for_snr", (INF,), {}), ("repetitions_for_snr", (0.5,), {}),
    ]
    return ([Case("api", f"{name}{args}{kwargs or ''}", (name, args, kwargs), REFUSAL, fragment)
             for name, args, kwargs, fragment in refused]
            + [Case("api", f"{name}{args}{kwargs or ''}", (name, args, kwargs), ACCEPTANCE)
               for name, args, kwargs in accepted])


# ------------------------------------------------------------------------ configs

CONFIG = {"corpora": {"tiny": {"path": str(TINY)}},
          "models": {"crf": {"type": "crf", "max_iterations": 5}, "maj": {"type": "majority"}},
          "comparisons": {"p": {"a": "crf", "b": "maj", "corpora": ["tiny"]}},
          "strategies": {"holdout": {}, "repeated_holdout": {"k": [2, 3], "table4_k": 3},
                         "bcv": {"m": 2}},
          "repetitions": 3, "seed": 0}
_DELETE = object()


def _config_cases() -> list[Case]:
    refused = [
        (("repetitions",), "ten", "repetitions"), (("repetitions",), 1, "repetitions"),
        (("repetitions",), 5001, "repetitions"), (("repetitions",), 2.5, "repetitions"),
        (("repetitions",), True, "repetitions"), (("seed",), -1, "seed"),
        (("seed",), "x", "seed"), (("colour",), "blue", "colour: unknown key"),
        (("strategies", "loo"), {}, "loo"), (("strategies", "bcv", "m"), 0, "strategies.bcv.m"),
        (("strategies", "bcv", "m"), 16, "strategies.bcv.m"),
        (("strategies", "repeated_holdout", "k"), [0], "strategies.repeated_holdout.k"),
        (("strategies", "repeated_holdout", "k"), [101], "strategies.repeated_holdout.k"),
        (("strategies", "repeated_holdout", "k"), "3", "strategies.repeated_holdout.k"),
        (("strategies", "holdout", "ratio"), "8-1", "ratio"),
        (("comparisons", "p", "a"), "nope", "comparisons.p.a"),
        (("comparisons", "p", "corpora"), ["nowhere"], "comparisons.p.corpora"),
        (("models", "crf", "type"), _DELETE, "models.crf: 'type' is a required property"),
        (("models", "crf", "type"), "svm", "models.crf.type"),
        (("models", "crf", "max_iterations"), 2**31, "models.crf.max_iterations"),
        (("models", "crf", "c1"), "lots", "models.crf.c1"),
        (("models", "crf", "c1"), -0.5, "models.crf.c1"),
        (("corpora",), {}, "corpora"), (("corpora", "tiny", "path"), "missing.conll", "tiny"),
        (("corpora", "../up"), {"path": str(TINY)}, "not allowed"),
        (("keep_predictions",), "yes", "keep_predictions"),
        (("significance",), {"alpha": 2}, "significance.alpha"),
        (("significance",), {"resamples": 10}, "significance.resamples"),
        (("models",), _DELETE, "models"),
    ]
    # names YAML reads as a number, a boolean, null or a date (issue 50), and a value in
    # exponent form that YAML 1.1 reads as text
    pair = {"a": "crf", "b": "maj", "corpora": ["tiny"]}
    refused += [
        (("comparisons", 7), pair, "comparisons: the name 7 is read by YAML as the number 7"),
        (("comparisons", 1.5), pair, "comparisons: the name 1.5"),
        (("comparisons", None), pair, "comparisons: the name None is read by YAML as null"),
        (("comparisons", False), pair, "the boolean false, not as a name"),
        (("comparisons", datetime.date(2002, 1, 1)), pair, "the date 2002-01-01"),
        (("corpora", 2002), {"path": str(TINY)}, "corpora: the name 2002"),
        (("models", True), {"type": "majority", "scheme": "IOBES"},
         "models: the name True is read by YAML as the boolean true"),
        (("models", "crf", 3), 1, "models.crf: the name 3"),
        (("comparisons", "p", "corpora"), [2002],
         "comparisons.p.corpora.0: 2002 is not of type 'string': YAML reads it as the number"),
        (("comparisons", "p", "a"), True, "YAML reads it as the boolean true"),
        (("models", "crf", "label"), None, "write it in quotes (e.g. 'null')"),
        (("corpora", "tiny", "label"), datetime.date(2002, 1, 1), "the date 2002-01-01"),
        (("verdict",), {"rope": "1e-3"}, "verdict.rope: '1e-3' is not of type 'number', 'null': "
                                         "YAML reads 1e-3 as text; write it as 1.0e-3"),
        (("verdict",), {"rope": "5E2"}, "write it as 5.0e+2"),
    ]
    accepted = [((), None), (("repetitions",), 2), (("repetitions",), 5000),
                (("seed",), 2**40), (("strategies",), {"bcv": {"m": 15}}),
                (("keep_predictions",), True), (("comparisons", "7"), pair),
                (("corpora", "2002"), {"path": str(TINY)}), (("verdict",), {"rope": 1.0e-3})]
    def shown(value):
        return "deleted" if value is _DELETE else f"= {value!r}"[:60]

    def named(path):
        return ".".join(repr(p) if not isinstance(p, str) or p.isdigit() else p for p in path)

    return ([Case("config", f"{named(path)} {shown(value)}", (path, value), REFUSAL, frag)
             for path, value, frag in refused]
            + [Case("config", f"{named(path) or 'the base config'} {shown(value)}",
                    (path, value), ACCEPTANCE) for path, value in accepted])


def _mutated_config(path: tuple, value: Any) -> dict:
    config = json.loads(json.dumps(CONFIG))
    if not path:
        return config
    *parents, last = path
    target = config
    for key in parents:
        target = target[key]
    if value is _DELETE:
        del target[last]
    else:
        target[last] = value
    return config


# ------------------------------------------------------------------------ what resume trusts

def _cut(name: str, keep: float):
    def corrupt(run: Path) -> None:
        data = (run / name).read_bytes()
        (run / name).write_bytes(data[:int(len(data) * keep)])
    return corrupt


def _edit_estimates(**changes):
    def corrupt(run: Path) -> None:
        estimates = json.loads((run / "estimates.json").read_text())
        for key, value in changes.items():
            if value is _DELETE:
                estimates.pop(key, None)
            else:
                estimates[key] = value
        (run / "estimates.json").write_text(json.dumps(estimates))
    return corrupt


def _write(name: str, data: bytes):
    return lambda run: (run / name).write_bytes(data)


def _resume_cases() -> list[Case]:
    refused = [(f"estimates.json cut to {keep:.0%}", _cut("estimates.json", keep),
                "estimates.json") for keep in (0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99)]
    refused += [(f"counts.tsv.gz cut to {keep:.0%}", _cut("counts.tsv.gz", keep),
                 "counts.tsv.gz") for keep in (0.0, 0.2, 0.5, 0.8, 0.95)]
    refused += [(f"{name} cut to half", _cut(name, 0.5), name)
                for name in ("scores.json", "split.json", "runtime.json", "settings.json")]
    refused += [(f"{name} deleted", lambda run, name=name: (run / name).unlink(), name)
                for name in ("scores.json", "counts.tsv.gz", "split.json", "runtime.json",
                             "settings.json")]
    refused += [
        ("an estimate of 5.0", _edit_estimates(avg=5.0), "avg 5.0"),
        ("an estimate of -1.5", _edit_estimates(mixture=-1.5), "mixture -1.5"),
        ("a fold difference of 2", _edit_estimates(fold_differences=[0.1, 2]),
         "fold_differences"),
        ("no fold differences", _edit_estimates(fold_differences=[]), "fold_differences"),
        ("vote missing", _edit_estimates(vote=_DELETE), "vote null"),
        ("an estimate that is a string", _edit_estimates(avg="0.1"), "avg"),
        ("an estimate that is true", _edit_estimates(avg=True), "avg"),
        ("a strategy unknown", _edit_estimates(strategy="loo"), "strategy"),
        ("estimates a list", _write("estimates.json", b"[0.1]"), "not a JSON object"),
        ("estimates NaN", _write("estimates.json", b'{"strategy": "bcv", "avg": NaN}'),
         "estimates.json"),
        ("counts an empty gzip", _write("counts.tsv.gz", gzip.compress(b"")), "counts.tsv.gz"),
        ("counts a header only", _write("counts.tsv.gz", gzip.compress(
            b"fold\tmodel\tsentence\tgold\tpred\tcorrect\n")), "no rows"),
        ("counts not gzip", _write("counts.tsv.gz", b"fold\tmodel\n"), "counts.tsv.gz"),
        ("counts a broken last row", _write("counts.tsv.gz", gzip.compress(
            b"fold\tmodel\tsentence\tgold\tpred\tcorrect\n0\tA\t1\t2\t")),
         "broken: line 2: expected 6 tab-separated fields"),
        ("counts binary", _write("counts.tsv.gz", bytes(range(256))), "counts.tsv.gz"),
    ]
    accepted = [("the run as written", lambda run: None),
                ("estimates re-indented", lambda run: (run / "estimates.json").write_text(
                    json.dumps(json.loads((run / "estimates.json").read_text()), indent=4))),
                ("predictions deleted", lambda run: shutil.rmtree(run / "fold0",
                                                                  ignore_errors=True))]
    return ([Case("resume", name, corrupt, REFUSAL, fragment) for name, corrupt, fragment in refused]
            + [Case("resume", name, corrupt, ACCEPTANCE) for name, corrupt in accepted])


def good_run(root: Path) -> Path:
    """A complete bcv repetition (majority against majority in IOBES on the tiny corpus) with a
    settings.json, as the compare job leaves it; made once under ``root``."""
    run = root / "good-run"
    if not (run / "estimates.json").is_file():
        status, err = _main(["compare", str(TINY), "--a", "majority", "--b",
                             "majority:scheme=IOBES", "--strategy", "bcv", "--m", "2", "--out",
                             str(run)], root)
        assert status == 0, err
        (run / "settings.json").write_text('{"split": {"strategy": "bcv"}}\n')
    return run


# ------------------------------------------------------------------------ a committed table

def _line_edit(edit, line: int = 2):
    """Damage line ``line`` of a strategy's records.jsonl: ``edit(record)`` changes the parsed
    line (returning None), or ``edit`` is a function of the line's text to the new text."""
    def damage(table: Path) -> None:
        lines = table.read_text().splitlines()
        text = lines[line - 1]
        if getattr(edit, "on_text", False):
            lines[line - 1] = edit(text)
        else:
            record = json.loads(text)
            edit(record)
            lines[line - 1] = json.dumps(record, separators=(",", ":"))
        table.write_text("\n".join(lines) + "\n")
    return damage


def _on_text(edit):
    edit.on_text = True
    return edit


def _set(*path, value=None, delete=False):
    def edit(record):
        target = record
        for key in path[:-1]:
            target = target[key]
        if delete:
            del target[path[-1]]
        else:
            target[path[-1]] = value
    return edit


def _table_cases() -> list[Case]:
    """A line of a committed study's records.jsonl, damaged (issue 50): each is refused naming
    the file, the line and the repetition it holds where it can be read, and restores nothing."""
    nan, inf = float("nan"), float("inf")
    refused = [
        ("a NaN estimate", _set("estimates.json", "avg", value=nan),
         "records.jsonl:2: repetition 1: estimates.json.avg is not a finite number"),
        ("an infinite fold score", _set("scores.json", "folds", 0, "A", "f1", value=inf),
         "records.jsonl:2: repetition 1: scores.json.folds.0.A.f1 is not a finite number"),
        ("a NaN runtime", _set("runtime.json", "folds", 0, "A", value=nan),
         "records.jsonl:2: repetition 1: runtime.json.folds.0.A is not a finite"),
        ("the line cut in half", _on_text(lambda text: text[:len(text) // 2]),
         "records.jsonl:2: not JSON"),
        ("the line a list", _on_text(lambda text: "[1, 2]"), "records.jsonl:2: not a JSON object"),
        ("binary junk", _on_text(lambda text: "\x00\x01{"), "records.jsonl:2: not JSON"),
        ("no repetition", _set("repetition", delete=True),
         "records.jsonl:2: its repetition is None"),
        ("repetition 'one'", _set("repetition", value="one"), "its repetition is 'one'"),
        ("repetition -1", _set("repetition", value=-1), "its repetition is -1"),
        ("repetition true", _set("repetition", value=True), "its repetition is True"),
        ("a repetition given twice", _set("repetition", value=0),
         "records.jsonl:2: repetition 0: line 1 holds this repetition too"),
        ("a file no job writes", _set("model.bin", value={}),
         "repetition 1: 'model.bin' is not a file of a repetition's records"),
        ("an estimate of 5.0", _set("estimates.json", "avg", value=5.0),
         "repetition 1: estimates.json: avg is 5.0, outside [-1, 1]"),
        ("an estimate that is text", _set("estimates.json", "avg", value="0.1"),
         "estimates.json: avg is '0.1', not a number"),
        ("an unknown strategy", _set("estimates.json", "strategy", value="loo"),
         "estimates.json: strategy 'loo' is not one of"),
        ("settings without a split", _set("settings.json", "split", delete=True),
         "repetition 1: settings.json: lacks split"),
        ("fold scores that are text", _set("scores.json", "folds", value="many"),
         "scores.json: folds is 'many', not a list"),
        ("runtime a list", _set("runtime.json", value=[1]),
         "runtime.json: not a JSON object"),
        ("the first line damaged", _line_edit(_set("estimates.json", "vote", value=nan), 1),
         "records.jsonl:1: repetition 0: estimates.json.vote is not a finite number"),
    ]
    accepted = [("the table as written", lambda table: None),
                ("a blank line between", lambda table: table.write_text(
                    table.read_text().replace("\n", "\n\n", 1))),
                ("a line without its estimates",
                 _line_edit(_set("estimates.json", delete=True)))]
    return ([Case("table", name, edit if name == "the first line damaged"
                  else _line_edit(edit), REFUSAL, fragment) for name, edit, fragment in refused]
            + [Case("table", name, edit, ACCEPTANCE) for name, edit in accepted])


def good_table(root: Path) -> Path:
    """A strategy's directory of two complete repetitions (the good run twice) and its
    records.jsonl, as `make study-NAME` tabulates it; made once under ``root``."""
    strategy = root / "good-table" / "bcv"
    if not (strategy / "records.jsonl").is_file():
        for repetition in (0, 1):
            shutil.copytree(good_run(root), strategy / f"rep{repetition}", dirs_exist_ok=True)
        tabulate_repetitions(strategy)
    return strategy


# ------------------------------------------------------------------------ the world failing

FAILURES = {"Ctrl-C": (KeyboardInterrupt(), 130, "interrupted"),
            "a full disk": (OSError(28, "No space left on device", "out.json"), 1,
                            "error: no space left on the device: out.json"),
            "a closed pipe": (BrokenPipeError(32, "Broken pipe"), 1,
                              "error: the output was closed before it was written"),
            "memory": (MemoryError(), 1, "error: out of memory")}
COMMANDS = {"split": [*SPLIT, "--strategy", "holdout"], "score": ["score", str(TINY)],
            "compare": ["compare", str(TINY), "--a", "majority", "--b", "majority",
                        "--strategy", "holdout", "--out", "{tmp}/x"],
            "models": ["models"], "summarize": ["summarize", "d"],
            "resume": ["resume", "--configfile", "c", "--directory", "d"],
            "sequential": ["sequential", "--configfile", "c"],
            "expected-max": ["expected-max", "f"], "expected-max-bias": ["expected-max-bias"]}


def _world_cases() -> list[Case]:
    return [Case("world", f"{failure} in {command}", (command, failure), REFUSAL,
                 f"reprocompare {command}: " + FAILURES[failure][2])
            for command in COMMANDS for failure in FAILURES]


# ------------------------------------------------------------------------ sequential (issue 50)

SEQUENTIAL_SUMMARY = "run/results/summaries/tiny/p.json"


def _sequential_config(tmp: Path) -> Path:
    """A sequential study of two majority taggers, waves of 2 up to 4 (the default design)."""
    path = tmp / "study.yaml"
    path.write_text(json.dumps({
        "corpora": {"tiny": {"path": str(TINY)}},
        "models": {"a": {"type": "majority"}, "b": {"type": "majority", "scheme": "IOBES"}},
        "comparisons": {"p": {"a": "a", "b": "b", "corpora": ["tiny"]}},
        "strategies": {"holdout": {}},
        "stopping": {"enabled": True, "estimators": ["ST"], "wave": 2, "max_repetitions": 4}}))
    return path


def _a_summary(text: str):
    def setup(tmp: Path) -> None:
        path = tmp / SEQUENTIAL_SUMMARY
        path.parent.mkdir(parents=True)
        path.write_text(text)
    return setup


def _summary_of(summary: dict):
    return _a_summary(json.dumps({"comparison": "p", "corpus": "tiny", "summary": summary}))


def _a_clone(tmp: Path) -> None:
    table = tmp / "run/results/compare/tiny/p/holdout/records.jsonl"
    table.parent.mkdir(parents=True)
    table.write_text("")


@contextlib.contextmanager
def _patched(owner, name: str, value):
    original = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, original)


@contextlib.contextmanager
def _full_disk_restoring(tmp: Path):
    """The disk fills as a clone's records are written back."""
    def restore(config, directory):
        raise OSError(errno.ENOSPC, "No space left on device",
                      str(directory / "results/compare/tiny/p/holdout/rep0/estimates.json"))

    with _patched(sequential, "restore_records", restore):
        yield


@contextlib.contextmanager
def _full_disk_at_the_run_record(tmp: Path):
    """The disk fills as the wave records itself beside snakemake's lock (a sleeping stand-in
    in snakemake's place, ended by the command)."""
    write_text = Path.write_text

    def full(self, data, *args, **kwargs):
        if self.name == sequential.RUN_RECORD.name:
            write_text(self, data[:7])
            raise OSError(errno.ENOSPC, "No space left on device")
        return write_text(self, data, *args, **kwargs)

    with _patched(sequential, "snakemake_command",
                  lambda *a: [sys.executable, "-c", "import time; time.sleep(60)"]), \
            _patched(Path, "write_text", full):
        yield


def _sequential_cases() -> list[Case]:
    """`reprocompare sequential` (issue 50): what a user passes after --, summaries damaged by
    hand, a full disk under its own writes, a report snakemake could not write. Each input:
    (what is set up in the case's folder, the arguments after --, a failure injected), or
    ("report", snakemake's exit status, the free space) for the report's advice."""
    cases = [Case("sequential", f"-- {' '.join(cores)}", (None, cores, None), REFUSAL,
                  "is not a number of cores: give a whole number of at least 1, or all")
             for cores in (["--cores", "-3"], ["--cores", "0"], ["-c0"], ["--jobs=0"],
                           ["-j", "-1"], ["--cores", "two"], ["-j", "1.5"])]
    cases += [
        Case("sequential", "-- -n (a dry run)", (None, ["-n", "--cores", "1", "--quiet"], None),
             ACCEPTANCE),
        Case("sequential", "-- -np --cores all", (None, ["-np", "--cores", "all", "--quiet"],
                                                  None), ACCEPTANCE),
        Case("sequential", "-- --dry-run on a clone", (_a_clone, ["--dry-run"], None), REFUSAL,
             "a dry run would plan every one of them again; record them first with "
             "`reprocompare resume"),
        Case("sequential", "a summary without its stopping record",
             (_summary_of({"verdicts": {"ST": {"planned": True, "time_uniform": False}}}), [],
              None), REFUSAL, "p.json: has no `stopping` record (edited by hand or cut short?)"
             ": delete this summary"),
        Case("sequential", "a planned summary's stopping record without its wave",
             (_summary_of({"stopping": {"enabled": True, "design": "planned",
                                        "max_repetitions": 4}}), [], None), REFUSAL,
             "p.json: its `stopping` record lacks wave"),
        Case("sequential", "a summary cut short", (_a_summary('{"comparison": "p", "cor'), [],
                                                   None), REFUSAL, "p.json:1: not valid JSON"),
        Case("sequential", "a full disk restoring a clone's records",
             (None, ["--cores", "1"], _full_disk_restoring), REFUSAL,
             "no space left on the device writing "),
        Case("sequential", "a full disk at the wave's run record",
             (None, ["--cores", "1"], _full_disk_at_the_run_record), REFUSAL,
             "reprocompare-sequential.json: free some space, then run the same command again "
             "to resume"),
        Case("sequential", "the report: snakemake refused its arguments", ("report", 2, 2**40),
             REFUSAL, "snakemake refused its arguments (its message above): correct them "
                      "(`reprocompare sequential -h`"),
        Case("sequential", "the report: 10 MiB left on the disk", ("report", 1, 10 * 2**20),
             REFUSAL, "with 10 MiB left on the disk (snakemake's messages above): free some "
                      "space"),
    ]
    return cases


def _sequential_outcome(case: Case, tmp: Path) -> tuple[str, str]:
    config, run = _sequential_config(tmp), tmp / "run"
    if case.input[0] == "report":
        _, returncode, free = case.input
        with _patched(sequential, "supervise", lambda command, directory: (returncode, None)), \
                _patched(sequential.shutil, "disk_usage",
                         lambda path: shutil._ntuple_diskusage(2**41, 2**41 - free, free)):
            observed, message = _library_class(
                lambda: sequential.write_report(config, run, say=lambda line: None))
        if observed == REFUSAL and returncode == 2:
            assert "run the same command again" not in message, message
        return observed, message
    setup, arguments, failure = case.input
    if setup is not None:
        setup(tmp)
    with failure(tmp) if failure is not None else contextlib.nullcontext():
        status, err = _main(["sequential", "--configfile", str(config), "--directory", str(run),
                             "--", *arguments], tmp)
    if failure is _full_disk_at_the_run_record:  # no half record to mislead the next run
        assert not (run / sequential.RUN_RECORD).exists()
    if status == 0:  # a dry run: nothing written
        assert not (run / "results").exists()
    return _cli_class(status, err)


# ------------------------------------------------------------------------ expected-max's file

def _scores_cases() -> list[Case]:
    refused = [("a FIFO", None, "not a regular file"), ("a directory", "DIR", "not a regular"),
               ("empty", b"", "no scores"), ("comments only", b"# nothing\n\n", "no scores"),
               ("binary", bytes(range(256)), "UTF-8"), ("NaN", b"0.5\nnan\n", "scores.txt:2"),
               ("inf", b"0.5\ninf\n", "scores.txt:2"), ("a word", b"0.5\nhigh\n", "scores.txt:2"),
               ("three columns", b"0.5 1 2\n", "scores.txt:1"),
               ("a negative runtime", b"0.5 -3\n", "scores.txt:1"),
               ("columns that change", b"0.5 1\n0.6\n", "scores.txt:2")]
    accepted = [("one score", b"0.5\n"), ("scores and runtimes", b"0.5 10\n0.6 12\n"),
                ("comments and CRLF", b"# trials\r\n0.5\r\n0.7 # best\r\n"),
                ("20,000 scores", "\n".join(f"{i / 2e4}" for i in range(20_000)).encode())]
    return ([Case("scores", name, data, REFUSAL, fragment) for name, data, fragment in refused]
            + [Case("scores", name, data, ACCEPTANCE) for name, data in accepted])


#: the catalogue
CASES: list[Case] = [*_corpus_cases(), *_cli_cases(), *_spec_cases(), *_api_cases(),
                     *_config_cases(), *_resume_cases(), *_table_cases(), *_world_cases(),
                     *_scores_cases(), *_sequential_cases()]


# ------------------------------------------------------------------------ running a case

def _main(argv: list[str], tmp: Path) -> tuple[int, str]:
    """``reprocompare`` in-process: its exit status and what it wrote on stderr."""
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        try:
            status = cli.main([arg.replace("{tmp}", str(tmp)) for arg in argv])
        except SystemExit as exit_:  # argparse
            status = exit_.code
    return status, err.getvalue()


def _cli_class(status: int, err: str) -> tuple[str, str]:
    if status == 0:
        return ACCEPTANCE, err
    one_line = len(err.strip().splitlines()) == 1 and "Traceback" not in err
    return (REFUSAL if status in (1, 2, 130) and one_line else f"exit {status}"), err


def _library_class(call) -> tuple[str, str]:
    try:
        call()
    except ValueError as error:  # UserError included
        return (REFUSAL if "\n" not in str(error) else "multi-line"), str(error)
    return ACCEPTANCE, ""


@contextlib.contextmanager
def _failing(command: str, failure: str):
    name = "cmd_" + command.replace("-", "_")
    original = getattr(cli, name)

    def fail(args):
        raise FAILURES[failure][0]

    setattr(cli, name, fail)
    try:
        yield
    finally:
        setattr(cli, name, original)


def outcome(case: Case, tmp: Path) -> tuple[str, str]:
    """(the class the case ended in, its message); ``tmp`` is an empty folder of its own."""
    if case.family == "corpus":
        path = tmp / "corpus.conll"
        path.write_bytes(case.input)
        return _cli_class(*_main(["split", str(path), "--strategy", "holdout"], tmp))
    if case.family == "cli":
        (tmp / "2002.conll").write_text(GOOD, encoding="utf-8")
        (tmp / "123.conll.gz").write_bytes(gzip.compress(GOOD.encode()))
        return _cli_class(*_main(case.input, tmp))
    if case.family == "spec":
        return _library_class(lambda: parse_spec(case.input))
    if case.family == "api":
        name, args, kwargs = case.input
        return _library_class(lambda: API[name](*args, **kwargs))
    if case.family == "config":
        return _library_class(lambda: validate(_mutated_config(*case.input), "study.yaml"))
    if case.family == "resume":
        run = tmp / "run"
        shutil.copytree(good_run(tmp.parent), run)
        case.input(run)
        problem = run_problem(run)
        return (ACCEPTANCE, "") if problem is None else (REFUSAL, f"{run}: {problem}")
    if case.family == "table":
        strategy = tmp / "bcv"
        shutil.copytree(good_table(tmp.parent), strategy)
        for repetition in (0, 1):  # a clone: the records in the table alone
            for name in TABULATED:
                (strategy / f"rep{repetition}" / name).unlink()
        case.input(strategy / "records.jsonl")
        written, damaged = restore_tabulated(strategy, TABULATED_RECORDS)
        for line in damaged:  # a damaged line restores nothing
            assert line.repetition is None or not finished(strategy / f"rep{line.repetition}")
        return (ACCEPTANCE, "") if not damaged else (REFUSAL, str(damaged[0]))
    if case.family == "world":
        command, failure = case.input
        with _failing(command, failure):
            status, err = _main(COMMANDS[command], tmp)
        assert status == FAILURES[failure][1], (status, err)
        return _cli_class(status, err)
    if case.family == "scores":
        path = tmp / "scores.txt"
        if case.input is None:
            os.mkfifo(path)
        elif case.input == "DIR":
            path.mkdir()
        else:
            path.write_bytes(case.input)
        return _cli_class(*_main(["expected-max", str(path)], tmp))
    if case.family == "sequential":
        return _sequential_outcome(case, tmp)
    raise AssertionError(f"no runner for family {case.family!r}")


# ------------------------------------------------------------------------ the suite

@pytest.fixture(scope="module")
def shared(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("hostile")


def test_the_catalogue_is_large_and_spans_every_family():
    families = {case.family for case in CASES}
    assert len(CASES) >= 300
    assert families == {"corpus", "cli", "spec", "api", "config", "resume", "table", "world",
                        "scores", "sequential"}
    assert len({str(case) for case in CASES}) == len(CASES), "every case has its own name"
    for family in families:
        classes = {case.expected for case in CASES if case.family == family}
        assert REFUSAL in classes and (family == "world" or ACCEPTANCE in classes), family
    assert all(case.fragment for case in CASES if case.expected == REFUSAL)
    # benchmarks/RESULTS.md's table (written by benchmarks/bench_hostile.py) counts this catalogue
    root = Path(__file__).resolve().parents[1]
    assert f"| **all** | **{len(CASES)}** |" in (root / "benchmarks" / "RESULTS.md").read_text()


def assert_ends_in_its_class(case: Case, observed: str, message: str) -> None:
    """The one check of every catalogue (this one and tests/test_redteam_*.py): the class it
    must end in, and for a refusal one line, no traceback, naming what the case names."""
    assert observed == case.expected, message
    if case.expected == REFUSAL:
        assert case.fragment in message, message
        assert len(message.strip().splitlines()) == 1 and "Traceback" not in message


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_hostile_case_ends_in_its_class(case, shared):
    tmp = Path(tempfile.mkdtemp(dir=shared))
    observed, message = outcome(case, tmp)
    assert_ends_in_its_class(case, observed, message)
    if case.family == "corpus" and case.expected == REFUSAL:
        assert "corpus.conll" in message  # every corpus error names the file


def test_resume_rebuilds_what_it_cannot_trust_and_touches_only_the_rest(tmp_path, monkeypatch):
    """The whole flow, Snakemake left out: a corrupt repetition's estimates.json is removed (so
    Snakemake, which asks for it, plans the job again), a sound one is kept and touched."""
    from reprocompare.pipeline import provenance
    from reprocompare.commands import resume as study

    config = validate(_mutated_config(("strategies",), {"bcv": {"m": 2}}), "study.yaml")
    config_path = tmp_path / "study.yaml"
    config_path.write_text(json.dumps(config))
    directory = tmp_path / "study"
    template = good_run(tmp_path)
    runs = [paths.run_directory("tiny", "p", "bcv", r, root=directory) for r in range(3)]
    for run in runs:
        shutil.copytree(template, run)
        (run / "settings.json").write_text(json.dumps(
            provenance.compare(config, "tiny", "p", "bcv")))
    sha256 = json.loads((template / "split.json").read_text())["corpus_sha256"]
    info = directory / "results" / "corpora" / "tiny" / "corpus.json"
    info.parent.mkdir(parents=True)
    info.write_text(json.dumps({"sha256": sha256}))
    gzip_cut = (runs[1] / "counts.tsv.gz").read_bytes()
    (runs[1] / "counts.tsv.gz").write_bytes(gzip_cut[:len(gzip_cut) // 2])
    (runs[2] / "scores.json").unlink()
    calls, said = [], []
    monkeypatch.setattr(study, "_snakemake", lambda *args: calls.append(args[2:]))
    result = study.resume(config_path, directory, say=said.append)
    assert result == {"complete": 1, "planned": 3, "rebuilt": 2}
    assert (runs[0] / "estimates.json").is_file()
    assert not (runs[1] / "estimates.json").exists() and not (runs[2] / "estimates.json").exists()
    assert calls[-1] == ("--touch", str((runs[0] / "estimates.json").relative_to(directory)))
    assert said[0] == (f"{runs[1]}: counts.tsv.gz is not a whole gzip of text (Compressed file "
                       "ended before the end-of-stream marker was reached); its estimates.json "
                       "is removed, so snakemake trains this repetition again")
    assert said[1].startswith(f"{runs[2]}: scores.json is missing;")
    assert said[2].startswith(f"{directory}: 1 of 3 repetitions are complete")


@pytest.mark.slow
def test_resume_stops_on_another_configs_results_before_removing_anything(tmp_path, monkeypatch):
    from reprocompare.commands import resume as study

    config = validate(_mutated_config(("strategies",), {"bcv": {"m": 2}}), "study.yaml")
    config_path = tmp_path / "study.yaml"
    config_path.write_text(json.dumps(config))
    directory = tmp_path / "study"
    broken, foreign = (paths.run_directory("tiny", "p", "bcv", r, root=directory) for r in (0, 1))
    for run in (broken, foreign):
        shutil.copytree(good_run(tmp_path), run)
    (broken / "settings.json").write_text("{")  # unreadable: trained again
    monkeypatch.setattr(study, "_snakemake", lambda *args: None)
    with pytest.raises(UserError, match="these results belong to another config"):
        study.resume(config_path, directory)
    assert (broken / "estimates.json").is_file()  # nothing removed before every check passed


def test_results_of_an_older_model_version_say_so_and_not_restore_that_value(tmp_path,
                                                                           monkeypatch):
    # a model type whose defaults changed (its version) cannot be "restored" by the user: the
    # message names the model and says what to do instead
    from reprocompare.commands import resume as study

    config = validate(_mutated_config(("strategies",), {"bcv": {"m": 2}}), "study.yaml")
    config_path = tmp_path / "study.yaml"
    config_path.write_text(json.dumps(config))
    directory = tmp_path / "study"
    run = paths.run_directory("tiny", "p", "bcv", 0, root=directory)
    shutil.copytree(good_run(tmp_path), run)
    from reprocompare.pipeline import provenance

    settings = provenance.compare(config, "tiny", "p", "bcv")
    settings["A"]["version"] = 7  # an older (here: another) version of model A's class
    (run / "settings.json").write_text(json.dumps(settings))
    monkeypatch.setattr(study, "_snakemake", lambda *args: None)
    with pytest.raises(UserError) as raised:
        study.resume(config_path, directory)
    message = str(raised.value)
    assert "these results were trained by an older reprocompare: A.version is 7 in the " \
           "results" in message, message
    assert f"model {settings['A']['name']!r}" in message and "restore that value" not in message
    assert "move this comparison's results away" in message

