"""The README and the documentation site (issue 36, item 4): a short README, a site that builds
with warnings as errors, reference pages generated from the code, examples that run.

Prose is never asserted here (issue 35, item 4): the checks are the README's length, links that
resolve, the generated pages against their generator, no issue numbers in the user's pages
(issue 49), and the examples marked in the pages:
``<!-- test: config -->`` before a YAML block (a config fragment), ``<!-- test: partitions -->``
(a SLURM partition file), ``<!-- test: run -->`` before a shell block (run as it stands).
"""

from __future__ import annotations

import copy
import importlib.util
import os
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest
import yaml

import conftest
from conftest import PIP_INSTALL, ROOT, bare_env, pip_venv

DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
MARKED = re.compile(r"<!-- test: (\w+) -->\n```(\w+)\n(.*?)```", re.S)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _generator():
    spec = importlib.util.spec_from_file_location("docs_generate", DOCS / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _forked(command, check=False, **options):
    """subprocess.run for docs/generate.py: its `python -m reprocompare ... --help` runs, one
    per subcommand, fork the suite's warm process (conftest.run), the same program with the
    same arguments and environment, instead of each paying the CLI's imports."""
    result = conftest.run(command, env=options.get("env"))
    if check and result.returncode:
        raise subprocess.CalledProcessError(result.returncode, command, result.stdout,
                                            result.stderr)
    return result


def _ids(examples_: list[tuple[str, str]]) -> list[str]:
    return [f"{page}:{i}" for i, (page, _) in enumerate(examples_)]


def examples(kind: str) -> list[tuple[str, str]]:
    """(page, text) of every block marked ``<!-- test: KIND -->`` in the README and the docs."""
    found = []
    for page in [ROOT / "README.md", *PAGES]:
        for marked, _, text in MARKED.findall(page.read_text()):
            if marked == kind:
                found.append((page.relative_to(ROOT).as_posix(), text))
    return found


def test_the_user_docs_and_the_help_tell_no_project_history():
    """History belongs in the git log and benchmarks/RESULTS.md: no issue numbers and no
    internal names of papers ("seed 002": papers go by authors and year) in the README, the
    config reference, the docs, or the command line's help (docs/cli.md is generated from it)."""
    history = re.compile(r"\b(issues? #?\d+|the issue's|seeds? 0\d\d)\b", re.IGNORECASE)
    pages = [ROOT / "README.md", ROOT / "config" / "README.md", *PAGES]
    found = [f"{page.relative_to(ROOT)}: {match.group(0)}" for page in pages
             for match in history.finditer(page.read_text())]
    assert not found, found


def test_the_readme_is_a_readme():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 250


def test_every_page_is_in_the_navigation():
    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text().replace("!!", ""))["nav"]

    def files(entries):
        for entry in entries:
            for value in entry.values():
                yield from (files(value) if isinstance(value, list) else [value])

    assert sorted(files(nav)) == sorted(page.name for page in PAGES)


@pytest.mark.parametrize("page", [ROOT / "README.md", *PAGES], ids=lambda p: p.name)
def test_every_relative_link_resolves(page):
    """A link to a file of the project leads to one (the site's build checks anchors too)."""
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)  # code is not a link
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (page.parent / target.split("#", 1)[0]).resolve()
        assert path.exists(), f"{page.name}: {target}"
        if page.parent == DOCS:  # the site holds only docs/: a link must stay inside it
            assert DOCS in path.parents, f"{page.name}: {target} leaves docs/"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["cli.md", "config.md", "model-types.md"])
def test_the_reference_pages_are_generated(name, monkeypatch):
    generator = _generator()
    monkeypatch.setattr(generator, "subprocess", types.SimpleNamespace(run=_forked))
    assert (DOCS / name).read_text() == generator.PAGES[name](), \
        "regenerate: .venv/bin/python docs/generate.py"


def test_the_command_line_page_has_every_subcommand():
    from reprocompare.commands.cli import build_parser

    commands = next(action for action in build_parser()._actions
                    if isinstance(action, __import__("argparse")._SubParsersAction)).choices
    text = (DOCS / "cli.md").read_text()
    assert [name for name in commands] == re.findall(r"^## reprocompare (\S+)$", text, re.M)


def test_the_config_page_has_every_key_of_the_schema():
    from reprocompare.study.config import SCHEMA_PATH

    text = (DOCS / "config.md").read_text()

    def keys(node, prefix=""):
        for key, sub in node.get("properties", {}).items():
            yield prefix + key
            yield from keys(sub, f"{prefix}{key}.")
        if isinstance(node.get("additionalProperties"), dict):
            yield prefix + "<name>"
            yield from keys(node["additionalProperties"], f"{prefix}<name>.")

    for key in keys(yaml.safe_load(SCHEMA_PATH.read_text())):
        assert f"`{key}`" in text, key


def _merge(base: dict, fragment: dict) -> dict:
    merged = copy.deepcopy(base)
    for key, value in fragment.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def test_there_are_examples_of_every_kind():
    assert len(examples("config")) >= 4 and examples("partitions") and examples("run")


