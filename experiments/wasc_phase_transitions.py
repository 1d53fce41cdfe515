"""wASC Figs. 4–5: phase transitions of learnability and the approximation capacity
(Buhmann, Chehreghani, Frank, Streich 2011, Sect. 6; Barkai & Sompolinsky 1994).

Two Gaussian sources with orthogonal centroids of equal norm, Σ = σ₀·I, equal priors;
n objects in D dimensions, α = n/D, and the normalised separation u = ‖μ₁ − μ₂‖/√(2σ₀)
either the same for every D (``fixed``, SPEC) or decreased by √(1/D) as the paper's text
says (``adapted``); the critical α_c = 4u⁻⁴. X¹ and X² are aligned by generation. Centroids
are estimated on X¹ by deterministic annealing (``annealing``) or by annealed Gibbs sampling
of the assignments (``gibbs``, the paper's optimizer), one fixed geometric schedule for all
runs, so they share their temperatures. At every stopping
temperature T: the order parameters s = ‖Δμ̂‖²/‖Δμ‖² and r = |Δμ̂·Δμ|/‖Δμ‖² with
Δμ = (μ₁ − μ₂)/2 (both 1 for a perfect estimate; with 2 centroids Δμ̂ = (μ̂₁ − μ̂₂)/2),
K̂(T), the number of centroids distinct at the resolution of T (‖μ_a − μ_b‖² > 2T,
:func:`mtc_cli.core.models.resolution.distinct_at`), I_β of eq. 13 at β = 1/T, the capacity
max_β I_β of the K̂ merged centroids and the expected transfer cost of eq. 15; and the
former reading, K̂_σ and the capacity of the centroids merged when closer than
``merge_tol``·√σ₀ (kept beside the resolution count for the derived targets). Fig. 5: the
same with 4 centroids at one D.
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
from mtc_cli.core.errors import MtcError
from mtc_cli.core.models import annealing, gibbs
from mtc_cli.core.models.resolution import distinct_at
from mtc_cli.run.experiment import Experiment
from mtc_cli.run.params import param
from mtc_cli.show import plotting

SELECT = {"mutual_information": "max", "capacity": "max", "transfer_cost": "min"}
RECORDED = ("mutual_information", "capacity", "capacity_sigma", "transfer_cost", "s", "r")
#: the columns of one setting of the experiment
SETTING = ["separation", "optimizer", "D", "n_centroids", "u", "alpha"]


@dataclass(frozen=True)
class Params:
    n: int = param(500, help="objects in each of X¹ and X²", min=4)
    dims: list[int] = param([100, 150, 250, 500, 1000, 3000],
                            help="dimensions D of the phase diagram (α = n/D)", min=1)
    highlight_dims: list[int] = param([100, 500, 3000],
                                      help="dimensions drawn in Figs. 4b, 4c (a subset of dims)")
    variance: float = param(0.5, help="σ₀: variance of each coordinate (Σ = σ₀·I)", min=0.0)
    u: float = param(1.5, help="fixed separation: u = ‖μ₁ − μ₂‖/√(2σ₀) for every D",
                     min=0.0)
    separations: list[str] = param(["fixed", "adapted"], choices=("fixed", "adapted"),
                                   help="fixed: u for every D; adapted: "
                                        "u_adapted·√(reference_dim/D)")
    u_adapted: float = param(3.2, help="adapted separation: u at D = reference_dim",
                             min=0.0)
    reference_dim: int = param(100, help="adapted separation: the D where u = u_adapted",
                               min=1)
    optimizers: list[str] = param(["annealing", "gibbs"], choices=("annealing", "gibbs"),
                                  help="deterministic annealing and/or annealed Gibbs "
                                       "sampling of the assignments")
    gibbs_burn_in: int = param(10, help="Gibbs: sweeps discarded at each temperature",
                               min=0)
    gibbs_sweeps: int = param(40, help="Gibbs: sweeps averaged at each temperature", min=1)
    t_start: float = param(16.0, help="annealing: first stopping temperature", min=0.0)
    t_stop: float = param(0.05, help="annealing: last stopping temperature", min=0.0)
    cooling: float = param(0.9, help="annealing: T ← cooling·T", min=0.01, max=0.99)
    tol: float = param(1e-4, help="annealing: fixed point when no centroid moves more than "
                                  "tol·√σ₀ in a sweep", min=0.0)
    max_iter: int = param(300, help="annealing: most sweeps at one temperature", min=1)
    merge_tol: float = param(0.5, help="former reading (K̂_σ, capacity_sigma): centroids "
                                       "closer than merge_tol·√σ₀ count as one", min=0.0)
    fig5_dim: int = param(100, help="Fig. 5: dimension of the 4-centroid run", min=1)
    fig5_centroids: int = param(4, help="Fig. 5: centroids offered", min=2)
    reps: int = param(5, help="repetitions (new sources' data, annealing) per setting",
                      min=1)


def sources(D: int, variance: float, u: float) -> np.ndarray:
    """Two orthogonal centroids of equal norm a with ‖μ₁ − μ₂‖ = a√2 = u√(2σ₀)
    (Sect. 6.1 of Buhmann et al. 2011): μ₁ = a e₁, μ₂ = a e₂, a = u√σ₀. (2, D)."""
    if D < 2:
        raise ValueError(f"need D >= 2 for two orthogonal centroids, got {D}")
    mu = np.zeros((2, D))
    mu[0, 0] = mu[1, 1] = u * np.sqrt(variance)
    return mu


def separation(kind: str, D: int, p: Params) -> float:
    """The normalised separation u at dimension D. ``fixed``: u = p.u. ``adapted``:
    u = u_adapted·√(reference_dim/D) — Sect. 6.1 of Buhmann et al. 2011: "we decrease the
    distance between the centroids by a factor of √(1/D) when going to higher dimensions";
    the paper gives no constant, so u_adapted is the config's (see its comment)."""
    if kind == "fixed":
        return p.u
    return p.u_adapted * float(np.sqrt(p.reference_dim / D))


