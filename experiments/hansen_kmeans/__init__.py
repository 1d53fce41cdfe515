"""Hansen & Larsen 1996, Figs. 2–3: number of clusters of a K-means/RBF density by the
analytic generalization error vs the empirical test error.

2-D data from isotropic Gaussian clusters; for K = 1..K_max the centres come from K-means,
the weights are the training frequencies and one shared width is fitted by maximum
likelihood (Sect. 4.2). Recorded per K: training error E (mean NLL), test error on an
independent test set, and the analytic estimate E + dim(θ)/N with dim(θ) = K(L+1) + 1
(eq. 10).
"""

from __future__ import annotations

from experiments.hansen_kmeans import figures
from experiments.hansen_kmeans import tables as derived
from experiments.hansen_kmeans.protocol import HansenKmeansProtocol, Params

__all__ = ["Params", "experiment"]

class HansenKmeans(HansenKmeansProtocol):
    summarize = derived.summarize
    tables = derived.tables
    plot = figures.plot


experiment = HansenKmeans()
