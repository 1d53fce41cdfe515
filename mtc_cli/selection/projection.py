"""The 2-D view of a data set: its first two principal components (the figure of a
selection, and the first component the dip test of k = 1 reads)."""

from __future__ import annotations

import numpy as np


def pca_2d(X) -> np.ndarray:
    """The first two principal components: the scores U_j s_j of the SVD of the centred data
    (numpy's; each component's sign fixed as scikit-learn's ``svd_flip`` fixes it, the
    largest |V_jk| of its axis positive) — scikit-learn's ``PCA(2, svd_solver="full")`` without
    importing scikit-learn, a second of a small run; for sparse X, scikit-learn's
    ``TruncatedSVD`` without centring."""
    n_comp = min(2, X.shape[1], X.shape[0])
    if hasattr(X, "toarray"):
        from sklearn.decomposition import TruncatedSVD

        Y = TruncatedSVD(n_components=n_comp, random_state=0).fit_transform(X)
    else:
        centred = np.asarray(X, dtype=np.float64) - np.mean(X, axis=0)
        U, s, Vt = np.linalg.svd(centred, full_matrices=False)
        Vt = Vt[:n_comp]
        Y = U[:, :n_comp] * s[:n_comp] * np.sign(Vt[range(n_comp), np.argmax(np.abs(Vt), axis=1)])
    return np.column_stack([Y, np.zeros((len(Y), 2 - Y.shape[1]))]) if Y.shape[1] < 2 else Y