def order_parameters(centroids: np.ndarray, mu: np.ndarray) -> tuple[float, float]:
    """s = ‖Δμ̂‖²/‖Δμ‖² and r = |Δμ̂·Δμ|/‖Δμ‖² (Barkai & Sompolinsky 1994; Sect. 6.1 of
    Buhmann et al. 2011, normalised so that a perfect estimate gives s = r = 1), with
    Δμ = (μ₁ − μ₂)/2 and Δμ̂ half the difference of the two estimated centroids that lie
    farthest apart (the two centroids themselves when there are two); |·| because the
    labels of the estimate are arbitrary."""
    M = np.asarray(centroids, dtype=np.float64)
    d2 = np.sum((M[:, None, :] - M[None, :, :]) ** 2, axis=2)
    a, b = np.unravel_index(np.argmax(d2), d2.shape)
    est = (M[a] - M[b]) / 2.0
    true = (mu[0] - mu[1]) / 2.0
    norm = float(true @ true)
    return float(est @ est) / norm, abs(float(est @ true)) / norm


class WascPhaseTransitions(Experiment):
    name = "wasc_phase_transitions"
    description = "wASC Figs. 4–5 — phase transitions of learnability, order parameters, I_β"
    Params = Params
    condition = ("separation", "optimizer", "D", "n_centroids")
    select = SELECT

    def check(self, p: Params) -> None:
        if min(p.dims) < 2 or p.fig5_dim < 2:
            raise MtcError("key 'dims': every D must be >= 2")
        missing = sorted(set(p.highlight_dims) - set(p.dims))
        if missing:
            raise MtcError(f"key 'highlight_dims': {missing} not in dims {p.dims}")
        if not p.t_start > p.t_stop > 0:
            raise MtcError(f"keys 't_start', 't_stop': need t_start > t_stop > 0, got "
                           f"{p.t_start}, {p.t_stop}")

    def tasks(self, p: Params) -> list[dict]:
        shared = {k: getattr(p, k) for k in ("n", "variance", "t_start", "t_stop", "cooling",
                                             "merge_tol", "tol", "max_iter", "gibbs_burn_in",
                                             "gibbs_sweeps")}
        settings = [(D, 2) for D in p.dims] + [(p.fig5_dim, p.fig5_centroids)]
        return [{"separation": sep, "optimizer": opt, "D": D, "n_centroids": k,
                 "u": separation(sep, D, p), "rep": r, **shared}
                for sep in p.separations for opt in p.optimizers
                for D, k in settings for r in range(p.reps)]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        D, n, var = task["D"], task["n"], task["variance"]
        mu = sources(D, var, task["u"])
        labels = rng.integers(2, size=n)
        X1 = mu[labels] + np.sqrt(var) * rng.standard_normal((n, D))
        X2 = mu[labels] + np.sqrt(var) * rng.standard_normal((n, D))
        sigma = float(np.sqrt(var))
        if task["optimizer"] == "gibbs":
            path = gibbs.annealed_gibbs(
                X1, task["n_centroids"], rng, t_start=task["t_start"], t_stop=task["t_stop"],
                cooling=task["cooling"], burn_in=task["gibbs_burn_in"],
                sweeps=task["gibbs_sweeps"])
        else:
            path = annealing.deterministic_annealing(
                X1, task["n_centroids"], rng, sigma=sigma, t_start=task["t_start"],
                t_stop=task["t_stop"], cooling=task["cooling"], fine_cooling=task["cooling"],
                merge_tol=task["merge_tol"], tol=task["tol"], max_iter=task["max_iter"])
        cond = {"separation": task["separation"], "optimizer": task["optimizer"], "D": D,
                "n_centroids": task["n_centroids"], "u": task["u"], "alpha": n / D,
                "rep": task["rep"]}
        oracle = capacity(annealing.costs(X1, mu), annealing.costs(X2, mu))[0]
        rows = [{**cond, "criterion": "oracle_capacity", "k": 2, "score": oracle}]
        for step, (T, M) in enumerate(zip(path.temperatures, path.centroids, strict=True)):
            c1, c2 = annealing.costs(X1, M), annealing.costs(X2, M)
            labels = distinct_at(M, T)
            labels_sigma = annealing.distinct(M, task["merge_tol"] * sigma)
            merged, merged_sigma = (annealing.merge(M, g, np.ones(len(M)))[0]
                                    for g in (labels, labels_sigma))
            s, r = order_parameters(M, mu)
            scores = {
                "mutual_information": mutual_information(c1, c2, 1.0 / T),
                "capacity": capacity(annealing.costs(X1, merged),
                                     annealing.costs(X2, merged))[0],
                "capacity_sigma": capacity(annealing.costs(X1, merged_sigma),
                                           annealing.costs(X2, merged_sigma))[0],
                "transfer_cost": expected_transfer_cost(c1, c2, 1.0 / T),
                "s": s, "r": r,
            }
            rows += [{**cond, "criterion": c, "k": int(labels.max() + 1),
                      "k_sigma": int(labels_sigma.max() + 1), "score": v, "T": float(T),
                      "step": step} for c, v in scores.items()]
        return rows

    def tables(self, rows, summary, p: Params) -> dict:
        """``curves``: per setting and annealing step the mean over repetitions of each
        recorded quantity; ``phases``: per setting (medians over repetitions) the peak
        of I_β and where it lies, r at its peak and at the lowest T, the oracle capacity
        (true centroids) and K̂ at the optima of I_β and of the transfer cost; the former
        reading beside it: K̂_σ at the transfer-cost minimum and at the maximum of
        ``capacity_sigma`` (columns ``*_sigma*``)."""
        curves = _curves(rows, by_rep=True)
        mean = _curves(rows)
        oracles = (rows[rows["criterion"] == "oracle_capacity"]
                   .set_index([*SETTING, "rep"])["score"])
        per_rep = []
        for key, c in curves.groupby([*SETTING, "rep"]):
            c = c.sort_values("step")
            i_tc = c["transfer_cost"].idxmin()
            rec = {**dict(zip([*SETTING, "rep"], key, strict=True)),
                   "k_at_tc_min": c.loc[i_tc, "k_hat"], "T_tc_min": c.loc[i_tc, "T"],
                   "k_sigma_at_tc_min": c.loc[i_tc, "k_sigma"],
                   "r_max": c["r"].max(), "r_lowest_T": c["r"].iloc[-1],
                   "s_lowest_T": c["s"].iloc[-1], "T_lowest": c["T"].iloc[-1],
                   "oracle_capacity": float(oracles.get(key, np.nan))}
            for short, col, k in (("mi", "mutual_information", "k_hat"),
                                  ("cap", "capacity", "k_hat"),
                                  ("cap_sigma", "capacity_sigma", "k_sigma")):
                i = c[col].idxmax()
                rec |= {f"{short}_max": c.loc[i, col], f"T_{short}_max": c.loc[i, "T"],
                        f"k_at_{short}_max": c.loc[i, k],
                        f"{short}_lowest_T": c[col].iloc[-1],
                        f"steps_{short}_to_tc": int(c.loc[i_tc, "step"] - c.loc[i, "step"])}
            per_rep.append(rec)
        phases = (pd.DataFrame(per_rep).groupby(SETTING).median(numeric_only=True)
                  .drop(columns="rep").reset_index())
        phases["alpha_c"] = 4.0 * phases["u"] ** -4
        return {"curves": mean, "phases": phases}

    def plot(self, rows, summary, p: Params, outdir) -> list:
        curves = _curves(rows)
        seps = [x for x in p.separations if x in set(curves["separation"])]
        opts = [x for x in p.optimizers if x in set(curves["optimizer"])]
        fig, axes = plotting.figure(len(seps), 4, width=4.3, height=3.5,
                                    gridspec_kw={"hspace": 0.5, "wspace": 0.45})
        for row, sep in zip(axes, seps, strict=True):
            two = curves[(curves["separation"] == sep) & (curves["n_centroids"] == 2)]
            _phase_diagram(row[0], fig, two[two["optimizer"] == opts[-1]], opts[-1], sep)
            _versus_t(row[1:], rows, two, p, sep, opts)
        fig.suptitle("wASC Fig. 4: two Gaussian sources, n = "
                     f"{p.n}; separation fixed (u = {p.u:g}) or adapted "
                     f"(u = {p.u_adapted:g}·√({p.reference_dim}/D))", y=1.0)
        paths = [plotting.save(fig, outdir / "wasc_phase_transitions.png")]
        fig, axes = plotting.figure(len(seps), len(opts), width=5.0, height=4.0,
                                    gridspec_kw={"hspace": 0.75, "wspace": 0.55})
        for row, sep in zip(axes, seps, strict=True):
            for ax, opt in zip(row, opts, strict=True):
                f5 = curves[(curves["separation"] == sep) & (curves["optimizer"] == opt)
                            & (curves["n_centroids"] == p.fig5_centroids)]
                _fig5(ax, f5.sort_values("T"), p, f"{sep}, {OPTIMIZER[opt]}")
        paths.append(plotting.save(fig, outdir / "wasc_phase_transitions_fig5.png"))
        return paths


