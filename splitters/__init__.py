"""Corpus splitting strategies, as scikit-learn splitters, and the split document they write.

Xue et al., "We Need to Talk About Reproducibility in NLP Model Comparison" (sections 3.1, 3.3)
compare three strategies. The *standard splits* (ST) "frequently use a ratio of 8:1 to split a
text corpus into a training set and a validation set"; to remove their static property the paper
"randomly generate[s] splits with a ratio of 8:1 in a hold-out manner" (:class:`HoldOut`). The
*random splits* (RS) of Gorman and Bedrick (2019) "use multiple repetitions of hold-out validation
with a splitting ratio of 8:1", 3 to 10 of them (:class:`RepeatedHoldOut`). The recommended
*3 x 2 BCV* "divide[s] a corpus into four equal-sized blocks" B1..B4 and combines them by the
rules of Table 1 into three two-fold CVs whose training sets overlap little and in which "each
sample occurs with the same counts in all training sets" (:class:`BlockedMx2CV`, any m).
:func:`split_document` and :func:`dumps` turn one repetition of a strategy into the JSON file that
every later stage reads; :func:`repetition_seed` derives its seed.
"""

from reprocompare.splitters.bcv import BlockedMx2CV
from reprocompare.splitters.document import (
    STRATEGIES,
    dumps,
    load_split,
    make_splitter,
    repetition_seed,
    split_document,
)
from reprocompare.splitters.holdout import HoldOut, RepeatedHoldOut

__all__ = [
    "STRATEGIES",
    "BlockedMx2CV",
    "HoldOut",
    "RepeatedHoldOut",
    "dumps",
    "load_split",
    "make_splitter",
    "repetition_seed",
    "split_document",
]
