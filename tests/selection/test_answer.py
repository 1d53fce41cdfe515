"""The answer of ``mtc select`` (mtc_cli/selection/answer.py): the tests of k = 1 and their
words, the shipped rule, the shares of the splits, a model's answer with its runner-up, the
dip of the first principal component; and ``auto``'s winner rules ``at_vote`` and
``agreement`` with their runner-up, worked by hand from :func:`auto.standings`'s docstring."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_blobs
from sklearn.decomposition import PCA

from mtc_cli.core.criteria.dip import dip_pvalue
from mtc_cli.selection import answer, auto, choice, shipped, voting
from mtc_cli.selection.answer import Answer, AnswerRule, Facts
from mtc_cli.selection.catalog import GATES
from mtc_cli.selection.measuring import Measuring
from mtc_cli.selection.settings import Settings

NAN = np.nan


def summary(**picks) -> pd.DataFrame:
    """A summary table as :func:`mtc_cli.selection.choice.summarize` makes it (the columns
    :func:`~mtc_cli.selection.choice.choices` reads): criterion → selected k."""
    return pd.DataFrame({"criterion": list(picks), "selected_k": list(picks.values())})


def one_blob() -> np.ndarray:
    return np.random.default_rng(0).normal(size=(300, 2))


def three_blobs() -> np.ndarray:
    return make_blobs(300, 2, centers=[(-10, 0), (0, 0), (10, 0)], random_state=0)[0]


def Rule(winner: str = "lowest", k1_test: str = "none", k1_level: float = 0.05) -> AnswerRule:
    """``auto``'s answer rule."""
    return AnswerRule("auto", winner, k1_test, k1_level)


def says_one(test: str, *, kmeans_choices: dict, dip_p: float, level: float = 0.05) -> bool:
    """Whether the test of k = 1 ``test`` finds no group structure, from k-means' choices
    and the dip test's p."""
    seen = Measuring(None, "0" * 24, kmeans_choices, None)

    def measure(gate, k, param, model=None):
        return dip_p if gate.name == "dip" else seen(gate, k, param, model)

    facts = Facts({"kmeans": kmeans_choices}, 10, measure=measure)
    return Rule(k1_test=test, k1_level=level).test(facts, 2).no_structure


def gate(X, summaries: dict, rule: AnswerRule, k_lo: int = 1) -> tuple[bool, str]:
    """``rule``'s test of k = 1 on X and the algorithms' summary tables, the range starting
    at ``k_lo``: (no structure, in words)."""
    choices = {m: choice.choices(t) for m, t in summaries.items()}
    tested = rule.tested(choices)
    facts = Facts(choices, 10, measure=Measuring(X, "0" * 24,
                                                        choices.get(tested, {}), None),
                  k_lo=k_lo)
    said = rule.test(facts, 2)
    return said.no_structure, said.words


# --- the tests of k = 1 ----------------------------------------------------------------------

@pytest.mark.parametrize("test,picks,dip_p,one", [
    ("none", {"gap": 1, "duda_hart": 1}, 0.9, False),  # never, whatever the others say
    ("gap", {"gap": 1.0}, NAN, True),
    ("gap", {"gap": 2.0}, 0.9, False),
    ("gap", {"duda_hart": 1.0}, 0.9, False),  # another test's k = 1 is not the gap's
    ("gap", {"gap": NAN}, 0.9, False),
    ("gap", {}, 0.9, False),  # not computed
    ("duda_hart", {"duda_hart": 1}, NAN, True),
    ("duda_hart", {"duda_hart": 3, "gap": 1}, NAN, False),
    ("dip", {}, 0.2, True),  # unimodality not rejected at 0.05
    ("dip", {"gap": 1, "duda_hart": 1}, 0.01, False),  # rejected: k-means' picks ignored
    ("dip", {}, 0.05, False),  # p must exceed the level
    ("dip", {"gap": 1}, NAN, False),  # no p-value: no evidence of k = 1
    ("dip+gap", {"gap": 1}, 0.2, True),
    ("dip+gap", {"gap": 2}, 0.2, False),
    ("dip+gap", {"gap": 1}, 0.01, False),
    ("dip+gap", {"gap": 1}, NAN, False),
    ("dip+gap", {"duda_hart": 1}, 0.2, False),
    ("dip+duda_hart", {"duda_hart": 1}, 0.2, True),
    ("dip+duda_hart", {"gap": 1, "duda_hart": 2}, 0.2, False),
    ("dip+duda_hart", {"duda_hart": 1}, 0.01, False),
])
def test_says_one_by_each_test(test, picks, dip_p, one):
    assert says_one(test, kmeans_choices=picks, dip_p=dip_p) is one