#: how the figures name the optimizers, and their line styles
OPTIMIZER = {"gibbs": "annealed Gibbs", "annealing": "det. annealing"}
LINESTYLE = {"gibbs": "-", "annealing": "--"}


def _phase_diagram(ax, fig, two: pd.DataFrame, opt: str, sep: str) -> None:
    """Panel (a): r (colour) over α and T, and the contour s = 0.05."""
    alphas = np.sort(two["alpha"].unique())
    grid = two.pivot_table(index="step", columns="alpha", values="r")
    temps = two.groupby("step")["T"].mean().loc[grid.index]
    mesh = ax.pcolormesh(np.arange(len(alphas) + 1), _edges(temps.to_numpy()),
                         grid[alphas].to_numpy(), cmap="viridis", shading="flat",
                         vmin=0, vmax=max(1.0, float(np.nanmax(grid.to_numpy()))))
    sgrid = two.pivot_table(index="step", columns="alpha", values="s")[alphas].to_numpy()
    ax.contour(np.arange(len(alphas)) + 0.5, temps.to_numpy(), sgrid, levels=[0.05],
               colors="w", linewidths=1.0, linestyles="--")
    u_of = two.groupby("alpha")["u"].first()
    ax.set_xticks(np.arange(len(alphas)) + 0.5,
                  [f"{a:.3g}\n{'>' if a > 4 * u_of[a] ** -4 else '<'}α_c" for a in alphas],
                  fontsize=7)
    ax.set_yscale("log")
    ax.set_xlabel("α = n/D (vs α_c = 4u⁻⁴)")
    ax.set_ylabel("stopping temperature T")
    ax.set_title(f"(a) {sep}: r (colour), s = 0.05 (dashed)\n{OPTIMIZER[opt]}", fontsize=9)
    fig.colorbar(mesh, ax=ax, label="r (mean over reps)")


