"""MTC Fig. 6: k-means on three Gaussians with nearest-neighbour, generative and soft mappings.

Frank, Chehreghani, Buhmann 2011, Sect. 7. X¹ and X² are drawn in pairs from a mixture of
isotropic Gaussians (one *setting*); k-means with squared Euclidean cost is fitted on X¹
for k = 1..k_max and its solution is transferred to X² by the structure mapping (eq. 11,
"nearest-neighbour" in the figure), the generative mapping (eq. 5) and the soft mapping
(eq. 14, β = factor / R(s¹, X¹, 1) with R per object). The exact object-level forms of
eqs. 11 and 13 are recorded beside their centroid approximations.
"""

from __future__ import annotations

from experiments.kmeans_mappings import figures
from experiments.kmeans_mappings import tables as derived
from experiments.kmeans_mappings.protocol import KmeansMappingsProtocol, Params

__all__ = ["Params", "experiment"]

class KmeansMappings(KmeansMappingsProtocol):
    summarize = derived.summarize
    tables = derived.tables
    _scatter = derived._scatter
    plot = figures.plot


experiment = KmeansMappings()
