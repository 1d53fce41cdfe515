"""The figures of ``wasc_phase_transitions``, drawn from its rows and tables (outside its
code version)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from experiments.wasc_phase_transitions.protocol import Params
from experiments.wasc_phase_transitions.tables import _curves
from mtc_cli.show import plotting


def plot(exp, rows, summary, p: Params, outdir) -> list:
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


def _edges(t: np.ndarray) -> np.ndarray:
    """Cell edges (geometric midpoints) of a decreasing temperature grid."""
    mid = np.sqrt(t[1:] * t[:-1])
    return np.concatenate([[t[0] ** 2 / mid[0]], mid, [t[-1] ** 2 / mid[-1]]])
