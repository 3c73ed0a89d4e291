"""Shared fixtures: the shipped CoNLL-2000 corpus, small corpora cut from it, the one snakemake
runner of the suite, and finished small studies built once per test session (issue 21, item 5)."""

from __future__ import annotations

import atexit
import fcntl
import json
import os
import resource
import select
import signal
import shutil
import subprocess
import sys
import tempfile
import time
import unittest.mock
import venv
from pathlib import Path
from typing import Callable

import pytest
import yaml
from hypothesis.configuration import set_hypothesis_home_dir

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "conll2000"
TEST_DATA = ROOT / "tests" / "data"


# Hypothesis keeps its example database, and a cache of the constants of our modules that its
# pytest plugin reads while the tests are collected, under its home directory (.hypothesis/ of
# the working directory by default): this user's cache instead, so that collecting the tests
# writes nothing into the checkout
set_hypothesis_home_dir(Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
                        / "reprocompare-hypothesis")


#: the research-only CoNLL-2002 beside the project (CI and our machines): the tests read it there
SHARED_CONLL2002 = ROOT.parent / "shared" / "corpora" / "conll2002"


@pytest.fixture(scope="session")
def conll2002() -> Path:
    """data/conll2002/, which the NER configs read (README, "Data"): the link to ../shared that
    `make data/conll2002/esp.train.gz` makes (ignored by git), made here when missing, at the
    setup of a test that needs it (collecting the tests writes nothing). Where ../shared has no
    CoNLL-2002 either, the test fails saying where the corpus comes from."""
    link = ROOT / "data" / "conll2002"
    if not link.exists() and not link.is_symlink() and SHARED_CONLL2002.is_dir():
        try:
            link.symlink_to(Path("..", "..", "shared", "corpora", "conll2002"))
        except FileExistsError:  # another test worker made it first
            pass
    if not (link / "esp.train.gz").is_file():
        pytest.fail(f"{link}/esp.train.gz is missing: CoNLL-2002 (research use only) is not "
                    f"shipped; place it there, or at {SHARED_CONLL2002}/esp.train.gz for "
                    "`make test` to link it (README, Data)", pytrace=False)
    return link


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker per CPU this process may use, and one more. The SLURM tests
    wait on the cluster's polling (two minutes), the interruption tests on their sleeps, and
    a study of tiny jobs on snakemake's scheduling; measured on 2 cores, 3 workers kept both
    busy where 2 left a fifth of their time idle (benchmarks/RESULTS.md, "Test suite").
    PYTEST_XDIST_AUTO_NUM_WORKERS, when set, decides instead (pytest-xdist's own hook)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1


#: tests that mostly wait (the SLURM test on its cluster's polling: about 80 s of a worker's
#: wall for 10 CPU s), moved to the front of the run: their waiting then overlaps the other
#: workers' computing, where at the end it left a core idle (measured 2026-11-28 at 0ee54711:
#: the last 180 s of the suite, with both SLURM tests on one worker, used 1.4 of the 2 cores)
WAITING = ("tests/test_slurm.py::",)


def pytest_collection_modifyitems(config, items):
    """The tests of :data:`WAITING` first, the others in their order."""
    items.sort(key=lambda item: not item.nodeid.startswith(WAITING))


@pytest.fixture(scope="session")
def conll2000_test():
    from reprocompare.corpora.conll import read_conll

    return read_conll(DATA / "test.txt.gz")


def statsmodels_holm(p, alpha: float):
    """statsmodels' Holm-Bonferroni, the oracle of ours: (reject, adjusted p-values).

    Its Holm branch ends in ``gc.collect()``, a full collection of the calling process's heap
    per call (0.3 s in a suite worker); the numbers do not depend on it, so for the length of
    the call ``gc.collect`` collects nothing."""
    from statsmodels.stats.multitest import multipletests

    with unittest.mock.patch("gc.collect", lambda *generation: 0):
        reject, adjusted, _, _ = multipletests(p, alpha=alpha, method="holm")
    return reject, adjusted


def write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    return path


def planned(output: str) -> dict[str, int]:
    """Jobs per rule from snakemake's "Job stats:" table ({} when nothing is to be done)."""
    if "Job stats:" not in output:
        assert "Nothing to be done" in output, output[-3000:]
        return {}
    table = output.split("Job stats:", 1)[1].split("\n\n", 1)[0]
    rows = (line.split() for line in table.splitlines()[3:])
    return {row[0]: int(row[1]) for row in rows if len(row) == 2 and row[0] != "total"}


# ---- one snakemake runner, one build of each shared study ---------------------------------------

SNAKEMAKE = [sys.executable, "-m", "snakemake", "--snakefile", str(ROOT / "Snakefile")]

#: REPROCOMPARE_TESTS_FORKSERVER=0 runs every snakemake as a fresh ``python -m snakemake``; so
#: does every platform but Linux (macOS forbids much of what a fork of a process that has
#: loaded its system frameworks may call)
FORKSERVER = os.environ.get("REPROCOMPARE_TESTS_FORKSERVER", "1") != "0" and \
    sys.platform == "linux"


#: the environment this test process started with, which its fork server inherits
_STARTUP_ENV = dict(os.environ)
#: PYTHON* variables a fresh start would not act on here: PYTHONPATH (a fork applies it as a
#: start would), and PYTHON_COLORS before Python 3.13 (docs/generate.py sets it for the help
#: it writes)
INERT = {"PYTHONPATH", *(["PYTHON_COLORS"] if sys.version_info < (3, 13) else [])}


class _ForkServer:
    """This test process's tests/forkserver.py: a snakemake with its imports done, forked for
    each run (one per xdist worker, started at its first run, stopped when the worker ends)."""

    _process: subprocess.Popen | None = None
    _buffer = b""

    @staticmethod
    def starts_as(env) -> bool:
        """Whether a fresh interpreter with ``env`` would start as the server did: the
        PYTHON* variables (PYTHONHASHSEED, PYTHONOPTIMIZE, ...) act only at start-up, so a
        command given others runs afresh; PYTHONPATH, the one the tests set, a fork applies
        to its sys.path as a start would (tests/forkserver.py, search_path)."""
        def start_up(environment) -> dict:
            return {k: v for k, v in environment.items()
                    if k.startswith("PYTHON") and k not in INERT}
        return start_up(env) == start_up(_STARTUP_ENV)

    @classmethod
    def _answer(cls, timeout: float | None = None) -> dict | None:
        """The server's next JSON line, or None when ``timeout`` seconds pass first."""
        fd = cls._process.stdout.fileno()
        while b"\n" not in cls._buffer:
            if not select.select([fd], [], [], timeout)[0]:
                return None
            chunk = os.read(fd, 4096)
            assert chunk, "tests/forkserver.py ended unexpectedly"
            cls._buffer += chunk
        line, cls._buffer = cls._buffer.split(b"\n", 1)
        return json.loads(line)

    @staticmethod
    def _stop(process: subprocess.Popen) -> None:
        """End the server as its input ends, and reap it (its CPU time then counts as this
        process's children's, as a fresh command's would)."""
        process.stdin.close()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    @classmethod
    def run(cls, program: str, argv: list[str], cwd: Path, env: dict | None,
            timeout: float | None) -> subprocess.CompletedProcess:
        """``python -m PROGRAM ARGV`` in ``cwd``, as subprocess.run(capture_output=True,
        text=True) runs it."""
        if cls._process is None or cls._process.poll() is not None:
            cls._process = subprocess.Popen(
                [sys.executable, str(ROOT / "tests" / "forkserver.py")], cwd=ROOT,
                env=_STARTUP_ENV, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
            cls._buffer = b""
            atexit.register(cls._stop, cls._process)
            assert cls._answer() == {"ready": True}
        with tempfile.TemporaryDirectory() as outputs:
            out, err = Path(outputs, "stdout"), Path(outputs, "stderr")
            # env=None is this process's environment; {} an empty one, as for subprocess.run
            request = {"program": program, "argv": argv, "cwd": str(cwd),
                       "env": dict(os.environ if env is None else env),
                       "stdout": str(out), "stderr": str(err)}
            cls._process.stdin.write(json.dumps(request).encode() + b"\n")
            pid = cls._answer()["pid"]
            answer = cls._answer(timeout)
            if answer is None:  # as subprocess.run(timeout=...) does: kill the run, raise
                os.kill(pid, signal.SIGKILL)
                cls._answer()
                raise subprocess.TimeoutExpired(argv, timeout, out.read_text(), err.read_text())
            return subprocess.CompletedProcess([sys.executable, "-m", program, *argv],
                                               answer["returncode"], out.read_text(),
                                               err.read_text())


#: REPROCOMPARE_TESTS_CPU=DIR: each test's CPU seconds, one ``nodeid<TAB>cpu<TAB>wall`` line
#: per test in DIR/<worker>.tsv, written as it ends (benchmarks/RESULTS.md, "Test suite": the
#: suite is CPU-bound on 2 cores, and a loaded machine inflates the wall times --durations shows)
CPU_LOG = os.environ.get("REPROCOMPARE_TESTS_CPU")


def cpu_seconds() -> float:
    """User + system seconds of this process, the children it reaped, and its fork server with
    what that reaped (its forks and the jobs they ran; /proc/PID/stat's utime to cstime)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), \
        resource.getrusage(resource.RUSAGE_CHILDREN)
    total = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
    server = _ForkServer._process
    if server is not None and server.poll() is None:
        try:
            fields = Path(f"/proc/{server.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return total
        total += sum(map(int, fields[11:15])) / os.sysconf("SC_CLK_TCK")
    return total


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if not CPU_LOG:
        yield
        return
    cpu, wall = cpu_seconds(), time.monotonic()
    yield
    cpu, wall = cpu_seconds() - cpu, time.monotonic() - wall
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    Path(CPU_LOG).mkdir(parents=True, exist_ok=True)
    with open(Path(CPU_LOG) / f"{worker}.tsv", "a") as log:
        log.write(f"{item.nodeid}\t{cpu:.2f}\t{wall:.2f}\n")


def run(command: list, cwd: Path | None = None, env: dict | None = None,
        timeout: float | None = None) -> subprocess.CompletedProcess:
    """``subprocess.run(command, capture_output=True, text=True, ...)``; a ``python -m
    snakemake`` or ``python -m reprocompare`` command runs as a fork of tests/forkserver.py,
    its imports already done (REPROCOMPARE_TESTS_FORKSERVER=0: every command afresh)."""
    command = [str(part) for part in command]
    if FORKSERVER and command[:2] == [sys.executable, "-m"] and \
            command[2] in ("snakemake", "reprocompare") and \
            _ForkServer.starts_as(os.environ if env is None else env):
        return _ForkServer.run(command[2], command[3:], Path(cwd or os.getcwd()), env, timeout)
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=timeout)


def snakemake(workdir: Path, *args: str, config: dict | str | None = None, cores: int | None = 2,
              check: bool = True, env: dict | None = None,
              timeout: float | None = None) -> subprocess.CompletedProcess:
    """Run the workflow in ``workdir`` (``--directory``, and as the working directory).

    ``config``, when given, is written to ``workdir/study.yaml`` (a dict as YAML, a str as it
    is) and passed as ``--configfile``; ``cores=None`` leaves ``--cores`` to a profile or a dry
    run. With ``check`` a non-zero exit fails the test with the end of the output."""
    workdir.mkdir(parents=True, exist_ok=True)
    command = [*SNAKEMAKE, "--directory", str(workdir)]
    if config is not None:
        path = workdir / "study.yaml"
        path.write_text(config if isinstance(config, str) else yaml.safe_dump(config))
        command += ["--configfile", str(path)]
    if cores is not None:
        command += ["--cores", str(cores)]
    result = run([*command, *args], cwd=workdir, env=env, timeout=timeout)
    if check:
        assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    return result


def reprocompare(*args, cwd: Path | None = None, env: dict | None = None,
                 timeout: float | None = None) -> subprocess.CompletedProcess:
    """``python -m reprocompare ARGS``, its output captured (see :func:`run`)."""
    return run([sys.executable, "-m", "reprocompare", *args], cwd=cwd, env=env, timeout=timeout)


def build_once(tmp_path_factory, name: str, build: Callable[[Path], None]) -> Path:
    """The directory ``build`` fills, built once per test session however many xdist workers
    ask for it: the first takes a file lock and builds, the others wait on the lock and reuse
    the finished directory (a failed build leaves no ``.done`` mark, so the next asker retries).

    Readers share the directory and must not write into it; a test that changes a study works
    on a :func:`copy_study` of it."""
    base = tmp_path_factory.getbasetemp()
    # under xdist each worker's base temp is one folder of the session's: its parent is shared
    root = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "shared"
    root.mkdir(exist_ok=True)
    directory, done = root / name, root / f"{name}.done"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(directory, ignore_errors=True)
            directory.mkdir()
            build(directory)
            done.touch()
    return directory


def benchmark(name: str):
    """benchmarks/NAME.py imported in this process (it imports its helpers beside it, e.g.
    markers.py, so benchmarks/ is on sys.path while it loads, and only then)."""
    import importlib

    folder = str(ROOT / "benchmarks")
    sys.path.insert(0, folder)
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(folder)


def copy_study(source: Path, target: Path) -> Path:
    """A finished study as it stands: every file, .snakemake/'s records included, with its
    modification time to the nanosecond, so that snakemake sees the copy as finished too."""
    shutil.copytree(source, target, symlinks=True)
    return target


#: a tiny study: a CRF IOB2-vs-IOBES pair, every strategy, R = 3 (the config that the config
#: errors of tests/test_workflow.py and tests/test_reliability.py change; the forkserver's plan)
TINY = {
    "corpora": {"tiny": {"path": str(TEST_DATA / "tiny.conll")}},
    "models": {"crf_iob2": {"type": "crf", "scheme": "IOB2", "max_iterations": 15},
               "crf_iobes": {"type": "crf", "scheme": "IOBES", "max_iterations": 15}},
    "comparisons": {"crf": {"a": "crf_iob2", "b": "crf_iobes", "corpora": ["tiny"]}},
    "strategies": {"holdout": {}, "repeated_holdout": {"k": [2, 3], "table4_k": 3},
                   "bcv": {"m": 3}},
    "repetitions": 3,
    "seed": 11,
}

#: the small study that tests/test_study.py clones and tests/test_growth.py grows: a CRF against
#: the majority baseline (p1; maj2 is there for a comparison to grow into), every strategy, R = 2
SMALL = {
    "corpora": {"tiny": {"path": str(TEST_DATA / "tiny.conll")}},
    "models": {"crf": {"type": "crf", "scheme": "IOB2", "max_iterations": 5},
               "maj": {"type": "majority"},
               "maj2": {"type": "majority", "scheme": "IOBES"}},
    "comparisons": {"p1": {"a": "crf", "b": "maj", "corpora": ["tiny"]}},
    "strategies": {"holdout": {}, "repeated_holdout": {"k": [2, 3], "table4_k": 3},
                   "bcv": {"m": 2}},
    "repetitions": 2,
    "seed": 3,
    "significance": {"resamples": 100},
}


@pytest.fixture(scope="session")
def small_study(tmp_path_factory) -> Path:
    """The finished SMALL study (config in study.yaml). Shared because tests/test_study.py
    clones it and tests/test_growth.py grows a copy of it, where each ran the same kind of
    study from scratch."""
    return build_once(tmp_path_factory, "small", lambda workdir: snakemake(workdir, config=SMALL))


# ---- the wheel in a venv of its own ---------------------------------------------------------

def lock_pins() -> dict[str, str]:
    """requirements.lock's name==version lines, by lower-case name."""
    pins = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[name.lower()] = version
    return pins


def build_wheel(outdir: Path) -> Path:
    """The wheel of the files git would commit (tracked, and new ones not ignored): a copy of
    them, not this working tree, whose build/ and *.egg-info leftovers could slip into it."""
    checkout = outdir / "checkout"
    checkout.mkdir()
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                           cwd=ROOT, capture_output=True, check=True).stdout.split(b"\0")
    listing = outdir / "files"
    listing.write_bytes(b"\0".join(name for name in files if name and (ROOT / name.decode())
                                   .is_file()))
    # one tar pipe, as copy2 would copy them (content through links, modes, times): a copy2
    # per file took 1.4 CPU s for the ~2,700 (the studies' results among them), the pipe 0.4
    pack = subprocess.Popen(["tar", "--null", "-T", str(listing), "-h", "-cf", "-"], cwd=ROOT,
                            stdout=subprocess.PIPE)
    subprocess.run(["tar", "-xf", "-", "-C", str(checkout)], stdin=pack.stdout, check=True)
    pack.stdout.close()
    assert pack.wait() == 0, "tar could not read the files git would commit"
    dist = outdir / "dist"
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir",
                    str(dist), str(checkout)], check=True, capture_output=True)
    shutil.rmtree(checkout)
    return next(dist.glob("reprocompare-*.whl"))


