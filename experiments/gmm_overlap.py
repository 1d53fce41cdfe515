"""MTC Fig. 1: the number of Gaussians chosen by MTC, BIC and AIC as the overlap grows.

Frank, Chehreghani, Buhmann 2011, Sect. 3. X¹ and X² are drawn independently from the
same mixture; a GMM with k components is fitted on X¹ by EM; MTC costs X² under it
(eq. 6 through eq. 3), BIC and AIC score the fit on X¹.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd

from mtc_cli.core.criteria.information import aic, bic
from mtc_cli.core.criteria.transfer_cost import transfer_cost
from mtc_cli.core.errors import MtcError
from mtc_cli.core.models import gmm
from mtc_cli.run.experiment import Experiment, check_memory
from mtc_cli.run.params import param
from mtc_cli.show import plotting

CRITERIA = {"mtc": "min", "bic": "min", "aic": "min"}
LABELS = {"mtc": "MTC (transfer cost)", "bic": "BIC", "aic": "AIC"}
YLABELS = {"mtc": "NLL of X² per item", "bic": "BIC on X¹", "aic": "AIC on X¹"}
DISTANCES = ("centres", "radius")
#: the paper's σ where BIC and MTC leave k = 3, "of the distance between the centers"
PAPER_THRESHOLDS = {"bic": 0.60, "mtc": 0.85}


@dataclass(frozen=True)
class Params:
    centres: list[list[float]] = param(
        [[0.0, 0.0], [1.0, 0.0], [0.5, 0.8660254037844386]],
        help="component centres (any dimension); d = their smallest pairwise distance")
    weights: list[float] | None = param(None, help="mixing weights (default: equal)", min=0.0)
    sigma_over_d: list[float] = param(
        [round(0.1 + 0.05 * i, 2) for i in range(29)],
        help="grid of the common isotropic standard deviation σ in units of the distance "
             "named by 'distance'", min=0.0)
    distance: str = param("centres", help="what σ is measured against: 'centres', the "
                                          "distance d between two centres (the paper's "
                                          "'distance between the centers'); 'radius', the "
                                          "distance r from the centres' mean to a centre "
                                          "(d/√3 for the triangle)",
                          choices=list(DISTANCES))
    n: int = param(500, help="items in each of X¹ and X²", min=2)
    k_max: int = param(8, help="largest number of components offered", min=1, max=50)
    covariance_type: str = param("full", help="GMM covariance model",
                                 choices=list(gmm.COVARIANCE_TYPES))
    n_init: int = param(5, help="EM restarts per fit (best likelihood kept)", min=1)
    reps: int = param(20, help="repetitions (independent X¹, X²) per σ", min=1)
    example_sigmas: list[float] = param(
        [0.3, 0.6], help="σ/d of the cost-curve rows of the figure (nearest grid value)")


def centre_distance(centres) -> float:
    """d: the smallest distance between two component centres."""
    c = np.asarray(centres, dtype=np.float64)
    return min(float(np.linalg.norm(a - b)) for a, b in combinations(c, 2))


def radius(centres) -> float:
    """r: the mean distance of the centres from their mean (d/√3 for an equilateral
    triangle of side d)."""
    c = np.asarray(centres, dtype=np.float64)
    return float(np.linalg.norm(c - c.mean(axis=0), axis=1).mean())


def unit(centres, distance: str) -> float:
    """The length σ is measured in: d (``centres``) or r (``radius``)."""
    return centre_distance(centres) if distance == "centres" else radius(centres)


class GmmOverlap(Experiment):
    name = "gmm_overlap"
    description = "MTC Fig. 1 — number of Gaussians by MTC vs BIC vs AIC as overlap grows"
    Params = Params
    condition = ("sigma_over_d",)
    select = CRITERIA

    def check(self, p: Params) -> None:
        dims = {len(c) for c in p.centres}
        if len(p.centres) < 2 or len(dims) != 1:
            raise MtcError("key 'centres': expected ≥ 2 centres of equal dimension, "
                           f"got {p.centres}")
        if centre_distance(p.centres) <= 0:
            raise MtcError("key 'centres': two centres coincide")
        if p.weights is not None and len(p.weights) != len(p.centres):
            raise MtcError(f"key 'weights': expected {len(p.centres)} weights, got {p.weights}")
        if p.weights is not None and sum(p.weights) <= 0:
            raise MtcError(f"key 'weights': expected weights with a positive sum, got "
                           f"{p.weights}")
        d = len(p.centres[0])
        # X¹, X² and the EM's responsibilities and per-component work arrays, float64
        check_memory("n", 8.0 * p.n * (2 * d + 4 * p.k_max * (d + 1)))

    def tasks(self, p: Params) -> list[dict]:
        shared = {"centres": p.centres, "weights": p.weights, "n": p.n, "k_max": p.k_max,
                  "covariance_type": p.covariance_type, "n_init": p.n_init}
        if p.distance != "centres":  # the default stays out of the key (runs keep theirs)
            shared["distance"] = p.distance
        return [{"sigma_over_d": s, "rep": r, **shared}
                for s in p.sigma_over_d for r in range(p.reps)]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        centres = np.asarray(task["centres"], dtype=np.float64)
        sigma = task["sigma_over_d"] * unit(centres, task.get("distance", "centres"))
        X1, _ = gmm.sample(rng, task["n"], centres, sigma, task["weights"])
        X2, _ = gmm.sample(rng, task["n"], centres, sigma, task["weights"])
        d = X1.shape[1]
        rows = []
        for k in range(1, min(task["k_max"], task["n"]) + 1):
            sol = gmm.fit(X1, k, covariance_type=task["covariance_type"],
                          n_init=task["n_init"], random_state=int(rng.integers(2**31 - 1)))
            nll1 = float(gmm.negative_log_likelihood(sol, X1).sum())
            p = gmm.n_parameters(k, d, task["covariance_type"])
            scores = {
                "mtc": transfer_cost(gmm.negative_log_likelihood(sol, X2)),
                "bic": bic(nll1, p, len(X1)),
                "aic": aic(nll1, p),
                "training_cost": nll1 / len(X1),
            }
            rows += [{"sigma_over_d": task["sigma_over_d"], "rep": task["rep"],
                      "criterion": c, "k": k, "score": s} for c, s in scores.items()]
        return rows

    def summarize(self, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
        out = super().summarize(rows, p)
        out["true_k"] = len(p.centres)
        return out

    def tables(self, rows, summary, p: Params) -> dict:
        """``thresholds``: per criterion the smallest σ (in the config's unit) whose median
        choice is below the true k (``first_below``) and the largest whose median choice is
        the true k (``last_at_true``: the paper's "still estimates 3 … up to"), each also in
        units of d (``_d``) and of r (``_r``), the two readings of the paper's "distance
        between the centers" (one wide row, so targets can compare criteria)."""
        wide = {}
        to_d = unit(p.centres, p.distance) / centre_distance(p.centres)
        to_r = unit(p.centres, p.distance) / radius(p.centres)
        for c in CRITERIA:
            s = summary[summary["criterion"] == c].sort_values("sigma_over_d")
            below = s.loc[s["selected_k"] < s["true_k"], "sigma_over_d"]
            first = float(below.min()) if len(below) else np.nan
            wide[f"{c}_first_below"] = first
            wide[f"{c}_first_below_d"] = first * to_d
            wide[f"{c}_first_below_r"] = first * to_r
            at_true = s.loc[s["selected_k"] == s["true_k"], "sigma_over_d"]
            last = float(at_true.max()) if len(at_true) else np.nan
            wide[f"{c}_last_at_true"] = last
            wide[f"{c}_last_at_true_d"] = last * to_d
            wide[f"{c}_last_at_true_r"] = last * to_r
        wide["mtc_over_bic"] = wide["mtc_first_below"] / wide["bic_first_below"]
        wide["grid_step_d"] = round(float(np.min(np.diff(sorted(p.sigma_over_d)))), 12) * to_d \
            if len(p.sigma_over_d) > 1 else np.nan
        wide["grid_step_r"] = wide["grid_step_d"] * centre_distance(p.centres) \
            / radius(p.centres)
        return {"thresholds": pd.DataFrame([wide])}

    def plot(self, rows, summary, p: Params, outdir) -> list:
        from matplotlib.gridspec import GridSpec
        from matplotlib.ticker import MaxNLocator

        grid = np.sort(rows["sigma_over_d"].unique())
        examples = sorted({float(grid[np.abs(grid - s).argmin()]) for s in p.example_sigmas})
        fig = plotting.new_figure(11, 3.0 * len(examples) + 4.4)
        gs = GridSpec(len(examples) + 1, 3, figure=fig, hspace=0.8, wspace=0.3,
                      height_ratios=[1] * len(examples) + [1.6])
        for i, s in enumerate(examples):
            sub = rows[np.isclose(rows["sigma_over_d"], s)]
            for j, c in enumerate(CRITERIA):
                ax = fig.add_subplot(gs[i, j])
                _cost_curve(ax, sub[sub["criterion"] == c], c)
                chosen = summary[np.isclose(summary["sigma_over_d"], s)
                                 & (summary["criterion"] == c)]["selected_k"]
                if len(chosen):
                    ax.axvline(chosen.iloc[0], color="#999999", ls=":", lw=1)
                ax.set_title(f"{LABELS[c]}, σ/{'d' if p.distance == 'centres' else 'r'} "
                             f"= {s:g}")
                ax.set_xlabel("k")
                ax.set_ylabel(YLABELS[c])
        ax = fig.add_subplot(gs[-1, :])
        # side by side at each σ (BIC, MTC, AIC): every k stays on its integer tick
        order = ("bic", "mtc", "aic")
        offsets, width = plotting.dodge(grid, len(order), share=0.8)
        name = "d" if p.distance == "centres" else "r"
        for c, off in zip(order, offsets, strict=True):
            s = summary[summary["criterion"] == c].sort_values("sigma_over_d")
            x = s["sigma_over_d"].to_numpy() + off
            ax.bar(x, s["selected_k_q75"] - s["selected_k_q25"], bottom=s["selected_k_q25"],
                   width=0.9 * width, color=plotting.color(c), alpha=0.3, lw=0)
            ax.plot(x, s["selected_k"], ls="none", marker="o", ms=3.5,
                    color=plotting.color(c), label=f"{LABELS[c]}: median ●, quartiles ▮")
        true_k = int(summary["true_k"].iloc[0])
        ax.axhline(true_k, color="#999999", lw=0.8, ls="--", label=f"true k = {true_k}")
        to_paper = unit(p.centres, "centres") / unit(p.centres, p.distance)
        for c, x in PAPER_THRESHOLDS.items():
            ax.axvline(x * to_paper, color=plotting.color(c), lw=0.8, ls=":", alpha=0.9,
                       label=f"paper: {c.upper()} leaves k = 3 at σ/d = {x:.2f}")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        top_k = np.nanmax([summary["selected_k_q75"].max(), true_k])
        ax.set_ylim(0.5, top_k + 0.5)
        meaning = {"d": "d: distance between two centres", "r": "r: centre to the middle"}
        ax.set_xlabel(f"σ / {name}   ({meaning[name]})")
        other = "r" if name == "d" else "d"
        scale = unit(p.centres, p.distance) / unit(p.centres, "radius" if name == "d"
                                                   else "centres")
        top = ax.secondary_xaxis("top", functions=(lambda v: v * scale, lambda v: v / scale))
        top.set_xlabel(f"σ / {other}   ({meaning[other]})", fontsize=8)
        ax.set_ylabel("selected k")
        ax.text(0.0, 1.2, f"Selected number of Gaussians vs overlap (n = {p.n} per set, "
                f"{p.covariance_type} covariances, {p.reps} repetitions)",
                transform=ax.transAxes, fontsize=10)
        plotting.legend_beside(ax, fontsize=7, title="at each σ, left to right:\nBIC, MTC, "
                               "AIC (k exact)", title_fontsize=7)
        return [plotting.save(fig, outdir / "gmm_overlap.png")]


def _cost_curve(ax, sub: pd.DataFrame, criterion: str) -> None:
    """Median and quartile band over repetitions of one criterion's score vs k."""
    q = sub.groupby("k")["score"].quantile([0.25, 0.5, 0.75]).unstack()
    ax.fill_between(q.index, q[0.25], q[0.75], color=plotting.color(criterion), alpha=0.2, lw=0)
    ax.plot(q.index, q[0.5], marker="o", ms=3, color=plotting.color(criterion))
    ax.set_xticks(q.index)


experiment = GmmOverlap()
