"""The lock builds the project on every Python it supports (issue 35, item 6).

The Makefile installs requirements.lock, then the project with ``--no-build-isolation``: the
build uses the environment's setuptools, so the lock must pin it (pip freeze leaves it out) and
wheel with it; a venv of Python 3.12 or later has no setuptools of its own. The slow test makes a
fresh venv with each Python from 3.11 to 3.13 found (on PATH, or installed by pyenv), installs
the lock's build tools and then the project as the Makefile does.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from conftest import ROOT, lock_pins

BUILD_TOOLS = ("setuptools", "wheel")


def interpreter(version: str) -> str | None:
    """A Python of this version that runs: on PATH, or one pyenv installed (whose shim on PATH
    answers only for the selected version)."""
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    candidates = [shutil.which(f"python{version}"),
                  *map(str, sorted(root.glob(f"versions/{version}.*/bin/python{version}")))]
    for candidate in filter(None, candidates):
        if subprocess.run([candidate, "-c", "import sys"], capture_output=True).returncode == 0:
            return candidate
    return None


def test_the_lock_pins_the_build_tools_the_build_system_asks_for():
    pinned = lock_pins()
    assert all(tool in pinned for tool in BUILD_TOOLS), sorted(pinned)
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]
    for requirement in map(Requirement, build["requires"]):
        assert requirement.specifier.contains(pinned[requirement.name.lower()]), requirement


@pytest.mark.slow
@pytest.mark.parametrize("version", ["3.11", "3.12", "3.13"])
def test_a_fresh_venv_builds_the_project_with_the_locks_build_tools(tmp_path, version):
    python = interpreter(version)
    if python is None:
        pytest.skip(f"no python{version} here (on PATH or installed by pyenv)")
    source = tmp_path / "source"  # a clone: the build writes build/ and *.egg-info beside it
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(source)], check=True)
    shutil.copyfile(ROOT / "requirements.lock", source / "requirements.lock")
    venv = tmp_path / "venv"
    subprocess.run([python, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    pinned = lock_pins()
    subprocess.run([*pip, *(f"{tool}=={pinned[tool]}" for tool in BUILD_TOOLS)], check=True)
    result = subprocess.run([*pip, "--no-deps", "--no-build-isolation", "-e", str(source)],
                            capture_output=True, text=True)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    found = subprocess.run(
        [str(venv / "bin" / "python"), "-c",
         "import importlib.metadata as m, importlib.util as u; "
         "print(m.version('reprocompare'), u.find_spec('reprocompare.splitters') is not None)"],
        capture_output=True, text=True, check=True, cwd=tmp_path).stdout.split()
    assert found[1] == "True", found
