"""Selection summary and target checks on small tables worked out by hand."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mtc_cli.run.config import Target
from mtc_cli.show.tables import select_per_rep, summarize_selection, summary_wide
from mtc_cli.show.targets import check_targets


@pytest.fixture
def rows():
    # condition s=1: rep 0 scores min at k=2, rep 1 tie between k=1 and k=3 → k=1
    data = [
        (1, 0, "a", 1, 5.0), (1, 0, "a", 2, 1.0), (1, 0, "a", 3, 2.0),
        (1, 1, "a", 1, 0.5), (1, 1, "a", 2, 0.9), (1, 1, "a", 3, 0.5),
        (1, 0, "b", 1, 5.0), (1, 0, "b", 2, 1.0), (1, 0, "b", 3, 9.0),
        (1, 1, "b", 1, 5.0), (1, 1, "b", 2, 1.0), (1, 1, "b", 3, float("nan")),
    ]
    return pd.DataFrame(data, columns=["s", "rep", "criterion", "k", "score"])


def test_select_per_rep_min_max_and_ties(rows):
    chosen = select_per_rep(rows, ["s"], {"a": "min", "b": "max"})
    got = {(r.criterion, r.rep): r.selected_k for r in chosen.itertuples()}
    assert got == {("a", 0): 2, ("a", 1): 1, ("b", 0): 3, ("b", 1): 1}  # NaN ignored


def test_summary_median_and_quartiles(rows):
    s = summarize_selection(rows, ["s"], {"a": "min", "b": "max"})
    a = s[s.criterion == "a"].iloc[0]
    assert (a.selected_k, a.selected_k_q25, a.selected_k_q75, a.n_reps) == (1.5, 1.25, 1.75, 2)
    assert list(s.criterion) == ["a", "b"]
    wide = summary_wide(s.assign(true_k=2))
    assert list(wide.columns) == ["s", "a", "b", "true_k"] and wide.loc[0, "a"] == "1.5 [1.25–1.75]"


def test_targets_hold_fail_and_report_errors():
    summary = pd.DataFrame({"x": [0.1, 0.2, 0.3], "criterion": ["m"] * 3, "selected_k": [3, 3, 2]})
    out = check_targets([
        Target("all", "selected_k == 3", where="x <= 0.2"),
        Target("some", "selected_k == 3"),
        Target("bad", "nope > 1"),
        Target("empty", "selected_k == 3", where="x > 5"),
        Target("other", "v > 1", table="missing"),
        Target("mean", "selected_k.mean() >= 2.5"),
    ], {"summary": summary})
    assert list(out.holds) == [True, False, False, False, False, True]
    assert out.observed[5].startswith("selected_k.mean() = 2.667")
    assert out.observed[0] == "selected_k=3 (2 rows)"
    assert "fails at x=0.3" in out.observed[1]
    assert out.observed[2].startswith("error:") and "no rows" in out.observed[3]
    assert "no table 'missing'" in out.observed[4]
    assert list(out.status) == ["holds", "fails", "error", "fails", "error", "holds"]


def test_kinds_and_targets_that_cannot_be_tested():
    summary = pd.DataFrame({"selected_k": [3, 3]})
    out = check_targets([
        Target("paper's", "selected_k == 3"),
        Target("ours", "selected_k == 2", kind="ours"),
        Target("undecidable", "selected_k == 3", testable=False, why="one cluster only"),
    ], {"summary": summary})
    assert list(out.kind) == ["paper", "ours", "paper"]
    assert list(out.status) == ["holds", "fails", "not testable"]
    assert list(out.holds) == [True, False, False]  # not testable is neither held nor failed
    from mtc_cli.show.docs import count_line

    assert count_line(out) == ("2 paper claims: 1 hold, 0 fail, 1 not testable; 1 derived "
                               "and our own targets: 0 hold, 1 fail")


def test_mean_curves_by_hand():
    from mtc_cli.show.curves import mean_curves

    rows = pd.DataFrame({"rep": [0, 0, 1, 1, 0, 0, 1, 1],
                         "criterion": ["a"] * 4 + ["b"] * 4,
                         "k": [1, 2, 1, 2, 1, 2, 1, 2],
                         "score": [3.0, 1.0, 5.0, 2.0, 0.0, 4.0, 2.0, 4.0]})
    out = mean_curves(rows, ["a", "b"])
    a = out["curves"][out["curves"]["criterion"] == "a"].set_index("k")
    assert a.loc[1, "mean"] == 4.0 and a.loc[2, "mean"] == 1.5
    assert np.isclose(a.loc[1, "std"], np.sqrt(2.0)) and (a["n"] == 2).all()
    assert out["curve_choice"].iloc[0].to_dict() == {"a_k": 2, "b_k": 1}


def test_count_line_counts_the_reasons_of_failures():
    from mtc_cli.show.docs import count_line, reason_class

    out = pd.DataFrame({"kind": ["paper", "paper", "paper", "paper", "derived"],
                        "status": ["holds", "fails", "fails", "fails", "fails"],
                        "why": ["", "faithful — the paper's geometry is not stated",
                                "ours — our grid stops early", "faithful — another",
                                "a reading, no reason"]})
    assert count_line(out) == ("4 paper claims: 1 hold, 3 fail (2 faithful, 1 ours); "
                               "1 derived and our own targets: 0 hold, 1 fail")
    assert [reason_class(w) for w in out["why"]] == [None, "faithful", "ours", "faithful", None]
    assert reason_class("faithfully — x") is None and reason_class("ours") is None


def test_every_committed_failure_says_why():
    """Every target of the committed full profiles that fails or cannot be tested names its
    reason: "faithful — the unstated detail" or "ours — the setting" (issue 29, item 7)."""
    from mtc_cli.show.docs import reason_class

    root = Path(__file__).resolve().parents[2] / "results"
    files = sorted(root.glob("*/targets.csv"))
    assert files
    missing = []
    for f in files:
        df = pd.read_csv(f, keep_default_na=False)
        bad = df[df["status"] != "holds"]
        missing += [f"{f.parent.name}: {c}" for c, w in zip(bad["claim"], bad["why"], strict=True)
                    if reason_class(w) is None]
    assert not missing, missing
