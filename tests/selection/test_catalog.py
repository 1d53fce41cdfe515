"""The catalog carries each algorithm's and criterion's behaviour: a toy algorithm and a toy
criterion, each one definition and one registration, are among ``mtc select``'s choices and
``OrderSelector``'s, and run through both in-process; what the catalog derives from the
built-ins (the criteria of each algorithm, auto's roster, the predictors) is what the
product read before it held behaviour."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from mtc_cli.selection import catalog
from mtc_cli.selection.estimator import OrderSelector
from mtc_cli.selection.fitting import _Labels
from mtc_cli.selection.readers import Extremum
from mtc_cli.selection.spec import Algorithm, Criterion, Hooks


class Quantiles(_Labels):
    """A toy algorithm: k groups of the objects by the quantiles of their first column."""

    name = "quantiles"
    max_items = 2000

    def partitions(self, X, ks, rng):
        ranks = np.argsort(np.argsort(X[:, 0], kind="stable"), kind="stable")
        return {k: (ranks * k // len(X)).astype(np.intp) for k in ks}


def spread_at_k(ctx, k):
    """A toy criterion: the mean within-group spread of the first column, plus 0.5 per
    group (the fit of all objects at k)."""
    labels, x = ctx.fits[k].labels, ctx.X[:, 0]
    spread = np.mean([x[labels == g].std() for g in np.unique(labels)])
    return [{"criterion": "spread", "k": k, "score": float(spread + 0.5 * k)}]


QUANTILES = Algorithm("quantiles", "number of quantile groups of the first column",
                      "labels", Quantiles)
SPREAD = Criterion("spread", lambda a: a.name == "quantiles", 1, "full",
                   {"full": Hooks(at_k=spread_at_k)}, Extremum("low"),
                   "min within-group spread + k/2", "a test of the catalog")


def data() -> np.ndarray:
    """Three groups along the first column, the second column noise."""
    rng = np.random.default_rng(0)
    return np.c_[np.repeat([0.0, 10.0, 20.0], 40) + rng.normal(0, 0.5, 120),
                 rng.normal(size=120)]


def test_a_toy_algorithm_and_criterion_run_through_order_selector():
    with catalog.extended(QUANTILES, SPREAD):
        assert "spread" in catalog.applicable("quantiles")
        assert catalog.applicable("quantiles")[0] == "stability"  # the clustering ones too
        est = OrderSelector(model="quantiles", k=(1, 5), criteria=["spread", "stability"],
                            splits=3).fit(data())
    assert est.votes_["spread"] == 3 and est.settings_.model == "quantiles"
    assert set(est.results_["criterion"]) == {"spread", "stability"}
    assert len(est.labels_) == 120
    assert "quantiles" not in catalog.ALGORITHMS and "spread" not in catalog.CRITERIA


def test_a_toy_algorithm_and_criterion_are_among_the_command_lines_choices(tmp_path):
    from mtc_cli.cli import main

    path = tmp_path / "three.csv"
    pd.DataFrame(data(), columns=["a", "b"]).to_csv(path, index=False)
    runner = CliRunner()
    with catalog.extended(QUANTILES, SPREAD):
        text = " ".join(runner.invoke(main, ["select", "--help"]).output.split())
        assert "|quantiles|" in text
        got = runner.invoke(main, ["select", str(path), "--model", "quantiles", "--criteria",
                                   "spread,stability", "--k", "1..5", "--splits", "3",
                                   "--out", str(tmp_path / "run"), "--json"],
                            catch_exceptions=False)
    assert got.exit_code == 0, got.output
    summary = pd.read_csv(tmp_path / "run" / "summary.csv").set_index("criterion")
    assert summary.loc["spread", "selected_k"] == 3
    refused = runner.invoke(main, ["select", str(path), "--model", "quantiles"])
    assert refused.exit_code == 2 and "quantiles" in refused.output


def test_a_name_taken_is_refused_and_nothing_is_left_registered():
    with pytest.raises(ValueError, match="already in the catalog"):
        with catalog.extended(QUANTILES, QUANTILES):
            pass
    assert "quantiles" not in catalog.ALGORITHMS and "quantiles" not in catalog.MODELS


def test_what_the_catalog_derives_from_the_builtins():
    assert catalog.auto_models() == ("kmeans", "gmm", "ward", "average", "complete", "single",
                                     "spectral", "pathbased", "hdbscan")
    assert catalog.clustering() == ("gmm", "kmeans", "spkmeans", *catalog.auto_models()[2:])
    shape_free = {a.name for a in catalog.ALGORITHMS.values() if a.shape_free}
    assert shape_free == {"single", "spectral", "pathbased", "hdbscan"}
    predictors = {a.name: a.predictors for a in catalog.ALGORITHMS.values() if a.clusters}
    assert predictors["pathbased"] == ("path-based rule (Fischer et al. 2001)",
                                       "nearest centroid")
    assert predictors["ward"] == ("nearest neighbour (1-NN)", "nearest centroid")
    assert predictors["gmm"] == ("Bayes rule", "Bayes rule")
    assert catalog.models_of("bic") == ("gmm",)
    assert catalog.models_of("gap") == ("gmm", "kmeans", *catalog.auto_models()[2:])
    assert catalog.models_of("bicross") == ("svd", "boolean")
    assert {c.name for c in catalog.CRITERIA.values() if c.better == "low"} == {
        "mtc", "bic", "aic", "stability", "davies_bouldin", "knee", "hartigan", "c_index",
        "duda_hart", "pac_mdl", "bicross", "mtc_svd", "increment"}
