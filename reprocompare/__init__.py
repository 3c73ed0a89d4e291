"""reprocompare: will "model A beats model B" on this corpus reproduce?

The library is split by stage (see README): corpora -> splitters -> models -> estimators -> reports.
This package ties them together, in four floors, each importing only from the floors below it
(tests/test_layers.py checks this):

- ``base``: the ground floor every other module may use: the one error type, seed derivation,
  and the records (artefact paths, shared names, the one JSON reader and the atomic writers);
- ``study``: what a study is and computes: its validated config, the sources of variation of a
  repetition, one repetition's comparison (trained by ``models.engine``) and the pooling of
  many repetitions into the paper's tables;
- ``pipeline``: the Snakemake workflow's side: each rule's one settings dict (provenance), the
  paths its rules ask for, and the job functions its thin scripts call;
- ``commands``: the entry points: the ``reprocompare`` command line, ``resume`` and ``sequential``.
"""

__version__ = "0.1.0"
