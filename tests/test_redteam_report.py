"""Red team, round 2 (issue 34): what a user writes is data, every number is finite, the
arguments after ``--`` are kept, and an interrupted sequential study resumes.

A catalogue (``CASES``) in the form of tests/test_hostile.py's (its :class:`Case` and its two
classes): each case ends in a clean **refusal** (one line naming the key or option, no
traceback) or a correct **acceptance** (the input shown or run as written). Families:

- ``finite``: NaN and the infinities at every float key of the config schema (YAML's ``.nan``,
  ``.inf``), and at a model's hyperparameters;
- ``markup``: labels and names that are markup somewhere (HTML, reST, Jinja, Markdown, a
  terminal's escape sequences) in every renderer that prints them, which must show them
  literally;
- ``arguments``: what ``reprocompare sequential -- ...`` does with the arguments it passes on.

``benchmarks/bench_hostile.py`` counts them beside the other catalogues. The slow tests at the
end check the report in a real headless Chromium and interrupt real sequential runs.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
import yaml

from test_hostile import ACCEPTANCE, CONFIG, REFUSAL, Case, _library_class, _mutated_config

from reprocompare.study.config import SCHEMA_PATH, validate

TESTS = Path(__file__).resolve().parent
NAN, INF = float("nan"), float("inf")


# ------------------------------------------------------------------------ finite numbers

def schema_number_keys(node: dict | None = None, path: tuple = ()) -> list[tuple]:
    """Every key of the config schema whose type admits a number, as a path (``*`` where the
    schema allows any name)."""
    node = yaml.safe_load(SCHEMA_PATH.read_text()) if node is None else node
    types = node.get("type") if isinstance(node.get("type"), list) else [node.get("type")]
    keys = [path] if "number" in types else []
    for key, sub in node.get("properties", {}).items():
        keys += schema_number_keys(sub, (*path, key))
    if isinstance(node.get("additionalProperties"), dict):
        keys += schema_number_keys(node["additionalProperties"], (*path, "*"))
    for sub in node.get("oneOf", []) + node.get("anyOf", []) + node.get("allOf", []):
        keys += schema_number_keys(sub, path)
    return keys


#: a name for each ``*`` of a float key's path (a searched model and its parameter)
NAMES = {("search", "models"): "crf", ("search", "models", "crf", "space"): "c1"}


def _concrete(path: tuple) -> tuple:
    out: tuple = ()
    for part in path:
        out = (*out, NAMES[out] if part == "*" else part)
    return out


def _nested(path: tuple, value):
    """``{path[0]: {path[1]: ... value}}``: the value at ``path`` in a config of its own."""
    for part in reversed(path[1:]):
        value = {part: value}
    return path[0], value


def _finite_cases() -> list[Case]:
    cases = []
    for path in map(_concrete, schema_number_keys()):
        for value, shown in ((NAN, ".nan"), (INF, ".inf"), (-INF, "-.inf")):
            top, nested = _nested(path, value)
            cases.append(Case("finite", f"{'.'.join(path)}: {shown}", ((top,), nested), REFUSAL,
                              f"{'.'.join(path)}: {value} is not a finite number"))
    # a model's hyperparameters are checked by the model, after the schema: still refused first
    for key in ("c1", "c2"):
        for value, shown in ((NAN, ".nan"), (INF, ".inf")):
            cases.append(Case("finite", f"models.crf.{key}: {shown}",
                              (("models", "crf", key), value), REFUSAL,
                              f"models.crf.{key}: {value} is not a finite number"))
    cases += [
        Case("finite", "repetitions: .inf (an integer key)", (("repetitions",), INF), REFUSAL,
             "repetitions: inf is not a finite number"),
        Case("finite", "a NaN in a list (repeated_holdout.k)",
             (("strategies", "repeated_holdout", "k"), [2, NAN]), REFUSAL,
             "strategies.repeated_holdout.k.1: nan is not a finite number"),
        Case("finite", "verdict.threshold: 0.9", (("verdict",), {"threshold": 0.9}), ACCEPTANCE),
        Case("finite", "significance.alpha: 1e-300", (("significance",), {"alpha": 1e-300}),
             ACCEPTANCE),
        Case("finite", "models.crf.c1: 1e300", (("models", "crf", "c1"), 1e300), ACCEPTANCE),
    ]
    return cases


# ------------------------------------------------------------------------ the catalogue

CASES: list[Case] = [*_finite_cases()]


def outcome(case: Case, tmp: Path) -> tuple[str, str]:
    """(the class the case ended in, its message); ``tmp`` is an empty folder of its own."""
    if case.family == "finite":
        return _library_class(lambda: validate(_mutated_config(*case.input), "study.yaml"))
    raise AssertionError(f"no runner for family {case.family!r}")


@pytest.fixture(scope="module")
def shared(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("redteam-report")


def test_every_float_key_of_the_schema_is_in_the_catalogue():
    keys = {_concrete(path) for path in schema_number_keys()}
    # the keys issue 34 found letting NaN through, and the search's (the walk must reach them)
    assert {("verdict", "threshold"), ("verdict", "confidence"), ("significance", "alpha"),
            ("seed_variance", "failure_f1"), ("search", "models", "crf", "space", "c1", "low")} \
        <= keys
    named = {case.name.split(":")[0] for case in CASES if case.family == "finite"}
    assert {".".join(key) for key in keys} <= named


def test_the_catalogue_is_well_formed():
    assert len({str(case) for case in CASES}) == len(CASES), "every case has its own name"
    assert all(case.fragment for case in CASES if case.expected == REFUSAL)
    for family in {case.family for case in CASES}:
        assert {case.expected for case in CASES if case.family == family} == \
            {REFUSAL, ACCEPTANCE}, family


@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_red_team_case_ends_in_its_class(case, shared):
    tmp = Path(tempfile.mkdtemp(dir=shared))
    observed, message = outcome(case, tmp)
    assert observed == case.expected, message
    if case.expected == REFUSAL:
        assert case.fragment in message, message
        assert len(message.strip().splitlines()) == 1 and "Traceback" not in message


def test_a_nan_in_the_yaml_file_is_refused_naming_the_file_and_key(tmp_path):
    """YAML's own spellings, read as the workflow reads a config file."""
    from reprocompare.study.config import load_yaml

    for text, shown in ((".nan", "nan"), (".inf", "inf"), ("-.Inf", "-inf"), (".NaN", "nan")):
        path = tmp_path / "study.yaml"
        path.write_text(yaml.safe_dump(CONFIG) + f"verdict: {{threshold: {text}}}\n")
        with pytest.raises(ValueError) as error:
            validate(load_yaml(path), str(path))
        assert str(error.value) == (f"{path}: verdict.threshold: {shown} is not a finite "
                                    "number: give a number (NaN and infinities are refused)")
