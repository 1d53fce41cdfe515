"""The answer of ``mtc select``: one algorithm and one k, with the rules the league of
families chose (``answer_rule.csv`` beside this module, written by the ``league``
experiment and checked against its committed ``answer_rule.csv`` by a test).

- **Which model answers by default** (``default_model``): a clustering algorithm, or
  ``auto`` — every algorithm of :data:`~mtc_cli.selection.catalog.AUTO_MODELS`, one chosen
  by ``auto_winner`` (:func:`mtc_cli.selection.auto.choose`).
- **k = 1 as its own question** (``k1_test``, ``k1_level``): "no group structure" only when
  a test made for it says so (:func:`says_one`); otherwise the answer is among k ≥ 2: each
  algorithm's vote with every choice of k = 1 left out, so that an algorithm whose stability
  has just found structure at k ≥ 2 never answers k = 1.
- HDBSCAN's ``min_cluster_size`` of the ``hdbscan_count`` criterion.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

#: the answer's rule that ships with mtc (written by the league experiment)
ANSWER_FILE = Path(__file__).with_name("answer_rule.csv")
#: the tests of "no group structure" (k = 1) the league compares (``none``: no test; the
#: algorithms' votes may then say 1 themselves)
K1_TESTS = ("none", "gap", "duda_hart", "dip")


@cache
def shipped() -> dict[str, str]:
    """key → value of :data:`ANSWER_FILE`."""
    import csv

    with open(ANSWER_FILE, newline="") as fh:
        return {row["key"]: row["value"] for row in csv.DictReader(fh)}


@dataclass(frozen=True)
class Rule:
    """The answer's rule: ``winner`` of :func:`mtc_cli.selection.auto.choose`, and the
    test of k = 1 (``k1_test`` of :data:`K1_TESTS`, at ``k1_level`` for the dip test)."""

    winner: str = "lowest"
    k1_test: str = "none"
    k1_level: float = 0.05

    def describe(self) -> str:
        test = {"none": "the votes themselves",
                "gap": "the gap statistic's 1-s.e. rule (k-means)",
                "duda_hart": "Duda & Hart's test (k-means)",
                "dip": f"Hartigan's dip test of the first principal component at "
                       f"{self.k1_level:g}"}[self.k1_test]
        return f"algorithm by {self.winner.replace('_', ' ')}; k = 1 decided by {test}"


def shipped_rule() -> Rule:
    """The answer's rule of :data:`ANSWER_FILE`."""
    s = shipped()
    return Rule(winner=s.get("auto_winner", "lowest"), k1_test=s.get("k1_test", "none"),
                k1_level=float(s.get("k1_level", 0.05)))


def says_one(test: str, *, kmeans_choices: dict, dip_p: float, level: float = 0.05) -> bool:
    """Whether ``test`` finds no group structure: ``gap`` — the gap statistic's 1-s.e. rule
    of k-means chooses k = 1 (Tibshirani, Walther & Hastie 2001); ``duda_hart`` — Duda &
    Hart's test of k-means does not split the data (it chooses k = 1); ``dip`` —
    Hartigan's dip test of the first principal component does not reject unimodality at
    ``level`` (``dip_p`` its p-value, :func:`mtc_cli.core.criteria.dip.dip_pvalue`);
    ``none``: never."""
    if test not in K1_TESTS:
        raise ValueError(f"unknown test of k = 1 {test!r}: one of {', '.join(K1_TESTS)}")
    if test == "none":
        return False
    if test == "dip":
        return bool(np.isfinite(dip_p) and dip_p > level)
    return kmeans_choices.get(test) == 1


def dip_of(X) -> float:
    """The p-value of Hartigan's dip test of the first principal component of X."""
    from mtc_cli.core.criteria.dip import dip_pvalue
    from mtc_cli.selection.projection import pca_2d

    return dip_pvalue(pca_2d(X)[:, 0])[1]


def at_least_two(choices: dict) -> dict:
    """Criterion → k with every choice of k = 1 left out (NaN: abstains)."""
    return {c: (k if k is not None and np.isfinite(k) and k >= 2 else np.nan)
            for c, k in choices.items()}
