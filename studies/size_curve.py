"""The sample-size curve of both conclusions (issue 26, item 2): docs/size_curve.png and .pdf.

    .venv/bin/python studies/size_curve.py [OUT_STEM]     (default docs/size_curve)

Every committed study of a task, from its samples to its whole corpus (studies/TASK: 300
sentences, studies/TASK-nN, studies/size-TASK: three independent samples of each size,
studies/TASK-full), drawn by reprocompare.reports.size_curve: the mean of A - B and its SNR
against the number of sentences, Avg (3x2 BCV) and ST, with their 95% intervals and verdicts.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from reprocompare.reports.size_curve import size_curve

HERE = Path(__file__).resolve().parent
TASKS = {"chunking": "Chunking (CoNLL-2000)\nIOB2 (A) vs IOBES (B)",
         "ner": "NER (CoNLL-2002 Spanish, untyped)\nIOBES (A) vs IOB2 (B)"}


def task_summaries(task: str) -> list[dict]:
    directories = [HERE / task, *sorted(HERE.glob(f"{task}-n*")), HERE / f"size-{task}",
                   HERE / f"{task}-full"]
    return [json.loads(path.read_text())["summary"] for directory in directories
            for path in sorted((directory / "results" / "summaries").glob("*/*.json"))
            if not path.name.endswith(".claims.json")]


def main(stem: str) -> None:
    paths = size_curve({title: task_summaries(task) for task, title in TASKS.items()}, stem)
    print("\n".join(map(str, paths)))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(HERE.parent / "docs" / "size_curve"))