def _versus_t(axes, rows, two: pd.DataFrame, p: Params, sep: str, opts: list[str]) -> None:
    """Panels (b)–(d): r, I_β at β = 1/T and the capacity vs T for the highlighted D, one
    line style per optimizer, with the capacity of the true centroids."""
    palette = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")
    colors = {D: palette[i % len(palette)] for i, D in enumerate(sorted(p.highlight_dims))}
    panels = (("r", "order parameter r", "(b) r vs T"),
              ("mutual_information", "bits", "(c) I_β at β = 1/T (clipped at −0.1)"),
              ("capacity", "bits", "(d) capacity max_β I_β (merged centroids)"))
    for ax, (col, ylab, title) in zip(axes, panels, strict=True):
        for D, color in colors.items():
            for opt in opts:
                c = two[(two["D"] == D) & (two["optimizer"] == opt)].sort_values("T")
                u = float(c["u"].iloc[0]) if len(c) else np.nan
                ax.plot(c["T"], c[col].clip(lower=-0.1), color=color, ls=LINESTYLE[opt],
                        lw=1.2, label=f"α = {p.n / D:.3g} (u = {u:.2f}), {OPTIMIZER[opt]}")
        ax.set_xscale("log")
        ax.set_xlabel("stopping temperature T")
        ax.set_ylabel(ylab)
        ax.set_title(f"{title}\n{sep} separation", fontsize=9)
    oracle = rows[(rows["criterion"] == "oracle_capacity") & (rows["n_centroids"] == 2)
                  & (rows["separation"] == sep)]
    for D, color in colors.items():
        value = oracle[oracle["D"] == D]["score"].mean()
        axes[2].axhline(value, color=color, ls=":", lw=0.9)
    axes[2].plot([], [], color="#555555", ls=":", lw=0.9, label="true centroids (mean)")
    axes[1].set_ylim(-0.15, None)
    axes[2].set_ylim(-0.05, max(1.05, float(two["capacity"].max()) * 1.1))
    axes[0].legend(fontsize=6, loc="upper right")
    axes[2].legend(fontsize=6, loc="center left")


