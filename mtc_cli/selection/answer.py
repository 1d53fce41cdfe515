"""The answer of ``mtc select`` when no model is named: the candidate the league of families
found best (``answer_rule.csv`` beside this module, written by the ``league`` experiment),
with the settings it was chosen with — ``auto``'s winner rule and votes, the test of k = 1,
HDBSCAN's ``min_cluster_size``."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

#: the answer's rule that ships with mtc (written by the league experiment)
ANSWER_FILE = Path(__file__).with_name("answer_rule.csv")


@cache
def shipped() -> dict[str, str]:
    """key → value of :data:`ANSWER_FILE`."""
    import csv

    with open(ANSWER_FILE, newline="") as fh:
        return {row["key"]: row["value"] for row in csv.DictReader(fh)}


#: the tests of "no group structure" (k = 1) the league compares
K1_TESTS = ("gap", "duda_hart", "dip")


def says_one(test: str, *, kmeans_choices: dict, dip_p: float, level: float = 0.05) -> bool:
    """Whether ``test`` finds no group structure: ``gap`` — the gap statistic's 1-s.e. rule
    of k-means chooses k = 1 (Tibshirani, Walther & Hastie 2001); ``duda_hart`` — Duda &
    Hart's test of k-means does not split the data (it chooses k = 1); ``dip`` —
    Hartigan's dip test of the first principal component does not reject unimodality at
    ``level`` (``dip_p`` its p-value, :func:`mtc_cli.core.criteria.dip.dip_pvalue`)."""
    if test == "dip":
        return bool(np.isfinite(dip_p) and dip_p > level)
    if test not in K1_TESTS:
        raise ValueError(f"unknown test of k = 1 {test!r}: one of {', '.join(K1_TESTS)}")
    return kmeans_choices.get(test) == 1
