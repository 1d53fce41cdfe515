"""MTC Fig. 5: correlation clustering — transfer cost against Lange et al.'s instability.

Frank, Chehreghani, Buhmann 2011, Sect. 6. A signed graph with planted clusters (q, noise
p) is split at random into two graphs of equal size. Annealed Gibbs sampling (10 random
initialisations, the lowest cost kept) clusters both with k = 1..k_max clusters. The
solution of graph 1 is transferred to graph 2 node by node (eqs. 9–10); its cost there
(eq. 8) is the transfer cost. The instability (Lange et al. 2002) compares the transferred
labels with graph 2's own clustering, normalised by random labellings — two ways:
``instability`` permutes the actual labels (cluster sizes kept, empty clusters stay
empty), ``instability_uniform`` draws k uniform labels (Lange et al.'s baseline).

One task is one graph per p with all its node splits (its resamples): every split's two
graphs and every k are annealed together in one batch of chains.
"""

from __future__ import annotations

from experiments.correlation_clustering import figures
from experiments.correlation_clustering import tables as derived
from experiments.correlation_clustering.protocol import CorrelationClusteringProtocol, Params

__all__ = ["Params", "experiment"]

class CorrelationClustering(CorrelationClusteringProtocol):
    summarize = derived.summarize
    tables = derived.tables
    plot = figures.plot


experiment = CorrelationClustering()
