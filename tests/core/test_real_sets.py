"""The real labelled sets of the league: every set loads, its shape and true k agree with
its CSV file and with data/league/SOURCE.md, every class holds 15 rows, the rule's thresholds
(data/league/SOURCE.md, R4–R7) hold on the files of the sets it chose, the z-scored designs
are z-scores, the design ids are unique."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import balanced_accuracy_score
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from mtc_cli.core.datasets import real_sets
from mtc_cli.core.datasets.real_sets import PROJECT_ROOT, REAL_SETS, designs, make

SOURCE_MD = PROJECT_ROOT / "data" / "league" / "SOURCE.md"
NAMES = sorted(REAL_SETS)


def _source_table() -> dict[str, tuple[int, int, int]]:
    """name → (n, d, k) from the rows of SOURCE.md's table of the sets."""
    rows = {}
    for line in SOURCE_MD.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\|\s*`(\w+)`\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|", line)
        if m:
            assert m.group(1) not in rows, f"{m.group(1)} twice in SOURCE.md's table"
            rows[m.group(1)] = tuple(int(m.group(i)) for i in (2, 3, 4))
    return rows


def test_the_league_has_at_least_16_sets_with_files_under_data_league():
    assert len(REAL_SETS) >= 16
    for name, s in REAL_SETS.items():
        assert s["file"] == f"data/league/{name}.csv"
        assert {"file", "true_k", "source", "why", "n", "d", "chosen", "knn"} <= set(s)
        assert s["source"].strip() and s["why"].strip()


@pytest.mark.parametrize("name", NAMES)
def test_every_set_loads_and_agrees_with_its_csv_and_source_md(name):
    s = REAL_SETS[name]
    df = pd.read_csv(PROJECT_ROOT / s["file"])
    assert df.columns[-1] == "class" and list(df.columns).count("class") == 1
    features = df.drop(columns=["class"])
    assert all(pd.api.types.is_numeric_dtype(features[c]) for c in features.columns)
    assert not df.isna().any().any()
    assert (features.nunique() > 1).all(), "a constant column left in the file"
    n, d, k = len(df), features.shape[1], df["class"].nunique()
    assert (n, d, k) == (s["n"], s["d"], s["true_k"])
    assert _source_table()[name] == (n, d, k)
    for z in (False, True):
        X, truth, true_k = make({"name": name, "standardize": z})
        assert X.dtype == np.float64 and X.shape == (n, d) and np.isfinite(X).all()
        assert truth.shape == (n,) and np.issubdtype(truth.dtype, np.integer)
        assert true_k == k and set(np.unique(truth)) == set(range(k))
    X, truth, _ = make({"name": name, "standardize": False})
    np.testing.assert_array_equal(X, features.to_numpy(dtype=np.float64))
    # codes in sorted label order: the rows of one label share one code
    labels = df["class"].to_numpy()
    assert all(len(set(truth[labels == lab])) == 1 for lab in np.unique(labels))


RULE = sorted(n for n, s in REAL_SETS.items() if s["chosen"] == "rule")


def _features_and_codes(name: str) -> tuple[pd.DataFrame, np.ndarray]:
    df = pd.read_csv(PROJECT_ROOT / REAL_SETS[name]["file"])
    return df.drop(columns=["class"]), np.unique(df["class"].to_numpy(), return_inverse=True)[1]


def test_every_set_is_chosen_by_the_rule_or_was_hand_picked_before_it():
    assert {s["chosen"] for s in REAL_SETS.values()} <= {"rule", "hand-picked"}
    assert len(RULE) >= 29


@pytest.mark.parametrize("name", NAMES)
def test_every_class_holds_at_least_15_rows(name):
    _, codes = _features_and_codes(name)
    assert np.bincount(codes).min() >= 15


@pytest.mark.parametrize("name", NAMES)
def test_the_recorded_5nn_balanced_accuracy_is_the_files(name):
    """R6 of data/league/SOURCE.md recomputed on the committed file: 5-NN on the features
    z-scored within each fold, 5-fold stratified CV (shuffled, seed 0), balanced accuracy."""
    X, y = _features_and_codes(name)
    model = make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=5))
    cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    bacc = cross_val_score(model, X.to_numpy(dtype=float), y, cv=cv,
                           scoring="balanced_accuracy").mean()
    assert bacc == pytest.approx(REAL_SETS[name]["knn"], abs=5e-4)


@pytest.mark.parametrize("name", RULE)
def test_the_rules_thresholds_hold_on_the_committed_file(name):
    """R4–R7 of data/league/SOURCE.md: 60–2000 rows, at least 2 features, 2–12 classes,
    5-NN balanced accuracy ≥ 0.8, no single feature whose k-leaf tree tells the classes apart
    (balanced accuracy ≥ 0.99), no feature a monotone transform of another (|Spearman| ≥ 0.999)."""
    X, y = _features_and_codes(name)
    k = int(y.max()) + 1
    assert 60 <= len(X) <= 2000 and X.shape[1] >= 2 and 2 <= k <= 12
    assert REAL_SETS[name]["knn"] >= 0.8
    for c in X.columns:
        x = X[[c]].to_numpy(dtype=float)
        tree = DecisionTreeClassifier(max_leaf_nodes=k, random_state=0).fit(x, y)
        assert balanced_accuracy_score(y, tree.predict(x)) < 0.99, c
    rho = np.abs(np.corrcoef(X.rank().to_numpy(dtype=float), rowvar=False))
    assert (rho[np.triu_indices(X.shape[1], 1)] < 0.999).all()


@pytest.mark.parametrize("name", NAMES)
def test_z_scored_columns_have_mean_0_and_sd_1(name):
    X, _, _ = make({"name": name, "standardize": True})
    np.testing.assert_allclose(X.mean(axis=0), 0.0, atol=1e-10)
    np.testing.assert_allclose(X.std(axis=0), 1.0, rtol=1e-10)


def test_zscore_drops_columns_of_sd_0():
    X = np.array([[1.0, 5.0, 0.0], [2.0, 5.0, 2.0], [3.0, 5.0, 4.0]])
    Z = real_sets.zscore(X)
    assert Z.shape == (3, 2)
    np.testing.assert_allclose(Z[:, 0], Z[:, 1])
    np.testing.assert_allclose(Z[:, 0], [-np.sqrt(1.5), 0.0, np.sqrt(1.5)])


def test_designs_are_unique_json_able_and_two_per_set():
    ds = designs()
    assert json.loads(json.dumps(ds)) == ds
    ids = [d["id"] for d in ds]
    assert len(ids) == len(set(ids)) == 2 * len(REAL_SETS)
    for d in ds:
        s = REAL_SETS[d["name"]]
        assert d["family"] == "real"
        assert d["id"] == f"real-{d['name']}-{'z' if d['standardize'] else 'raw'}"
        assert (d["true_k"], d["n"], d["d"]) == (s["true_k"], s["n"], s["d"])
    assert "real-iris-raw" in ids and "real-iris-z" in ids
    raw_only = designs(standardize_both=False)
    assert [d["id"] for d in raw_only] == [f"real-{n}-raw" for n in REAL_SETS]


def test_source_md_mentions_every_set_and_only_those_in_its_table():
    text = SOURCE_MD.read_text(encoding="utf-8")
    assert set(_source_table()) == set(REAL_SETS)
    for name in REAL_SETS:
        assert f"`{name}`" in text and f"`{name}.csv`" in text, name


def test_an_unknown_set_is_refused():
    with pytest.raises(real_sets.MtcError, match="must be one of"):
        make({"name": "no-such-set", "standardize": False})
