"""The README's league table (mtc_cli/show/docs.py): the test half only, and the peers beside
mtc's votes on the same data sets, refused when they were put beside another league."""

import pandas as pd
import pytest

from mtc_cli.core.errors import MtcError
from mtc_cli.show.docs import league_table


def _league(tmp_path, vote_share=0.8):
    rows = [("test", "kmeans", "vote", vote_share), ("test", "kmeans", "gap", 0.7),
            ("test", "kmeans", "plurality", 0.6), ("fit", "kmeans", "vote", 0.9)]
    df = pd.DataFrame(rows, columns=["half", "model", "criterion", "recovered"]).assign(
        rank=1, recovered_k_ge_2=0.5, mean_abs_error=0.25, milligan_cooper=0.5,
        n_datasets=10)
    (tmp_path / "criteria_league").mkdir(exist_ok=True)
    df.to_csv(tmp_path / "criteria_league" / "league.csv", index=False)
    return df


def test_the_table_shows_the_test_half_and_the_peers_beside_the_votes(tmp_path):
    df = _league(tmp_path)
    assert "90 %" not in league_table(tmp_path)  # the fit half is not shown
    peers = pd.DataFrame([("test", "peer", "", "validclust", 0.75, 10),
                          ("fit", "peer", "", "validclust", 0.7, 10)],
                         columns=["half", "tool", "model", "criterion", "recovered",
                                  "n_datasets"])
    both = pd.concat([df.assign(tool="mtc"), peers], ignore_index=True)
    (tmp_path / "benchmarks").mkdir()
    both.to_csv(tmp_path / "benchmarks" / "league_with_peers.csv", index=False)
    text = league_table(tmp_path)
    peer_part = text.split("The peers")[1]
    assert "validclust | 75 %" in peer_part and "**vote** | 80 %" in peer_part
    assert "gap | 70 %" in peer_part  # the best single criterion of the model
    _league(tmp_path, vote_share=0.85)  # the league moved; the peers' table did not
    with pytest.raises(MtcError, match="bench_peers.py --beside-league"):
        league_table(tmp_path)
