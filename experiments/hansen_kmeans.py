"""Hansen & Larsen 1996, Figs. 2–3: number of clusters of a K-means/RBF density by the
analytic generalization error vs the empirical test error.

2-D data from isotropic Gaussian clusters; for K = 1..K_max the centres come from K-means,
the weights are the training frequencies and one shared width is fitted by maximum
likelihood (Sect. 4.2). Recorded per K: training error E (mean NLL), test error on an
independent test set, and the analytic estimate E + dim(θ)/N with dim(θ) = K(L+1) + 1
(eq. 10).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from mtc_cli.core.criteria.generalization import ml_generalization_error
from mtc_cli.core.datasets.gaussians import mixture_labels, mixture_points
from mtc_cli.core.errors import MtcError
from mtc_cli.core.models import kmeans, rbf_density
from mtc_cli.run.experiment import Experiment
from mtc_cli.run.params import param
from mtc_cli.show import plotting
from mtc_cli.show.curves import errorbar_panel, mean_curves, selection_histogram
from mtc_cli.show.tables import select_per_rep

CRITERIA = {"test": "min", "analytic": "min"}
LABELS = {"train": "training error E", "test": "test error (empirical)",
          "analytic": "E + dim/N (eq. 10)"}
STYLES = {"train": ("#7f7f7f", ":"), "test": ("#d62728", "-"), "analytic": ("#000000", "-")}


@dataclass(frozen=True)
class Params:
    centres: list[list[float]] = param(
        [[0.0, 0.0], [3.0, 0.0], [1.5, 2.598076211353316]],
        help="cluster centres (2-D for the scatter of Fig. 2)")
    sigma: float = param(0.5, help="standard deviation per dimension of every cluster", min=0.0)
    weights: list[float] | None = param(None, help="cluster probabilities (default: equal)",
                                        min=0.0)
    n_train: int = param(42, help="training vectors N", min=2)
    n_test: int = param(120, help="test vectors", min=1)
    k_max: int = param(7, help="largest number of clusters K offered", min=1, max=50)
    n_init: int = param(10, help="K-means restarts per fit (lowest cost kept)", min=1)
    reps: int = param(10, help="replications (new training and test sets)", min=1)
    paper_reps: int = param(10, help="the paper's replications: the first paper_reps give the "
                                     "paper's figure and claims, all reps the derived ones",
                            min=1)
    example_seed: int = param(0, help="seed of the example training set of Fig. 2", min=0)


def draw(rng: np.random.Generator, n: int, centres, sigma: float, weights) -> np.ndarray:
    """n vectors from the mixture of isotropic clusters with common width σ."""
    return mixture_points(rng, mixture_labels(rng, n, len(centres), weights), centres, sigma)


class HansenKmeans(Experiment):
    name = "hansen_kmeans"
    description = "Hansen & Larsen 1996 Figs. 2–3 — number of K-means/RBF clusters"
    Params = Params
    condition = ()
    select = CRITERIA

    def check(self, p: Params) -> None:
        if len(p.centres) < 1 or len({len(c) for c in p.centres}) != 1:
            raise MtcError(f"key 'centres': expected centres of equal dimension, got {p.centres}")
        if p.weights is not None and len(p.weights) != len(p.centres):
            raise MtcError(f"key 'weights': expected {len(p.centres)} weights, got {p.weights}")
        if p.k_max >= p.n_train:
            raise MtcError(f"key 'k_max': expected fewer clusters than n_train = {p.n_train}, "
                           f"got {p.k_max}")

    def tasks(self, p: Params) -> list[dict]:
        shared = {"centres": p.centres, "sigma": p.sigma, "weights": p.weights,
                  "n_train": p.n_train, "n_test": p.n_test, "k_max": p.k_max,
                  "n_init": p.n_init}
        return [{"rep": r, **shared} for r in range(p.reps)]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        mix = (task["centres"], task["sigma"], task["weights"])
        X, X_test = draw(rng, task["n_train"], *mix), draw(rng, task["n_test"], *mix)
        n, L = X.shape
        rows = []
        for K in range(1, task["k_max"] + 1):
            sol = rbf_density.fit(X, K, n_init=task["n_init"],
                                  random_state=int(rng.integers(2**31 - 1)))
            E = float(rbf_density.negative_log_likelihood(sol, X).mean())
            scores = {"train": E,
                      "test": float(rbf_density.negative_log_likelihood(sol, X_test).mean()),
                      "analytic": float(ml_generalization_error(
                          E, rbf_density.n_parameters(K, L), n))}
            rows += [{"rep": task["rep"], "criterion": c, "k": K, "score": s}
                     for c, s in scores.items()]
        return rows

    def summarize(self, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
        out = super().summarize(rows, p)
        out["true_k"] = len(p.centres)
        return out

    def tables(self, rows, summary, p: Params) -> dict:
        """For the paper's first ``paper_reps`` replications and (suffix ``_all``) for all:
        ``curves`` and ``curve_choice`` (:func:`mtc_cli.show.curves.mean_curves`, with, per
        criterion, the distance of K = true k above the mean curve's minimum in standard
        errors, ``<c>_gap_se``), ``agreement`` (per K: gap analytic − test and whether the
        ±1 sd error bars overlap); and ``example``: one training set (seeded by
        ``example_seed``) with its K-means centres for K = k_max, as in Fig. 2."""
        out = {}
        for suffix, part in (("", rows[rows["rep"] < p.paper_reps]), ("_all", rows)):
            for name, df in _curves(part, len(p.centres)).items():
                out[name + suffix] = df
        rng = np.random.default_rng(p.example_seed)
        X = draw(rng, p.n_train, p.centres, p.sigma, p.weights)
        with threadpool_limits(limits=1):
            sol = kmeans.fit(X, p.k_max, n_init=p.n_init,
                             random_state=int(rng.integers(2**31 - 1)))
        out["example"] = pd.concat([
            pd.DataFrame({"kind": "point", "x": X[:, 0], "y": X[:, 1], "cluster": sol.labels}),
            pd.DataFrame({"kind": "centre", "x": sol.centroids[:, 0], "y": sol.centroids[:, 1],
                          "cluster": np.arange(sol.k)})], ignore_index=True)
        return out

    def plot(self, rows, summary, p: Params, outdir) -> list:
        curves = pd.read_csv(outdir / "curves.csv")
        example = pd.read_csv(outdir / "example.csv")
        fig, axes = plotting.figure(1, 3, width=4.6, height=4.2)
        ax = axes[0, 0]
        pts, cen = example[example["kind"] == "point"], example[example["kind"] == "centre"]
        ax.scatter(pts["x"], pts["y"], s=12, c="#7f7f7f")
        for _, c in cen.iterrows():
            ax.text(c["x"], c["y"], str(int(c["cluster"]) + 1), color="#d62728", fontsize=12,
                    fontweight="bold", ha="center", va="center")
        ax.set_aspect("equal", adjustable="datalim")
        ax.set_title(f"Fig. 2: N = {len(pts)} training points, K = {len(cen)} centres")
        errorbar_panel(axes[0, 1], curves, ["train", "test", "analytic"],
                       f"Fig. 3: N = {p.n_train}, test {p.n_test}, the paper's "
                       f"{min(p.paper_reps, p.reps)} replications",
                       styles=STYLES, labels=LABELS)
        axes[0, 1].axvline(len(p.centres), color="#999999", lw=0.8, ls="--")
        selection_histogram(axes[0, 2], rows, list(CRITERIA), styles=STYLES,
                            labels=LABELS)
        axes[0, 2].set_title(f"per-replication choice (argmin), all {p.reps} replications")
        axes[0, 2].legend(fontsize=7)
        return [plotting.save(fig, outdir / "hansen_kmeans.png")]


def _curves(rows: pd.DataFrame, true_k: int) -> dict:
    """Mean curves, their minima, how far K = ``true_k`` lies above each minimum in
    standard errors (sd/√replications of the curve at the minimum), and the agreement."""
    out = mean_curves(rows, CRITERIA)
    c = out["curves"]
    for crit in CRITERIA:
        sub = c[c["criterion"] == crit].set_index("k")
        best = sub["mean"].idxmin()
        se = sub.loc[best, "std"] / np.sqrt(sub.loc[best, "n"])
        gap = sub.loc[true_k, "mean"] - sub.loc[best, "mean"]
        out["curve_choice"][f"{crit}_gap_se"] = float(gap / se) if se > 0 else 0.0
    out["curve_choice"]["replications"] = int(rows["rep"].nunique())
    chosen = select_per_rep(rows, [], CRITERIA)
    for crit in CRITERIA:
        out["curve_choice"][f"{crit}_median_k"] = float(
            chosen.loc[chosen["criterion"] == crit, "selected_k"].median())
    mean = c.pivot(index="k", columns="criterion", values="mean")
    sd = c.pivot(index="k", columns="criterion", values="std")
    gap = (mean["analytic"] - mean["test"]).values
    out["agreement"] = pd.DataFrame({
        "k": mean.index, "gap": gap,
        "overlap": np.abs(gap) <= (sd["analytic"] + sd["test"]).values})
    return out


experiment = HansenKmeans()
