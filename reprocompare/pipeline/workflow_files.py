"""Where the workflow's own files are: through the package, never a clone or the working directory.

The Snakemake workflow (workflow/Snakefile, its rules, scripts and report captions) and its
profiles (profiles/default, local, slurm) install with the package as ``reprocompare.workflow``
and ``reprocompare.profiles`` (pyproject.toml, package-dir), so that an installed reprocompare
runs a study in any folder (``reprocompare run``, ``resume``, ``sequential``); in a clone with an
editable install the same names point at the repository's folders.
"""

from __future__ import annotations

import sys
from importlib.resources import files
from pathlib import Path

from reprocompare.base.errors import UserError

#: the profile Snakemake applies beneath any --profile (what is true of this workflow everywhere)
WORKFLOW_PROFILE = "default"
#: the profile of a run on this machine
LOCAL_PROFILE = "local"


def _folder(package: str) -> Path:
    folder = files(package)
    if not isinstance(folder, Path) or not folder.is_dir():  # a zipped install: no files to run
        raise UserError(f"reprocompare's {package} is not a folder on disk ({folder}): install "
                        "reprocompare as a wheel or from a clone (pip install), not zipped")
    return folder


def snakefile() -> Path:
    """The workflow's Snakefile (workflow/Snakefile), as installed.

    Returns
    -------
    pathlib.Path
        The Snakefile.
    """
    path = _folder("reprocompare.workflow") / "Snakefile"
    if not path.is_file():
        raise UserError("the workflow's Snakefile is missing from the installed package; "
                        "reinstall reprocompare", path=path)
    return path


def report_stylesheet() -> Path:
    """The report's stylesheet (workflow/report/report.css), as installed: what every report
    of `reprocompare run` and `sequential` is written with (``--report-stylesheet``), so that
    its figures fit the window and its front page is wide enough for its intervals.

    A profile cannot carry it: Snakemake resolves a profile's relative path from where it was
    started, then reads the stylesheet from ``--directory``.

    Returns
    -------
    pathlib.Path
        The stylesheet.
    """
    return _folder("reprocompare.workflow") / "report" / "report.css"


def profiles() -> Path:
    """The folder of the Snakemake profiles (default, local, slurm), as installed.

    Returns
    -------
    pathlib.Path
        The folder.
    """
    return _folder("reprocompare.profiles")


def profile(name: str) -> Path:
    """The profile ``name`` (a folder holding its config.yaml).

    Parameters
    ----------
    name : str
        The profile's name.

    Returns
    -------
    pathlib.Path
        The profile's folder.
    """
    path = profiles() / name
    if not (path / "config.yaml").is_file():
        raise UserError(f"no profile {name!r} among reprocompare's profiles", path=profiles())
    return path


def snakemake_command(*arguments: str) -> list[str]:
    """The command that runs this workflow with snakemake in this Python, its workflow profile
    applied (Snakemake finds profiles/default by itself only beside a Snakefile at a project's
    root), then ``arguments``: a --profile or --workflow-profile among them is applied over it.

    Parameters
    ----------
    *arguments : str
        Snakemake's arguments.

    Returns
    -------
    list of str
        The command.
    """
    return [sys.executable, "-m", "snakemake", "--snakefile", str(snakefile()),
            "--workflow-profile", str(profile(WORKFLOW_PROFILE)), *arguments]
