"""The figure of a selection: every criterion's curve over k on one normalised axis with
its choice marked, and beside it a view of the data — a 2-D PCA projection coloured by
the clustering at the voted k, or the singular values with the hard threshold."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from mtc_cli.selection.catalog import CRITERIA

#: rules whose best value is the smallest (flipped so that up is better in the figure)
_LOWER_IS_BETTER = ("min", "median_min", "stability")
#: classical indices read from below: min C-index; the first k with H(k) ≤ 10 or with the
#: Duda–Hart z at most its critical value; the knee of the falling W(k)
_INDICES_LOWER_IS_BETTER = ("c_index", "hartigan", "duda_hart", "knee")


def normalised(curve: pd.DataFrame, rule: str, name: str = "") -> np.ndarray:
    """A curve scaled to [0, 1] with 1 at its best value (min-rules flipped)."""
    v = curve["value"].to_numpy(dtype=float)
    ok = np.isfinite(v)
    if not ok.any():
        return v
    lo, hi = np.nanmin(v[ok]), np.nanmax(v[ok])
    z = (v - lo) / (hi - lo) if hi > lo else np.full_like(v, 0.5)
    flip = rule in _LOWER_IS_BETTER or (rule == "index" and name in _INDICES_LOWER_IS_BETTER)
    return 1.0 - z if flip else z


def draw_curves(ax, curves: pd.DataFrame, summary: pd.DataFrame) -> None:
    """Every criterion's normalised curve with its chosen k circled; criteria that read
    no curve (a rank from a threshold or an evidence maximum) appear in the legend only."""
    from matplotlib.lines import Line2D

    from mtc_cli.show import plotting

    colours = plotting.cmap_cycle(len(summary))
    chosen = summary.set_index("criterion")["selected_k"]
    handles = []
    for i, name in enumerate(summary["criterion"]):
        cur = curves[curves["criterion"] == name].sort_values("k")
        k = chosen.get(name, np.nan)
        label = f"{name} → {k:g}"
        if CRITERIA[name].rule == "direct" or cur.empty:
            handles.append(Line2D([], [], color=colours[i], marker="s", ls="none",
                                  label=f"{label} (no curve)"))
            continue
        y = normalised(cur, CRITERIA[name].rule, name)
        (line,) = ax.plot(cur["k"], y, marker="o", ms=2.5, lw=1.2, color=colours[i],
                          label=label)
        handles.append(line)
        if np.isfinite(k) and (cur["k"] == k).any():
            ax.plot(k, y[np.flatnonzero(cur["k"].to_numpy() == k)[0]], "o", ms=8,
                    color=colours[i], mfc="none", mew=1.6)
    ax.set_xlabel("k")
    ax.set_ylabel("normalised score (1 = best of the curve)")
    ax.set_ylim(-0.05, 1.05)
    ks = np.sort(curves["k"].unique())
    if 0 < len(ks) <= 25:
        ax.set_xticks(ks)
    ax.legend(handles=handles, fontsize=7.5, loc="upper left", bbox_to_anchor=(1.01, 1.0),
              borderaxespad=0)
    ax.set_title("every criterion's curve (circled: its choice)", fontsize=9)


def draw_vote(ax, vote: pd.DataFrame, true_k) -> None:
    """One bar per chosen k (votes cast), the voted k in red, other k tied for the lead (or
    in the run-off) in orange, the true k (if known) named."""
    from mtc_cli.selection.voting import kind

    x = np.arange(len(vote))
    other = vote["finalist"] if "finalist" in vote else vote["leading"]
    colours = np.where(vote["voted"], "#d62728", np.where(other, "#ff7f0e", "#7f7f7f"))
    ax.bar(x, vote["votes"], color=colours, width=0.6)
    ax.set_xticks(x)
    ax.set_xticklabels([str(k) for k in vote["k"]])
    ax.set_xlabel("chosen k")
    ax.set_ylabel("votes cast")
    ax.yaxis.get_major_locator().set_params(integer=True)
    truth = f"; true k = {true_k:g}" if true_k is not None and np.isfinite(true_k) else ""
    how = kind(vote) if vote["voted"].any() else "no"
    tie = ("; orange: in the run-off" if "finalist" in vote else
           "; orange: tied" if other.sum() > 1 else "")
    ax.set_title(f"{how} vote (red: the voted k{tie}{truth})", fontsize=9)


def draw_projection(ax, projection: pd.DataFrame, k: int) -> None:
    for c, g in projection.groupby("cluster"):
        ax.scatter(g["pc1"], g["pc2"], s=5, alpha=0.7, label=str(c), lw=0)
    ax.set_xlabel("PC 1")
    ax.set_ylabel("PC 2")
    ax.set_title(f"clustering at the voted k = {k} ({len(projection)} objects shown)",
                 fontsize=9)


def draw_spectrum(ax, spectrum: pd.DataFrame, summary: pd.DataFrame) -> None:
    """Singular values (log scale), the hard threshold τ, each criterion's rank marked."""
    ax.semilogy(spectrum["rank"], spectrum["singular_value"], "o-", ms=2.5, lw=1,
                color="#444444")
    ax.axhline(spectrum["threshold"].iloc[0], color="#9467bd", ls=":", lw=1,
               label="Gavish–Donoho threshold τ")
    chosen = summary.dropna(subset=["selected_k"])
    for i, (name, k) in enumerate(zip(chosen["criterion"], chosen["selected_k"],
                                      strict=True)):
        ax.axvline(k, lw=0.7, alpha=0.6, color="#1f77b4")
        ax.annotate(f"{name} {k:g}", (k, 0.97 - 0.07 * i), xycoords=("data", "axes fraction"),
                    fontsize=7, ha="left", va="top", color="#1f77b4")
    ax.set_xlabel("rank")
    ax.set_ylabel("singular value")
    ax.set_title("singular values and the chosen ranks", fontsize=9)
    ax.legend(fontsize=7, loc="lower left")


