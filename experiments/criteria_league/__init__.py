"""A league table of the criteria: ``mtc select`` over a suite of data sets with a known
number of groups, scoring each criterion by the share of data sets where it recovers that
number and by its mean error |k̂ − k|.

The suite (:mod:`mtc_cli.core.datasets.milligan_cooper`): Milligan & Cooper's (1985) design —
2–5 clusters in 4, 6 or 8 dimensions, equal or unequal sizes, error-free, with perturbed
coordinates or with 20 % outliers — plus null data (one cluster, uniform or Gaussian),
elongated clusters and clusters of unequal variances; and four real data sets that ship
with scikit-learn (iris, wine, breast cancer, digits), whose classes are taken as the
reference number of groups (a convention: classes need not be clusters). Every data set is
drawn once and given to every model. One task is one data set × model: all of that
selection's work runs in the task through the selection engine
(:func:`mtc_cli.selection.engine.run`) with the seed ``select_seed``, so a data set's
choices are those of ``mtc select --seed`` (or ``OrderSelector``) on the same matrix.

Two halves: the simulated designs drawn with the first of ``data_seeds`` are the *fit*
half, on which the vote's rule is fitted (:mod:`mtc_cli.selection.voting`); those drawn
with the other seeds, and the real sets, are the *test* half, on which the league reports.
"""

from __future__ import annotations

from experiments.criteria_league import figures
from experiments.criteria_league import tables as derived
from experiments.criteria_league.protocol import (
    FAMILIES,
    CriteriaLeagueProtocol,
    Params,
    Suite,
    data,
    datasets,
)
from experiments.criteria_league.tables import league

__all__ = ["FAMILIES", "Params", "Suite", "data", "datasets", "experiment", "league"]

class CriteriaLeague(CriteriaLeagueProtocol):
    summarize = derived.summarize
    tables = derived.tables
    report = derived.report
    plot = figures.plot


experiment = CriteriaLeague()
