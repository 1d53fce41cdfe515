"""The vote of ``mtc select``: a rule that turns the criteria's choices into one k.

A :class:`VoteRule` names the criteria that vote and their weights, whether a choice at the
largest k offered abstains (the curve may keep improving beyond the range: the choice is
then no evidence for that k), and whether a run-off between the two leading k decides. The
rules of ``mtc select`` for k-means and GMMs are those the league of families ships
(``vote_rule.csv``, :mod:`mtc_cli.selection.shipped`; how they are fitted:
``experiments/league/vote_fit.py``). The algorithms that find groups of any shape (an
:class:`~mtc_cli.selection.spec.Algorithm` that is ``shape_free``) take
:func:`stability_rule`: only the stability votes. Every other model, and every selection
whose criteria include none of a rule's voters, takes :data:`PLURALITY`: one vote per
criterion.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class VoteRule:
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
        how = [who, "a choice at the largest k abstains" if self.edge_abstains
               else "a choice at the largest k votes too"]
        if self.runoff:
            how.append("the two leading k meet in a run-off")
        return "; ".join(how)


PLURALITY = VoteRule()


def ballots(choices: dict, rule: VoteRule, k_hi: int) -> dict:
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


def winner_of(cast: dict, runoff: bool) -> tuple[int | None, dict]:
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


def elect(choices: dict, rule: VoteRule, k_hi: int) -> tuple[float, pd.DataFrame]:
    """(the voted k or NaN, the tally): per k chosen by a voter, ``votes`` (how many
    voters), ``weight`` (their summed weight), ``leading`` (every k of the greatest weight),
    with a run-off ``finalist`` and the voters backing each finalist (``runoff_votes``,
    ``runoff_weight``), and ``voted``. Ties in weight go to the smallest k (NbClust's
    majority rule); see :func:`winner_of`."""
    cast = ballots(choices, rule, k_hi)
    winner, finalists = winner_of(cast, rule.runoff)
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


def abstentions(summary: pd.DataFrame, rule: VoteRule, *, tested: bool = False) -> dict:
    """criterion → why a voter of ``rule`` cast no vote, from a summary table (``criterion``,
    ``selected_k``, ``at_edge``, ``note``): no choice (with its note), a choice at the
    largest k offered where such a choice abstains, or (``tested``: the answer's tests of
    k = 1 decide k = 1) a choice of k = 1."""
    out = {}
    for _, r in summary.iterrows():
        c = r["criterion"]
        if rule.weights is not None and c not in rule.weights:
            continue
        note = r.get("note")
        if not np.isfinite(r["selected_k"]):
            out[c] = "no choice" + (f": {note}" if isinstance(note, str) and note else "")
        elif tested and r["selected_k"] == 1:
            out[c] = "chose k = 1, which the tests of k = 1 decide"
        elif rule.edge_abstains and bool(r["at_edge"]):
            out[c] = (f"chose k = {int(r['selected_k'])}, the largest offered, which abstains "
                      "under this vote")
    return out


def tie_words(table: pd.DataFrame) -> str:
    """How a tie for the lead of a tally (:func:`elect`) was broken, in words ("" without
    one): the k that tied, their weight, and the k taken."""
    leading = table.loc[table["leading"], "k"].tolist()
    voted = table.loc[table["voted"], "k"]
    if len(leading) < 2 or not len(voted):
        return ""
    weight = float(table.loc[table["leading"], "weight"].iloc[0])
    how = ("the run-off between the two leading k" if kind(table) == "run-off"
           else "the smallest is taken")
    return (f"k = {', '.join(map(str, leading))} tie for the lead ({weight:g} "
            f"vote{'s' * (weight != 1)} each); {how}: k = {int(voted.iloc[0])}")


def rule_from_table(table: pd.DataFrame, model: str) -> VoteRule | None:
    """The rule of ``model`` in a :func:`rule_table`, or None if it has none."""
    t = table[table["model"] == model]
    if t.empty:
        return None
    voters = t[t["votes"].astype(bool)]
    return VoteRule(weights=dict(zip(voters["criterion"], voters["weight"].astype(float),
                                     strict=True)),
                edge_abstains=bool(t["edge_abstains"].iloc[0]),
                runoff=bool(t["runoff"].iloc[0]),
                reasons={c: r for c, r in zip(t["criterion"], t["reason"].fillna(""),
                                              strict=True) if r},
                name=str(t["rule"].iloc[0]))


def stability_rule(criteria) -> VoteRule:
    """Only the stability votes: for algorithms that find groups of any shape, whose
    solutions the other criteria judge by assumptions beyond the algorithm's own (compact,
    spherical or linearly separable clusters; Lange et al. 2002, Sect. 4)."""
    why = ("they assume compact or linearly separable clusters, beyond the algorithm's own "
           "principle — Lange et al. 2002, Sect. 4")
    return VoteRule(weights={"stability": 1.0}, name="stability",
                reasons={c: why for c in criteria if c != "stability"})


def rule_for(model: str, criteria, table: pd.DataFrame | None = None) -> VoteRule:
    """The rule ``mtc select`` applies: :func:`stability_rule` for the algorithms that find
    groups of any shape when the stability is among ``criteria``; ``model``'s rule in
    ``table`` (default: the rules mtc ships, :func:`mtc_cli.selection.shipped.vote_rules`)
    when it has one and some of its voters are among ``criteria``; else
    :data:`PLURALITY`."""
    from mtc_cli.selection.catalog import ALGORITHMS
    from mtc_cli.selection.shipped import vote_rules

    if ALGORITHMS[model].shape_free and "stability" in criteria:
        return stability_rule(criteria)
    table = vote_rules() if table is None else table
    rule = None if table is None else rule_from_table(table, model)
    if rule is None or not set(rule.weights) & set(criteria):
        return PLURALITY
    return rule