def test_says_one_reads_the_dips_level_alone_or_combined():
    for test in ("dip", "dip+gap"):
        assert says_one(test, kmeans_choices={"gap": 1}, dip_p=0.07, level=0.05)
        assert not says_one(test, kmeans_choices={"gap": 1}, dip_p=0.07, level=0.1)


@pytest.mark.parametrize("test", ["bogus", "dip+none", "", "gap+"])
def test_an_unknown_test_of_k1_is_refused_by_name(test):
    with pytest.raises(ValueError, match=re.escape(f"unknown test of k = 1 {test!r}")):
        Rule(k1_test=test)


def test_at_least_two_leaves_out_every_choice_of_one():
    got = answer.at_least_two({"a": 1, "b": 2.0, "c": NAN, "d": None, "e": 7, "f": np.inf})
    assert list(got) == ["a", "b", "c", "d", "e", "f"]
    assert {c: k for c, k in got.items() if not math.isnan(k)} == {"b": 2.0, "e": 7}
    assert answer.at_least_two({}) == {}


# --- the rule --------------------------------------------------------------------------------

def test_a_combined_rule_names_both_tests():
    text = Rule("at_vote", "dip+gap", 0.01).describe()
    assert text == ("algorithm by the lowest S(k)/S_perm(k) at its own voted k; k = 1 decided "
                    "by Hartigan's dip test of the first principal component at 0.01 and the "
                    "gap statistic's 1-s.e. rule")
    assert Rule(k1_test="dip+duda_hart").describe().endswith(
        "component at 0.05 and Duda & Hart's test")
    assert Rule().describe() == ("algorithm by the lowest minimum of S(k)/S_perm(k); k = 1 "
                                 "decided by the votes themselves")


@pytest.fixture
def answer_file(tmp_path, monkeypatch):
    """Write the answer's rule to a temporary ``answer_rule.csv`` read in place of the
    shipped one; the cache of :func:`shipped.answer_rule` cleared before and after."""
    path = tmp_path / "answer_rule.csv"
    monkeypatch.setattr(shipped, "ANSWER_FILE", path)
    shipped.answer_rule.cache_clear()

    def write(rows: dict):
        lines = ["key,value,why", *(f'{k},{v},"a test"' for k, v in rows.items())]
        path.write_text("\n".join(lines) + "\n")

    yield write
    shipped.answer_rule.cache_clear()


def test_the_shipped_rule_is_read_from_the_answer_file(answer_file):
    answer_file({"default_model": "kmeans", "auto_winner": "agreement",
                 "k1_test": "dip+duda_hart", "k1_level": "0.1"})
    assert answer.default_model() == "kmeans"
    assert answer.shipped_rule() == Rule("agreement", "dip+duda_hart", 0.1)


def test_keys_missing_from_the_answer_file_take_the_defaults(answer_file):
    answer_file({"default_model": "gmm"})
    assert answer.shipped_rule() == Rule("lowest", "none", 0.05)


# --- the gate of k = 1 -----------------------------------------------------------------------

def test_without_a_test_or_without_a_clustering_the_gate_is_shut():
    X = one_blob()
    assert gate(X, {"kmeans": summary(gap=1)}, Rule(k1_test="none")) == (False, "")
    assert gate(X, {"svd": summary(gap=1)}, Rule(k1_test="gap")) == (False, "")


def test_the_gate_reads_kmeans_choices_else_the_first_models():
    X = one_blob()
    both = {"gmm": summary(gap=2), "kmeans": summary(gap=1)}
    assert gate(X, both, Rule(k1_test="gap")) == (True, "gap of kmeans chooses k = 1")
    first = {"ward": summary(duda_hart=1), "gmm": summary(duda_hart=2)}
    assert gate(X, first, Rule(k1_test="duda_hart")) == (
        True, "duda_hart of ward chooses k = 1")
    assert gate(X, {"kmeans": summary(gap=3)}, Rule(k1_test="gap")) == (
        False, "k = 1 ruled out: gap of kmeans chooses k = 3, not 1")
    assert gate(X, {"kmeans": summary(silhouette=2)}, Rule(k1_test="gap")) == (
        False, "k = 1 not tested: gap of kmeans was not computed (not among the criteria)")
    assert gate(X, {"kmeans": summary(gap=3)}, Rule(k1_test="gap"), k_lo=2) == (False, "")


