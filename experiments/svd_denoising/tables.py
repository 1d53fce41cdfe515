"""The tables ``svd_denoising`` derives from its rows, anew on every run (outside its code
version)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from experiments.svd_denoising.protocol import CRITERIA, Params, image_info
from mtc_cli.run.experiment import Experiment
from mtc_cli.show.tables import select_per_rep


def summarize(exp, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    """Default selection summary plus ``oracle_k`` (median over reps of the PSNR
    argmax), ``psnr_db`` (mean PSNR at each rep's chosen rank) and ``gap_db`` (mean
    over reps of the rep's best PSNR minus that)."""
    out = Experiment.summarize(exp, rows, p)
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


def tables(exp, rows, summary, p: Params) -> dict:
    """``gaps``: per σ MTC's rank (median, quartiles, std), the oracle's, the PSNR of
    each and of the noisy input, and the PSNR gap (mean and worst over reps).
    ``overall``: one row locating the largest deviations and the crest's shape.
    ``image``: the image's size as loaded and as used (downsampling, cropping)."""
    gaps = gap_table(rows)
    return {"gaps": gaps, "overall": overall_table(gaps),
            "image": pd.DataFrame([image_info(p)])}


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
