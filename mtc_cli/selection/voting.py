"""The vote of ``mtc select``: a rule that turns the criteria's choices into one k, and the
fit of its parameters on the league's *fit* half (:func:`fit_rule`).

A :class:`Rule` names the criteria that vote and their weights, whether a choice at the
largest k offered abstains (the curve may keep improving beyond the range: the choice is
then no evidence for that k), and whether a run-off between the two leading k decides. The
rules of ``mtc select`` for k-means and GMMs are fitted by the ``criteria_league``
experiment on the data sets of its first ``data_seed`` and reported on those of the others;
they ship as ``vote_rule.csv`` beside this module (``tests/selection/test_voting.py`` checks
that it is the league's committed ``results/criteria_league/vote_rule.csv``). The algorithms
that find groups of any shape (:data:`~mtc_cli.selection.catalog.SHAPE_FREE`) take
:func:`stability_rule`: only the stability votes. Every other model, and every selection
whose criteria include none of a rule's voters, takes :data:`PLURALITY`: one vote per
criterion.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd

from mtc_cli.selection.catalog import SHAPE_FREE

#: the fitted rules that ship with mtc (written by the criteria_league experiment)
RULE_FILE = Path(__file__).with_name("vote_rule.csv")
#: the fewest voters a fitted rule may have (one or two would be a criterion, not a vote)
MIN_VOTERS = 3


@dataclass(frozen=True)
class Rule:
    """``weights``: criterion → weight of its vote (None: every criterion, weight 1);
    ``edge_abstains``: a choice at the largest k offered casts no vote; ``runoff``: the two
    leading k meet in a run-off; ``reasons``: criterion → why it does not vote."""

    weights: dict | None = None
    edge_abstains: bool = False
    runoff: bool = False
    reasons: dict = field(default_factory=dict)
    name: str = "plurality"

    def describe(self) -> str:
        """One line: who votes, with what weight, and how."""
        who = ("every criterion, one vote each" if self.weights is None else
               f"the {next(iter(self.weights))} alone" if len(self.weights) == 1 else
               f"{len(self.weights)} criteria, "
               + ("weighted by their league record" if len(set(self.weights.values())) > 1
                  else "one vote each"))
        how = [who]
        if self.edge_abstains:
            how.append("a choice at the largest k abstains")
        if self.runoff:
            how.append("the two leading k meet in a run-off")
        return "; ".join(how)


PLURALITY = Rule()


def ballots(choices: dict, rule: Rule, k_hi: int) -> dict:
    """criterion → (k, weight) of every vote cast: the criteria that vote under ``rule``,
    have a choice, and (with ``edge_abstains``) did not choose ``k_hi``."""
    out = {}
    for c, k in choices.items():
        if k is None or not np.isfinite(k):
            continue
        if rule.weights is not None and c not in rule.weights:
            continue
        if rule.edge_abstains and k >= k_hi:
            continue
        out[c] = (int(k), 1.0 if rule.weights is None else float(rule.weights[c]))
    return out


def _winner(cast: dict, runoff: bool) -> tuple[int | None, dict]:
    """(the voted k, the finalists) of the ballots ``cast`` (criterion → (k, weight)):
    the k of greatest weight, ties to the smallest k; with a run-off the two leading k
    meet and every voter backs the finalist nearer its choice (equidistant: abstains) —
    the finalists as finalist → (voters backing it, their weight)."""
    weight: dict[int, float] = {}
    for k, w in cast.values():
        weight[k] = weight.get(k, 0.0) + w
    if not weight:
        return None, {}
    order = sorted(weight, key=lambda k: (-weight[k], k))
    if not runoff or len(order) == 1:
        return order[0], {}
    a, b = order[:2]
    back = backing(cast, a, b)
    finalists = {f: back[f] for f in (a, b)}
    if np.isclose(back[a][1], back[b][1], rtol=1e-12, atol=0):
        return min(a, b), finalists
    return (a if back[a][1] > back[b][1] else b), finalists


def backing(cast: dict, a: int, b: int) -> dict:
    """The run-off of ``a`` and ``b`` among the ballots ``cast``: finalist → (voters, weight)
    backing it (each voter backs the finalist nearer its choice), None → the voters
    equidistant from both, who abstain."""
    out = {a: [0, 0.0], b: [0, 0.0], None: [0, 0.0]}
    for k, w in cast.values():
        da, db = abs(k - a), abs(k - b)
        side = out[None if da == db else a if da < db else b]
        side[0] += 1
        side[1] += w
    return {k: (n, w) for k, (n, w) in out.items()}


def decide(choices: dict, rule: Rule, k_hi: int) -> tuple[float, pd.DataFrame]:
    """(the voted k or NaN, the tally): per k chosen by a voter, ``votes`` (how many
    voters), ``weight`` (their summed weight), ``leading`` (every k of the greatest weight),
    with a run-off ``finalist`` and the voters backing each finalist (``runoff_votes``,
    ``runoff_weight``), and ``voted``. Ties in weight go to the smallest k (NbClust's
    majority rule); see :func:`_winner`."""
    cast = ballots(choices, rule, k_hi)
    winner, finalists = _winner(cast, rule.runoff)
    ks = sorted({k for k, _ in cast.values()})
    table = pd.DataFrame({
        "k": np.array(ks, dtype=np.int64),
        "votes": np.array([sum(kk == k for kk, _ in cast.values()) for k in ks],
                          dtype=np.int64),
        "weight": np.array([sum(w for kk, w in cast.values() if kk == k) for k in ks],
                           dtype=np.float64)})
    top = table["weight"].max() if len(table) else 0.0
    table["leading"] = np.isclose(table["weight"], top, rtol=1e-12, atol=0)
    if finalists:
        table["finalist"] = table["k"].isin(list(finalists))
        table["runoff_votes"] = [finalists[k][0] if k in finalists else np.nan
                                 for k in table["k"]]
        table["runoff_weight"] = [finalists[k][1] if k in finalists else np.nan
                                  for k in table["k"]]
    table["voted"] = table["k"] == winner
    return (np.nan if winner is None else float(winner)), table


def kind(table: pd.DataFrame) -> str:
    """``majority`` when the voted k holds more than half of the weight cast (in the first
    round), else ``run-off`` when a run-off between the two leading k decided, else
    ``plurality``."""
    won = table.loc[table["voted"], "weight"].sum()
    if 2 * won > table["weight"].sum():
        return "majority"
    return "run-off" if "finalist" in table.columns else "plurality"


# --- the fit on the league ------------------------------------------------------------------

def _candidates(records: pd.Series):
    """Every rule the fit considers, simplest first: voters the m best criteria by their
    record (m from all of them down to MIN_VOTERS; ties in record in the order of
    ``records``), equal weights or their records as weights, edge abstention, run-off."""
    ranked = list(records.sort_values(ascending=False, kind="stable").index)
    for m, weighted, edge, runoff in itertools.product(
            range(len(ranked), MIN_VOTERS - 1, -1), (False, True), (False, True),
            (False, True)):
        voters = ranked[:m]
        weights = {c: (float(records[c]) if weighted else 1.0) for c in voters}
        if weighted and not all(weights.values()):  # a voter of weight 0 is no voter
            continue
        yield Rule(weights=weights, edge_abstains=edge, runoff=runoff,
                   name=f"top{m}{'-weighted' if weighted else ''}{'-edge' if edge else ''}"
                        f"{'-runoff' if runoff else ''}")


def _elections(choices: pd.DataFrame) -> list[tuple[dict, int, int]]:
    """Per data set: (criterion → chosen k, k_hi, true k)."""
    return [(dict(zip(g["criterion"], g["k"], strict=True)), int(g["k_hi"].iloc[0]),
             int(g["true_k"].iloc[0])) for _, g in choices.groupby("dataset", sort=True)]


def hits(choices: pd.DataFrame, rule: Rule) -> int:
    """On how many data sets ``rule`` recovers ``true_k`` from the criteria's choices
    (columns ``dataset``, ``criterion``, ``k``, ``true_k``, ``k_hi``)."""
    return _hits(_elections(choices), rule)


def _hits(elections, rule: Rule) -> int:
    return sum(_winner(ballots(c, rule, k_hi), rule.runoff)[0] == true_k
               for c, k_hi, true_k in elections)


def fit_rule(choices: pd.DataFrame) -> tuple[Rule, pd.DataFrame]:
    """The rule fitted on ``choices`` (one model's criteria on the data sets it is fitted
    on; columns as :func:`hits`, and ``family``, the family of each data set, if the data
    sets have families): the rule of :func:`_candidates` whose share of data sets recovered,
    averaged over the families (each family weighted equally, whatever its number of data
    sets), is the largest, the first (simplest) among equals; and the criteria's records
    there (``criterion``, ``record``: the share recovered averaged over the families,
    ``votes``, ``weight``, ``reason``)."""
    choices = choices.assign(hit=choices["k"] == choices["true_k"])
    if "family" not in choices.columns:
        choices = choices.assign(family="")
    groups = [(_elections(g), g) for _, g in choices.groupby("family", sort=True)]
    records = pd.concat([g.groupby("criterion", sort=False)["hit"].mean()
                         for _, g in groups], axis=1).mean(axis=1)
    records = records.reindex(choices["criterion"].drop_duplicates())
    best, best_score = None, -1.0
    for rule in _candidates(records):
        score = float(np.mean([_hits(el, rule) / len(el) for el, _ in groups]))
        if score > best_score + 1e-12:  # 1e-12: rounding of the means
            best, best_score = rule, score
    ranked = list(records.sort_values(ascending=False, kind="stable").index)
    reasons = {c: f"not among the {len(best.weights)} best criteria on the league "
                  f"(recovered {records[c]:.0%} averaged over its families, rank "
                  f"{ranked.index(c) + 1} of {len(ranked)})"
               for c in ranked if c not in best.weights}
    best = Rule(weights=best.weights, edge_abstains=best.edge_abstains, runoff=best.runoff,
                reasons=reasons, name=best.name)
    table = pd.DataFrame({"criterion": ranked, "record": [records[c] for c in ranked],
                          "votes": [c in best.weights for c in ranked],
                          "weight": [best.weights.get(c, 0.0) for c in ranked],
                          "reason": [reasons.get(c, "") for c in ranked]})
    return best, table


def rule_table(rules: dict) -> pd.DataFrame:
    """model → (Rule, records) as one table (``vote_rule.csv``): per model × criterion its
    record, whether and with what weight it votes, why not, and the rule's flags."""
    parts = [t.assign(model=m, rule=r.name, edge_abstains=r.edge_abstains, runoff=r.runoff)
             for m, (r, t) in rules.items()]
    cols = ["model", "criterion", "record", "votes", "weight", "reason", "rule",
            "edge_abstains", "runoff"]
    return pd.concat(parts, ignore_index=True)[cols] if parts else pd.DataFrame(columns=cols)


