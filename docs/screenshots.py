"""The report's screenshots in the docs, taken as tests/test_report_view.py checks the report.

A report is opened in headless Chromium at 1400 x 1000 (the issue's window) and driven by its own
app to a view (the front page; Figure 2), with the helpers of tests/test_report_view.py and
tests/test_redteam_report.py; each view's measures are printed beside its PNG::

    .venv/bin/snakemake --profile profiles/local --configfile config/study-chunking.yaml \\
        --directory studies/chunking --report /tmp/chunking.html \\
        --report-stylesheet $PWD/workflow/report/report.css
    .venv/bin/python docs/screenshots.py /tmp/chunking.html     # docs/report-*.png
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent / "tests"))

from test_report_view import showing, view  # noqa: E402  (the tests' helpers)

#: the issue's window
WINDOW = (1400, 1000)
#: each screenshot: its file under docs/, the script that opens its view
VIEWS = {"report-front-page.png": "", "report-figure2.png": showing("figure2.png")}


def main(report: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for name, opening in VIEWS.items():
            seen = view(Path(report), Path(tmp), WINDOW, opening, DOCS / name)
            print(f"docs/{name}: {seen}")


if __name__ == "__main__":
    main(*sys.argv[1:])
