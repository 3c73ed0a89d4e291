"""What every significance test shares: the result type, the alternatives, the paired-input checks.

Private to the package: the families (:mod:`.contingency`, :mod:`.repeated_splits`,
:mod:`.resampling`) import from here, users import from :mod:`reprocompare.estimators.significance`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

ALTERNATIVES = ("two-sided", "greater", "less")


class TestResult(NamedTuple):
    """A test statistic and its p-value."""

    statistic: float
    p_value: float

    # Not a pytest test class, despite the name.
    __test__ = False



def check_alternative(alternative: str) -> str:
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative must be one of {', '.join(ALTERNATIVES)}; "
                         f"got {alternative!r}")
    return alternative


def same_length(a: np.ndarray, b: np.ndarray, name_a: str, name_b: str) -> None:
    if a.shape != b.shape:
        raise ValueError(f"{name_a} and {name_b} must be paired (same shape); "
                         f"got {a.shape} and {b.shape}")