def save_figure(curves: pd.DataFrame, summary: pd.DataFrame, vote: pd.DataFrame,
                extra: dict, title: str, path: Path) -> Path:
    """Curves (top, legend on the right), vote and the data view (bottom) in one PNG."""
    from matplotlib.gridspec import GridSpec

    from mtc_cli.show import plotting

    fig = plotting.new_figure(11.0, 8.0)
    gs = GridSpec(2, 2, figure=fig, height_ratios=[1.15, 1.0], width_ratios=[0.75, 1.25],
                  hspace=0.38, wspace=0.3)
    draw_curves(fig.add_subplot(gs[0, :]), curves, summary)
    true_k = summary["true_k"].iloc[0] if "true_k" in summary else np.nan
    draw_vote(fig.add_subplot(gs[1, 0]), vote, true_k)
    view = fig.add_subplot(gs[1, 1])
    voted = vote.loc[vote["voted"], "k"]
    if "projection" in extra and len(voted):
        draw_projection(view, extra["projection"], int(voted.iloc[0]))
    elif "spectrum" in extra:
        draw_spectrum(view, extra["spectrum"], summary)
    else:
        view.set_axis_off()
    fig.suptitle(title, fontsize=10, y=0.95)
    return plotting.save(fig, path)


def draw_stability(ax, stability: pd.DataFrame, decision: pd.DataFrame) -> None:
    """``--model auto``: each algorithm's S(k)/S_perm(k), its lowest value marked; the
    winner's curve drawn thick."""
    from matplotlib import colormaps

    winners = set(decision.loc[decision["winner"], "model"])
    colours = colormaps["tab10"]
    for i, (model, g) in enumerate(stability.groupby("model", sort=False)):
        thick = model in winners
        line, = ax.plot(g["k"], g["value"], marker="o", ms=3, lw=2.4 if thick else 1.0,
                        alpha=1.0 if thick else 0.75, color=colours(i % 10),
                        label=f"{model} (winner)" if thick else model)
        low = g.loc[g["value"] == g["value"].min()]
        if len(low):
            ax.plot(low["k"].max(), low["value"].min(), "o", ms=9, mfc="none",
                    mec=line.get_color(), mew=1.5)
    ax.set_xlabel("k")
    ax.set_ylabel("S(k) / S_perm(k)  (lower: more stable)")
    ax.set_title("normalised stability per algorithm (circles: each one's lowest)", fontsize=9)
    ax.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))


def save_auto_figure(stability: pd.DataFrame, decision: pd.DataFrame,
                     projection: pd.DataFrame | None, title: str, path: Path) -> Path:
    """``--model auto``: the stability curves (left) and the data view coloured by the
    winner's clustering at its voted k (right)."""
    from mtc_cli.show import plotting

    fig = plotting.new_figure(12.0, 4.8)
    ax_curves = fig.add_axes([0.06, 0.12, 0.38, 0.72])
    draw_stability(ax_curves, stability, decision)
    view = fig.add_axes([0.62, 0.12, 0.34, 0.72])
    best = decision[decision["winner"]]
    if projection is not None and len(best):
        draw_projection(view, projection, int(best["vote_k"].iloc[0]))
        view.set_title(f"{best['model'].iloc[0]} at its voted k = "
                       f"{int(best['vote_k'].iloc[0])} ({len(projection)} objects shown)",
                       fontsize=9)
    else:
        view.set_axis_off()
    fig.suptitle(title, fontsize=10, y=0.97)
    return plotting.save(fig, path)
