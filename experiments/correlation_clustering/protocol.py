"""What ``correlation_clustering`` computes: its parameters, its tasks and the rows of one
task — the code its code version holds (nothing here imports its tables, its figures or the
show layer)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mtc_cli.core.criteria import stability
from mtc_cli.core.datasets.correlation_graph import correlation_graph
from mtc_cli.core.errors import MtcError
from mtc_cli.core.models import correlation
from mtc_cli.run.experiment import Experiment, check_memory
from mtc_cli.run.params import param

CRITERIA = {"transfer_cost": "min", "instability": "min", "instability_uniform": "min"}
INSTABILITIES = {"instability": "permutation", "instability_uniform": "uniform"}


@dataclass(frozen=True)
class Params:
    sizes: list[int] = param([300, 300, 300], help="planted cluster sizes (N = their sum, even)",
                             min=1)
    q: float = param(0.30, help="probability that an inter-cluster edge is set to +1 "
                                "(structure complexity)", min=0.0, max=1.0)
    p: list[float] = param([0.70, 0.75, 0.80, 0.85, 0.90, 0.95],
                           help="noise levels: probability that an edge is redrawn at random",
                           min=0.0, max=1.0)
    k_max: int = param(10, help="largest number of clusters offered (k = 1..k_max)",
                       min=2, max=50)
    n_init: int = param(10, help="random initialisations per graph and k (lowest cost kept)",
                        min=1)
    splits: int = param(5, help="random node splits (resamples) of each graph", min=1)
    graphs: int = param(1, help="independent graphs per p (rep = graph × splits + split)",
                        min=1)
    n_sweeps: int = param(500, help="annealing sweeps (each visits every node once)", min=0)
    t_start: float | None = param(None, help="start temperature (default 2√N of one half)",
                                  min=0.0)
    t_end: float = param(0.5, help="temperature of the last annealing sweep", min=1e-6)
    max_greedy_sweeps: int = param(100, help="greedy sweeps after annealing (until no move)",
                                   min=0)
    n_random: int = param(20, help="random labellings per instability baseline", min=1)
    figure_p: list[float] = param([0.70, 0.80, 0.95],
                                  help="p of the cost-curve panels (nearest grid value)")


class CorrelationClusteringProtocol(Experiment):
    name = "correlation_clustering"
    description = "MTC Fig. 5 — correlation clustering: transfer cost vs instability"
    Params = Params
    condition = ("p",)
    select = CRITERIA

    def check(self, p: Params) -> None:
        if sum(p.sizes) % 2:
            raise MtcError(f"key 'sizes': the {sum(p.sizes)} nodes must split into two "
                           "graphs of equal size (even sum)")
        if p.t_start is not None and p.t_start <= p.t_end:
            raise MtcError(f"key 't_start': expected a value above t_end = {p.t_end}, "
                           f"got {p.t_start}")
        n = sum(p.sizes)
        check_memory("sizes", 8.0 * 3 * n * n)  # the signed graph and its halves, float64

    def tasks(self, p: Params) -> list[dict]:
        shared = {"sizes": p.sizes, "q": p.q, "k_max": p.k_max, "n_init": p.n_init,
                  "splits": p.splits, "n_sweeps": p.n_sweeps, "t_start": p.t_start,
                  "t_end": p.t_end, "max_greedy_sweeps": p.max_greedy_sweeps,
                  "n_random": p.n_random}
        return [{"p": noise, "graph": g, **shared} for noise in p.p for g in range(p.graphs)]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        X, truth = correlation_graph(rng, task["sizes"], task["q"], task["p"])
        halves = [stability.split_halves(len(truth), rng) for _ in range(task["splits"])]
        pairs = np.stack([X[np.ix_(idx, idx)] for split in halves for idx in split])
        ks = list(range(1, task["k_max"] + 1))
        labels, costs = correlation.fit(
            pairs, ks, task["n_init"], rng, n_sweeps=task["n_sweeps"],
            t_start=task["t_start"], t_end=task["t_end"],
            max_greedy_sweeps=task["max_greedy_sweeps"])
        rows = []
        for s, (i1, i2) in enumerate(halves):
            X2, X21 = pairs[2 * s + 1], X[np.ix_(i2, i1)]
            base = {"p": task["p"], "rep": task["graph"] * task["splits"] + s,
                    "graph": task["graph"], "split": s}
            for j, k in enumerate(ks):
                own1, own2 = labels[2 * s, j], labels[2 * s + 1, j]
                moved = correlation.transfer_labels(X21, own1, k)
                sizes = np.sort(np.bincount(own1))[::-1]
                rows.append({**base, "criterion": "training_cost", "k": k,
                             "score": float(costs[2 * s, j]),
                             "clusters_used": int(np.count_nonzero(sizes)),
                             "outside_largest": int(sizes[len(task["sizes"]):].sum()),
                             "truth_disagreement": stability.disagreement(truth[i1], own1)})
                rows.append({**base, "criterion": "transfer_cost", "k": k,
                             "score": correlation.disagreement_cost(X2, moved),
                             "clusters_used": len(np.unique(moved)),
                             "truth_disagreement": stability.disagreement(truth[i2], moved)})
                if k < 2:  # instability is not defined for one cluster
                    continue
                d = stability.disagreement(own2, moved)
                for criterion, norm in INSTABILITIES.items():
                    rand = stability.random_disagreement(own2, moved, k, rng,
                                                         normalisation=norm,
                                                         n_draws=task["n_random"])
                    rows.append({**base, "criterion": criterion, "k": k,
                                 "score": d / rand if rand > 0 else np.nan,
                                 "disagreement": d, "random_disagreement": rand})
        return rows
