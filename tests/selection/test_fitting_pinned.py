"""The label-only algorithms' labels and predictions pinned: what ``fit_all`` (a sample of
``max_items`` objects fitted, the others labelled by the algorithm's predictor in blocks),
``predict_all`` and ``strength_predict_all`` give on small data equal what the code gave
before the work of issue 50 made them faster (fingerprints computed at commit 71cf049, before
any change). Labels are integers: a change of rounding that moves no label keeps them."""

import hashlib

import numpy as np
import pytest
from sklearn.datasets import make_blobs

from mtc_cli.selection import fitting

#: model → sha256[:16] of (the labels of all fitted objects, the predictions of new
#: objects, the prediction strength's nearest centroids), k = 1..7, at commit 71cf049
PINNED = {
    "pathbased": ("b281e9903576c569", "76281773a9484586", "ff2bbc957cbf0525"),
    "ward": ("69525adeb7557617", "153d014be874f391", "193eefbb8b823887"),
    "hdbscan": ("c20c1f1662d6eca0", "52ad6226fc70d4ec", "1da6cab26a6abebd"),
    "spectral": ("e1595857bc28a22d", "c6c4d1f12dedff0a", "b76745489b78d344"),
}
MODELS = {"pathbased": fitting.PathBased(max_items=400),
          "ward": fitting.Agglomerative("ward", max_items=400),
          "hdbscan": fitting.Hdbscan(max_items=400),
          "spectral": fitting.Spectral(max_items=400)}


def fingerprint(labels: dict) -> str:
    h = hashlib.sha256()
    for k in sorted(labels):
        h.update(np.asarray(labels[k], dtype=np.int64).tobytes())
    return h.hexdigest()[:16]


@pytest.mark.parametrize("name", sorted(PINNED))
def test_labels_and_predictions_are_those_of_before(name):
    """1 500 objects fitted on a sample of 400 (1 100 labelled by the predictor: two
    blocks of path-based clustering's 1 000), 1 000 new objects predicted."""
    X, _ = make_blobs(2500, 3, centers=4, cluster_std=1.5, random_state=3)
    model = MODELS[name]
    fits = model.fit_all(X[:1500], range(1, 8), np.random.default_rng(5))
    got = (fingerprint({k: f.labels for k, f in fits.items()}),
           fingerprint(model.predict_all(fits, X[1500:])),
           fingerprint(model.strength_predict_all(fits, X[1500:])))
    assert got == PINNED[name]
