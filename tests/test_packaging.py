"""The installed package: one importable name, a wheel that carries what it needs, a version.

The wheel is built from the files git would commit (a clean checkout, not this working tree's build
leftovers) and installed into a fresh virtual environment with only what pip resolves for it
(conftest's ``installed``); the commands then run from an empty directory, so nothing in the
repository, and no package the wheel does not declare, can be imported by accident.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from conftest import ROOT, TEST_DATA, bare_env

STAGES = ["corpora", "splitters", "models", "estimators", "reports", "search", "schemas"]

#: the source the wheel installs as reprocompare (pyproject.toml's package-dir), and the rules
SOURCES = ["reprocompare", "corpora", "splitters", "models", "estimators", "reports", "search",
           "workflow"]


def _guarded(node: ast.AST) -> bool:
    """A function, or a try whose except catches an ImportError: what it imports may be absent."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return True
    return isinstance(node, ast.Try) and any(
        isinstance(handler.type, ast.Name) and handler.type.id in ("ImportError",
                                                                  "ModuleNotFoundError")
        for handler in node.handlers)


def _imports(path: Path) -> Iterator[tuple[str, bool]]:
    """(top-level module, imported unconditionally) for every import in ``path``: not in a
    function, nor under a try that catches its ImportError. The rules (.smk, the Snakefile) are
    read by their import lines."""
    if path.suffix == ".py":
        tree = ast.parse(path.read_text(encoding="utf-8"))
        local = {id(node) for outer in ast.walk(tree) if _guarded(outer)
                 for node in ast.walk(outer)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module]
            else:
                continue
            for name in names:
                yield name.split(".")[0], id(node) not in local
    else:
        for match in re.finditer(r"^(?:import|from) ([A-Za-z_]\w*)", path.read_text(),
                                 flags=re.MULTILINE):
            yield match.group(1), True