def test_the_dip_gate_on_one_blob_and_on_three():
    one, said = gate(one_blob(), {"kmeans": summary(gap=2)}, Rule(k1_test="dip"))
    p = dip_pvalue(PCA(1).fit_transform(one_blob())[:, 0])[1]  # 0.99: unimodal
    assert one and said == ("the first principal component looks unimodal (dip test p = "
                            f"{p:.3g} > 0.05)")
    one, said = gate(three_blobs(), {"kmeans": summary(gap=1)}, Rule(k1_test="dip"))
    assert not one and said.startswith("k = 1 ruled out: the first principal component has "
                                       "more than one mode (dip test p = ")
    assert said.endswith(" ≤ 0.05)")


def test_a_combined_gate_says_both_parts():
    rule = Rule(k1_test="dip+gap")
    one, said = gate(one_blob(), {"kmeans": summary(gap=1)}, rule)
    dip, gap = said.split(" and ")
    assert one and dip.endswith("> 0.05)") and gap == "gap of kmeans chooses k = 1"
    # not one group: the words give what the tests that see groups found, for the answer
    one, said = gate(one_blob(), {"kmeans": summary(gap=3)}, rule)
    assert not one and said == "k = 1 ruled out: gap of kmeans chooses k = 3, not 1"
    one, said = gate(three_blobs(), {"kmeans": summary(duda_hart=1)},
                            Rule(k1_test="dip+duda_hart"))  # the dip overrules k-means
    assert not one and said.startswith("k = 1 ruled out: the first principal component has")
    assert "duda_hart" not in said


def test_dip_of_reads_the_first_principal_component():
    rng = np.random.default_rng(1)
    # bimodal along x, the axis of most variance
    bimodal = np.r_[rng.normal([-4, 0], [1, 0.3], (150, 2)), rng.normal([4, 0], [1, 0.3], (150, 2))]
    # bimodal along y, but x (sd 5) is the first component, and it is unimodal
    hidden = np.c_[rng.normal(0, 5, 300), np.r_[rng.normal(-1, 0.2, 150), rng.normal(1, 0.2, 150)]]
    for X, low in ((bimodal, True), (hidden, False)):
        p = Measuring(X, "0" * 24, {}, None)(GATES["dip"], 2, 0.05)
        assert p == pytest.approx(dip_pvalue(PCA(1).fit_transform(X)[:, 0])[1], rel=1e-9)
        assert (p < 1e-3) if low else (p > 0.05)
    assert dip_pvalue(hidden[:, 1])[1] < 1e-3  # what the second component would have said


# --- a model's answer ------------------------------------------------------------------------

def test_the_answers_support_and_weakness():
    assert Answer("m", 3.0, "x", support=0.59).weak
    assert not Answer("m", 3.0, "x", support=answer.WEAK_SUPPORT).weak
    assert not Answer("m", 3.0, "x").weak  # no splits: no doubt said
    row = Answer("m", 3.0, "x", "m", 2.0, 0.5, 0.3, "w", 10, True, "t").row()
    assert row == {"model": "m", "k": 3.0, "how": "x", "why": "w", "runner_up_model": "m",
                   "runner_up_k": 2.0, "support": 0.5, "runner_up_support": 0.3, "draws": 10,
                   "weak": True, "at_edge": True, "tie": "t"}
    assert answer.headline(row) == "m, k = 3"
    assert answer.doubt(row) == ("the answer is backed by 5 of 10 random splits; the "
                                 "runner-up (the best other k), m at k = 2, by 3 of 10 — a "
                                 "weak answer: fewer than 60% of the random splits back it")
    one = Answer(None, 1.0, "no group structure", "m", 4.0, 0.9, 0.7, "w", 10).row()
    assert answer.headline(one) == "no group structure (k = 1)"
    assert answer.doubt(one) == ("the tests of k = 1 say so again on 9 of 10 redraws of their "
                                 "randomness (splits, reference sets, samples); the best "
                                 "k ≥ 2, m at k = 4, by 7 of 10")
    voted = Answer(None, 1.0, "majority vote of m", "m", 4.0, 0.5, 0.7, "", 10).row()
    assert answer.headline(voted) == "no group structure (k = 1)"
    assert answer.doubt(voted) == ("the answer is backed by 5 of 10 random splits; the best "
                                   "k ≥ 2, m at k = 4, by 7 of 10 — a weak answer: fewer "
                                   "than 60% of the random splits back it")


