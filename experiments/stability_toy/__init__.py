"""Lange et al. 2002, Fig. 1 and the toy rows of Table 1: stability, Gap statistic, Clest
and Prediction Strength on "3 Gaussians" (two small close clouds and a larger one apart)
and "3 rings" (concentric), with k-means and Path-Based Clustering; interleaved spirals as
an optional extra case.

Each data set is drawn once from ``data_seed`` (as the paper's one data set per case); a
task is one run (splits, reference sets) of all criteria on one data set × clusterer.
"""

from __future__ import annotations

from experiments.stability_toy import figures
from experiments.stability_toy import tables as derived
from experiments.stability_toy.protocol import Params, StabilityToyProtocol

__all__ = ["Params", "experiment"]

class StabilityToy(StabilityToyProtocol):
    summarize = derived.summarize
    tables = derived.tables
    plot = figures.plot


experiment = StabilityToy()
