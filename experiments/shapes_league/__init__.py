"""The shapes league: ``mtc select`` of every clustering algorithm, and ``--model auto``,
on data sets whose groups are not compact blobs (:mod:`mtc_cli.core.datasets.shapes`: rings,
moons, spirals, chain links, sheared blobs, groups of different density; with and without
background noise; in their own dimensions or embedded in 10) beside Milligan & Cooper's
compact clusters (:mod:`mtc_cli.core.datasets.milligan_cooper`). Scored as the criteria league:
the share of data sets where the answer is the known number of groups, and |k̂ − k|; beside
them, whether the answer's clustering is the true grouping: the adjusted Rand index (Hubert &
Arabie 1985, scikit-learn's ``adjusted_rand_score``) of the clustering ``mtc select`` reports
at its answer (:func:`mtc_cli.selection.engine.clustering`) with the true groups, background
noise points left out — a count can be right with the wrong groups (two halves of each of
two moons).

One task is one data set × algorithm: that algorithm's whole selection through the engine
(:func:`mtc_cli.selection.engine.run`, seed ``select_seed``), its vote
(:func:`mtc_cli.selection.voting.rule_for`, as ``mtc select``) and its normalised stability
S(k)/S_perm(k) (:func:`mtc_cli.selection.auto.normalised_stability`). ``auto`` is derived in
the tables from the algorithms' rows by :func:`mtc_cli.selection.auto.decide`: the answer
``mtc select --model auto --seed`` gives on the same matrix.
"""

from __future__ import annotations

from experiments.shapes_league import figures
from experiments.shapes_league import tables as derived
from experiments.shapes_league.protocol import Params, ShapesLeagueProtocol, agreement
from experiments.shapes_league.tables import answers, league

__all__ = ["Params", "agreement", "answers", "experiment", "league"]

class ShapesLeague(ShapesLeagueProtocol):
    summarize = derived.summarize
    tables = derived.tables
    report = derived.report
    plot = figures.plot


experiment = ShapesLeague()