def fields(a: Answer) -> tuple:
    """An answer's fields, NaN as None (NaN ≠ NaN)."""
    return tuple(None if isinstance(v, float) and math.isnan(v) else v
                 for v in (a.model, a.k, a.how, a.runner_up_model, a.runner_up_k, a.support,
                           a.runner_up_support))


def decided(model: str, picks: dict, rule=voting.PLURALITY) -> tuple:
    """One algorithm's answer from its criteria's choices ``picks``: (model, k, how,
    runner-up model, runner-up k), NaN as None."""
    d = AnswerRule(model).decide(Facts({model: picks}, 10), {model: rule})
    return tuple(None if isinstance(v, float) and math.isnan(v) else v
                 for v in (d.voted_model, d.voted_k, d.how, d.runner_up_model, d.runner_up_k))


def test_a_vote_plurality_majority_single_and_none():
    # weights 2: 2, 3: 1, 4: 1 — 2 holds half, not more: plurality; next: 3 (ties: smaller k)
    assert decided("kmeans", {"a": 2, "b": 2, "c": 3, "d": 4}) == (
        "kmeans", 2.0, "plurality vote of kmeans", "kmeans", 3.0)
    assert decided("gmm", {"a": 2, "b": 2, "c": 5}) == (
        "gmm", 2.0, "majority vote of gmm", "gmm", 5.0)
    assert decided("gmm", {"a": 2, "b": 2}) == ("gmm", 2.0, "majority vote of gmm", None, None)
    assert decided("gmm", {"a": NAN}) == (
        "gmm", None, "no vote: no criterion cast one", None, None)


def test_after_a_runoff_the_runner_up_is_the_other_finalist():
    # first round 2: 2, 5: 2, 4: 1 → finalists 2 and 5; the voter at 4 backs 5 (nearer): 5
    rule = voting.VoteRule(runoff=True)
    assert decided("m", {"a": 2, "b": 2, "c": 4, "d": 5, "e": 5}, rule) == (
        "m", 5.0, "run-off vote of m", "m", 2.0)


def test_split_shares_by_hand():
    # mtc chooses its least mean cost; per split the least cost at k = 3, 2, 3, 1
    best = [3, 2, 3, 1]
    rows = pd.DataFrame([{"criterion": "mtc", "k": k, "rep": r,
                          "score": 0.0 if k == best[r] else 1.0 + k}
                         for r in range(4) for k in range(1, 5)])
    s = Settings("kmeans", 1, 4, ("silhouette", "calinski_harabasz", "mtc"))
    table = summary(silhouette=3, calinski_harabasz=2, mtc=2)
    # per split the plurality of {3, 2, mtc's}: 3 → 3; 2 → 2; 1 → a three-way tie: 1
    assert answer.split_shares(rows, table, s, voting.PLURALITY) == {3: 0.5, 2: 0.25, 1: 0.25}
    # only mtc votes: its own choice on each split
    alone = voting.VoteRule(weights={"mtc": 1.0})
    assert answer.split_shares(rows, table, s, alone) == {3: 0.5, 2: 0.25, 1: 0.25}
    # mtc not among the criteria: no split is recomputed
    assert answer.split_shares(rows, table, Settings("kmeans", 1, 4, ("silhouette",)),
                               voting.PLURALITY) == {}


# --- auto's winner rules ---------------------------------------------------------------------

def S(**values) -> pd.Series:
    """A curve S(k)/S_perm(k): ``S(k2=0.5, k3=0.2)``."""
    return pd.Series({int(k[1:]): v for k, v in values.items()}, dtype=float)


def test_at_vote_takes_the_lowest_curve_at_the_own_voted_k():
    curves = {"a": S(k2=0.5, k3=0.2), "b": S(k2=0.1, k3=0.4), "c": S(k2=0.3),
              "d": S(k2=0.05, k3=0.05), "e": S(k2=0.3, k3=0.3)}
    votes = {"a": 3, "b": 3, "c": 1, "e": 5}
    table = auto.standings(curves, votes, "at_vote").set_index("model")
    # at the voted k: a 0.2, b 0.4; c voted 1 (< 2), d no vote, e 5 (off its curve): NaN
    assert table["at_vote"].fillna(-1).to_dict() == {"a": 0.2, "b": 0.4, "c": -1, "d": -1,
                                                     "e": -1}
    assert table["backers"].to_dict() == {"a": 2, "b": 2, "c": 1, "d": 0, "e": 1}
    assert table["winner"].to_dict() == {"a": True, "b": False, "c": False, "d": False,
                                         "e": False}
    assert table["margin"].isna().all()  # a margin for lowest only
    assert auto.choose(curves, votes, "at_vote") == ("a", 3.0)
    # lowest: d's 0.05 is lowest but d votes none, so among a, b, c, e: b's 0.1, its vote 3
    assert auto.choose(curves, votes, "lowest") == ("b", 3.0)


