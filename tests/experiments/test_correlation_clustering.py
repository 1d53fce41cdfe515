"""Correlation clustering: the graph generator, eq. 8 against a brute-force count, the
annealed Gibbs sampler (its Boltzmann weights, its incremental affinities, its best-cost
bookkeeping), the transfer of eqs. 9–10 against a loop, and the quick profile end to end."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from mtc_cli.core.criteria.stability import disagreement
from mtc_cli.core.datasets.correlation_graph import correlation_graph
from mtc_cli.core.models import correlation


def random_graph(rng, n):
    X = np.triu(np.where(rng.random((n, n)) < 0.5, 1, -1), 1).astype(np.int8)
    return X + X.T


def brute_cost(X, labels):
    """Negative intra-cluster edges plus positive inter-cluster edges, pair by pair."""
    count = 0
    for i in range(len(labels)):
        for j in range(i + 1, len(labels)):
            same = labels[i] == labels[j]
            count += (same and X[i, j] < 0) or (not same and X[i, j] > 0)
    return count


def test_generator_structure_and_rates():
    rng = np.random.default_rng(0)
    X, y = correlation_graph(rng, (40, 50, 60), q=0.0, p=0.0)
    assert X.dtype == np.int8 and (X == X.T).all() and (np.diag(X) == 0).all()
    off = ~np.eye(len(y), dtype=bool)
    same = y[:, None] == y[None, :]
    assert (X[same & off] == 1).all() and (X[~same] == -1).all()  # the perfect graph
    X, y = correlation_graph(rng, (150, 150), q=0.3, p=0.0)
    inter = X[y[:, None] != y[None, :]]
    assert np.mean(inter == 1) == pytest.approx(0.3, abs=0.02)
    X, y = correlation_graph(rng, (150, 150), q=0.3, p=0.5)
    # intra: +1 unless redrawn to −1 (p/2); inter: +1 w.p. (1−p)q + p/2
    intra = X[(y[:, None] == y[None, :]) & ~np.eye(300, dtype=bool)]
    inter = X[y[:, None] != y[None, :]]
    assert np.mean(intra == -1) == pytest.approx(0.25, abs=0.02)
    assert np.mean(inter == 1) == pytest.approx(0.5 * 0.3 + 0.25, abs=0.02)


@pytest.mark.parametrize("k", [1, 2, 4])
def test_eq8_equals_brute_force_count(k):
    rng = np.random.default_rng(k)
    for n in (2, 7, 15):
        X = random_graph(rng, n)
        labels = rng.integers(k, size=n)
        assert correlation.disagreement_cost(X, labels) == brute_cost(X, labels)
        # the sampler's regrouping: offset minus the intra-cluster weight ½ Σ_i a_i,s(i)
        a = correlation.affinities(X, labels, k)
        intra = a[np.arange(n), labels].sum() / 2
        assert correlation.cost_offset(X) - intra == brute_cost(X, labels)


def test_sampler_tracks_costs_exactly_and_keeps_the_best():
    rng = np.random.default_rng(1)
    X, _ = correlation_graph(rng, (20, 20, 20), q=0.3, p=0.8)
    k = np.array([2, 3, 5, 5])
    start = np.array([rng.integers(kc, size=60) for kc in k])
    res = correlation.anneal(X, np.zeros(4, int), k, rng, n_sweeps=30, t_start=20.0,
                             labels=start.copy(), trace=True)
    for c in range(4):
        # the incrementally updated affinities give the true cost of the returned state
        assert res.costs[c] == correlation.disagreement_cost(X, res.labels[c])
        assert res.labels[c].max() < k[c]  # clusters beyond a chain's k stay unused
    # never worse than the start, nor than any state visited at the end of a sweep
    np.testing.assert_array_equal(res.trace[0], [correlation.disagreement_cost(X, s)
                                                 for s in start])
    np.testing.assert_array_equal(res.costs, res.trace.min(axis=0))
    assert (res.trace[1:].std(axis=0) > 0).all()  # the annealing phase did move
    greedy = res.trace[31:]  # greedy sweeps after the 30 annealing sweeps
    assert (np.diff(greedy, axis=0) <= 0).all()



def anneal_reference(graphs, chain_graph, chain_k, rng, n_sweeps, max_greedy_sweeps=100):
    """:func:`correlation.anneal` with the sweep in numpy, all chains advanced together
    step by step (the code the compiled sweep replaced): the same draws from ``rng``."""
    n_chains, n = len(chain_k), graphs.shape[1]
    kmax = int(chain_k.max())
    labels = (rng.random((n_chains, n)) * chain_k[:, None]).astype(np.intp)
    A = np.full((n_chains, kmax, n), -(3 * n + 1), dtype=np.int64)
    for c in range(n_chains):
        A[c, :chain_k[c]] = correlation.affinities(graphs[chain_graph[c]], labels[c],
                                                   chain_k[c]).T
    chains = np.arange(n_chains)

    def sweep(temperature):
        order = rng.permuted(np.broadcast_to(np.arange(n), (n_chains, n)), axis=1).T
        if temperature > 0:
            uniform = rng.random((n, n_chains, 1))
            weight = np.exp(-np.arange(4 * n + 2) / temperature)
            weight[2 * n + 1:] = 0.0
        moves = 0
        for step in range(n):
            i = order[step]
            field, current = A[chains, :, i], labels[chains, i]
            if temperature > 0:
                cum = weight.take(field.max(axis=1, keepdims=True) - field).cumsum(axis=1)
                new = (cum > uniform[step] * cum[:, -1:]).argmax(axis=1)
            else:
                best = field.argmax(axis=1)
                new = np.where(field[chains, current] >= field[chains, best], current, best)
            for c in np.flatnonzero(new != current):
                row = graphs[chain_graph[c], i[c]]
                A[c, current[c]] -= row
                A[c, new[c]] += row
                labels[c, i[c]] = new[c]
                moves += 1
        return moves

    costs = [[correlation.disagreement_cost(graphs[g], s)
              for g, s in zip(chain_graph, labels, strict=True)]]
    for temperature in correlation.temperatures(n, n_sweeps):
        sweep(temperature)
        costs.append([correlation.disagreement_cost(graphs[g], s)
                      for g, s in zip(chain_graph, labels, strict=True)])
    for _ in range(max_greedy_sweeps):
        moves = sweep(0.0)
        costs.append([correlation.disagreement_cost(graphs[g], s)
                      for g, s in zip(chain_graph, labels, strict=True)])
        if moves == 0:
            break
    return labels, np.array(costs)


@pytest.mark.parametrize("seed", [0, 1])
def test_compiled_sweep_equals_the_numpy_reference_draw_for_draw(seed):
    """Same random draws, same moves: the trace of every chain's cost after each sweep and
    the state of the generator afterwards agree exactly (chains of different k share a
    batch, two graphs, one with zero-weight edges)."""
    rng = np.random.default_rng(seed)
    X1, _ = correlation_graph(rng, (15, 15, 15), q=0.3, p=0.7)
    X2 = X1 * (rng.random(X1.shape) < 0.8)
    X2 = np.triu(X2, 1) + np.triu(X2, 1).T
    graphs = np.stack([X1, X2]).astype(np.int8)
    chain_graph, chain_k = np.array([0, 1, 0, 1, 1]), np.array([2, 3, 5, 1, 4])
    ours = np.random.default_rng(seed + 10)
    theirs = np.random.default_rng(seed + 10)
    res = correlation.anneal(graphs, chain_graph, chain_k, ours, n_sweeps=25, trace=True)
    labels, trace = anneal_reference(graphs, chain_graph, chain_k, theirs, 25)
    np.testing.assert_array_equal(res.trace, trace)
    assert ours.bit_generator.state == theirs.bit_generator.state
    final = [correlation.disagreement_cost(graphs[g], s)
             for g, s in zip(chain_graph, labels, strict=True)]
    np.testing.assert_array_equal(res.trace[-1], final)


def test_sampler_rejects_bad_input():
    X = np.array([[0, 2], [2, 0]], dtype=np.int8)
    with pytest.raises(ValueError, match="weights"):
        correlation.anneal(X, [0], [2], np.random.default_rng(0))
    with pytest.raises(ValueError, match="labels"):
        correlation.anneal(X // 2, [0], [2], np.random.default_rng(0), labels=[[0, 2]])


def test_gibbs_step_follows_boltzmann_weights():
    # two nodes joined by a +1 edge, k = 2, started apart (cost 1). One sweep at T visits
    # both nodes; each step puts a node with the other w.p. σ = e^{1/T} / (e^{1/T} + 1),
    # so after the sweep P(cost 0) = σ; the best-of-sweep cost equals the final one here.
    X = np.array([[0, 1], [1, 0]], dtype=np.int8)
    chains = 20000
    for temperature in (0.5, 1.0, 3.0):
        res = correlation.anneal(X, np.zeros(chains, int), np.full(chains, 2),
                                 np.random.default_rng(7), n_sweeps=1, t_start=temperature,
                                 t_end=temperature, max_greedy_sweeps=0,
                                 labels=np.tile([0, 1], (chains, 1)))
        sigma = np.exp(1 / temperature) / (np.exp(1 / temperature) + 1)
        assert np.mean(res.costs == 0) == pytest.approx(sigma, abs=0.015)


@pytest.mark.parametrize("batch", [2, 200])  # chains annealed in several batches or one
def test_fit_recovers_planted_clusters_and_leaves_extra_ones_empty(batch):
    rng = np.random.default_rng(2)
    X, y = correlation_graph(rng, (30, 30, 30), q=0.3, p=0.4)
    labels, costs = correlation.fit(X, [1, 3, 5], 3, rng, n_sweeps=60, batch=batch)
    assert labels.shape == (1, 3, 90)
    assert costs[0, 0] == correlation.disagreement_cost(X, np.zeros(90, int))
    assert disagreement(y, labels[0, 1]) == 0.0
    assert len(np.unique(labels[0, 2])) == 3 and costs[0, 2] == costs[0, 1]
    assert costs[0, 1] == correlation.disagreement_cost(X, y)


def test_transfer_eq10_by_loop_and_eq9_argmin():
    rng = np.random.default_rng(3)
    X21 = np.where(rng.random((6, 9)) < 0.5, 1, -1).astype(np.int8)
    labels1 = np.array([0, 0, 1, 1, 1, 3, 3, 0, 1])  # cluster 2 is empty
    H = correlation.cluster_distances(X21, labels1, 4)
    for i in range(6):
        for v in range(4):
            inside = -0.5 * sum(X21[i, j] - 1 for j in range(9) if labels1[j] == v)
            outside = 0.5 * sum(X21[i, j] + 1 for j in range(9) if labels1[j] != v)
            assert H[i, v] == inside + outside
    np.testing.assert_array_equal(correlation.transfer_labels(X21, labels1, 4), H.argmin(1))


def test_transfer_cost_on_a_noise_free_graph_is_zero_at_the_true_k():
    """MTC's transfer cost as the protocol scores it: eq. 8 on graph 2 of the graph-1
    solution transferred by eqs. 9–10."""
    rng = np.random.default_rng(4)
    X, y = correlation_graph(rng, (20, 20, 20), q=0.0, p=0.0)
    perm = rng.permutation(60)
    i1, i2 = perm[:30], perm[30:]
    X2, X21 = X[np.ix_(i2, i2)], X[np.ix_(i2, i1)]
    moved = correlation.transfer_labels(X21, y[i1], 3)
    np.testing.assert_array_equal(moved, y[i2])
    assert correlation.disagreement_cost(X2, moved) == brute_cost(X2, moved) == 0
    one = correlation.transfer_labels(X21, np.zeros(30, int), 1)
    np.testing.assert_array_equal(one, np.zeros(30, int))
    assert correlation.disagreement_cost(X2, one) == brute_cost(X2, one) > 0


def test_quick_profile_end_to_end(root, tmp_path):
    cfg = root / "configs" / "correlation_clustering.yaml"
    out = tmp_path / "run"
    proc = subprocess.run([sys.executable, "-m", "mtc_cli.cli", "run", str(cfg), "--quick",
                           "--out", str(out)], capture_output=True, text=True, cwd=root)
    assert proc.returncode == 0, proc.stderr
    for name in ("rows.csv", "summary.csv", "mean_curve.csv", "flatness.csv", "targets.csv",
                 "run.json", "correlation_clustering.png"):
        assert (out / name).is_file(), name
    rows = pd.read_csv(out / "rows.csv")
    assert set(rows["criterion"]) == {"training_cost", "transfer_cost", "instability",
                                      "instability_uniform"}
    assert rows.loc[rows["criterion"].str.startswith("instability"), "k"].min() == 2
    summary = pd.read_csv(out / "summary.csv")
    assert {"selected_k", "selected_k_mean_curve", "true_k"} <= set(summary.columns)
    # quick profile at p = 0.5: the easy case finds the 3 planted clusters
    easy = summary[np.isclose(summary["p"], 0.5)]
    assert (easy["selected_k_mean_curve"] == 3).all()
