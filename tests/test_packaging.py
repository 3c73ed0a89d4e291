"""The installed package: one importable name, a wheel that carries what it needs, a version.

The wheel is built from the files git would commit (a clean checkout, not this working tree's build
leftovers) and installed into a fresh virtual environment whose only other contents are the
project environment's third-party packages; the commands then run from an empty directory, so
nothing in the repository can be imported by accident.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from conftest import ROOT, TEST_DATA

pytestmark = pytest.mark.slow

STAGES = ["corpora", "splitters", "models", "estimators", "reports", "search", "schemas"]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(python, reprocompare executable, cwd) of a fresh venv with only the built wheel added."""
    base = tmp_path_factory.mktemp("wheel")
    checkout = base / "checkout"
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        source = ROOT / name
        if source.is_file():
            (checkout / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, checkout / name)
    dist = base / "dist"
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir",
                    str(dist), str(checkout)], check=True, capture_output=True)
    wheel = next(dist.glob("reprocompare-*.whl"))
    env_dir = base / "venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    # Third-party packages come from the project environment, as a plain path (a .pth line does
    # not run that environment's own .pth files, so its editable reprocompare stays invisible).
    purelib = subprocess.run([str(python), "-c", "import sysconfig;print(sysconfig.get_paths()"
                              "['purelib'])"], capture_output=True, text=True, check=True)
    (Path(purelib.stdout.strip()) / "project_deps.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--target",
                    purelib.stdout.strip(), str(wheel)], check=True, capture_output=True)
    work = base / "work"
    work.mkdir()
    return python, work


def run(installed, *args):
    python, work = installed
    return subprocess.run([str(python), *map(str, args)], cwd=work, capture_output=True,
                          text=True)


def test_only_reprocompare_is_importable(installed):
    probe = ("import importlib.util as u\n"
             f"for name in {STAGES + ['tests', 'config', 'data', 'workflow', 'benchmarks']!r}:\n"
             "    print(name, u.find_spec(name) is not None)\n"
             f"for name in {STAGES!r}:\n"
             "    print('reprocompare.' + name, u.find_spec('reprocompare.' + name) is not None)\n")
    found = dict(line.rsplit(" ", 1) for line in run(installed, "-c", probe).stdout.splitlines())
    assert all(found[f"reprocompare.{name}"] == "True" for name in STAGES), found
    assert [name for name, ok in found.items() if "." not in name and ok == "True"] == []


def test_wheel_carries_the_schema_and_the_version(installed):
    result = run(installed, "-m", "reprocompare", "--version")
    assert result.returncode == 0, result.stderr
    from reprocompare import __version__
    assert result.stdout.strip() == f"reprocompare {__version__}"
    result = run(installed, "-c", "from reprocompare.study.config import SCHEMA_PATH;"
                                  "print(SCHEMA_PATH.is_file(), SCHEMA_PATH)")
    assert result.stdout.startswith("True "), result.stdout + result.stderr
    assert str(ROOT) not in result.stdout


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
