"""MTC Fig. 6: k-means on three Gaussians with nearest-neighbour, generative and soft mappings.

Frank, Chehreghani, Buhmann 2011, Sect. 7. X¹ and X² are drawn in pairs from a mixture of
isotropic Gaussians (one *setting*); k-means with squared Euclidean cost is fitted on X¹
for k = 1..k_max and its solution is transferred to X² by the structure mapping (eq. 11,
"nearest-neighbour" in the figure), the generative mapping (eq. 5) and the soft mapping
(eq. 14, β = factor / R(s¹, X¹, 1) with R per object). The exact object-level forms of
eqs. 11 and 13 are recorded beside their centroid approximations.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from mtc_cli.core import mappings
from mtc_cli.core.criteria import kmeans_transfer as kt
from mtc_cli.core.datasets.gaussians import mixture_pairs
from mtc_cli.core.errors import MtcError
from mtc_cli.core.models import kmeans
from mtc_cli.run.experiment import Experiment, check_memory
from mtc_cli.run.params import param
from mtc_cli.show import plotting
from mtc_cli.show.tables import select_per_rep, summarize_selection

#: criteria selected by argmin of their transfer cost (the sensitivity variants are added
#: per config as ``soft_f<factor>``)
CRITERIA = ("nn", "nn_object", "generative", "soft", "soft_object")
LABELS = {"cost": "cost on X¹", "nn": "NN / structure (eq. 11)",
          "nn_object": "NN to objects (eq. 11, exact)", "generative": "generative (eq. 5)",
          "soft": "soft (eq. 14)", "soft_object": "soft to objects (eq. 13)"}
PANELS = (("cost",), ("nn", "nn_object"), ("generative",), ("soft", "soft_object"))
PANEL_TITLES = ("cost", "nearest-neighbour mapping", "generative mapping", "soft mapping")
COLORS = {"cost": "#7f7f7f", "nn": "#1f77b4", "nn_object": "#1f77b4", "generative": "#2ca02c",
          "soft": "#000000", "soft_object": "#000000"}


@dataclass(frozen=True)
class Setting:
    """One data-generating mixture: isotropic Gaussian components."""

    name: str = param("equidistant", help="label of the setting (a row of the figure)")
    centres: list[list[float]] = param([[0.0, 0.0], [4.0, 0.0], [2.0, 3.4641016151377544]],
                                       help="component centres (2-D for the scatter)")
    sigmas: list[float] = param([1.0, 1.0, 1.0], help="per-component standard deviation",
                                min=0.0)
    weights: list[float] | None = param(None, help="mixing weights (default: equal)", min=0.0)


@dataclass(frozen=True)
class Params:
    settings: list[Setting] = param([Setting()], help="the mixtures, one figure row each")
    n: int = param(200, help="objects in each of X¹ and X² (drawn in pairs)", min=2)
    k_max: int = param(10, help="largest number of clusters offered", min=1, max=50)
    n_init: int = param(10, help="k-means++ restarts per fit (lowest cost kept)", min=1)
    reps: int = param(20, help="repetitions (new X¹, X²) per setting", min=1)
    beta_factor: float = param(0.75, help="soft mapping: β = factor / R(s¹, X¹, 1)", min=0.0)
    sensitivity_factors: list[float] = param(
        [0.25, 0.5, 1.5, 3.0], help="further β factors for the sensitivity panel", min=0.0)
    example_seed: int = param(0, help="seed of the example data set drawn for the scatter",
                              min=0)


def soft_name(factor: float) -> str:
    return f"soft_f{factor:g}"


def evaluate(X1: np.ndarray, X2: np.ndarray, k_max: int, n_init: int, beta_factor: float,
             extra_factors, rng: np.random.Generator) -> tuple[dict, list]:
    """Scores per criterion (lists over k = 1..k_max) and the k-means solutions of X¹."""
    beta = kt.single_cluster_beta(X1, beta_factor)
    psi = mappings.nearest_neighbour(X1, X2)  # one ψ_NN and one p (eq. 12) serve every k
    p = mappings.soft(kmeans.squared_distances(X1, X2), beta)
    betas = {soft_name(f): kt.single_cluster_beta(X1, f) for f in extra_factors}
    scores = {c: [] for c in ("cost", *CRITERIA, *betas)}
    solutions = []
    for k in range(1, min(k_max, len(X1)) + 1):
        sol = kmeans.fit(X1, k, n_init=n_init, random_state=int(rng.integers(2**31 - 1)))
        solutions.append(sol)
        scores["cost"].append(float(kmeans.costs(sol, X1).mean()))
        scores["nn"].append(kt.structure_transfer_cost(sol, X2))
        scores["nn_object"].append(kt.nearest_neighbour_transfer_cost(sol, X2, psi))
        scores["generative"].append(kt.generative_transfer_cost(sol, X2))
        scores["soft"].append(kt.soft_transfer_cost(sol, X2, beta))
        scores["soft_object"].append(kt.soft_object_transfer_cost(sol, X2, p))
        for name, b in betas.items():
            scores[name].append(kt.soft_transfer_cost(sol, X2, b))
    return scores, solutions


class KmeansMappings(Experiment):
    name = "kmeans_mappings"
    description = "MTC Fig. 6 — k-means with nearest-neighbour, generative and soft mapping"
    Params = Params
    condition = ("setting",)

    def check(self, p: Params) -> None:
        names = [s.name for s in p.settings]
        if not names or len(set(names)) != len(names):
            raise MtcError("key 'settings': expected ≥ 1 settings with distinct names, "
                           f"got {names}")
        for i, s in enumerate(p.settings):
            key = f"settings[{i}]"
            if len(s.centres) < 1 or len({len(c) for c in s.centres}) != 1:
                raise MtcError(f"key '{key}.centres': expected centres of equal dimension, "
                               f"got {s.centres}")
            if len(s.sigmas) != len(s.centres):
                raise MtcError(f"key '{key}.sigmas': expected {len(s.centres)} values, "
                               f"got {s.sigmas}")
            if s.weights is not None and (len(s.weights) != len(s.centres)
                                          or sum(s.weights) <= 0):
                raise MtcError(f"key '{key}.weights': expected {len(s.centres)} weights with "
                               f"a positive sum, got {s.weights}")
        check_memory("n", 8.0 * 4 * p.n * p.n)  # the object-level soft mapping is n × n

    def select_rules(self, p: Params) -> dict:
        extra = [soft_name(f) for f in p.sensitivity_factors if f != p.beta_factor]
        return {c: "min" for c in (*CRITERIA, *extra)}

    def tasks(self, p: Params) -> list[dict]:
        shared = {"n": p.n, "k_max": p.k_max, "n_init": p.n_init, "beta_factor": p.beta_factor,
                  "sensitivity_factors": [f for f in p.sensitivity_factors
                                          if f != p.beta_factor]}
        return [{"setting": s.name, "centres": s.centres, "sigmas": s.sigmas,
                 "weights": s.weights, "rep": r, **shared}
                for s in p.settings for r in range(p.reps)]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        X1, X2, _ = mixture_pairs(rng, task["n"], task["centres"], task["sigmas"],
                                  task["weights"])
        scores, _ = evaluate(X1, X2, task["k_max"], task["n_init"], task["beta_factor"],
                             task["sensitivity_factors"], rng)
        return [{"setting": task["setting"], "rep": task["rep"], "criterion": c, "k": k + 1,
                 "score": s} for c, values in scores.items() for k, s in enumerate(values)]

    def summarize(self, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
        select = self.select_rules(p)
        out = summarize_selection(rows, ["setting"], select)
        true_k = {s.name: len(s.centres) for s in p.settings}
        out["true_k"] = out["setting"].map(true_k)
        out["k_max"] = p.k_max
        chosen = select_per_rep(rows, ["setting"], select)
        chosen["is_true"] = chosen["selected_k"] == chosen["setting"].map(true_k)
        frac = chosen.groupby(["setting", "criterion"])["is_true"].mean().rename("frac_true_k")
        return out.merge(frac.reset_index(), on=["setting", "criterion"], how="left")

    def tables(self, rows, summary, p: Params) -> dict:
        """``curves``: median and quartiles of each score vs k; ``monotone``: per setting
        and score whether the median curve never rises with k; ``sensitivity``: soft-MTC's
        choice vs the β factor; ``scatter``: an example data set per setting (seeded by
        ``example_seed``) with the clustering chosen by soft-mapping MTC."""
        q = rows.groupby(["setting", "criterion", "k"])["score"]
        curves = pd.DataFrame({"median": q.median(), "q25": q.quantile(0.25),
                               "q75": q.quantile(0.75)}).reset_index()
        mono = (curves.sort_values("k").groupby(["setting", "criterion"])["median"]
                .apply(lambda s: bool(np.all(np.diff(s.to_numpy()) <= 0)))
                .rename("non_increasing").reset_index())
        factors = {p.beta_factor: "soft", **{f: soft_name(f) for f in p.sensitivity_factors
                                             if f != p.beta_factor}}
        sens = summary[summary["criterion"].isin(factors.values())].copy()
        sens["beta_factor"] = sens["criterion"].map({v: k for k, v in factors.items()})
        sens = sens.sort_values(["setting", "beta_factor"])[
            ["setting", "beta_factor", "selected_k", "selected_k_q25", "selected_k_q75",
             "true_k"]]
        return {"curves": curves, "monotone": mono, "sensitivity": sens,
                "scatter": self._scatter(p)}

    def _scatter(self, p: Params) -> pd.DataFrame:
        parts = []
        with threadpool_limits(limits=1):
            for i, s in enumerate(p.settings):
                rng = np.random.default_rng([p.example_seed, i])
                X1, X2, _ = mixture_pairs(rng, p.n, s.centres, s.sigmas, s.weights)
                scores, sols = evaluate(X1, X2, p.k_max, p.n_init, p.beta_factor, [], rng)
                sol = sols[int(np.argmin(scores["soft"]))]
                pts = pd.DataFrame({"kind": "point", "x": X1[:, 0], "y": X1[:, 1],
                                    "cluster": sol.labels})
                cen = pd.DataFrame({"kind": "centroid", "x": sol.centroids[:, 0],
                                    "y": sol.centroids[:, 1], "cluster": np.arange(sol.k)})
                both = pd.concat([pts, cen], ignore_index=True)
                both.insert(0, "setting", s.name)
                both["k"] = sol.k
                parts.append(both)
        return pd.concat(parts, ignore_index=True)

    def plot(self, rows, summary, p: Params, outdir) -> list:
        from matplotlib.gridspec import GridSpec

        curves = pd.read_csv(outdir / "curves.csv")
        scatter = pd.read_csv(outdir / "scatter.csv")
        sens = pd.read_csv(outdir / "sensitivity.csv")
        names = [s.name for s in p.settings]
        fig = plotting.new_figure(17, 2.9 * len(names) + 3.0)
        gs = GridSpec(len(names) + 1, 5, figure=fig, hspace=0.5, wspace=0.32,
                      height_ratios=[1] * len(names) + [1.0])
        for i, name in enumerate(names):
            cur = curves[curves["setting"] == name]
            chosen = summary[summary["setting"] == name].set_index("criterion")["selected_k"]
            for j, (panel, title) in enumerate(zip(PANELS, PANEL_TITLES, strict=True)):
                ax = fig.add_subplot(gs[i, j])
                for c in panel:
                    _curve(ax, cur[cur["criterion"] == c], c, dashed=c.endswith("_object"))
                if panel[0] in chosen:
                    ax.axvline(chosen[panel[0]], color="#999999", ls=":", lw=1)
                if i == 0:
                    ax.set_title(title)
                ax.set_xlabel("k")
                if j == 0:
                    ax.set_ylabel(f"{name}\ncost per object")
                if len(panel) > 1 and i == 0:
                    ax.legend(loc="upper right", fontsize=7)
            _scatter_panel(fig.add_subplot(gs[i, 4]), scatter[scatter["setting"] == name], name)
        ax = fig.add_subplot(gs[-1, :2])
        for name in names:
            s = sens[sens["setting"] == name]
            ax.errorbar(s["beta_factor"], s["selected_k"],
                        yerr=[s["selected_k"] - s["selected_k_q25"],
                              s["selected_k_q75"] - s["selected_k"]],
                        marker="o", ms=4, capsize=3, label=name)
        ax.axvline(p.beta_factor, color="#999999", ls=":", lw=1)
        ax.set_xscale("log")
        factors = sorted(sens["beta_factor"].unique())
        ax.set_xticks(factors, [f"{f:g}" for f in factors])
        ax.minorticks_off()
        ax.set_xlabel("factor in β = factor / R(s¹, X¹, 1)   (dotted: the paper's 0.75)")
        ax.set_ylabel("k selected by soft MTC")
        ax.set_title("sensitivity of the soft mapping to β (median, quartiles)")
        ax.legend()
        ax = fig.add_subplot(gs[-1, 2:4])
        _selection_bars(ax, summary, names)
        return [plotting.save(fig, outdir / "kmeans_mappings.png")]


def _curve(ax, sub: pd.DataFrame, criterion: str, *, dashed: bool) -> None:
    sub = sub.sort_values("k")
    col = COLORS.get(criterion, "#7f7f7f")
    ls = "--" if dashed else "-"
    ax.plot(sub["k"], sub["median"], ls=ls, marker="o", ms=3, color=col, label=LABELS[criterion])
    ax.plot(sub["k"], sub["q25"], ls=":", lw=0.8, color=col)
    ax.plot(sub["k"], sub["q75"], ls=":", lw=0.8, color=col)


def _scatter_panel(ax, sub: pd.DataFrame, name: str) -> None:
    pts, cen = sub[sub["kind"] == "point"], sub[sub["kind"] == "centroid"]
    ax.scatter(pts["x"], pts["y"], c=pts["cluster"], cmap="tab10", vmin=0, vmax=9, s=8)
    ax.scatter(cen["x"], cen["y"], marker="x", s=60, c="k")
    ax.set_title(f"{name}: soft-MTC choice, k = {int(sub['k'].iloc[0])}")
    ax.set_aspect("equal", adjustable="datalim")


def _selection_bars(ax, summary: pd.DataFrame, names: list) -> None:
    crits = [c for c in CRITERIA if c in set(summary["criterion"])]
    width = 0.8 / len(crits)
    for j, c in enumerate(crits):
        s = summary[summary["criterion"] == c].set_index("setting").reindex(names)
        x = np.arange(len(names)) + (j - (len(crits) - 1) / 2) * width
        ax.bar(x, s["selected_k"], width, color=COLORS[c], alpha=0.5 if "_object" in c else 0.9,
               hatch="//" if "_object" in c else None, label=LABELS[c])
    true_k = summary.drop_duplicates("setting").set_index("setting").reindex(names)["true_k"]
    ax.scatter(np.arange(len(names)), true_k, marker="_", s=900, c="r", zorder=3,
               label="true k")
    ax.set_xticks(np.arange(len(names)), names)
    ax.set_ylabel("median selected k")
    ax.set_title("selected k per mapping")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))


experiment = KmeansMappings()
