"""One engine, one seeding: the same matrix and seed give the same rows, vote and clustering
whatever the file format (CSV, TSV, NPY) or the entry point (``mtc select``,
``OrderSelector`` on a DataFrame, the criteria league)."""

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_blobs

from mtc_cli.core.files import write_csv
from mtc_cli.selection import engine
from mtc_cli.selection.estimator import OrderSelector
from mtc_cli.selection.settings import make_settings

OPTIONS = {"splits": 2, "references": 2, "clest_references": 1, "clest_splits": 2}
SETS = [x for k, v in OPTIONS.items() if k != "splits" for x in ("--set", f"{k}={v}")]


@pytest.fixture(scope="module")
def frame():
    X, _ = make_blobs(90, 3, centers=3, random_state=4)
    return pd.DataFrame(X, columns=["a", "b", "c"])


def test_csv_tsv_npy_dataframe_and_order_selector_give_the_same_rows(cli, frame, tmp_path):
    files = {"csv": tmp_path / "x.csv", "tsv": tmp_path / "x.tsv", "npy": tmp_path / "x.npy"}
    frame.to_csv(files["csv"], index=False)
    frame.to_csv(files["tsv"], index=False, sep="\t")
    np.save(files["npy"], frame.to_numpy())
    runs = {}
    for fmt, path in files.items():
        out = tmp_path / fmt
        result = cli("select", path, "--model", "kmeans", "--k", "1..4", "--splits", "2",
                     *SETS, "--out", out)
        assert result.exit_code == 0, result.output
        runs[fmt] = out
    rows = (runs["csv"] / "rows.csv").read_bytes()
    assert all((out / "rows.csv").read_bytes() == rows for out in runs.values())
    assert all((out / "vote.csv").read_bytes() == (runs["csv"] / "vote.csv").read_bytes()
               for out in runs.values())

    est = OrderSelector(model="kmeans", k=(1, 4), random_state=0, **OPTIONS).fit(frame)
    write_csv(est.results_, tmp_path / "estimator.csv")
    assert (tmp_path / "estimator.csv").read_bytes() == rows
    projection = pd.read_csv(runs["npy"] / "projection.csv")  # all 90 objects, in order
    assert np.array_equal(projection["cluster"], est.labels_)
    other = OrderSelector(model="kmeans", k=(1, 4), random_state=1, **OPTIONS).fit(frame)
    assert not other.results_.equals(est.results_)  # the seed does reach the tasks


def test_the_digest_is_of_the_values_not_of_their_container(frame):
    X = frame.to_numpy()
    digest = engine.data_digest(X)
    assert engine.data_digest(np.asfortranarray(X)) == digest
    assert engine.data_digest(X.astype(np.float32).astype(np.float64)) != digest
    assert engine.data_digest(X[:, :2]) != digest
    assert engine.data_digest(X.reshape(3, -1)) != digest  # the same bytes, another shape
    assert engine.data_digest(X, ["a"] * 90) != digest


def test_the_league_makes_the_choices_of_mtc_select(frame, monkeypatch):
    import experiments.league as league
    from experiments.league import protocol

    X = frame.to_numpy()
    monkeypatch.setattr(protocol, "data", lambda design: (X, None, 3))  # run_task reads it
    task = {"design": {"id": "blobs", "family": "real"}, "model": "kmeans", "k_max": 4,
            "select_seed": 7, **OPTIONS}
    rows = league.experiment.run_task(task, np.random.default_rng(0))
    picks = {r["criterion"]: None if np.isnan(r["k"]) else r["k"] for r in rows
             if r["criterion"] not in ("s_perm", "s_rand", "gap_curve")}
    est = OrderSelector(model="kmeans", k=(1, 4), random_state=7, **OPTIONS).fit(frame)
    assert picks == est.votes_
    s = make_settings("kmeans", (1, 4), None, n=len(X), d=3, **OPTIONS)
    pd.testing.assert_frame_equal(engine.run(X, s, 7), est.results_)


def test_one_pool_for_every_model_gives_each_models_rows_and_shows_progress(frame, capsys,
                                                                          monkeypatch):
    """run_all: the rows of run per model, in one pool (-j 2 too); its progress on stderr
    (the runner's, plain lines off a terminal) once it has run PROGRESS_DELAY seconds —
    none before, none on stdout, none without a label."""
    X = frame.to_numpy()
    settings = {m: make_settings(m, (1, 3), None, n=len(X), d=3, **OPTIONS)
                for m in ("kmeans", "ward")}
    alone = {m: engine.run(X, s, 7) for m, s in settings.items()}
    capsys.readouterr()
    monkeypatch.setattr(engine, "PROGRESS_DELAY", 1e9)
    for jobs in (1, 2):
        together = engine.run_all({m: (X, s) for m, s in settings.items()}, 7, n_jobs=jobs,
                                  progress="blobs")
        for m in settings:
            pd.testing.assert_frame_equal(together[m], alone[m])
    assert capsys.readouterr() == ("", "")  # done within the delay: nothing shown
    monkeypatch.setattr(engine, "PROGRESS_DELAY", 0.0)
    n_tasks = sum(len(engine.tasks(s, "")) for s in settings.values())
    engine.run_all({m: (X, s) for m, s in settings.items()}, 7, progress="blobs")
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines()[-1].startswith(f"blobs: {n_tasks}/{n_tasks} tasks")
    engine.run_all({m: (X, s) for m, s in settings.items()}, 7)
    assert capsys.readouterr() == ("", "")