def _fig5(ax, f5: pd.DataFrame, p: Params, label: str) -> None:
    """Fig. 5: capacity, I_β and the expected transfer cost vs T, and K̂ in a strip above."""
    ax.plot(f5["T"], f5["capacity"], color="#2ca02c", label="capacity (merged centroids)")
    ax.plot(f5["T"], f5["mutual_information"].clip(lower=-0.1), color="#1f77b4", ls=":",
            label="I_β at β = 1/T (clipped at −0.1)")
    ax.set_xscale("log")
    ax.set_xlabel("stopping temperature T")
    ax.set_ylabel("bits")
    tw = ax.twinx()
    tw.plot(f5["T"], f5["transfer_cost"], color="#000000", ls="--",
            label="expected transfer cost")
    tw.set_ylabel("expected transfer cost per object")
    tw.spines["right"].set_visible(True)
    tw.grid(False)
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = tw.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=6, loc="center left")
    strip = ax.inset_axes([0.0, 1.03, 1.0, 0.2], sharex=ax)
    strip.step(f5["T"], f5["k_hat"], where="mid", color="#555555", lw=1.0)
    strip.set_ylim(0.5, p.fig5_centroids + 0.5)
    strip.set_yticks(range(1, p.fig5_centroids + 1))
    strip.tick_params(labelbottom=False, labelsize=6)
    strip.set_ylabel("mean K̂", fontsize=7)
    ax.set_title(f"Fig. 5 ({label}): {p.fig5_centroids} centroids, α = "
                 f"{p.n / p.fig5_dim:.3g}", fontsize=9, pad=30)


def _curves(rows: pd.DataFrame, by_rep: bool = False) -> pd.DataFrame:
    """Every recorded quantity, T and K̂ per setting and annealing step, one column each:
    the mean over repetitions (or per repetition with ``by_rep``)."""
    index = [*SETTING, *(["rep"] if by_rep else []), "step"]
    path = rows[rows["criterion"].isin(RECORDED)]
    wide = path.pivot_table(index=index, columns="criterion", values="score", aggfunc="mean")
    extra = (path[path["criterion"] == "s"].groupby(index)
             .agg(T=("T", "mean"), k_hat=("k", "mean"), k_sigma=("k_sigma", "mean")))
    return wide.join(extra).reset_index()


def _edges(t: np.ndarray) -> np.ndarray:
    """Cell edges (geometric midpoints) of a decreasing temperature grid."""
    mid = np.sqrt(t[1:] * t[:-1])
    return np.concatenate([[t[0] ** 2 / mid[0]], mid, [t[-1] ** 2 / mid[-1]]])


experiment = WascPhaseTransitions()
