"""Hansen & Larsen 1996, Fig. 1: number of principal components by the analytic
generalization error vs the empirical test error.

L-dimensional Gaussian data whose signal lives in a K₀-dimensional subspace, plus white
noise; PCA with an isotropic noise subspace (Sect. 4.1) is fitted on N vectors for every
K = 1..L−1 from one eigendecomposition. Recorded per K: the training error E (mean NLL),
the test error on an independent test set, and the analytic estimate E + dim(θ)/N
(eq. 10) with both parameter counts — the paper's L + 1 + K(K+1)/2 and probabilistic
PCA's L + 1 + KL − K(K−1)/2.
"""

from __future__ import annotations

from experiments.hansen_pca import figures
from experiments.hansen_pca import tables as derived
from experiments.hansen_pca.protocol import HansenPcaProtocol, Params

__all__ = ["Params", "experiment"]

class HansenPca(HansenPcaProtocol):
    summarize = derived.summarize
    tables = derived.tables
    plot = figures.plot


experiment = HansenPca()
