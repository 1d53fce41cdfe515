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
#: algorithms' votes may then say 1 themselves; ``a+b``: both tests say so)
K1_TESTS = ("none", "gap", "duda_hart", "dip", "dip+gap", "dip+duda_hart")


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
                       f"{self.k1_level:g}"}
        test = " and ".join(test[t] for t in self.k1_test.split("+"))
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
    ``a+b``: both; ``none``: never."""
    if test not in K1_TESTS:
        raise ValueError(f"unknown test of k = 1 {test!r}: one of {', '.join(K1_TESTS)}")
    if test == "none":
        return False
    if "+" in test:
        return all(says_one(t, kmeans_choices=kmeans_choices, dip_p=dip_p, level=level)
                   for t in test.split("+"))
    if test == "dip":
        return bool(np.isfinite(dip_p) and dip_p > level)
    return kmeans_choices.get(test) == 1


def read_by(model: str, criteria, *, tested: bool, rule: Rule | None = None) -> tuple:
    """The criteria among ``criteria`` that the answer of ``auto`` reads of ``model``: the
    stability (auto ranks the algorithms by it), those of the model's vote
    (:func:`mtc_cli.selection.voting.rule_for`; every one under a plurality) and, for the
    model whose choices the test of k = 1 reads (``tested``, :func:`gate`), the test's."""
    from mtc_cli.selection import voting

    rule = shipped_rule() if rule is None else rule
    weights = voting.rule_for(model, criteria).weights
    read = {"stability", *(criteria if weights is None else weights)}
    if tested:
        read |= set(rule.k1_test.split("+"))
    return tuple(c for c in criteria if c in read)


def dip_of(X) -> float:
    """The p-value of Hartigan's dip test of the first principal component of X."""
    from mtc_cli.core.criteria.dip import dip_pvalue
    from mtc_cli.selection.projection import pca_2d

    return dip_pvalue(pca_2d(X)[:, 0])[1]


def at_least_two(choices: dict) -> dict:
    """Criterion → k with every choice of k = 1 left out (NaN: abstains)."""
    return {c: (k if k is not None and np.isfinite(k) and k >= 2 else np.nan)
            for c, k in choices.items()}


#: below this share of the random splits reproducing it, an answer is said to be weak
WEAK_SUPPORT = 0.6


@dataclass(frozen=True)
class Answer:
    """One answer with its doubt: the ``model`` and ``k``, how it was reached (``how``),
    the runner-up (model, k), and the ``support`` of each — the share of the random splits
    on which the vote, every split-based criterion read on that split alone, gives that k
    (NaN where it does not apply: a test's k = 1, a model without splits). ``weak``: the
    answer's support is below :data:`WEAK_SUPPORT`."""

    model: str | None
    k: float
    how: str
    runner_up_model: str | None = None
    runner_up_k: float = np.nan
    support: float = np.nan
    runner_up_support: float = np.nan

    @property
    def weak(self) -> bool:
        return bool(np.isfinite(self.support) and self.support < WEAK_SUPPORT)

    def row(self) -> dict:
        """The answer as one row of ``answer.csv``."""
        return {"model": self.model, "k": self.k, "how": self.how,
                "runner_up_model": self.runner_up_model, "runner_up_k": self.runner_up_k,
                "support": self.support, "runner_up_support": self.runner_up_support,
                "weak": self.weak}


def split_shares(rows, summary, settings, rule) -> dict:
    """k → the share of the random splits whose vote under ``rule`` gives k: each split
    recomputed with every criterion of the split family (MTC, capacity, stability,
    prediction strength) read on that split alone, the others as chosen on all splits."""
    from mtc_cli.selection import choice, voting

    base = choice.choices(summary)
    per = {}
    for c in settings.criteria:
        if c in choice.SPLIT_FAMILY:
            per[c] = choice.evaluate(rows, c, ps_threshold=settings.ps_threshold)[2]
    n = max((len(v) for v in per.values()), default=0)
    if n == 0:
        return {}
    counts: dict = {}
    for r in range(n):
        picks = {**base, **{c: v[r] for c, v in per.items() if r < len(v)}}
        k = voting.decide(picks, rule, settings.k_hi)[0]
        counts[k] = counts.get(k, 0) + 1
    return {k: c / n for k, c in counts.items()}


