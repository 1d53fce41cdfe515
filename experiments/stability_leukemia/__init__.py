"""Lange et al. 2002, Fig. 2 and the Golub row of Table 1: the number of leukemia classes
chosen by stability, the Gap statistic, Clest and Prediction Strength.

The 72 samples of Golub et al. (1999) are thresholded, filtered and log-transformed as in
Dudoit et al. (3571 genes), each sample standardised across genes (Lange et al. 2004), and
the 100 genes of highest variance kept. k-means (restarts) with the nearest-centroid rule,
k = 2..10, r = 20 splits. The clustering of all samples with k = 3 (k = 2) is compared with
AML / B-ALL / T-ALL (AML / ALL) after Hungarian matching. A user's own table replaces the
Golub data with ``dataset: {path: ..., label_column: ...}``.

One task is one run (all resamples and reference sets) of one clusterer.
"""

from __future__ import annotations

from experiments.stability_leukemia import figures
from experiments.stability_leukemia import tables as derived
from experiments.stability_leukemia.figures import figure_title
from experiments.stability_leukemia.protocol import Params, StabilityLeukemiaProtocol, Table

__all__ = ["Params", "Table", "experiment", "figure_title"]

class StabilityLeukemia(StabilityLeukemiaProtocol):
    summarize = derived.summarize
    tables = derived.tables
    plot = figures.plot


experiment = StabilityLeukemia()
