"""A training that blocks until the test has seen it start: interruption tests by events.

The tests that interrupt a run (Ctrl-C, SIGTERM, SIGKILL of the workflow or of one job) need the
signal to arrive while a training runs. Polling the results folder for "some jobs done" races:
under load the poll can sleep through the whole run. Here model A is a command tagger
(examples/perceptron_tagger.py, through tests/blocking_train.py) whose first training in a
blocked run announces its process id through a FIFO and then sleeps; :func:`handshake` blocks on
that FIFO. A run is blocked by its environment (:func:`blocked`), never by the config, so a
reference run of the same config is the same study, built once a session (:func:`blocking_study`).
Every later training (the rest of the run, and every run not started with :func:`blocked`)
trains for real, so a resumed run finishes.
"""

from __future__ import annotations

import os
import select
import shlex
import sys
from pathlib import Path

from conftest import ROOT, TEST_DATA, build_once

PYTHON = shlex.quote(sys.executable)
TAGGER = ROOT / "examples" / "perceptron_tagger.py"
TRAIN = ROOT / "tests" / "blocking_train.py"


def blocking_models() -> dict:
    """Models ``a`` (the command tagger whose first training in a :func:`blocked` run blocks)
    and ``b`` (majority). Their specs name no folder of a test: every study of them has the
    same specs, its reference run included."""
    train = (f"{PYTHON} {shlex.quote(str(TRAIN))} {{train}} {{model_dir}} --seed {{seed}} "
             "--iterations 2")
    predict = f"{PYTHON} {shlex.quote(str(TAGGER))} predict {{model_dir}} {{input}} {{output}}"
    return {"a": {"type": "command", "train": train, "predict": predict},
            "b": {"type": "majority"}}


def blocked(folder: Path) -> dict:
    """The environment of a run whose first training of model A blocks: this process's, with
    ``folder`` (made here, with its FIFO) for the FIFO and the marker of the first training."""
    folder.mkdir(parents=True, exist_ok=True)
    if not (folder / "fifo").exists():
        os.mkfifo(folder / "fifo")
    return {**os.environ, "REPROCOMPARE_TESTS_BLOCK": str(folder)}


def handshake(fifo: Path, timeout: float = 300) -> int:
    """Block until the first training has started; its process id."""
    descriptor = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        # no writer has opened the FIFO yet: select waits for the one that writes
        ready, _, _ = select.select([descriptor], [], [], timeout)
        assert ready, "the training never started"
        return int(os.read(descriptor, 64).decode())
    finally:
        os.close(descriptor)


#: the 4-repetition hold-out study of :func:`blocking_models` on tests/data/tiny.conll
BLOCKING_STUDY = {"corpora": {"tiny": {"path": str(TEST_DATA / "tiny.conll")}},
                  "models": blocking_models(),
                  "comparisons": {"p": {"a": "a", "b": "b", "corpora": ["tiny"]}},
                  "strategies": {"holdout": {}}, "repetitions": 4,
                  "significance": {"resamples": 100}}


def blocking_study(tmp_path_factory, tmp_path: Path, run) -> tuple[dict, Path, Path]:
    """:data:`BLOCKING_STUDY` and its reference: the config run by ``run(workdir, config)`` (as
    far as the callers compare it: to the tables), every training real, once a session
    (conftest.build_once; read, never written).
    Returns (config, the reference's folder, the folder for :func:`blocked`)."""
    reference = build_once(tmp_path_factory, "blocking-reference",
                           lambda directory: run(directory, BLOCKING_STUDY))
    return BLOCKING_STUDY, reference, tmp_path / "tagger"
