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
every later stage reads; :func:`repetition_seed` derives its seed. The splits are drawn by
:mod:`reprocompare.splitters.drawing` with numpy alone, so the split document needs no
scikit-learn; the classes, wrappers over the same draws, import it when first used.
"""

from reprocompare.splitters.document import (
    dumps,
    load_split,
    make_splitter,
    repetition_seed,
    split_document,
)

__all__ = [
    "BlockedMx2CV",
    "HoldOut",
    "RepeatedHoldOut",
    "dumps",
    "load_split",
    "make_splitter",
    "repetition_seed",
    "split_document",
]

#: the scikit-learn cross-validators, loaded when first asked for
_CROSS_VALIDATORS = ("BlockedMx2CV", "HoldOut", "RepeatedHoldOut")


def __getattr__(name):
    # Every training job imports this package for its split document, drawn with numpy alone
    # (drawing.py); the classes subclass scikit-learn's BaseCrossValidator, and importing
    # scikit-learn costs 1 s of CPU (SciPy, pandas), so only a user of the classes pays it.
    if name not in _CROSS_VALIDATORS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    # lazy: scikit-learn, for the cross-validator objects only
    from reprocompare.splitters import bcv, holdout

    value = getattr(bcv if name == "BlockedMx2CV" else holdout, name)
    globals()[name] = value  # found directly from now on, without this function
    return value


def __dir__():
    return sorted(set(globals()) | set(_CROSS_VALIDATORS))
