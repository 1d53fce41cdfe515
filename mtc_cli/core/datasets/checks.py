"""Checks of a data matrix shared by the file loader (:mod:`.user_data`) and the data check
of a selection (:func:`mtc_cli.selection.settings.check_data`, which ``OrderSelector`` runs
on arrays that never passed through the loader)."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from mtc_cli.core.errors import MtcError

#: what a refusal of values at a scale the criteria cannot compute on advises
RESCALE = "rescale the features, e.g. with --standardize (standardize: true in a config)"


def check_not_constant(X, name: str) -> None:
    """Refuse a matrix (dense or sparse) whose rows are all identical: no k to tell apart."""
    if sp.issparse(X):
        same = (X.max(axis=0) != X.min(axis=0)).nnz == 0
    else:
        same = bool(np.all(X == X[0]))
    if same:
        raise MtcError(f"{name}: all {X.shape[0]} rows are identical: there is nothing to select")
