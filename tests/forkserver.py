"""Warm commands for the test suite: one process that has imported snakemake, the modules the
Snakefile imports and the reprocompare CLI, forked for every run the tests ask of
``conftest.snakemake`` and ``conftest.reprocompare``.

Why: the suite is CPU-bound on 2 cores (issue 21, item 5), and most of its command runs are
short: dry runs of small studies and CLI calls on tiny corpora, each of which paid 0.7 to 1.6 s
of CPU to import snakemake, scikit-learn and SciPy before it read its input. A fork of this
process is the same program as ``python -m snakemake`` or ``python -m reprocompare``: the same
``main`` with the same arguments, working directory and environment, its output in files, its
exit status returned. Only the imports are shared; the Snakefile, the configs and the corpora are
read afresh by every child, and every job a child starts is its own process as before.

Protocol, one JSON line each way: the test process sends ``{"program", "argv", "cwd", "env",
"stdout", "stderr"}``; this process forks, answers ``{"pid"}`` at once and ``{"returncode"}``
when the child ends. One request at a time (one server per xdist worker).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path


def warm() -> None:
    """Import what every snakemake run of this project imports, and load snakemake's plugin
    registries, which import each installed plugin (a dry run of tests/test_provenance.py's
    study: 2.1 s fresh, 0.4 s forked), and what the commands import lazily."""
    import snakemake.api  # noqa: F401
    import snakemake.cli  # noqa: F401
    import snakemake.dag  # noqa: F401
    import snakemake.executors.dryrun  # noqa: F401
    import snakemake.executors.local  # noqa: F401
    from snakemake_interface_executor_plugins.registry import ExecutorPluginRegistry

    ExecutorPluginRegistry()  # a singleton: it imports every executor plugin once
    # every run builds snakemake's argument parser, which collects the other plugin registries
    # (report, storage, logger, scheduler: singletons too), and reads the Snakefile through
    # smart_open; the report's renderer parses reStructuredText (a forked dry run: 0.45 CPU s
    # with these left to each fork, 0.2 s with them here)
    import docutils.parsers.rst  # noqa: F401
    import smart_open  # noqa: F401
    import snakemake.report  # noqa: F401
    from snakemake.cli import get_argument_parser

    get_argument_parser()
    # the Snakefile's own imports (workflow/rules/common.smk), scikit-learn and SciPy with them
    import reprocompare.pipeline.provenance  # noqa: F401
    import reprocompare.pipeline.search_workflow  # noqa: F401
    import reprocompare.study.config  # noqa: F401
    import reprocompare.commands.cli  # noqa: F401
    # SciPy's statistics, which the estimators import and the commands load lazily: 0.8 s of
    # CPU in every fork that needs them, paid once here instead (`reprocompare plan --snr 1
    # --cores 4`, a refusal: 0.77 s of CPU forked without them, 0.04 s with)
    import scipy.integrate  # noqa: F401
    import scipy.optimize  # noqa: F401
    import scipy.special  # noqa: F401
    import scipy.stats  # noqa: F401


def pythonpath(env) -> list[str]:
    """PYTHONPATH's entries, absolute, as site puts them on sys.path."""
    return [os.path.abspath(p) for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]


#: this process's sys.path without what its start put first: its script's folder (tests/) and
#: the entries of its PYTHONPATH; a child puts its own in front, as its start would have
_BASE_PATH = [p for p in sys.path[1:] if p not in pythonpath(os.environ)]


def search_path(cwd: str, env: dict) -> list[str]:
    """sys.path of ``python -m ...`` started in ``cwd`` with ``env``: the working directory,
    then PYTHONPATH's entries, then the interpreter's own."""
    return [cwd, *pythonpath(env), *_BASE_PATH]


def main(program: str, argv: list[str]) -> int:
    """What ``python -m PROGRAM ARGV`` runs, as its exit status."""
    if program == "snakemake":
        import snakemake.cli

        sys.argv = [str(Path(snakemake.__file__).with_name("__main__.py")), *argv]
        snakemake.cli.main(argv)  # exits
        return 0
    if program == "reprocompare":
        import reprocompare.commands.cli

        sys.argv = [str(Path(reprocompare.__file__).with_name("__main__.py")), *argv]
        return reprocompare.commands.cli.main(argv)
    raise ValueError(f"unknown program {program!r}")


def child(request: dict) -> None:
    """In the fork: become ``python -m PROGRAM ARGV`` in CWD with ENV; never return."""
    code = 1
    try:
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.path[:] = search_path(os.getcwd(), request["env"])
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        for fd, path in ((1, request["stdout"]), (2, request["stderr"])):
            out = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(out, fd)
            os.close(out)
        try:
            returned = main(request["program"], request["argv"])
        except SystemExit as exit:
            returned = exit.code
        # as sys.exit(returned) would end the process
        if returned is None or isinstance(returned, int):
            code = returned or 0
        else:
            print(returned, file=sys.stderr)
            code = 1
    except BaseException:  # noqa: BLE001 - reported like an uncaught exception, exit status 1
        import traceback

        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001 - a closed stream must not change the status
                pass
        os._exit(code)


def serve() -> None:
    warm()
    requests, answers = sys.stdin, sys.stdout
    answers.write(json.dumps({"ready": True}) + "\n")
    answers.flush()
    for line in requests:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            child(request)
        answers.write(json.dumps({"pid": pid}) + "\n")
        answers.flush()
        _, status = os.waitpid(pid, 0)
        answers.write(json.dumps({"returncode": os.waitstatus_to_exitcode(status)}) + "\n")
        answers.flush()


if __name__ == "__main__":
    serve()
