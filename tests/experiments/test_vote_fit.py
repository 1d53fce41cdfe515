"""How the league fits the votes mtc ships (experiments/league/vote_fit.py): the criteria
that help kept and the others said, every family weighted equally."""

import pandas as pd
import pytest

from experiments.league import vote_fit
from mtc_cli.selection import voting


def _elections(rows):
    return pd.DataFrame([{"dataset": d, "criterion": c, "k": k, "true_k": t, "k_hi": 10}
                         for d, t, picks in rows for c, k in picks.items()])


def test_the_fit_keeps_the_criteria_that_help_and_says_why_the_others_do_not():
    # a, b, c: right but twice each, then one too few; d and e: always one too few. Every
    # vote with d or e loses (or ties, and ties go to the smaller k); a, b, c alone win.
    rows = []
    for i in range(6):
        truth = 3 + i % 3
        picks = {"a": truth, "b": truth, "c": truth, "d": truth - 1, "e": truth - 1}
        picks["abc"[i % 3]] = truth - 1
        rows.append((f"s{i}", truth, picks))
    elections = _elections(rows)
    assert vote_fit.hits(elections, voting.PLURALITY) == 0
    rule, table = vote_fit.fit_rule(elections)
    assert vote_fit.hits(elections, rule) == 6
    assert set(rule.weights) == {"a", "b", "c"} and rule.name == "top3"
    assert set(rule.reasons) == {"d", "e"} and "rank 4 of 5" in rule.reasons["d"]
    assert table.set_index("criterion")["record"].to_dict() == pytest.approx(
        {"a": 2 / 3, "b": 2 / 3, "c": 2 / 3, "d": 0.0, "e": 0.0})
    back = voting.rule_from_table(vote_fit.rule_table({"kmeans": (rule, table)}), "kmeans")
    assert back.weights == rule.weights and back.reasons == rule.reasons


def test_the_fit_weighs_every_family_equally(monkeypatch):
    # X = {a, b, c} recovers 21 of 22 sets: all 20 of family A, 1 of family B's 2 — a mean
    # over families of (1 + 1/2) / 2 = 0.75; Y = {c, d, e} recovers 20: 18 of A's 20 and both
    # of B's — (0.9 + 1) / 2 = 0.95. Families weighted equally, Y wins; counted by data set
    # (no families), X.
    both = dict.fromkeys("abcde", 3)
    rows = ([(f"a{i}", 3, both) for i in range(18)]
            + [(f"a{i}", 3, {"a": 3, "b": 3, "c": 3, "d": 2, "e": 2}) for i in (18, 19)]
            + [("b0", 5, {"a": 4, "b": 4, "c": 5, "d": 5, "e": 5}),
               ("b1", 5, dict.fromkeys("abcde", 5))])
    elections = _elections(rows).assign(family=lambda t: t["dataset"].str[0])
    x = voting.VoteRule(weights=dict.fromkeys("abc", 1.0), name="X")
    y = voting.VoteRule(weights=dict.fromkeys("cde", 1.0), name="Y")
    monkeypatch.setattr(vote_fit, "candidates", lambda records: iter([x, y]))
    assert (vote_fit.hits(elections, x), vote_fit.hits(elections, y)) == (21, 20)
    rule, table = vote_fit.fit_rule(elections)
    assert rule.name == "Y"
    # a criterion's record is its share recovered averaged over the families
    assert table.set_index("criterion")["record"]["a"] == pytest.approx((1.0 + 0.5) / 2)
    assert vote_fit.fit_rule(elections.drop(columns="family"))[0].name == "X"