def of_vote(model: str, tally, shares: dict) -> Answer:
    """A model's answer: its voted k; the runner-up the other finalist of a run-off, else
    the k of next most weight (:func:`mtc_cli.selection.voting.decide`'s tally)."""
    from mtc_cli.selection import voting

    voted = tally.loc[tally["voted"], "k"]
    if not len(voted):
        return Answer(model, np.nan, "no vote: no criterion cast one")
    k = float(voted.iloc[0])
    others = tally[~tally["voted"]]
    if "finalist" in tally.columns:
        others = others[others["finalist"]]
    others = others.sort_values(["weight", "k"], ascending=[False, True])
    second = float(others["k"].iloc[0]) if len(others) else np.nan
    return Answer(model, k, f"{voting.kind(tally)} vote of {model}",
                  model if np.isfinite(second) else None, second, shares.get(k, np.nan),
                  shares.get(second, np.nan) if np.isfinite(second) else np.nan)


def gate(X, summaries: dict, rule: Rule) -> tuple[bool, str]:
    """``rule``'s test of k = 1 on X (:func:`says_one`): (whether it finds no group
    structure, in words). The gap and Duda–Hart tests read k-means' choices (among
    ``summaries``: model → summary table) or else the first model's; without a test, or
    for a model that is no clustering, (False, "")."""
    from mtc_cli.selection import choice
    from mtc_cli.selection.catalog import CLUSTERING

    model = "kmeans" if "kmeans" in summaries else next(iter(summaries))
    if rule.k1_test == "none" or model not in CLUSTERING:
        return False, ""
    tests = rule.k1_test.split("+")
    dip_p = dip_of(X) if "dip" in tests else np.nan
    picks = choice.choices(summaries[model])
    one = says_one(rule.k1_test, kmeans_choices=picks, dip_p=dip_p, level=rule.k1_level)
    said = [f"the dip test of the first principal component, p = {dip_p:.3g} "
            f"{'>' if dip_p > rule.k1_level else '≤'} {rule.k1_level:g}" if t == "dip" else
            f"{t} of {model} {'chooses' if picks.get(t) == 1 else 'does not choose'} k = 1"
            if t in picks else f"{t} of {model} was not computed (not among the criteria)"
            for t in tests]
    return one, " and ".join(said)


def find(X, rows: dict, summaries: dict, settings: dict, *, auto_mode: bool,
         rule: Rule | None = None):
    """The answer of a selection with its doubt, by ``rule`` (default: the shipped one):
    (:class:`Answer`, each model's tally, ``auto``'s decision table or None). ``rows``,
    ``summaries``, ``settings``: model → its rows, summary table and Settings. With a test
    of k = 1, every vote is among k ≥ 2 and the answer is 1 only when the test says so."""
    from dataclasses import replace

    from mtc_cli.selection import auto, choice, voting

    rule = shipped_rule() if rule is None else rule
    one, said = gate(X, summaries, rule)
    tallies = {}
    for m, s in settings.items():
        picks = choice.choices(summaries[m])
        picks = at_least_two(picks) if said else picks
        tallies[m] = voting.decide(picks, voting.rule_for(m, s.criteria), s.k_hi)[1]

    def shares(m) -> dict:
        s = settings[m]
        return split_shares(rows[m], summaries[m], s, voting.rule_for(m, s.criteria))

    def voted(t) -> float:
        k = t.loc[t["voted"], "k"]
        return float(k.iloc[0]) if len(k) else np.nan

    decision = None
    if not auto_mode:
        (m,) = settings
        found = of_vote(m, tallies[m], shares(m))
    else:
        curves = {m: auto.normalised_stability(rows[m]) for m in settings}
        decision = auto.decide(curves, {m: voted(t) for m, t in tallies.items()},
                               rule.winner)
        best, k = auto.winner(decision)
        second, k2 = auto.runner_up(decision, rule.winner)
        found = Answer(best, k, (f"auto: {best}, chosen by {auto.RULE_WORDS[rule.winner]}"
                                 if best else "auto: no algorithm qualifies"),
                       second, k2, shares(best).get(k, np.nan) if best else np.nan,
                       shares(second).get(k2, np.nan) if second else np.nan)
    if one:
        found = Answer(found.model, 1.0, f"no group structure: {said}", found.model,
                       found.k, np.nan, found.support)
    elif said:
        found = replace(found, how=f"{found.how}; {said}")
    return found, tallies, decision
