"""The shapes league's tables: the adjusted Rand index of an answer's clustering (noise
points left out) and ``auto`` carrying its winner's."""

import numpy as np
import pandas as pd
import pytest

from experiments.shapes_league import agreement, answers, league


def test_agreement_leaves_the_background_noise_out():
    truth = np.array([0, 0, 1, 1, -1, -1])
    assert agreement(truth, [1, 1, 0, 0, 0, 1]) == 1.0    # renamed groups, noise anywhere
    # by hand: contingency [[1, 1], [1, 1]], Σ C(n_ij, 2) = 0, expected 2·2/6, max 2:
    # (0 − 2/3) / (2 − 2/3) = −1/2
    assert agreement(truth, [0, 1, 0, 1, 0, 0]) == pytest.approx(-0.5)


def test_auto_answers_with_its_winners_vote_and_clustering():
    base = {"dataset": "moons-r0", "family": "shapes", "group": "moons", "true_k": 2}
    rows = pd.DataFrame([
        {**base, "model": "kmeans", "criterion": "vote", "k": 2, "score": 0.0},
        {**base, "model": "kmeans", "criterion": "ari", "k": 2, "score": 0.24},
        {**base, "model": "single", "criterion": "vote", "k": 2, "score": 0.0},
        {**base, "model": "single", "criterion": "ari", "k": 2, "score": 1.0},
        *({**base, "model": m, "criterion": "s_perm", "k": k, "score": s}
          for m, curve in (("kmeans", (0.4, 0.5)), ("single", (0.1, 0.6)))
          for k, s in zip((2, 3), curve, strict=True)),
    ])
    a = answers(rows).set_index("model")
    assert a.loc["auto", "winner"] == "single" and a.loc["auto", "k"] == 2
    assert a.loc["auto", "ari"] == 1.0 and a.loc["kmeans", "ari"] == 0.24
    table = league(a.reset_index()).set_index("model")
    assert table.loc["kmeans", "shapes_recovered"] == table.loc["auto", "shapes_recovered"] == 1
    assert table.loc["kmeans", "shapes_mean_ari"] == 0.24
    assert table.loc["auto", "shapes_mean_ari"] == 1.0
