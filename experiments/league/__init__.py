"""The league of families: ``mtc select`` of every clustering algorithm on data sets of every
kind users bring — Milligan & Cooper's compact clusters, many clusters of unequal sizes, high
dimensions with few informative ones, shapes, densities with noise, one cluster, sizes from
100 to 10 000 objects, scenes of mixed groups, symmetric arrangements, two rings or bands
(:mod:`mtc_cli.core.datasets.families`) and real data with classes
(:mod:`mtc_cli.core.datasets.real_sets`) — each family weighted equally in every score.

One task is one data set × algorithm: the algorithm's whole selection through the engine
(:func:`mtc_cli.selection.engine.run`, seed ``select_seed``), every criterion's choice and the
normalised stability S(k)/S_perm(k) and S(k)/S_rand(k); and one *probe* task per data set:
HDBSCAN's own counts and the tests of k = 1. Every rule — each algorithm's vote, ``auto``'s
winner, HDBSCAN's ``min_cluster_size``, the test of k = 1 — is fitted in the tables, in sample
and leave one family out (:mod:`experiments.league.tables`).
"""

from __future__ import annotations

from experiments.league import figures
from experiments.league import tables as derived
from experiments.league.protocol import LeagueProtocol, Params, data, datasets

__all__ = ["Params", "data", "datasets", "experiment"]


class League(LeagueProtocol):
    summarize = derived.summarize
    tables = derived.tables
    report = derived.report
    plot = figures.plot


experiment = League()