def test_at_vote_ties_go_to_the_first_and_no_vote_qualifies_none():
    x, y = S(k2=0.3), S(k2=0.1, k4=0.3)
    assert auto.choose({"x": x, "y": y}, {"x": 2, "y": 4}, "at_vote") == ("x", 2.0)
    assert auto.choose({"y": y, "x": x}, {"x": 2, "y": 4}, "at_vote") == ("y", 4.0)
    table = auto.standings({"x": x, "y": y}, {"x": 1}, "at_vote")
    assert not table["winner"].any()
    assert auto.winner(table)[0] is None and math.isnan(auto.winner(table)[1])


@pytest.mark.parametrize("curves,votes,won", [
    # k = 3 has two backers (a, c): the lower minimum a (0.1); b's 0.05 backs k = 2 alone
    ({"a": S(k2=0.3, k3=0.1), "b": S(k2=0.05), "c": S(k3=0.3), "e": S(k4=0.2)},
     {"a": 3, "b": 2, "c": 3, "e": 4}, ("a", 3.0)),
    # k = 3 (a, c) and k = 2 (b, d) two each: the lowest minimum of them all, a at 0.1;
    # the smaller k breaks ties of the minimum only
    ({"a": S(k3=0.1), "b": S(k2=0.2), "c": S(k3=0.4), "d": S(k2=0.5)},
     {"a": 3, "b": 2, "c": 3, "d": 2}, ("a", 3.0)),
    # as above with a and b tied at 0.2: the smaller k, b's 2
    ({"a": S(k3=0.2), "b": S(k2=0.2), "c": S(k3=0.4), "d": S(k2=0.5)},
     {"a": 3, "b": 2, "c": 3, "d": 2}, ("b", 2.0)),
    # tied minimum and k: the first
    ({"a": S(k2=0.2), "b": S(k2=0.2)}, {"a": 2, "b": 2}, ("a", 2.0)),
    # votes of k = 1 count; without any vote no algorithm qualifies
    ({"a": S(k2=0.4), "b": S(k2=0.3), "c": S(k2=0.1)}, {"a": 1, "b": 1, "c": 2}, ("b", 1.0)),
    ({"a": S(k2=0.4), "b": S(k2=0.3)}, {}, (None, NAN)),
])
def test_agreement_by_hand(curves, votes, won):
    got = auto.choose(curves, votes, "agreement")
    assert got[0] == won[0]
    assert got[1] == won[1] or (math.isnan(got[1]) and math.isnan(won[1]))


def test_agreement_does_not_elect_an_algorithm_auto_leaves_out():
    empty = pd.Series(dtype=float)
    table = auto.standings({"a": empty, "b": empty, "c": S(k2=0.2)}, {"a": 3, "b": 3, "c": 2},
                        "agreement")
    left_out = auto.unranked(table, {})
    assert set(left_out) == {"a", "b"}
    assert auto.winner(table)[0] not in left_out


def test_an_unknown_winner_rule_is_refused():
    with pytest.raises(ValueError, match="unknown winner rule 'nope'"):
        auto.standings({"a": S(k2=0.1)}, {"a": 2}, "nope")


def test_runner_up_by_hand():
    # at_vote: a wins (0.2 at its 3); b votes the same k; of c (0.4) and d (0.5): c
    curves = {"a": S(k3=0.2), "b": S(k3=0.3), "c": S(k2=0.4), "d": S(k4=0.5)}
    votes = {"a": 3, "b": 3, "c": 2, "d": 4}
    table = auto.standings(curves, votes, "at_vote")
    assert auto.runner_up(table, "at_vote") == ("c", 2.0)
    assert auto.choose({m: curves[m] for m in "cd"}, votes, "at_vote") == ("c", 2.0)
    # agreement: k = 3 (a, c, f) wins, a the most stable; had no one voted 3, k = 2 (b, d)
    # has the most backers and b the lower minimum — not e (0.05, alone at 4)
    curves = {"a": S(k3=0.3), "b": S(k2=0.2), "c": S(k3=0.4), "d": S(k2=0.6),
              "e": S(k4=0.05), "f": S(k3=0.5)}
    votes = {"a": 3, "b": 2, "c": 3, "d": 2, "e": 4, "f": 3}
    table = auto.standings(curves, votes, "agreement")
    assert auto.winner(table) == ("a", 3.0)
    assert auto.runner_up(table, "agreement") == ("b", 2.0)
    assert auto.choose({m: curves[m] for m in "bde"}, votes, "agreement") == ("b", 2.0)
    # lowest: a (0.1) wins; b (0.15) votes a's k; c (0.2) is the runner-up
    curves = {"a": S(k2=0.1), "b": S(k2=0.15), "c": S(k2=0.2)}
    table = auto.standings(curves, {"a": 3, "b": 3, "c": 2})
    assert auto.runner_up(table) == ("c", 2.0)
    # every algorithm votes the winner's k, or none wins: no runner-up
    for votes in ({"a": 3, "b": 3, "c": 3}, {}):
        table = auto.standings(curves, votes, "at_vote")
        model, k = auto.runner_up(table, "at_vote")
        assert model is None and math.isnan(k)


