"""Correlation clustering (Frank, Chehreghani, Buhmann 2011, Sect. 6): the disagreement
cost (eq. 8), an annealed Gibbs sampler over labels with k clusters, and the transfer of a
solution to a second graph (eqs. 9–10).

A graph is a dense symmetric matrix ``X`` of edge weights (±1, int8) with a zero diagonal.
A solution is a label vector; clusters may be empty, so a sampler offered k clusters may
use fewer.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np


def disagreement_cost(X: np.ndarray, labels: np.ndarray) -> float:
    """Eq. 8 of Frank et al. 2011: R(s, X, k) = −½ Σ_u Σ_{(i,j)∈E_uu} (X_ij − 1)
    + ½ Σ_u Σ_{v<u} Σ_{(i,j)∈E_uv} (X_ij + 1), each unordered pair {i, j} once.

    For ±1 edges: the number of negative intra-cluster plus positive inter-cluster edges.
    O(N²), vectorized over the pairs i < j.
    """
    X = np.asarray(X)
    labels = np.asarray(labels)
    if X.ndim != 2 or X.shape != (len(labels), len(labels)):
        raise ValueError(f"X {X.shape} must be square with one label per node ({len(labels)})")
    i, j = np.triu_indices(len(labels), k=1)
    x = X[i, j].astype(np.int64)
    same = labels[i] == labels[j]
    return float((np.sum(1 - x[same]) + np.sum(1 + x[~same])) / 2)


def cost_offset(X: np.ndarray) -> float:
    """(P + S)/2 with P the number of pairs i < j and S = Σ_{i<j} X_ij.

    Eq. 8 regrouped: R = (P + S)/2 − Σ_{i<j, s(i)=s(j)} X_ij, i.e. the offset minus the
    intra-cluster weight, which is ½ Σ_i a_i,s(i) for the affinities a_iu = Σ_{j∈s_u} X_ij
    that the sampler maintains (tests check it against :func:`disagreement_cost`).
    """
    n = X.shape[-1]
    total = X.reshape(*X.shape[:-2], -1).sum(axis=-1, dtype=np.int64)
    return (n * (n - 1) / 2 + total / 2) / 2


def affinities(X: np.ndarray, labels: np.ndarray, k: int) -> np.ndarray:
    """a_iu = Σ_{j: s(j)=u} X_ij for every node i and cluster u < k: (N, k), exact
    (a float32 product of ±1 entries and one-hot indicators, integers below 2²⁴)."""
    onehot = np.zeros((len(labels), k), dtype=np.float32)
    onehot[np.arange(len(labels)), labels] = 1.0
    return np.rint(np.asarray(X, dtype=np.float32) @ onehot).astype(np.int64)


@dataclass(frozen=True)
class AnnealResult:
    """Best labelling of each chain, its cost (eq. 8), and optionally the per-sweep
    cost of each chain's current state (``trace``: sweeps × chains)."""

    labels: np.ndarray  # (C, N)
    costs: np.ndarray  # (C,)
    trace: np.ndarray | None = None


def temperatures(n_nodes: int, n_sweeps: int, t_start: float | None = None,
                 t_end: float = 0.5) -> np.ndarray:
    """Geometric annealing schedule from ``t_start`` (default 2√N, the scale of the
    noise in a node's affinities) down to ``t_end``, one temperature per sweep."""
    t0 = 2.0 * np.sqrt(n_nodes) if t_start is None else float(t_start)
    if n_sweeps <= 0:
        return np.empty(0)
    return t0 * (t_end / t0) ** (np.arange(n_sweeps) / max(n_sweeps - 1, 1))


