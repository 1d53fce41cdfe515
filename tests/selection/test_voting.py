"""The vote (mtc_cli/selection/voting.py): ballots, ties, the run-off, the kinds said, the
fit of a rule on hand-made elections, and the shipped rule against the league's."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mtc_cli.selection import shipped, voting
from mtc_cli.selection.output import vote_lines

ROOT = Path(__file__).resolve().parents[2]


def summary_of(choices: dict, k_hi: int = 12) -> pd.DataFrame:
    """A summary table of ``choices`` (criterion → k) on the range 1..k_hi."""
    ks = np.array(list(choices.values()), dtype=float)
    return pd.DataFrame({"criterion": list(choices), "selected_k": ks,
                         "at_edge": ks >= k_hi, "note": ""})


def test_plurality_ties_go_to_the_smallest_k_and_every_tied_k_is_marked():
    k, table = voting.elect({"a": 5, "b": 3, "c": 3, "d": 5, "e": 2, "f": np.nan},
                             voting.PLURALITY, k_hi=10)
    assert k == 3
    assert table[["k", "votes", "leading", "voted"]].to_dict("list") == {
        "k": [2, 3, 5], "votes": [1, 2, 2], "leading": [False, True, True],
        "voted": [False, True, False]}
    assert voting.kind(table) == "plurality"
    lines = vote_lines(table, voting.PLURALITY, summary_of({"a": 5, "b": 3, "c": 3, "d": 5,
                                                            "e": 2, "f": np.nan}))
    assert lines[2] == (
        "Plurality vote: k = 3 (2 of the 5 votes cast, 1 criterion without a vote; tally "
        "2 ×1, 3 ×2, 5 ×2; k = 3, 5 tie for the lead (2 votes each); the smallest is taken: "
        "k = 3)")
    assert lines[3] == "  Without a vote, no choice: f."
    _, clear = voting.elect({"a": 4, "b": 4, "c": 2}, voting.PLURALITY, k_hi=10)
    assert voting.kind(clear) == "majority"


@pytest.mark.parametrize("votes,cast,kind", [(6, 11, "majority"), (5, 11, "plurality"),
                                             (5, 10, "plurality"), (1, 1, "majority")])
def test_a_majority_is_more_than_half_of_the_weight_cast(votes, cast, kind):
    choices = {f"c{i}": (2 if i < votes else 3 + i) for i in range(cast)}
    _, table = voting.elect(choices, voting.PLURALITY, k_hi=100)
    assert voting.kind(table) == kind


def test_weights_voters_and_the_edge():
    rule = voting.VoteRule(weights={"a": 0.9, "b": 0.2, "c": 0.3}, edge_abstains=True)
    # a alone (0.9) outweighs b + c (0.5); d is no voter; c's choice at k_hi abstains
    k, table = voting.elect({"a": 2, "b": 3, "c": 3, "d": 3}, rule, k_hi=8)
    assert k == 2 and table["votes"].tolist() == [1, 2]
    np.testing.assert_allclose(table["weight"], [0.9, 0.5])
    k, table = voting.elect({"a": 8, "b": 3, "c": 3}, rule, k_hi=8)
    assert k == 3 and table["k"].tolist() == [3]


def test_the_run_off_backs_the_nearer_finalist():
    rule = voting.VoteRule(runoff=True)
    # first round: 2 ×3, 6 ×2, 5 ×1, 7 ×1 → finalists 2 and 6; 5 and 7 back 6: 4 against 3
    choices = {"a": 2, "b": 2, "c": 2, "d": 6, "e": 6, "f": 5, "g": 7}
    k, table = voting.elect(choices, rule, k_hi=12)
    assert k == 6 and voting.kind(table) == "run-off"
    assert table.loc[table["finalist"], "k"].tolist() == [2, 6]
    # equidistant voters abstain: 4 is as far from 2 as from 6; 3 against 2 → k = 2
    k, _ = voting.elect({c: k for c, k in choices.items() if c != "g"} | {"f": 4}, rule,
                         k_hi=12)
    assert k == 2


def test_the_shipped_rule_is_the_leagues():
    committed = ROOT / "results" / "league" / "vote_rule.csv"
    if not committed.is_file():
        pytest.skip("the league has not written vote_rule.csv")
    pd.testing.assert_frame_equal(pd.read_csv(shipped.VOTE_FILE), pd.read_csv(committed))


def test_the_verdict_line_says_majority_plurality_or_run_off_with_its_counts():
    """One line per case: a majority (more than half of the votes cast), even under a rule
    with a run-off; a plurality; a run-off with both finalists' backing."""
    runoff = voting.VoteRule(weights=dict.fromkeys("abcdefg", 1.0), runoff=True, name="r")
    _, table = voting.elect({"a": 4, "b": 4, "c": 4, "d": 2}, runoff, k_hi=10)
    assert vote_lines(table, runoff, summary_of({"a": 4, "b": 4, "c": 4, "d": 2}))[-1] == (
        "Majority vote: k = 4 (3 of the 4 votes cast; tally 2 ×1, 4 ×3)")
    choices = {"a": 2, "b": 2, "c": 2, "d": 6, "e": 6, "f": 5, "g": 7}
    _, table = voting.elect(choices, runoff, k_hi=12)
    # h is no voter of the rule: not counted among those without a vote
    assert vote_lines(table, runoff, summary_of({**choices, "h": np.nan}))[-1] == (
        "Run-off vote: k = 6 (4 of the 7 votes cast back it against 3 for k = 2, each voter "
        "backing the nearer finalist; first round 2 of 7; tally 2 ×3, 5 ×1, 6 ×2, 7 ×1)")
    _, table = voting.elect(choices, voting.PLURALITY, k_hi=12)
    assert vote_lines(table, voting.PLURALITY, summary_of(choices))[-1].startswith(
        "Plurality vote: k = 2 (3 of the 7 votes cast; tally 2 ×3, 5 ×1, 6 ×2, 7 ×1)")