def test_the_help_names_the_shipped_default():
    """``mtc select --help`` states the default model that answer_rule.csv ships."""
    from click.testing import CliRunner

    from mtc_cli.cli import main

    shipped.answer_rule.cache_clear()
    text = " ".join(CliRunner().invoke(main, ["select", "--help"]).output.split())
    assert f"(default: {answer.default_model()} for tables" in text


# --- what the answer of auto reads ---------------------------------------------------------

ALL = ("stability", "mtc", "capacity", "prediction_strength", "clest", "gap", "silhouette",
       "calinski_harabasz", "duda_hart", "knee", "bic")


def test_reads_keeps_the_stability_the_votes_and_the_tests_of_the_tested_model():
    rule = Rule(k1_test="dip+gap")
    kmeans_voters = set(voting.rule_for("kmeans", ALL).weights)
    assert set(rule.reads("kmeans", ALL, tested=True)) == {"stability", "gap"} | kmeans_voters
    assert set(rule.reads("kmeans", ALL, tested=False)) == {"stability"} | kmeans_voters
    assert "clest" not in kmeans_voters  # the shipped k-means vote: no Clest to compute
    # the algorithms of any shape vote by the stability alone; a plurality reads every one
    assert rule.reads("single", ALL, tested=False) == ("stability",)
    assert rule.reads("ward", ALL, tested=False) == ALL
    assert Rule(k1_test="duda_hart").reads("single", ALL, tested=True) == (
        "stability", "duda_hart")


@pytest.mark.slow
def test_auto_answers_alike_from_what_it_reads_and_from_every_criterion():
    """The rows of every criterion, cut to what :meth:`answer.AnswerRule.reads` keeps, give
    :func:`answer.find` the same answer, tallies and decision."""
    from dataclasses import replace

    from mtc_cli.selection.catalog import CRITERIA, auto_models, models_of
    from mtc_cli.selection.estimator import OrderSelector

    X = make_blobs(90, 2, centers=3, random_state=0)[0]
    every = [c for c in CRITERIA if c != "pac_mdl"
             and any(m in models_of(c) for m in auto_models())]
    est = OrderSelector(model="auto", k=(1, 4), criteria=every, splits=3, references=2,
                        clest_references=1, clest_splits=2).fit(X)
    fitted = est.selections_
    full = answer.find(X, {m: f.results_ for m, f in fitted.items()},
                       {m: f.summary_ for m, f in fitted.items()},
                       {m: f.settings_ for m, f in fitted.items()}, auto_mode=True)
    rows, summaries, settings = {}, {}, {}
    for i, (m, f) in enumerate(fitted.items()):
        read = answer.shipped_rule().reads(m, f.settings_.criteria, tested=i == 0)
        assert set(read) < set(f.settings_.criteria) or m in ("ward", "complete", "average")
        rows[m] = f.results_[f.results_["criterion"].isin(read)]
        summaries[m] = f.summary_[f.summary_["criterion"].isin(read)]
        settings[m] = replace(f.settings_, criteria=read)
    cut = answer.find(X, rows, summaries, settings, auto_mode=True)
    assert cut[0] == full[0]
    pd.testing.assert_frame_equal(cut[2], full[2])
    for m in fitted:
        pd.testing.assert_frame_equal(cut[1][m].reset_index(drop=True),
                                      full[1][m].reset_index(drop=True))


# --- consensus: ties decided by what the tied algorithms share ---------------------------

