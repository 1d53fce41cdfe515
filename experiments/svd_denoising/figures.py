"""The figures of ``svd_denoising``, drawn from its rows and tables (outside its code
version)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from experiments.svd_denoising.protocol import Params
from experiments.svd_denoising.tables import gap_table
from mtc_cli.show import plotting

ORACLE = "#e377c2"
#: the heat map's colour scale ends this many dB below the crest
FLOOR_DB = 8.0


def plot(exp, rows, summary, p: Params, outdir) -> list:
    from matplotlib.gridspec import GridSpec
    from matplotlib.lines import Line2D

    gaps = gap_table(rows)
    heat = (rows[rows["criterion"] == "psnr"].groupby(["k", "sigma"])["score"].mean()
            .unstack("sigma").sort_index())
    sig, ks = heat.columns.to_numpy(float), heat.index.to_numpy(int)
    s = gaps["sigma"].to_numpy(float)

    fig = plotting.new_figure(12.5, 4.6)
    gs = GridSpec(2, 2, figure=fig, width_ratios=[1.25, 1], hspace=0.12, wspace=0.28)
    ax = fig.add_subplot(gs[:, 0])
    # colour: PSNR relative to the best rank at each σ, so the crest shows at every σ
    below = heat.to_numpy() - heat.max(axis=0).to_numpy()[None, :]
    mesh = ax.pcolormesh(_edges(sig), _edges(ks, geometric=True), below, cmap="viridis",
                         vmin=-FLOOR_DB, vmax=0.0)
    fig.colorbar(mesh, ax=ax, pad=0.02, extend="min",
                 label="PSNR − best PSNR at that σ (dB)")
    if len(sig) > 1 and len(ks) > 1:
        ax.contour(sig, ks, below, levels=[-1.0], colors="white", linewidths=0.8,
                   linestyles=":")
    lo = np.clip(gaps["mtc_k"] - 3 * gaps["mtc_k_std"], 1, ks.max())
    hi = np.clip(gaps["mtc_k"] + 3 * gaps["mtc_k_std"], 1, ks.max())
    ax.plot(s, gaps["oracle_k"], color=ORACLE, ls="--", lw=2, marker="o", ms=3)
    ax.plot(s, gaps["mtc_k"], color="black", lw=1.8, marker="o", ms=3)
    ax.plot(s, lo, color="black", lw=0.9, ls="--")
    ax.plot(s, hi, color="black", lw=0.9, ls="--")
    plotting.legend_below(ax, handles=[
        Line2D([], [], color=ORACLE, ls="--", lw=2, label="crest: PSNR-optimal rank"),
        Line2D([], [], color="black", lw=1.8, label="MTC rank (median over splits)"),
        Line2D([], [], color="black", lw=0.9, ls="--", label="MTC median ± 3 std"),
        Line2D([], [], color="white", lw=0.8, ls=":", label="1 dB below the crest")],
        facecolor="#bbbbbb")
    ax.set_xlabel("noise std σ (grey levels)")
    ax.set_ylabel("rank k")
    ax.set_yscale("log", base=2)
    ax.set_yticks([t for t in 2 ** np.arange(7) if t <= ks.max()] + [ks.max()])
    ax.yaxis.set_major_formatter("{x:g}")
    ax.grid(False)
    shrink = f", downsampled ×{p.downsample}" if p.downsample > 1 else ""
    ax.set_title(f"{Path(p.image).name}{shrink}: {p.patch}×{p.patch} patches, "
                 f"{int(gaps['n_reps'].max())} splits per σ")

    ax1 = fig.add_subplot(gs[0, 1])
    ax1.plot(s, gaps["psnr_oracle"], color=ORACLE, ls="--", lw=2, marker="o", ms=3,
             label="PSNR at the optimal rank (oracle)")
    ax1.plot(s, gaps["psnr_mtc"], color="black", lw=1.2, marker="o", ms=3,
             label="PSNR at MTC's rank")
    ax1.plot(s, gaps["psnr_noisy"], color="#999999", lw=1,
             label="PSNR of the noisy input (full rank)")
    ax1.set_ylabel("PSNR (dB)")
    ax1.set_title("PSNR of MTC's rank vs the optimum (mean over splits)")
    ax1.tick_params(labelbottom=False)

    ax2 = fig.add_subplot(gs[1, 1], sharex=ax1)
    ax2.fill_between(s, gaps["gap_min"], gaps["gap_max"], color="black", alpha=0.15, lw=0,
                     label="PSNR loss, range over splits")
    ax2.plot(s, gaps["gap"], color="black", lw=1.2, marker="o", ms=3,
             label="PSNR loss, mean over splits")
    ax2.axhline(1.0, color="#d62728", lw=0.8, ls=":", label="1 dB loss")
    ax2.set_xlabel("noise std σ (grey levels)")
    ax2.set_ylabel("PSNR loss of MTC (dB)")
    ax2.set_ylim(bottom=0)
    (h1, l1), (h2, l2) = ax1.get_legend_handles_labels(), ax2.get_legend_handles_labels()
    plotting.legend_below(ax2, handles=h1 + h2, labels=l1 + l2)
    return [plotting.save(fig, Path(outdir) / "svd_lenna.png")]


def _edges(centres: np.ndarray, geometric: bool = False) -> np.ndarray:
    """Cell edges around sorted grid points: midpoints (geometric ones for a log axis)."""
    c = np.log(centres) if geometric else np.asarray(centres, dtype=float)
    step = np.diff(c) if len(c) > 1 else np.array([1.0])
    e = np.concatenate([[c[0] - step[0] / 2], (c[:-1] + c[1:]) / 2, [c[-1] + step[-1] / 2]])
    return np.exp(e) if geometric else e