@pytest.mark.slow
def test_the_wheel_declares_every_package_its_code_imports():
    """A package the code imports, found in the project environment only because something else
    brought it (psutil through snakemake), is declared all the same; an extra's packages are
    imported inside a function only, so that the default path runs without the extra."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = {canonicalize_name(Requirement(r).name) for r in project["dependencies"]}
    extras = {canonicalize_name(Requirement(r).name): extra
              for extra, requirements in project["optional-dependencies"].items()
              if extra != "test" for r in requirements}
    distributions = metadata.packages_distributions()
    files = [path for source in SOURCES for path in (ROOT / source).rglob("*")
             if path.suffix in (".py", ".smk") or path.name == "Snakefile"]
    assert len(files) > 50, files
    missing, eager = set(), set()
    for path in files:
        for module, top in _imports(path):
            if module in sys.stdlib_module_names or module in ("reprocompare", "__future__"):
                continue
            names = {canonicalize_name(d) for d in distributions.get(module, [])}
            assert names, f"{path.relative_to(ROOT)}: {module} is in no installed distribution"
            if names & declared:
                continue
            if names & extras.keys():
                if top:
                    eager.add(f"{path.relative_to(ROOT)}: {module}")
                continue
            missing.add(f"{path.relative_to(ROOT)}: {module} ({', '.join(sorted(names))})")
    assert not missing, f"imported, not declared in pyproject.toml: {sorted(missing)}"
    assert not eager, f"an extra's package imported at the top of a module: {sorted(eager)}"


def run(installed, *args):
    python, work = installed
    return subprocess.run([str(python), *map(str, args)], cwd=work, capture_output=True,
                          text=True, env=bare_env(python))


@pytest.mark.slow
def test_only_reprocompare_is_importable(installed):
    probe = ("import importlib.util as u\n"
             f"for name in {STAGES + ['tests', 'config', 'data', 'workflow', 'benchmarks']!r}:\n"
             "    print(name, u.find_spec(name) is not None)\n"
             f"for name in {STAGES!r}:\n"
             "    print('reprocompare.' + name, u.find_spec('reprocompare.' + name) is not None)\n")
    found = dict(line.rsplit(" ", 1) for line in run(installed, "-c", probe).stdout.splitlines())
    assert all(found[f"reprocompare.{name}"] == "True" for name in STAGES), found
    assert [name for name, ok in found.items() if "." not in name and ok == "True"] == []


@pytest.mark.slow
def test_the_venv_holds_what_the_wheel_asks_for_and_nothing_of_the_project_environment(
        installed):
    """The report's pygments came with the wheel's own requirements; the test extra's packages
    and the transformers extra, which the project environment holds, are not there."""
    probe = ("import importlib.util as u\n"
             "for name in ('pygments', 'psutil', 'snakemake', 'torch', 'pytest', 'deepsig', "
             "'mkdocs', 'transformers'):\n"
             "    print(name, u.find_spec(name) is not None)\n")
    found = dict(line.split() for line in run(installed, "-c", probe).stdout.splitlines())
    assert found == {"pygments": "True", "psutil": "True", "snakemake": "True", "torch": "True",
                     "pytest": "False", "deepsig": "False", "mkdocs": "False",
                     "transformers": "False"}, found


@pytest.mark.slow
def test_wheel_carries_the_schema_and_the_version(installed):
    result = run(installed, "-m", "reprocompare", "--version")
    assert result.returncode == 0, result.stderr
    from reprocompare import __version__
    assert result.stdout.strip() == f"reprocompare {__version__}"
    result = run(installed, "-c", "from reprocompare.study.config import SCHEMA_PATH;"
                                  "print(SCHEMA_PATH.is_file(), SCHEMA_PATH)")
    assert result.stdout.startswith("True "), result.stdout + result.stderr
    assert str(ROOT) not in result.stdout


@pytest.mark.slow
def test_installed_split_and_compare_run(installed, tmp_path):
    corpus = TEST_DATA / "tiny.conll"
    result = run(installed, "-m", "reprocompare", "split", corpus, "--strategy", "bcv",
                 "--seed", "1")
    assert result.returncode == 0, result.stderr
    assert '"strategy": "bcv"' in result.stdout
    out = tmp_path / "rep0"
    result = run(installed, "-m", "reprocompare", "compare", corpus, "--a", "majority",
                 "--b", "crf:max_iterations=5", "--strategy", "holdout", "--seed", "1",
                 "--out", out)
    assert result.returncode == 0, result.stderr
    assert (out / "estimates.json").is_file()


def test_a_type_whose_extra_is_missing_is_refused_when_its_spec_is_read(monkeypatch):
    """Without the transformers extra, a transformers spec stops where it is read (a config's
    validation, init's --a/--b), in one line naming the extra, not in a job."""
    from importlib import util

    from reprocompare.base.errors import UserError
    from reprocompare.models import parse_spec, spec_from_mapping

    find_spec = util.find_spec
    monkeypatch.setattr(util, "find_spec",
                        lambda name, *args: None if name == "transformers"
                        else find_spec(name, *args))
    with pytest.raises(UserError) as raised:
        spec_from_mapping("bert", {"type": "transformers", "model": "no/such/model"})
    assert raised.value.key == "models.bert.type"
    assert "pip install reprocompare[transformers]" in str(raised.value)
    with pytest.raises(UserError, match=r"reprocompare\[transformers\]"):
        parse_spec("transformers:model=no/such/model")
    assert str(parse_spec("crf:scheme=IOBES")) == "crf:scheme=IOBES"


@pytest.mark.slow
def test_the_wheel_without_an_extra_refuses_its_type_in_one_line(installed, tmp_path):
    """The venv of the wheel alone has no transformers: init refuses the spec, run a config
    naming it, each in one line naming the extra, exit status 2, before any job."""
    model = tmp_path / "tiny-bert"  # what the spec's folder check looks for
    model.mkdir()
    (model / "config.json").write_text("{}")
    (model / "tokenizer.json").write_text("{}")
    corpus = tmp_path / "corpus.conll"
    corpus.write_text((TEST_DATA / "tiny.conll").read_text())
    python, _ = installed
    refused = subprocess.run([str(python), "-m", "reprocompare", "init", "study", "--corpus",
                              str(corpus), "--b", f"transformers:model={model}"], cwd=tmp_path,
                             capture_output=True, text=True, env=bare_env(python))
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    assert "pip install reprocompare[transformers]" in refused.stderr
    assert not (tmp_path / "study").exists()
    made = subprocess.run([str(python), "-m", "reprocompare", "init", "study", "--corpus",
                           str(corpus)], cwd=tmp_path, capture_output=True, text=True,
                          env=bare_env(python))
    assert made.returncode == 0, made.stderr
    path = tmp_path / "study" / "config.yaml"
    config = path.read_text().replace("models:\n", f"models:\n  bert: {{type: transformers, "
                                      f"model: '{model}'}}\n", 1)
    path.write_text(config)
    run_ = subprocess.run([str(python), "-m", "reprocompare", "run", "study", "--cores", "1"],
                          cwd=tmp_path, capture_output=True, text=True, env=bare_env(python))
    assert run_.returncode == 2, run_.stdout + run_.stderr
    assert len(run_.stderr.strip().splitlines()) == 1, run_.stderr
    assert "models.bert.type" in run_.stderr
    assert "pip install reprocompare[transformers]" in run_.stderr
    assert not (tmp_path / "study" / "results").exists()


def test_make_compiles_every_package_folder():
    """The Makefile's SOURCES, which `make test` and `make demo` byte-compile, are the folders of
    pyproject.toml's package-dir (workflow/ holding workflow/schemas): a package added to one
    and not the other would be compiled again by every job."""
    folders = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-dir"].values()
    makefile = (ROOT / "Makefile").read_text().replace("\\\n", " ")  # continued lines
    sources = re.search(r"^SOURCES := (.+)$", makefile, re.M)
    assert sources and sorted(sources.group(1).split()) == \
        sorted({folder.split("/")[0] for folder in folders})
