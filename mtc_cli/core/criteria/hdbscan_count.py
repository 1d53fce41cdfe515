"""HDBSCAN's own number of clusters (Campello, Moulavi & Sander 2013): the excess-of-mass
selection of the condensed tree at a minimum cluster size, as scikit-learn's ``HDBSCAN``
makes it."""

from __future__ import annotations

import numpy as np


def hdbscan_count(X: np.ndarray, min_cluster_size: int) -> tuple[int, float]:
    """(the clusters HDBSCAN finds at ``min_cluster_size`` on X, the share of the objects it
    leaves as noise); (0, NaN) on fewer objects than ``min_cluster_size``, where no cluster
    can be that large (scikit-learn refuses them). Its k is max(found, 1): every object
    noise is one group."""
    from sklearn.cluster import HDBSCAN

    if len(X) < min_cluster_size:
        return 0, np.nan
    labels = HDBSCAN(min_cluster_size=int(min_cluster_size), copy=True).fit_predict(X)
    return len(set(labels.tolist()) - {-1}), float(np.mean(labels == -1))