def anneal(graphs: np.ndarray, chain_graph, chain_k, rng: np.random.Generator, *,
           n_sweeps: int = 1000, t_start: float | None = None, t_end: float = 0.5,
           max_greedy_sweeps: int = 100, labels: np.ndarray | None = None,
           trace: bool = False) -> AnnealResult:
    """Simulated annealing by Gibbs sampling of eq. 8, for many chains at once.

    Chain c samples labels in {0, …, k_c − 1} on graph ``graphs[chain_graph[c]]``
    (``graphs``: (G, N, N) or one (N, N) graph). A sweep visits every node once in a
    random order of its own per chain; at each step every chain resamples one node i
    from P(s(i) = u) ∝ exp(a_iu / T) — moving i to u changes eq. 8 by −a_iu plus a
    constant — and then updates the affinities of all nodes to the two clusters
    involved (O(N) per chain and step: no recomputation of eq. 8). After the schedule,
    greedy sweeps (T = 0, a node keeps its cluster on ties) run until no chain moves.
    Each chain returns the lowest-cost state among its start and the ends of its sweeps,
    so the returned cost never exceeds the start's nor any later end-of-sweep state's.
    Edge weights must be in {−1, 0, +1} (the affinities are bounded by N).
    """
    graphs = np.asarray(graphs)
    if graphs.ndim == 2:
        graphs = graphs[None]
    chain_graph = np.asarray(chain_graph, dtype=np.intp)
    chain_k = np.asarray(chain_k, dtype=np.intp)
    n_chains, n = len(chain_k), graphs.shape[1]
    if chain_graph.shape != (n_chains,) or graphs.shape[1:] != (n, n):
        raise ValueError("need square graphs and one graph index per chain")
    if n_chains == 0 or chain_k.min() < 1:
        raise ValueError("need at least one chain, each with k ≥ 1")
    if (graphs < -1).any() or (graphs > 1).any():
        raise ValueError("edge weights must be −1, 0 or +1")
    kmax = int(chain_k.max())
    if labels is None:
        labels = (rng.random((n_chains, n)) * chain_k[:, None]).astype(np.intp)
    labels = np.array(labels, dtype=np.intp)
    if labels.shape != (n_chains, n) or (labels >= chain_k[:, None]).any() or labels.min() < 0:
        raise ValueError("initial labels must be (chains, N) with 0 ≤ s(i) < k of the chain")

    # affinities a_iu of each chain, laid out (chain, cluster, node) so that a move
    # updates two contiguous rows; clusters a chain may not use hold −(3N + 1), below any
    # reachable affinity (|a_iu| ≤ N), and are never updated (no node ever joins them)
    small = np.int16 if 3 * n + 1 < 2**15 else np.int32
    A = np.full((n_chains, kmax, n), -(3 * n + 1), dtype=small)
    for c in range(n_chains):
        A[c, :chain_k[c]] = affinities(graphs[chain_graph[c]], labels[c], chain_k[c]).T
    offset = cost_offset(graphs)[chain_graph]
    no_draws, no_weights = np.empty((0, n_chains)), np.empty(0)  # greedy sweeps

    def costs():
        return offset - _intra_weight(A, labels) / 2

    def sweep(temperature: float) -> int:
        order = rng.permuted(np.broadcast_to(np.arange(n), (n_chains, n)), axis=1)
        if temperature <= 0:
            return _sweep(A, labels, graphs, chain_graph, chain_k, order, no_draws, no_weights)
        uniform = rng.random((n, n_chains))
        # Boltzmann weights exp(−d/T) of the gap d = max_u a_iu − a_iu ∈ [0, 2N]
        weight = np.exp(-np.arange(2 * n + 1) / temperature)
        return _sweep(A, labels, graphs, chain_graph, chain_k, order, uniform, weight)

    best_labels, best_costs = labels.copy(), costs()
    history = [best_costs.copy()] if trace else None

    def record():
        nonlocal best_costs
        now = costs()
        better = now < best_costs
        best_labels[better] = labels[better]
        best_costs = np.minimum(best_costs, now)
        if trace:
            history.append(now)

    for temperature in temperatures(n, n_sweeps, t_start, t_end):
        sweep(float(temperature))
        record()
    for _ in range(max_greedy_sweeps):
        moves = sweep(0.0)
        record()
        if moves == 0:
            break
    return AnnealResult(best_labels, best_costs, np.array(history) if trace else None)


@numba.njit(cache=True)
def _sweep(A, labels, graphs, chain_graph, chain_k, order, uniform, weight):
    """One sweep of :func:`anneal` for every chain c, in place on ``A`` and ``labels``:
    its step t resamples node i = order[c, t] on graph ``graphs[chain_graph[c]]``. Heated
    (``uniform``: (N, C) draws in [0, 1); ``weight[d]`` = exp(−d/T)): the first cluster u
    whose cumulative weight Σ_{v≤u} weight[max a_i − a_iv] exceeds uniform[t, c] times the
    total (cluster 0 if none does). Greedy (no draws): the first best cluster, keeping the
    current one on ties. A move subtracts i's edges from the affinities to its old cluster
    and adds them to its new one. Returns the number of moves."""
    heated = uniform.shape[0] > 0
    moves = 0
    for c in range(A.shape[0]):
        X, a, s, k = graphs[chain_graph[c]], A[c], labels[c], chain_k[c]
        for t in range(order.shape[1]):
            i = order[c, t]
            current = s[i]
            top = a[0, i]
            best = 0
            for u in range(1, k):
                if a[u, i] > top:
                    top, best = a[u, i], u
            if heated:
                total = 0.0
                for u in range(k):
                    total += weight[top - a[u, i]]
                threshold = uniform[t, c] * total
                new, cum = 0, 0.0
                for u in range(k):
                    cum += weight[top - a[u, i]]
                    if cum > threshold:
                        new = u
                        break
            else:
                new = current if a[current, i] >= top else best
            if new != current:
                row = X[i]
                for j in range(row.shape[0]):
                    a[current, j] -= row[j]
                    a[new, j] += row[j]
                s[i] = new
                moves += 1
    return moves


