"""reprocompare: will "model A beats model B" on this corpus reproduce?

The library is split by stage (see README): corpora -> splitters -> models -> estimators -> reports.
This package holds what ties them together: the command line, the one-repetition comparison that
both the CLI and the Snakemake jobs call, and the error type every user-facing failure uses.
"""

__version__ = "0.1.0"
