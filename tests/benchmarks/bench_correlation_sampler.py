"""Benchmark: Gibbs sweeps per second of the correlation-clustering sampler at N = 450,
k = 10 (one half of the graph of MTC Fig. 5, p = 0.80), measured in one run:

- ``naive_loop``: one chain, a numpy loop over nodes that recomputes each node's cluster
  affinities from its row (``bincount``) at every step — O(N) numpy calls per sweep;
- ``anneal`` (``mtc_cli.core.models.correlation``) with C chains updated together, one node
  per chain and step, affinities kept incrementally: C = 1, 100 (10 k × 10 inits), 200
  (the batch size ``correlation.fit`` uses), 400 and 1800 (all chains of one p of the full
  profile: 10 splits × 2 graphs × k = 2..10 × 10 inits, whose affinities outgrow the cache).

Both hot (T = 2√N: most steps move a node, so most affinity rows are updated) and cold
(T = 0.5: few moves). One BLAS thread; rates are chain-sweeps per second, best of
``REPEATS``. Writes ``results/benchmarks/correlation_sampler.csv``.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from mtc_cli.core.datasets.correlation_graph import correlation_graph
from mtc_cli.core.models import correlation

ROOT = Path(__file__).resolve().parents[2]
REPEATS = 3
K = 10


def naive_loop(X, labels, temperature, n_sweeps, rng):
    """Single-chain heat-bath Gibbs sweeps with a per-node numpy loop (the reference)."""
    n = len(labels)
    for _ in range(n_sweeps):
        for i in rng.permutation(n):
            field = np.bincount(labels, weights=X[i], minlength=K)
            w = np.exp((field - field.max()) / temperature)
            labels[i] = np.searchsorted(np.cumsum(w), rng.random() * w.sum(), side="right")
    return labels


def batched(graphs, chains, temperature, n_sweeps, rng):
    """``chains`` chains with k = 10, alternating between the two graphs."""
    correlation.anneal(graphs, np.arange(chains) % 2, np.full(chains, K), rng,
                       n_sweeps=n_sweeps, t_start=temperature, t_end=temperature,
                       max_greedy_sweeps=0)


def best_rate(chain_sweeps, fn, *args):
    times = []
    for _ in range(REPEATS):
        t = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t)
    return chain_sweeps / min(times), min(times)


def main() -> None:
    rng = np.random.default_rng(0)
    X, _ = correlation_graph(rng, (300, 300, 300), q=0.3, p=0.8)
    perm = rng.permutation(900)
    X1, X2 = (X[np.ix_(idx, idx)] for idx in (perm[:450], perm[450:]))
    graphs = np.stack([X1, X2])  # the two halves, as in the experiment
    n = len(X1)
    rows = []
    with threadpool_limits(limits=1):
        for phase, temperature in (("hot", 2 * np.sqrt(n)), ("cold", 0.5)):
            ref, t = best_rate(3, naive_loop, X1, rng.integers(K, size=n), temperature, 3, rng)
            rows.append({"phase": phase, "method": "naive_loop", "chains": 1,
                         "chain_sweeps_per_s": ref, "seconds": t})
            for chains, sweeps in ((1, 20), (100, 10), (200, 5), (400, 3), (1800, 2)):
                rate, t = best_rate(chains * sweeps, batched, graphs, chains, temperature,
                                    sweeps, rng)
                rows.append({"phase": phase, "method": "anneal (batched chains)",
                             "chains": chains, "chain_sweeps_per_s": rate, "seconds": t})
            for r in rows:
                if r["phase"] == phase:
                    r["ratio_to_naive_loop"] = r["chain_sweeps_per_s"] / ref
    df = pd.DataFrame(rows)
    df.insert(0, "n_k", f"{n}x{K}")
    out = ROOT / "results" / "benchmarks" / "correlation_sampler.csv"
    out.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(out, index=False, float_format="%.4g")
    with pd.option_context("display.width", 140, "display.float_format", "{:.4g}".format):
        print(df.to_string(index=False))
    print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
