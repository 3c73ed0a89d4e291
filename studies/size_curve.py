"""The sample-size curve of both conclusions (issue 26, item 2): docs/size_curve.png and .pdf.

    .venv/bin/python studies/size_curve.py [OUT_STEM]     (default docs/size_curve)

The committed studies of a task that train one tagger spec, from its samples to its whole
corpus (studies/size-TASK: three samples of 300, 1,200 and 4,800 sentences, drawn independently
and so overlapping, studies/sample_overlap.py; studies/TASK-full), drawn by
reprocompare.reports.size_curve: the mean of A - B and its SNR against the number of sentences,
Avg (3x2 BCV) and ST, with their 95% intervals and verdicts. The 300- and 600-sentence studies
(studies/TASK, studies/TASK-n600) train the CRF for 30 iterations, the others to convergence
(200): a curve across both would confound the sample size with the training (issue 38), so they
stay out of it, and a curve of two specs is refused.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from reprocompare.base.paths import CLAIMS_SUFFIX, SUMMARIES
from reprocompare.reports.size_curve import size_curve

HERE = Path(__file__).resolve().parent
TASKS = {"chunking": "Chunking (CoNLL-2000)\nIOB2 (A) vs IOBES (B)",
         "ner": "NER (CoNLL-2002 Spanish, untyped)\nIOBES (A) vs IOB2 (B)"}


def task_summaries(task: str) -> list[dict]:
    """Every summary of the task's size studies (one tagger spec), smallest samples first.

    Parameters
    ----------
    task : str
        ``"chunking"`` or ``"ner"``.

    Returns
    -------
    list of dict
    """
    directories = [HERE / f"size-{task}", HERE / f"{task}-full"]
    summaries = [json.loads(path.read_text())["summary"] for directory in directories
                 for path in sorted((directory / SUMMARIES).glob("*/*.json"))
                 if not path.name.endswith(CLAIMS_SUFFIX)]
    specs = {json.dumps(summary["models"], sort_keys=True) for summary in summaries}
    if len(specs) != 1:
        raise SystemExit(f"{task}: the size curve would mix tagger specs {sorted(specs)}")
    return summaries


def main(stem: str) -> None:
    paths = size_curve({title: task_summaries(task) for task, title in TASKS.items()}, stem)
    print("\n".join(map(str, paths)))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(HERE.parent / "docs" / "size_curve"))