def test_a_consensus_answers_the_k_most_tied_algorithms_share():
    # a, b, c perfectly stable (0) — a and c at 7, b at 3; d less stable, at 2
    curves = {"a": S(k3=0.2, k7=0.0), "b": S(k3=0.0, k7=0.4), "c": S(k7=0.0),
              "d": S(k2=0.1)}
    votes = {"a": 3, "b": 3, "c": 7, "d": 2}
    table = auto.standings(curves, votes, "consensus").set_index("model")
    assert table["answer_k"].to_dict() == {"a": 7.0, "b": 3.0, "c": 7.0, "d": 2.0}
    assert auto.winner(auto.standings(curves, votes, "consensus")) == ("a", 7.0)
    assert table.loc["a", "backers"] == 2  # a and c share 7
    # the votes instead: a and b vote 3
    assert auto.choose(curves, votes, "consensus_vote") == ("a", 3.0)
    # lowest, as before: the tie goes to the largest k of it, then the first listed
    assert auto.choose(curves, votes, "lowest") == ("a", 3.0)


@pytest.mark.parametrize("rule", ["consensus", "consensus@0.05", "consensus_vote"])
def test_a_consensus_does_not_depend_on_the_order_of_the_algorithms(rule):
    rng = np.random.default_rng(3)
    curves = {"kmeans": S(k3=0.0, k7=0.1), "ward": S(k7=0.0), "single": S(k7=0.0),
              "spectral": S(k7=0.03), "gmm": S(k2=0.5)}
    votes = {"kmeans": 3, "ward": 7, "single": 7, "spectral": 7, "gmm": 2}
    first = auto.choose(curves, votes, rule)
    for _ in range(10):
        order = list(rng.permutation(list(curves)))
        got = auto.choose({m: curves[m] for m in order}, {m: votes[m] for m in order}, rule)
        assert got == first
    assert first[1] == 7.0


def test_a_consensus_tolerance_widens_the_tie():
    curves = {"a": S(k3=0.00), "b": S(k5=0.01), "c": S(k5=0.015)}
    votes = dict.fromkeys(curves, 2)
    assert auto.choose(curves, votes, "consensus") == ("a", 3.0)
    assert auto.choose(curves, votes, "consensus@0.02") == ("b", 5.0)


@pytest.mark.parametrize("use,count,k", [
    ("none", 3, 7.0),           # two k tied in number: the larger
    ("tiebreak", 3, 3.0),       # the count breaks the tie in number
    ("tiebreak", 5, 7.0),       # a count that is no tied k breaks nothing
    ("disagreement", 3, 3.0),   # whenever the tied algorithms disagree
])
def test_hdbscans_count_in_a_consensus(use, count, k):
    curves = {"a": S(k3=0.0), "b": S(k7=0.0)}
    table = auto.standings(curves, {"a": 2, "b": 2}, "consensus", count=count, count_use=use)
    assert auto.winner(table)[1] == k


def test_an_unknown_winner_rule_or_tolerance_is_refused():
    for rule in ("best", "lowest@0.1", "consensus@x"):
        with pytest.raises(ValueError, match="unknown winner rule"):
            auto.parse_rule(rule)


# --- the tests of k = 1 weighed at the k found ----------------------------------------------

def gap_curve(values: dict, se: float = 0.1) -> pd.DataFrame:
    """A gap statistic's curve as choice.summarize makes it: value Gap(k), lo Gap − s."""
    return pd.DataFrame({"criterion": "gap", "k": list(values), "value": list(values.values()),
                         "lo": [v - se for v in values.values()]})


def test_the_gap_at_k_weighs_gap_1_against_gap_at_the_k_voted():
    # Gap(1) = 0.5 beats Gap(2) = 0.3 (the 1-s.e. rule would stop at 1), but Gap(4) = 0.9
    curve = gap_curve({1: 0.5, 2: 0.3, 3: 0.6, 4: 0.9})
    ctx = Measuring(one_blob(), "0" * 24, {}, curve)
    rule = AnswerRule("kmeans", k1_test="gap_at_k")
    facts = Facts({"kmeans": {"a": 4, "b": 4}}, 10, measure=ctx)
    said = rule.test(facts, 4)
    (e,) = said.evidence
    assert not said.no_structure and e.k == 4 and e.statistic == pytest.approx(0.4)
    assert said.words == ("k = 1 ruled out: the gap statistic at k = 4 leads that of k = 1 by "
                          "more than its standard error (Gap(4) − Gap(1) = 0.4, s = 0.1)")
    assert rule.test(facts, 2).no_structure  # weighed at 2: Gap(2) − Gap(1) < s(2)
    # the answer weighs it at the k its vote gives: 4, so groups
    assert rule.decide(facts, {"kmeans": voting.PLURALITY}).k == 4