@pytest.mark.parametrize("page, text", examples("config"), ids=_ids(examples("config")))
def test_config_examples_are_valid_configs(page, text, tmp_path):
    """A config fragment, laid over the demo's corpora, models and comparisons
    (config/config.yaml), passes the schema and the config's own checks (references, search
    spaces, the design of variation:); comparisons it names replace the demo's. A
    transformer's `model:` folder is the reader's own: a saved folder's files stand in for it
    (the check reads which files are there, not what they hold)."""
    from reprocompare.models.transformer import TOKENIZER_FILES
    from reprocompare.study.config import validate

    demo = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    base = {key: demo[key] for key in ("corpora", "models", "comparisons")}
    fragment = yaml.safe_load(text)
    for name, model in (fragment.get("models") or {}).items():
        if isinstance(model, dict) and model.get("type") == "transformers":
            folder = tmp_path / name
            folder.mkdir()
            for file in ("config.json", TOKENIZER_FILES[0]):
                (folder / file).write_text("{}")
            model["model"] = str(folder)
    if "comparisons" in fragment:
        base.pop("comparisons")
    validate(_merge(base, fragment), source=page)


@pytest.mark.parametrize("page, text", examples("partitions"),
                         ids=_ids(examples("partitions")))
def test_partition_examples_send_gpu_jobs_to_a_gpu_partition(page, text, tmp_path):
    from snakemake_executor_plugin_slurm.partitions import get_best_partition, \
        read_partition_file

    from test_profiles import _Job, _Quiet

    (tmp_path / "partitions.yaml").write_text(text)
    partitions = read_partition_file(tmp_path / "partitions.yaml")
    gpus = {p.name for p in partitions if p.limits.max_gpu > 0}
    sizes = {"_cores": "1", "mem_mb": "1000", "runtime": "45"}
    assert get_best_partition(partitions, _Job("compare", {**sizes, "gpu": "1"}), _Quiet()) \
        in gpus
    assert get_best_partition(partitions, _Job("compare", {**sizes, "gpu": "0"}), _Quiet()) \
        not in gpus


@pytest.mark.slow
@pytest.mark.parametrize("page, text", examples("run"), ids=_ids(examples("run")))
def test_shell_examples_run_as_they_stand(page, text, tmp_path):
    """In a fresh directory holding the shipped corpus, with .venv/bin on the PATH."""
    (tmp_path / "data").symlink_to(ROOT / "data")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    result = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", text], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, (page, (result.stdout + result.stderr)[-3000:])


#: what the documentation never needs: the heavy packages of a study
HEAVY = ("torch", "transformers", "snakemake", "pandas", "matplotlib", "scikit-learn")


@pytest.mark.slow
def test_the_docs_build_in_an_environment_of_their_own(tmp_path, wheel):
    """`make docs` installs docs/requirements.txt at the lock's versions into .venv-docs, and
    the project --no-deps: the generated pages come out as committed and the site builds with
    mkdocs build --strict (a broken link or anchor, a page left out of the navigation, any
    warning fails it; the site goes to a temporary folder, never to site/), with none of a
    study's heavy packages there (the whole environment took 23.5 minutes to build for an
    8.9-second site). The one strict build of the suite: the project environment's mkdocs
    is the same, at the lock's versions."""
    makefile = (ROOT / "Makefile").read_text()
    assert "\ndocs: $(DOCS_STAMP)\n" in makefile
    assert "-c requirements.lock -r docs/requirements.txt" in makefile
    venv_dir = tmp_path / "venv"
    python = pip_venv(venv_dir)
    pip = [str(python), *PIP_INSTALL]
    for step in (["-c", str(ROOT / "requirements.lock"), "-r", str(DOCS / "requirements.txt")],
                 ["--no-deps", str(wheel)]):
        result = subprocess.run([*pip, *step], capture_output=True, text=True,
                                env=bare_env(python))
        assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    installed = subprocess.run([str(python), "-m", "pip", "list", "--format=freeze"],
                               capture_output=True, text=True, check=True).stdout.lower()
    assert not [name for name in HEAVY if f"\n{name}==" in f"\n{installed}"], installed
    work = tmp_path / "work"  # not the repository: its reprocompare/ would shadow the wheel's
    work.mkdir()
    env = {**bare_env(python), "NO_MKDOCS_2_WARNING": "1"}
    for generator in (DOCS / "generate.py", ROOT / "studies" / "prose.py"):
        result = subprocess.run([str(python), str(generator), "--check"], cwd=work, env=env,
                                capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr
    result = subprocess.run([str(venv_dir / "bin" / "mkdocs"), "build", "--strict",
                             "--config-file", str(ROOT / "mkdocs.yml"), "--site-dir",
                             str(tmp_path / "site")], cwd=work, env=env, capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stderr[-3000:]
    assert (tmp_path / "site" / "index.html").is_file()
    assert (tmp_path / "site" / "cluster" / "index.html").is_file()