@numba.njit(cache=True)
def _intra_weight(A, labels):
    """Σ_i a_i,s(i) of every chain: twice its intra-cluster edge weight (int64)."""
    out = np.zeros(A.shape[0], dtype=np.int64)
    for c in range(A.shape[0]):
        for i in range(A.shape[2]):
            out[c] += A[c, labels[c, i], i]
    return out


def fit(graphs: np.ndarray, k_values, n_init: int, rng: np.random.Generator, *,
        batch: int = 200, **schedule) -> tuple[np.ndarray, np.ndarray]:
    """The lowest-cost labelling over ``n_init`` random initialisations for every graph
    and every k (:func:`anneal`; ``schedule`` its keywords).

    The chains are annealed together in batches of at most ``batch``, each batch drawing
    its random numbers at once, so the results depend on ``batch``.
    Returns ``labels`` (G, len(k_values), N) and ``costs`` (G, len(k_values)) of eq. 8.
    k = 1 needs no search (all nodes in one cluster).
    """
    graphs = np.asarray(graphs)
    if graphs.ndim == 2:
        graphs = graphs[None]
    k_values = [int(k) for k in k_values]
    n_graphs, n = graphs.shape[0], graphs.shape[1]
    labels = np.zeros((n_graphs, len(k_values), n), dtype=np.intp)
    costs = np.empty((n_graphs, len(k_values)))
    searched = [ik for ik, k in enumerate(k_values) if k > 1]
    for ik, k in enumerate(k_values):
        if k == 1:
            costs[:, ik] = [disagreement_cost(g, labels[0, ik]) for g in graphs]
    if not searched:
        return labels, costs
    grid = np.array([(g, ik) for g in range(n_graphs) for ik in searched
                     for _ in range(n_init)])
    run_labels = np.empty((len(grid), n), dtype=np.intp)
    run_costs = np.empty(len(grid))
    for start in range(0, len(grid), batch):
        part = grid[start:start + batch]
        result = anneal(graphs, part[:, 0], np.array(k_values)[part[:, 1]], rng, **schedule)
        run_labels[start:start + batch] = result.labels
        run_costs[start:start + batch] = result.costs
    run_costs = run_costs.reshape(n_graphs, len(searched), n_init)
    run_labels = run_labels.reshape(n_graphs, len(searched), n_init, n)
    best = run_costs.argmin(axis=2)
    for j, ik in enumerate(searched):
        for g in range(n_graphs):
            labels[g, ik] = run_labels[g, j, best[g, j]]
            costs[g, ik] = run_costs[g, j, best[g, j]]
    return labels, costs


def cluster_distances(X21: np.ndarray, labels1: np.ndarray, k: int) -> np.ndarray:
    """Eq. 10 of Frank et al. 2011: H(i′, s_v) = −½ Σ_{j∈s_v} (X_i′j − 1)
    + ½ Σ_{u≠v} Σ_{j∈s_u} (X_i′j + 1) for every node i′ of graph 2 and cluster v < k
    of the graph-1 solution ``labels1``, from the edges ``X21`` (N₂, N₁) between them.

    With a_i′v = Σ_{j∈s_v} X_i′j, n_v = |s_v| and r_i′ = Σ_j X_i′j:
    H = ((n_v − a_i′v) + (N₁ − n_v) + (r_i′ − a_i′v)) / 2. An empty cluster has a = 0.
    """
    X21 = np.asarray(X21)
    labels1 = np.asarray(labels1)
    if X21.ndim != 2 or X21.shape[1] != len(labels1):
        raise ValueError(f"X21 {X21.shape} must have one column per graph-1 node")
    a = affinities(X21, labels1, k)  # (N₂, k)
    sizes = np.bincount(labels1, minlength=k)[None, :]
    r = X21.sum(axis=1, dtype=np.int64)[:, None]
    return ((sizes - a) + (len(labels1) - sizes) + (r - a)) / 2


def transfer_labels(X21: np.ndarray, labels1: np.ndarray, k: int) -> np.ndarray:
    """Eq. 9 of Frank et al. 2011: each node i′ of graph 2 joins the cluster of the
    graph-1 solution with the smallest H(i′, s_v) (eq. 10); ties to the lowest index."""
    return cluster_distances(X21, labels1, k).argmin(axis=1)