def test_each_test_of_k1_judges_its_own_statistic():
    judge = {name: GATES[name].judge for name in GATES}
    assert judge["dip"](0.2, 3, 0.05).says_one and not judge["dip"](0.01, 3, 0.05).says_one
    assert judge["dip_means"](0.01, 3, None).says_one
    assert not judge["dip_means"](0.02, 3, None).says_one
    assert judge["hdbscan"](1.0, 3, 20).says_one and judge["hdbscan"](0.0, 3, 20).says_one
    assert not judge["hdbscan"](2.0, 3, 20).says_one
    assert judge["sigclust"](0.3, 3, 0.05).says_one
    assert not judge["sigclust"](0.02, 3, 0.05).says_one
    assert not judge["sigclust"](NAN, 3, 0.05).says_one  # no p: no evidence of one group
    assert judge["clest"](1.0, 3, None).says_one and not judge["clest"](2.0, 3, None).says_one
    assert judge["stability"](0.3, 3, 0.07).says_one
    assert not judge["stability"](0.0, 3, 0.07).says_one


def test_every_test_of_a_rule_must_say_one_and_each_reads_its_parameter():
    measured = {"dip": 0.5, "dip_means": 0.0, "hdbscan": {10: 2.0, 20: 1.0}}

    def measure(gate, k, param, model=None):
        value = measured[gate.name]
        return value[int(param)] if isinstance(value, dict) else value

    facts = Facts({"kmeans": {"a": 3}}, 10, measure=measure)
    assert AnswerRule("kmeans", k1_test="dip+dip_means+hdbscan@20").test(
        facts, 3).no_structure
    said = AnswerRule("kmeans", k1_test="dip+dip_means+hdbscan@10").test(facts, 3)
    assert not said.no_structure and said.words.endswith("HDBSCAN (min_cluster_size 10) "
                                                         "finds 2 clusters")
    assert [e.test for e in said.evidence] == ["dip", "dip_means", "hdbscan"]
    assert AnswerRule(k1_test="dip@0.6").tests == [("dip", 0.6)]
    assert AnswerRule(k1_test="dip", k1_level=0.01).tests == [("dip", 0.01)]


def test_the_stability_test_reads_the_answering_algorithms_curve_at_the_k_found():
    stability = {"a": S(k2=0.4, k5=0.01), "b": S(k2=0.3, k5=0.2)}
    ctx = Measuring(None, "0" * 24, {}, None, stability=stability)
    facts = Facts({"kmeans": {}, "a": {}, "b": {}}, 10, measure=ctx)
    rule = AnswerRule("auto", k1_test="stability@0.07")
    assert not rule.test(facts, 5, "a").no_structure   # 0.01: a's k = 5 is stable
    assert rule.test(facts, 5, "b").no_structure       # 0.2: what one group reaches
    assert rule.test(facts, 2, "a").no_structure
    assert not rule.test(facts, 3, "a").no_structure   # no value at 3: no evidence


def test_the_measures_of_a_selection_are_made_once_and_seeded_by_the_data():
    X = three_blobs()
    a = Measuring(X, "ab" * 12, {}, None)
    b = Measuring(X, "ab" * 12, {}, None)
    assert a(GATES["dip_means"], 2, None) == b(GATES["dip_means"], 2, None)
    assert a(GATES["sigclust"], 3, 0.05) == b(GATES["sigclust"], 3, 0.05)
    assert a(GATES["sigclust"], 3, 0.05) <= 0.05  # three blobs: beyond a Gaussian's k-means
    assert a(GATES["hdbscan"], 2, 10) == 3.0


def test_the_tests_of_k1_read_sparse_data_as_their_dense_rows():
    """A sparse matrix (spkmeans' documents × terms): the sample the tests read is its rows
    made dense, the same numbers, and HDBSCAN's count runs on it."""
    import scipy.sparse as sp

    rng = np.random.default_rng(0)
    dense = np.where(rng.random((120, 30)) < 0.2, rng.integers(1, 5, (120, 30)), 0).astype(float)
    seen = Measuring(sp.csr_matrix(dense), "0" * 24, {}, None, max_items=50)
    sample = seen.sample()
    assert isinstance(sample, np.ndarray) and sample.shape == (50, 30)
    assert all((row == dense).all(axis=1).any() for row in sample)
    assert np.isfinite(seen(GATES["hdbscan"], 2, 10))
