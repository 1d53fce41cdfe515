"""MTC Fig. 2: the rank of a truncated SVD for image denoising, chosen by minimum transfer cost.

Frank, Chehreghani, Buhmann 2011, Sect. 4.1. The image (grey, or colour → luminance) plus
Gaussian noise of std σ is cut into non-overlapping p×p patches, the rows of X. MTC splits
the rows at random into halves X¹, X², maps each x²_i' to its nearest row of X¹ and costs
it against that row's rank-k reconstruction (eq. 7). The oracle denoises with the rank-k
SVD of all of X, reassembles the image and measures its PSNR against the clean image; its
best rank per σ is the crest of the PSNR surface.

As in the paper, X is not centred (plain SVD of the patch matrix) and nothing is clipped:
neither the noisy pixels nor the denoised ones are limited to 0..255.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from mtc_cli.core.criteria.transfer_cost import svd_transfer_costs
from mtc_cli.core.datasets import images
from mtc_cli.core.errors import MtcError
from mtc_cli.core.files import file_sha256
from mtc_cli.core.mappings import nearest_neighbour
from mtc_cli.core.models import svd
from mtc_cli.run.experiment import Experiment
from mtc_cli.run.params import PROJECT_ROOT, param, to_plain
from mtc_cli.show import plotting
from mtc_cli.show.tables import select_per_rep

CRITERIA = {"mtc": "min", "psnr": "max"}
ORACLE = "#e377c2"
#: the heat map's colour scale ends this many dB below the crest
FLOOR_DB = 8.0


@dataclass(frozen=True)
class Params:
    image: Path = param(PROJECT_ROOT / "data" / "lena" / "lena512_gray.png",
                        help="image file, grey or colour (colour → BT.601 luminance)")
    patch: int = param(8, help="patch side p: rows of X are p×p patches (D = p²); "
                               "image sides are cropped to multiples of p", min=1, max=32)
    downsample: int = param(1, help="average f×f pixel blocks of the image first "
                                    "(1 = full resolution)", min=1)
    sigma: list[float] = param([float(s) for s in range(5, 101, 5)],
                               help="grid of noise std σ in grey levels (0..255 scale), > 0",
                               min=0.0)
    reps: int = param(20, help="noise draws × random splits per σ", min=1)


def image_info(p: Params) -> dict:
    """Sizes of the image as loaded, after downsampling and after cropping to patches."""
    raw = images.load_luminance(p.image)
    small = images.downsample(raw, p.downsample)
    used = images.crop_to_patches(small, p.patch)
    return {"image": Path(p.image).name, "height": raw.shape[0], "width": raw.shape[1],
            "downsample": p.downsample, "used_height": used.shape[0],
            "used_width": used.shape[1], "cropped_rows": small.shape[0] - used.shape[0],
            "cropped_cols": small.shape[1] - used.shape[1], "patch": p.patch,
            "n_patches": used.size // p.patch**2, "dim": p.patch**2}


@lru_cache(maxsize=4)
def clean_image(path: str, downsample: int, patch: int) -> np.ndarray:
    """The noise-free image the task works on (loaded once per process, read-only)."""
    img = images.crop_to_patches(
        images.downsample(images.load_luminance(Path(path)), downsample), patch)
    img.setflags(write=False)
    return img


class SvdDenoising(Experiment):
    name = "svd_denoising"
    description = "MTC Fig. 2 — SVD rank for image denoising: MTC vs the PSNR-optimal rank"
    Params = Params
    condition = ("sigma",)
    select = CRITERIA

    def check(self, p: Params) -> None:
        bad = [s for s in p.sigma if s <= 0]
        if bad or not p.sigma:
            raise MtcError(f"key 'sigma': expected noise levels > 0 (σ = 0 has infinite "
                           f"PSNR at full rank), got {p.sigma}")
        info = image_info(p)
        if info["n_patches"] < 2:
            raise MtcError(f"key 'image': {p.image} gives {info['n_patches']} patch(es) of "
                           f"{p.patch}×{p.patch} after downsampling by {p.downsample}; "
                           "need at least 2")
        if info["cropped_rows"] or info["cropped_cols"]:
            print(f"note: {info['image']}: sides are not multiples of patch={p.patch}; "
                  f"cropped to the top-left {info['used_height']}×{info['used_width']} "
                  f"pixels (cut {info['cropped_rows']} rows, {info['cropped_cols']} columns)",
                  file=sys.stderr)

    def tasks(self, p: Params) -> list[dict]:
        # the file's hash is part of each task's cache key: an edited image is recomputed
        shared = {"image": to_plain(p.image), "image_sha256": file_sha256(p.image),
                  "patch": p.patch, "downsample": p.downsample}
        return [{"sigma": s, "rep": r, **shared} for s in p.sigma for r in range(p.reps)]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        path = Path(task["image"])
        path = path if path.is_absolute() else PROJECT_ROOT / path
        clean = clean_image(str(path), task["downsample"], task["patch"])
        p, sigma = task["patch"], task["sigma"]
        X = images.to_patches(clean + sigma * rng.standard_normal(clean.shape), p)

        # oracle: rank-k SVD of all noisy patches → reassembled image → PSNR vs clean
        psnr = [images.psnr(clean, images.from_patches(Xk, clean.shape, p))
                for Xk in svd.reconstructions(svd.fit(X))]

        # MTC: random halves, one nearest-neighbour map and one SVD of X¹ for all ranks
        perm = rng.permutation(len(X))
        X1, X2 = X[perm[:len(X) // 2]], X[perm[len(X) // 2:]]
        costs = svd_transfer_costs(svd.fit(X1), X2, nearest_neighbour(X1, X2))

        base = {"sigma": sigma, "rep": task["rep"]}
        return ([{**base, "criterion": "mtc", "k": k, "score": float(c)}
                 for k, c in enumerate(costs, start=1)]
                + [{**base, "criterion": "psnr", "k": k, "score": v}
                   for k, v in enumerate(psnr, start=1)])

    def summarize(self, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
        """Default selection summary plus ``oracle_k`` (median over reps of the PSNR
        argmax), ``psnr_db`` (mean PSNR at each rep's chosen rank) and ``gap_db`` (mean
        over reps of the rep's best PSNR minus that)."""
        out = super().summarize(rows, p)
        oracle = out[out["criterion"] == "psnr"].set_index("sigma")["selected_k"]
        out["oracle_k"] = out["sigma"].map(oracle)
        reps = per_rep(rows)
        for crit, col in (("mtc", "psnr_mtc"), ("psnr", "psnr_oracle")):
            m = reps.groupby("sigma")[col].mean()
            g = (reps["psnr_oracle"] - reps[col]).groupby(reps["sigma"]).mean()
            sel = out["criterion"] == crit
            out.loc[sel, "psnr_db"] = out.loc[sel, "sigma"].map(m)
            out.loc[sel, "gap_db"] = out.loc[sel, "sigma"].map(g)
        return out

    def tables(self, rows, summary, p: Params) -> dict:
        """``gaps``: per σ MTC's rank (median, quartiles, std), the oracle's, the PSNR of
        each and of the noisy input, and the PSNR gap (mean and worst over reps).
        ``overall``: one row locating the largest deviations and the crest's shape.
        ``image``: the image's size as loaded and as used (downsampling, cropping)."""
        gaps = gap_table(rows)
        return {"gaps": gaps, "overall": overall_table(gaps),
                "image": pd.DataFrame([image_info(p)])}

    def plot(self, rows, summary, p: Params, outdir) -> list:
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


def per_rep(rows: pd.DataFrame) -> pd.DataFrame:
    """Per σ × rep: MTC's and the oracle's rank, the PSNR at each and at full rank
    (the noisy input itself when there are at least D patches)."""
    chosen = select_per_rep(rows, ["sigma"], CRITERIA)
    wide = chosen.pivot_table(index=["sigma", "rep"], columns="criterion",
                              values="selected_k").astype(int)
    psnr = rows[rows["criterion"] == "psnr"].set_index(["sigma", "rep", "k"])["score"]
    full_k = psnr.reset_index().groupby(["sigma", "rep"])["k"].max().reindex(wide.index)

    def at(k: pd.Series) -> np.ndarray:
        keys = [(s, r, kk) for (s, r), kk in k.items()]
        return psnr.loc[keys].to_numpy()

    return pd.DataFrame({
        "mtc_k": wide["mtc"], "oracle_k": wide["psnr"],
        "psnr_mtc": at(wide["mtc"]), "psnr_oracle": at(wide["psnr"]),
        "psnr_noisy": at(full_k),
    }, index=wide.index).reset_index()


def gap_table(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per σ: the ranks and PSNRs of :func:`per_rep` aggregated over reps;
    ``gap`` = mean over reps of (best PSNR − PSNR at MTC's rank), ``gap_max`` the worst."""
    r = per_rep(rows).assign(gap=lambda d: d["psnr_oracle"] - d["psnr_mtc"])
    g = r.groupby("sigma")
    return pd.DataFrame({
        "mtc_k": g["mtc_k"].median(),
        "mtc_k_q25": g["mtc_k"].quantile(0.25),
        "mtc_k_q75": g["mtc_k"].quantile(0.75),
        "mtc_k_std": g["mtc_k"].std(ddof=0),
        "oracle_k": g["oracle_k"].median(),
        "psnr_noisy": g["psnr_noisy"].mean(),
        "psnr_oracle": g["psnr_oracle"].mean(),
        "psnr_mtc": g["psnr_mtc"].mean(),
        "rank_error": (g["mtc_k"].median() - g["oracle_k"].median()).abs(),
        "gap": g["gap"].mean(),
        "gap_min": g["gap"].min(),
        "gap_max": g["gap"].max(),
        "n_reps": g.size(),
    }).reset_index()


def overall_table(gaps: pd.DataFrame) -> pd.DataFrame:
    """One row: the σ range, where MTC's median rank is farthest from the crest and where
    its PSNR loss is largest, and whether the crest and MTC's rank never rise with σ."""
    g = gaps.sort_values("sigma")
    return pd.DataFrame([{
        "sigma_min": g["sigma"].min(), "sigma_max": g["sigma"].max(),
        "largest_rank_error": g["rank_error"].max(),
        "largest_rank_error_sigma": g.loc[g["rank_error"].idxmax(), "sigma"],
        "worst_gap": g["gap"].max(), "worst_gap_sigma": g.loc[g["gap"].idxmax(), "sigma"],
        "crest_non_increasing": bool(g["oracle_k"].is_monotonic_decreasing),
        "mtc_non_increasing": bool(g["mtc_k"].is_monotonic_decreasing),
    }])


experiment = SvdDenoising()
