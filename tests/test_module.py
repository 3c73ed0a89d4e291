"""The workflow as a Snakemake module of another project (issue 36, item 3).

The snakemake-workflows way to reuse a workflow (what snakedeploy writes): another project's
Snakefile declares ``module reprocompare: snakefile: ".../workflow/Snakefile"; config: config``
and ``use rule * from reprocompare``. Its working directory is that project's, not ours, so the
workflow must find every file of its own (rules, scripts, report captions) relative to itself:
the front_page rule read workflow/report/workflow.rst under the main Snakefile's folder, and the
DAG failed there.
"""

from __future__ import annotations

import sys

import pytest
import yaml

import conftest
from conftest import TEST_DATA
from reprocompare.pipeline.workflow_files import report_stylesheet, snakefile
from reprocompare.study.config import validate

#: a study as small as a study gets: one comparison, the standard split, R = 2, 5 CRF iterations
STUDY = {
    "corpora": {"tiny": {"path": str(TEST_DATA / "tiny.conll"), "subsample": 60}},
    "models": {"a": {"type": "crf", "scheme": "IOB2", "max_iterations": 5},
               "b": {"type": "crf", "scheme": "IOBES", "max_iterations": 5}},
    "comparisons": {"a_vs_b": {"a": "a", "b": "b", "corpora": ["tiny"]}},
    "strategies": {"holdout": {}},
    "repetitions": 2,
}


@pytest.fixture
def project(tmp_path):
    """Another project: its own config and a Snakefile that uses ours as a module."""
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.yaml").write_text(yaml.safe_dump(STUDY))
    (tmp_path / "Snakefile").write_text(f"""\
configfile: "config/config.yaml"


module reprocompare:
    snakefile:
        {str(snakefile())!r}
    config:
        config


use rule * from reprocompare
""")
    return tmp_path


def _snakemake(project, *args):
    return conftest.run([sys.executable, "-m", "snakemake", "--cores", "1", *args], cwd=project)


@pytest.mark.slow
def test_the_module_plans_and_runs_a_study_and_writes_its_report(project):
    """The plan is the run's own (its job stats; a dry run first built the same DAG again)."""
    result = _snakemake(project)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    counts = conftest.planned(result.stdout + result.stderr)
    assert counts["compare"] == 2 and counts["front_page"] == 1 and counts["all"] == 1, counts
    tables = project / "results" / "tables"
    assert "### Table 4: a\\_vs\\_b on tiny" in (tables / "table4.md").read_text()
    # the front page ends with our workflow's description, found beside our Snakefile
    description = (snakefile().parent / "report" / "workflow.rst").read_text()
    assert (project / "results" / "report" / "front.rst").read_text().endswith(description)
    # the report, with the stylesheet the guide names: its captions read sections the caller's
    # config leaves out (significance, verdict, stopping), filled from the schema's defaults
    result = _snakemake(project, "--report", "results/report.html", "--report-stylesheet",
                        str(report_stylesheet()))
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    report = (project / "results" / "report.html").read_text()
    defaults = validate(STUDY)
    assert f"alpha = {defaults['significance']['alpha']}" in report
    assert "max-width: min(60rem, 100%)" in report  # the stylesheet, inlined
    # the caller's own config holds what it wrote, and no more
    assert yaml.safe_load((project / "config" / "config.yaml").read_text()) == STUDY
