"""Model A's training in tests/blocking.py: the first one in a run that the test blocks hands its
process id over the FIFO and sleeps; every other one trains examples/perceptron_tagger.py.

A run is blocked by its environment, not by the model's spec: REPROCOMPARE_TESTS_BLOCK names the
folder of the FIFO and the marker, so that every study of these models has the same specs, and
one reference run serves every test (tests/blocking.py, blocking_study)."""

import os
import subprocess
import sys
import time
from pathlib import Path

TAGGER = Path(__file__).resolve().parents[1] / "examples" / "perceptron_tagger.py"

folder = os.environ.get("REPROCOMPARE_TESTS_BLOCK")
try:
    if not folder:
        raise FileExistsError
    os.close(os.open(Path(folder, "first"), os.O_CREAT | os.O_EXCL))
except FileExistsError:  # not blocked, or not the first training: for real
    sys.exit(subprocess.call([sys.executable, str(TAGGER), "train", *sys.argv[1:]]))
with open(Path(folder, "fifo"), "w") as handshake:
    handshake.write(str(os.getpid()))
time.sleep(600)
