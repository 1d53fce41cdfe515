"""wASC Fig. 2: approximation capacity of an annealed Gaussian mixture vs the stopping
temperature (Buhmann, Chehreghani, Frank, Streich 2011, Sect. 4).

Five isotropic Gaussians (Σ = 0.5·I); X¹ and X² of n objects each, aligned by generation
(object i of both sets comes from the same component). Ten centroids (twice the true
number) are annealed on X¹ by deterministic annealing, ε_ik = ‖x_i − μ_k‖². At every
stopping temperature T: the number K̂(T) of centroids distinct at the resolution of T
(‖μ_a − μ_b‖² > 2T, :func:`mtc_cli.core.models.resolution.distinct_at`); I_β of eq. 13 at β = 1/T
and the expected transfer cost of eq. 15 at β = 1/T, both of the ten annealed centroids
(coinciding centroids weigh as in the annealing); the capacity max_β I_β of the K̂ merged
distinct centroids; K̂_σ, the centroids more than ``merge_tol``·σ apart (the annealing's
split detector and the former reading of K̂); and the 1-D MDS projection of the centroids
(Fig. 2a). BIC of spherical GMMs fitted by EM for k = 1..10 (Fig. 2c).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from mtc_cli.core.criteria.approximation_capacity import (
    capacity,
    expected_transfer_cost,
    mutual_information,
)
from mtc_cli.core.criteria.information import bic
from mtc_cli.core.errors import MtcError
from mtc_cli.core.models import annealing, gmm
from mtc_cli.core.models.resolution import distinct_at
from mtc_cli.run.experiment import Experiment, check_memory
from mtc_cli.run.params import param
from mtc_cli.show import plotting

SELECT = {"mutual_information": "max", "transfer_cost": "min", "capacity": "max",
          "bic": "min"}
LABELS = {"mutual_information": "I_β at β = 1/T (10 centroids)",
          "transfer_cost": "expected transfer cost (eq. 15), β = 1/T",
          "capacity": "capacity max_β I_β (K̂ merged centroids)", "bic": "BIC"}
COLORS = {"mutual_information": "#1f77b4", "transfer_cost": "#000000",
          "capacity": "#2ca02c", "bic": "#d62728"}


@dataclass(frozen=True)
class Params:
    means: list[list[float]] = param(
        [[1.0, 0.0], [0.0, 1.5], [-2.0, 0.0], [0.0, -3.0], [4.25, -4.0]],
        help="component means (equal weights)")
    variance: float = param(0.5, help="isotropic component variance σ² (Σ = σ²·I)", min=0.0)
    n: int = param(10000, help="objects in each of X¹ and X²", min=10)
    n_centroids: int = param(10, help="centroids offered to the annealing", min=1)
    t_stop: float = param(0.5, help="lowest stopping temperature", min=0.0)
    cooling: float = param(0.9, help="annealing: T ← cooling·T", min=0.01, max=0.99)
    fine_cooling: float = param(0.99, help="annealing: finest factor near splits",
                                min=0.01, max=0.999)
    merge_tol: float = param(0.5, help="K̂_σ, the centroids more than merge_tol·σ apart: "
                                       "a step that changes it is retried more finely, and "
                                       "the former reading of K̂ (K̂ itself: the resolution "
                                       "of T)", min=0.0)
    bic_k_max: int = param(10, help="BIC: GMMs with k = 1..bic_k_max components", min=1)
    bic_n_init: int = param(2, help="BIC: EM restarts per fit", min=1)
    reps: int = param(3, help="repetitions (new X¹, X², annealing)", min=1)


def sample_aligned(rng: np.random.Generator, means: np.ndarray, sigma: float, n: int
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """X¹, X² aligned by generation: object i of both sets is drawn from the same
    (uniformly chosen) component; returns (X¹, X², labels)."""
    labels = rng.integers(len(means), size=n)
    noise = sigma * rng.standard_normal((2, n, means.shape[1]))
    return means[labels] + noise[0], means[labels] + noise[1], labels


def mds_axis(points: np.ndarray) -> np.ndarray:
    """The optimal 1-D subspace of classical MDS for Euclidean points: their first
    principal axis (unit vector)."""
    centred = points - points.mean(axis=0)
    return np.linalg.svd(centred, full_matrices=False)[2][0]


class WascGmmAnnealing(Experiment):
    name = "wasc_gmm_annealing"
    description = "wASC Fig. 2 — annealed GMM: I_β, transfer cost and BIC vs temperature"
    Params = Params
    condition = ()
    select = SELECT

    def check(self, p: Params) -> None:
        if len(p.means) < 1 or len({len(m) for m in p.means}) != 1:
            raise MtcError(f"key 'means': expected means of equal dimension, got {p.means}")
        if p.variance <= 0 or p.t_stop <= 0:
            raise MtcError("keys 'variance', 't_stop': must be > 0")
        if p.fine_cooling < p.cooling:
            raise MtcError(f"key 'fine_cooling': {p.fine_cooling} < cooling {p.cooling}")
        d = len(p.means[0])
        check_memory("n", 8.0 * 4 * p.n * (d + p.n_centroids + p.bic_k_max))

    def tasks(self, p: Params) -> list[dict]:
        shared = {k: getattr(p, k) for k in ("means", "variance", "n", "n_centroids", "t_stop",
                                             "cooling", "fine_cooling", "merge_tol",
                                             "bic_k_max", "bic_n_init")}
        return [{"rep": r, **shared} for r in range(p.reps)]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        means = np.asarray(task["means"], dtype=np.float64)
        sigma = float(np.sqrt(task["variance"]))
        X1, X2, _ = sample_aligned(rng, means, sigma, task["n"])
        path = annealing.deterministic_annealing(
            X1, task["n_centroids"], rng, sigma=sigma, t_stop=task["t_stop"],
            cooling=task["cooling"], fine_cooling=task["fine_cooling"],
            merge_tol=task["merge_tol"])
        axis = mds_axis(path.centroids[-1])
        centre = X1.mean(axis=0)
        rows = []
        for step, (T, M, k_sigma) in enumerate(zip(path.temperatures, path.centroids,
                                                   path.k_hat, strict=True)):
            c1, c2 = annealing.costs(X1, M), annealing.costs(X2, M)
            labels = distinct_at(M, T)
            merged = annealing.merge(M, labels, np.ones(len(M)))[0]
            cap, cap_beta = capacity(annealing.costs(X1, merged), annealing.costs(X2, merged))
            base = {"rep": task["rep"], "k": int(labels.max() + 1), "k_sigma": int(k_sigma),
                    "T": float(T), "step": step}
            rows += [
                {**base, "criterion": "mutual_information",
                 "score": mutual_information(c1, c2, 1.0 / T)},
                {**base, "criterion": "transfer_cost",
                 "score": expected_transfer_cost(c1, c2, 1.0 / T)},
                {**base, "criterion": "capacity", "score": cap, "beta_star": cap_beta},
            ]
            rows += [{**base, "criterion": "centroid_projection", "centroid": j,
                      "score": float((m - centre) @ axis)} for j, m in enumerate(M)]
        for k in range(1, task["bic_k_max"] + 1):
            sol = gmm.fit(X1, k, covariance_type="spherical", n_init=task["bic_n_init"],
                          random_state=int(rng.integers(2**31 - 1)))
            nll = float(gmm.negative_log_likelihood(sol, X1).sum())
            rows.append({"rep": task["rep"], "criterion": "bic", "k": k,
                         "score": bic(nll, gmm.n_parameters(k, X1.shape[1], "spherical"),
                                      len(X1))})
        return rows

    def summarize(self, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
        out = super().summarize(rows, p)
        out["true_k"] = len(p.means)
        return out

    def tables(self, rows, summary, p: Params) -> dict:
        """``optima``: per repetition the temperature and K̂ of each criterion's optimum
        over the annealing path, and the lowest T at which K̂ equals the true number; the
        same for the former reading K̂_σ (columns ``*_sigma``)."""
        true_k = len(p.means)
        out = []
        for rep, sub in rows[rows["criterion"] != "centroid_projection"].groupby("rep"):
            rec = {"rep": rep, "true_k": true_k}
            path = sub[sub["criterion"] == "mutual_information"].sort_values("step")
            last_true = {}
            for k, tail in (("k", ""), ("k_sigma", "_sigma")):
                at_true = path.loc[path[k] == true_k]
                rec[f"t_lowest_true_k{tail}"] = (float(at_true["T"].min()) if len(at_true)
                                                 else np.nan)
                last_true[tail] = int(at_true["step"].max()) if len(at_true) else -1
            for c in ("mutual_information", "transfer_cost", "capacity"):
                s = sub[sub["criterion"] == c].sort_values("step")
                best = s.loc[s["score"].idxmax() if SELECT[c] == "max" else s["score"].idxmin()]
                rec[f"{c}_T"] = float(best["T"])
                for k, tail in (("k", ""), ("k_sigma", "_sigma")):
                    rec[f"{c}_k{tail}"] = int(best[k])
                    # annealing steps from the optimum down to the lowest T with the true K̂
                    # (0: the optimum is there; > 0: above it; < 0: below it)
                    rec[f"{c}_steps_above{tail}"] = last_true[tail] - int(best["step"])
                rec[f"{c}_value"] = float(best["score"])
            b = sub[sub["criterion"] == "bic"]
            rec["bic_k"] = int(b.loc[b["score"].idxmin(), "k"])
            out.append(rec)
        return {"optima": pd.DataFrame(out)}

    def plot(self, rows, summary, p: Params, outdir) -> list:
        rep0 = rows[rows["rep"] == rows["rep"].min()]
        fig, axes = plotting.figure(1, 3, width=4.6, height=3.6, gridspec_kw={"wspace": 0.55})
        ax = axes[0, 0]
        proj = rep0[rep0["criterion"] == "centroid_projection"]
        for _, c in proj.groupby("centroid"):
            c = c.sort_values("T")
            ax.plot(c["score"], c["T"], color="#1f77b4", lw=0.9)
        ax.set_yscale("log")
        ax.set_xlabel("centroid position, 1-D MDS projection (relative to centre of mass)")
        ax.set_ylabel("stopping temperature T")
        ax.set_title(f"(a) centroid hierarchy (rep 0, {p.n_centroids} centroids)")

        ax = axes[0, 1]
        curves = {c: rep0[rep0["criterion"] == c].sort_values("T")
                  for c in ("mutual_information", "capacity", "transfer_cost")}
        for c in ("mutual_information", "capacity"):
            ax.plot(curves[c]["T"], curves[c]["score"], color=COLORS[c], label=LABELS[c])
        ax.axhline(np.log2(len(p.means)), color="#999999", ls=":", lw=0.8,
                   label=f"log₂ {len(p.means)}")
        kk = curves["mutual_information"]
        true = kk.loc[kk["k"] == len(p.means), "T"]
        if len(true):
            ax.axvline(true.min(), color="#999999", ls="--", lw=0.8,
                       label=f"lowest T with K̂ = {len(p.means)}")
        ax.set_xscale("log")
        ax.set_xlabel("stopping temperature T (β = 1/T)")
        ax.set_ylabel("bits")
        tw = ax.twinx()
        tw.plot(curves["transfer_cost"]["T"], curves["transfer_cost"]["score"],
                color=COLORS["transfer_cost"], ls="--", label=LABELS["transfer_cost"])
        tw.set_ylabel("expected transfer cost per object")
        tw.spines["right"].set_visible(True)
        tw.grid(False)
        lines = ax.get_legend_handles_labels()
        more = tw.get_legend_handles_labels()
        ax.legend(lines[0] + more[0], lines[1] + more[1], loc="center right", fontsize=6.5)
        ax.set_title("(b) mutual information and transfer cost")
        for j, (T, k) in enumerate(zip(kk["T"], kk["k"], strict=True)):
            if j == 0 or k != kk["k"].iloc[j - 1]:
                ax.annotate(f"{k}", (T, 0.02), xycoords=("data", "axes fraction"),
                            fontsize=6, color="#555555", ha="center")

        ax = axes[0, 2]
        b = rows[rows["criterion"] == "bic"]
        q = b.groupby("k")["score"].agg(["mean", "min", "max"])
        ax.fill_between(q.index, q["min"], q["max"], color=COLORS["bic"], alpha=0.2, lw=0)
        ax.plot(q.index, q["mean"], marker="o", ms=3, color=COLORS["bic"])
        ax.axvline(len(p.means), color="#999999", ls="--", lw=0.8)
        ax.set_xlabel("number of components k")
        ax.set_ylabel("BIC (spherical GMM on X¹)")
        ax.set_title(f"(c) BIC vs k (mean, range over {b['rep'].nunique()} reps)")
        ax.set_xticks(q.index)
        return [plotting.save(fig, outdir / "wasc_gmm_annealing.png")]


experiment = WascGmmAnnealing()
