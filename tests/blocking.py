"""A training that blocks until the test has seen it start: interruption tests by events.

The tests that interrupt a run (Ctrl-C, SIGTERM, SIGKILL of the workflow or of one job) need the
signal to arrive while a training runs. Polling the results folder for "some jobs done" races:
under load the poll can sleep through the whole run. Here model A is a command tagger
(examples/perceptron_tagger.py) whose first training announces its process id through a FIFO and
then sleeps; :func:`handshake` blocks on that FIFO. Every later training (the rest of the run,
and all of them once the marker file exists) trains for real, so a resumed run finishes.
"""

from __future__ import annotations

import os
import select
import shlex
import sys
from pathlib import Path

from conftest import ROOT

PYTHON = shlex.quote(sys.executable)
TAGGER = ROOT / "examples" / "perceptron_tagger.py"

#: the first training to start hands its process id over the FIFO and sleeps; every other one
#: (the second job of the wave, and all of them once the test has run) trains for real
FIRST_BLOCKS = """import os, subprocess, sys, time
first, fifo = sys.argv[1], sys.argv[2]
try:
    os.close(os.open(first, os.O_CREAT | os.O_EXCL))
except FileExistsError:
    sys.exit(subprocess.call([sys.executable, {tagger!r}, "train", *sys.argv[3:]]))
with open(fifo, "w") as handshake:
    handshake.write(str(os.getpid()))
time.sleep(600)
"""


def blocking_models(folder: Path) -> dict:
    """Models ``a`` (the command tagger whose first training blocks) and ``b`` (majority), their
    script, marker and FIFO in ``folder`` (the FIFO made here; the marker absent: the next
    training blocks). The spec names these paths: a reference run of the same config, made
    with :func:`unblock` first, has the same specs."""
    script = folder / "blocking_train.py"
    script.write_text(FIRST_BLOCKS.format(tagger=str(TAGGER)))
    if not (folder / "fifo").exists():
        os.mkfifo(folder / "fifo")
    train = (f"{PYTHON} {shlex.quote(str(script))} {shlex.quote(str(folder / 'first'))} "
             f"{shlex.quote(str(folder / 'fifo'))} {{train}} {{model_dir}} --seed {{seed}} "
             "--iterations 2")
    predict = f"{PYTHON} {shlex.quote(str(TAGGER))} predict {{model_dir}} {{input}} {{output}}"
    return {"a": {"type": "command", "train": train, "predict": predict},
            "b": {"type": "majority"}}


def unblock(folder: Path) -> None:
    """Every training of :func:`blocking_models` trains for real (the marker exists)."""
    (folder / "first").touch()


def block(folder: Path) -> None:
    """The next training of :func:`blocking_models` blocks (the marker removed)."""
    (folder / "first").unlink(missing_ok=True)


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


def blocking_study(tmp_path: Path, run) -> tuple[dict, Path, Path]:
    """A 4-repetition hold-out study of :func:`blocking_models` on tests/data/tiny.conll, and its
    reference: the same config run to its end by ``run(workdir, config)`` with every training
    real. Returns (config, the reference's folder, the tagger's folder: its FIFO and marker),
    the marker removed, so that the next run's first training blocks."""
    from conftest import TEST_DATA

    folder = tmp_path / "tagger"
    folder.mkdir()
    config = {"corpora": {"tiny": {"path": str(TEST_DATA / "tiny.conll")}},
              "models": blocking_models(folder),
              "comparisons": {"p": {"a": "a", "b": "b", "corpora": ["tiny"]}},
              "strategies": {"holdout": {}}, "repetitions": 4,
              "significance": {"resamples": 100}}
    unblock(folder)
    reference = tmp_path / "reference"
    run(reference, config)
    block(folder)
    return config, reference, folder