def bare_env(python: Path) -> dict:
    """The environment a user of that venv has: its bin/ first on PATH, and none of this test
    process's PYTHON* variables (PYTHONPATH would show it the repository) or VIRTUAL_ENV."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("PYTHON") and key != "VIRTUAL_ENV"}
    env["PATH"] = os.pathsep.join([str(python.parent), env.get("PATH", "")])
    return env


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    """The project's wheel (:func:`build_wheel`), built once a session for every test that
    installs it (the venv of :func:`installed`, the docs' own environment)."""
    return next(build_once(tmp_path_factory, "wheel-file", build_wheel).glob("dist/*.whl"))


#: pip's options for the tests' venvs: --no-compile, since byte-compiling every module at
#: install (torch's thousands) cost more than the few modules the tests then import, which
#: Python compiles as it first imports them
PIP_INSTALL = ["-m", "pip", "install", "--quiet", "--no-compile"]


#: the pip of the tests' venvs: fixed, so that a pip release cannot change what they test
VENV_PIP = "pip==26.3"


def pip_venv(env_dir: Path) -> Path:
    """A fresh venv (no system site-packages) holding only pip (:data:`VENV_PIP`); its python.

    A venv's own pip is the one its Python bundles (23.2 with 3.11), whose resolver spent 15
    of the wheel venv's 24 CPU seconds reading PyPI's pages, one link at a time (every file
    of every version of each dependency); pip 26 reads them in a third of that. So the venv
    is made without pip (ensurepip: 3.9 CPU s) and this environment's pip installs
    :data:`VENV_PIP` into it (``--python``: 1 s), which then installs what the test asks for,
    as pip does in a user's environment of their own."""
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    result = subprocess.run([sys.executable, "-m", "pip", "--python", str(python),
                             *PIP_INSTALL[2:], VENV_PIP], capture_output=True, text=True,
                            env=bare_env(python))
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    return python


def _wheel_venv(directory: Path, wheel: Path) -> None:
    """A fresh venv (:func:`pip_venv`: nothing of the project environment's) into which
    pip installs the wheel and what pip resolves for it, as the README's pip route does: torch
    first and alone (the lock's version, the CPU build where pip is pointed at it, as for
    `make env`), then the wheel. The lock is pip's constraint (-c), so the versions are the
    tested ones; a constraint installs nothing, so a package the wheel does not declare stays
    missing and a study run there fails for want of it."""
    python = pip_venv(directory / "venv")
    pins = lock_pins()
    pip = [str(python), *PIP_INSTALL]
    for step in ([f"torch=={pins['torch']}"],
                 ["-c", str(ROOT / "requirements.lock"), str(wheel)]):
        result = subprocess.run([*pip, *step], capture_output=True, text=True,
                                env=bare_env(python))
        assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    (directory / "work").mkdir()


@pytest.fixture(scope="session")
def installed(tmp_path_factory, wheel) -> tuple[Path, Path]:
    """(python, an empty folder) of a venv that holds the built wheel and only what pip resolves
    for it (about a minute of pip, built once per session): tests/test_packaging.py and
    tests/test_install_anywhere.py run the installed commands there, with :func:`bare_env`."""
    directory = build_once(tmp_path_factory, "wheel",
                           lambda directory: _wheel_venv(directory, wheel))
    return directory / "venv" / "bin" / "python", directory / "work"
