"""Cluster labels as codes 0..k−1."""

from __future__ import annotations

import numpy as np


def codes(labels) -> tuple[np.ndarray, np.ndarray]:
    """(the distinct label values in increasing order, each object's index among them):
    ``np.unique(labels, return_inverse=True)`` of a 1-D label vector. Integer labels over a
    range at most a few times their number are counted (``bincount``, O(n)) rather than
    sorted; other labels go to ``np.unique``."""
    a = np.asarray(labels)
    if a.ndim == 1 and a.size and np.issubdtype(a.dtype, np.integer):
        lo, hi = int(a.min()), int(a.max())
        if hi - lo <= 4 * a.size + 1024:
            offset = a.astype(np.intp) - lo
            present = np.bincount(offset, minlength=hi - lo + 1) > 0
            values = (np.flatnonzero(present) + lo).astype(a.dtype)
            return values, (np.cumsum(present) - 1).astype(np.intp)[offset]
    values, inverse = np.unique(a, return_inverse=True)
    return values, inverse.ravel()
