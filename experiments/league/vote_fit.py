"""How the votes mtc ships are fitted on the league of families: every rule of
:func:`candidates` (which criteria vote, with what weight, edge abstention, run-off) scored by
the share of data sets whose known k its vote recovers, each family weighted equally
(:func:`fit_rule`); the fitted rules as the table mtc reads (:func:`rule_table`,
``vote_rule.csv``, read by :func:`mtc_cli.selection.voting.rule_from_table`)."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from mtc_cli.selection.voting import VoteRule, ballots, winner_of

#: the fewest voters a fitted rule may have (one or two would be a criterion, not a vote)
MIN_VOTERS = 3


def candidates(records: pd.Series):
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
        yield VoteRule(weights=weights, edge_abstains=edge, runoff=runoff,
                   name=f"top{m}{'-weighted' if weighted else ''}{'-edge' if edge else ''}"
                        f"{'-runoff' if runoff else ''}")


def _elections(choices: pd.DataFrame) -> list[tuple[dict, int, int]]:
    """Per data set: (criterion → chosen k, k_hi, true k)."""
    return [(dict(zip(g["criterion"], g["k"], strict=True)), int(g["k_hi"].iloc[0]),
             int(g["true_k"].iloc[0])) for _, g in choices.groupby("dataset", sort=True)]


def hits(choices: pd.DataFrame, rule: VoteRule) -> int:
    """On how many data sets ``rule`` recovers ``true_k`` from the criteria's choices
    (columns ``dataset``, ``criterion``, ``k``, ``true_k``, ``k_hi``)."""
    return _hits(_elections(choices), rule)


def _hits(elections, rule: VoteRule) -> int:
    return sum(winner_of(ballots(c, rule, k_hi), rule.runoff)[0] == true_k
               for c, k_hi, true_k in elections)


def fit_rule(choices: pd.DataFrame) -> tuple[VoteRule, pd.DataFrame]:
    """The rule fitted on ``choices`` (one model's criteria on the data sets it is fitted
    on; columns as :func:`hits`, and ``family``, the family of each data set, if the data
    sets have families): the rule of :func:`candidates` whose share of data sets recovered,
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
    for rule in candidates(records):
        score = float(np.mean([_hits(el, rule) / len(el) for el, _ in groups]))
        if score > best_score + 1e-12:  # 1e-12: rounding of the means
            best, best_score = rule, score
    ranked = list(records.sort_values(ascending=False, kind="stable").index)
    reasons = {c: f"not among the {len(best.weights)} best criteria on the league "
                  f"(recovered {records[c]:.0%} averaged over its families, rank "
                  f"{ranked.index(c) + 1} of {len(ranked)})"
               for c in ranked if c not in best.weights}
    best = VoteRule(weights=best.weights, edge_abstains=best.edge_abstains,
                    runoff=best.runoff, reasons=reasons, name=best.name)
    table = pd.DataFrame({"criterion": ranked, "record": [records[c] for c in ranked],
                          "votes": [c in best.weights for c in ranked],
                          "weight": [best.weights.get(c, 0.0) for c in ranked],
                          "reason": [reasons.get(c, "") for c in ranked]})
    return best, table


def rule_table(rules: dict) -> pd.DataFrame:
    """model → (VoteRule, records) as one table (``vote_rule.csv``): per model × criterion its
    record, whether and with what weight it votes, why not, and the rule's flags."""
    parts = [t.assign(model=m, rule=r.name, edge_abstains=r.edge_abstains, runoff=r.runoff)
             for m, (r, t) in rules.items()]
    cols = ["model", "criterion", "record", "votes", "weight", "reason", "rule",
            "edge_abstains", "runoff"]
    return pd.concat(parts, ignore_index=True)[cols] if parts else pd.DataFrame(columns=cols)
