"""One answer everywhere (issue 49): the text, the JSON, the figure's title and its data view
(``projection.csv``) say the same model and k; k = 1 in one colour and in the tests' words;
an answer at the edge of the range flagged in text and JSON with a wider range to try; a tie
said with how it was broken; every voter without a vote with its reason."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_blobs

from mtc_cli.selection import answer, figure

FAST = ["--splits", "3", "--set", "references=3", "--set", "clest_references=1",
        "--set", "clest_splits=2", "-j", "1"]


def run(cli, tmp_path, X, *args) -> tuple[dict, str, dict, pd.DataFrame | None]:
    """(the row of answer.csv, the text, the JSON's answer, projection.csv) of one run."""
    data = tmp_path / "d.csv"
    pd.DataFrame(X, columns=[f"x{j}" for j in range(X.shape[1])]).to_csv(data, index=False)
    out = tmp_path / "out"
    text = cli("select", data, *args, *FAST, "--out", out)
    assert text.exit_code == 0, text.stderr
    shown = cli("select", data, *args, *FAST, "--out", out, "--json")
    found = pd.read_csv(out / "answer.csv").iloc[0].to_dict()
    projection = out / "projection.csv"
    return (found, text.stdout, json.loads(shown.stdout)["answer"],
            pd.read_csv(projection) if projection.is_file() else None)


def test_one_answer_in_text_json_figure_and_projection(cli, tmp_path):
    X, _ = make_blobs(300, 2, centers=[[0, 0], [10, 0], [0, 10]], random_state=0)
    found, text, shown, projection = run(cli, tmp_path, X, "--model", "kmeans")
    assert found["k"] == 3 and shown["k"] == 3 and shown["model"] == "kmeans"
    assert f"Answer: {answer.headline(found)}." in text and shown["headline"] == "kmeans, k = 3"
    assert f"Doubt: {answer.doubt(found)}."[:60] in text.replace("\n  ", " ")
    assert shown["doubt"] == answer.doubt(found)
    assert projection["cluster"].nunique() == 3
    title = figure._view_title(pd.DataFrame([found]), projection, None, np.nan)
    assert title == "kmeans at the answer's k = 3 (300 shown)"
    assert figure._answer_line(pd.DataFrame([found])).startswith("answer: kmeans, k = 3 — ")
    assert "Why: k = 1 ruled out" in text or "Why:" not in text


def test_no_group_structure_is_one_colour_and_says_how(cli, tmp_path):
    """k = 1 names no algorithm, whichever way it is reached: by the tests of k = 1 (what
    they found, and how often their redraws say so again) or, under the shipped rule, by
    the vote itself (how, and how many random splits back it)."""
    X = np.random.default_rng(1).normal(size=(300, 2))
    found, text, shown, projection = run(cli, tmp_path, X, "--model", "kmeans")
    if found["k"] != 1:
        pytest.skip(f"the shipped rule answers {found['k']:g} on this blob")
    assert "Answer: no group structure (k = 1)." in text and shown["model"] is None
    assert np.isfinite(found["support"])  # its own doubt, filled in
    if shown["why"]:
        assert "the tests of k = 1 say so again on" in shown["doubt"]
    else:
        assert f"How: {found['how']}" in text and "random splits" in shown["doubt"]
    assert projection["cluster"].nunique() == 1
    assert figure._view_title(pd.DataFrame([found]), projection, None, np.nan) == \
        "no group structure: one colour (300 shown)"


def test_an_answer_at_the_edge_is_flagged_with_a_wider_range(cli, tmp_path):
    centres = [[10 * i, 10 * j] for i in range(3) for j in range(3)]
    X, _ = make_blobs(450, 2, centers=centres, cluster_std=0.5, random_state=0)
    found, text, shown, _ = run(cli, tmp_path, X, "--model", "ward", "--k", "1..4")
    if found["k"] != 4:
        pytest.skip(f"ward answers {found['k']:g} on nine blobs with k up to 4")
    assert shown["at_edge"] and bool(found["at_edge"])
    assert "At the edge: k = 4 is the largest k offered" in text and "--k 1..8" in text


def test_k1_is_not_weighed_when_the_range_starts_at_2(cli, tmp_path):
    X, _ = make_blobs(200, 2, centers=[[0, 0], [8, 0]], random_state=0)
    found, text, shown, _ = run(cli, tmp_path, X, "--model", "kmeans", "--k", "2..6")
    assert "k = 1" not in shown["why"] and "k = 1" not in shown["how"]


def test_a_tie_is_said_with_how_it_was_broken(cli, tmp_path):
    """Copies of three points: every algorithm perfectly stable at k = 3 — tied."""
    X = np.repeat([[0.0, 0.0], [5, 5], [10, 0]], 40, axis=0)
    found, text, shown, _ = run(cli, tmp_path, X)
    assert found["k"] == 3
    assert shown["tie"].startswith("9 algorithms tie ")
    assert "the lowest S/S_perm (0.000): kmeans, gmm" in shown["tie"]
    assert "Tie: 9 algorithms tie" in text


def test_every_voter_without_a_vote_says_why(cli, tmp_path):
    X, _ = make_blobs(200, 2, centers=6, random_state=3)
    data = tmp_path / "d.csv"
    pd.DataFrame(X, columns=["a", "b"]).to_csv(data, index=False)
    out = json.loads(cli("select", data, "--model", "kmeans", "--k", "1..3", *FAST,
                         "--out", tmp_path / "o", "--json").stdout)
    for c in out["criteria"]:
        assert c["votes"] == (c["without_vote"] == ""), c
        if c["at_edge"] and c["criterion"] in ("gap", "stability"):
            assert not c["votes"] and "the largest offered" in c["without_vote"]


def test_no_answer_is_said_with_why_and_a_wider_range():
    """Every criterion at the largest k offered abstains: the answer says there is none, why,
    and the range to try (twice the one offered)."""
    from mtc_cli.selection.output import answer_lines

    found = {"model": "kmeans", "k": float("nan"), "how": "no vote: no criterion cast one"}
    text = " ".join(answer_lines(found, 1, 3))
    assert "Answer: no answer — no vote: no criterion cast one." in text
    assert "a wider range may give one (--k 1..6)" in text
    assert not any(line.startswith("Doubt") for line in answer_lines(found, 1, 3))