def rule_from_table(table: pd.DataFrame, model: str) -> Rule | None:
    """The rule of ``model`` in a :func:`rule_table`, or None if it has none."""
    t = table[table["model"] == model]
    if t.empty:
        return None
    voters = t[t["votes"].astype(bool)]
    return Rule(weights=dict(zip(voters["criterion"], voters["weight"].astype(float),
                                 strict=True)),
                edge_abstains=bool(t["edge_abstains"].iloc[0]),
                runoff=bool(t["runoff"].iloc[0]),
                reasons={c: r for c, r in zip(t["criterion"], t["reason"].fillna(""),
                                              strict=True) if r},
                name=str(t["rule"].iloc[0]))


@cache
def _shipped() -> pd.DataFrame | None:
    return pd.read_csv(RULE_FILE) if RULE_FILE.is_file() else None


def stability_rule(criteria) -> Rule:
    """Only the stability votes: for algorithms that find groups of any shape, whose
    solutions the other criteria judge by assumptions beyond the algorithm's own (compact,
    spherical or linearly separable clusters; Lange et al. 2002, Sect. 4)."""
    why = ("they assume compact or linearly separable clusters, beyond the algorithm's own "
           "principle — Lange et al. 2002, Sect. 4")
    return Rule(weights={"stability": 1.0}, name="stability",
                reasons={c: why for c in criteria if c != "stability"})


def rule_for(model: str, criteria) -> Rule:
    """The rule ``mtc select`` applies: :func:`stability_rule` for the algorithms of
    :data:`~mtc_cli.selection.catalog.SHAPE_FREE` when the stability is among ``criteria``;
    the league's fitted rule of ``model`` when it has one and some of its voters are among
    ``criteria``; else :data:`PLURALITY`."""
    if model in SHAPE_FREE and "stability" in criteria:
        return stability_rule(criteria)
    table = _shipped()
    rule = None if table is None else rule_from_table(table, model)
    if rule is None or not set(rule.weights) & set(criteria):
        return PLURALITY
    return rule
