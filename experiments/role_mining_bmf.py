"""MTC Fig. 4: the number of roles of a Boolean matrix factorization, by minimum transfer cost.

Frank, Chehreghani, Buhmann 2011, Sect. 5. A user × permission matrix is factorized as
X ≈ Z ∨· U (users × roles, roles × permissions) by multi-assignment clustering (MAC,
Streich et al. 2009) fitted with deterministic annealing, for k = 1..k_max roles. Five-fold
cross-validation over the users: the factorization learned on the training users is
transferred to each held-out user x²_i' through its Hamming nearest training user ψ(i'),
and the transfer cost counts the bits of x²_i' that differ from z_ψ(i') ∨· U.

Datasets: a synthetic matrix generated from a known number of roles (flat random roles)
plus flip noise, and optionally real HP Labs matrices (used as they are). One task is one
fit: dataset × fold × k. The folds are fixed by ``fold_seed`` so that every k of a fold
sees the same split.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.gridspec import GridSpec

from mtc_cli import plotting
from mtc_cli.config import PROJECT_ROOT, param, to_plain
from mtc_cli.criteria.boolean_transfer import bmf_transfer_cost
from mtc_cli.datasets import access_control as ac
from mtc_cli.errors import MtcError
from mtc_cli.experiment import Experiment
from mtc_cli.mappings import nearest_neighbour
from mtc_cli.models.boolean import fit_mac, hamming

HP = PROJECT_ROOT / "data" / "access_control_hp"
SYNTHETIC = "synthetic"


@dataclass(frozen=True)
class Synthetic:
    n_users: int = param(3000, help="users", min=2)
    n_perms: int = param(500, help="permissions", min=1)
    n_roles: int = param(10, help="true number of roles", min=1)
    max_roles_per_user: int = param(2, help="each user holds 1..this many roles", min=1)
    max_perms_per_role: int = param(60, help="each role holds 1..this many permissions", min=1)


@dataclass(frozen=True)
class Noise:
    relative_to: str = param("ones", help="'ones': rates are fractions of the number of ones "
                                          "of X*; 'entries': per-entry flip probabilities",
                             choices=["ones", "entries"])
    additive: float = param(0.10, help="rate of spurious grants (0 → 1)", min=0.0)
    subtractive: float = param(0.10, help="rate of removed grants (1 → 0)", min=0.0, max=1.0)


@dataclass(frozen=True)
class Params:
    synthetic: Synthetic | None = param(Synthetic(), help="synthetic matrix (null: none)")
    noise: Noise = param(Noise(), help="flip noise added to the synthetic X*")
    data_seed: int = param(2009, help="seed of the synthetic X* and its noise", min=0)
    real: list[Path] = param([HP / "hc.txt.gz"], help="real user–permission files (as is)")
    k_max: int = param(20, help="numbers of roles offered: k = 1..k_max", min=1)
    folds: int = param(5, help="cross-validation folds over the users", min=2)
    fold_seed: int = param(5, help="seed of the users' assignment to folds", min=0)
    max_assignments: int = param(2, help="MAC: largest number of roles of one user", min=1)
    noise_model: bool = param(True, help="MAC: mixture noise model of eq. 16 (else ε = 0)")
    cooling: float = param(0.8, help="annealing: T ← cooling · T", min=0.01, max=0.99)
    tol: float = param(1e-4, help="annealing: relative free-energy change that ends the "
                                  "updates at one temperature", min=0.0)
    max_iter: int = param(30, help="annealing: most updates at one temperature", min=1)


def _sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def datasets(p: Params) -> list[dict]:
    """One source description per dataset (what a task needs to rebuild X)."""
    out = []
    if p.synthetic is not None:
        out.append({"dataset": SYNTHETIC, "params": asdict(p.synthetic),
                    "noise": asdict(p.noise), "data_seed": p.data_seed})
    out += [{"dataset": Path(f).name.split(".")[0], "file": to_plain(Path(f)),
             "sha256": _sha256(f)} for f in p.real]
    return out


@lru_cache(maxsize=8)
def _matrices(source: str) -> tuple[np.ndarray, np.ndarray | None]:
    s = json.loads(source)
    if "file" in s:
        path = Path(s["file"])
        X = ac.load_user_permissions(path if path.is_absolute() else PROJECT_ROOT / path)[0]
        clean = None
    else:
        rng = np.random.default_rng(s["data_seed"])
        clean = ac.flat_roles(rng, **s["params"]).X
        nz = s["noise"]
        X = ac.flip_noise(rng, clean, nz["additive"], nz["subtractive"], nz["relative_to"])
        clean.setflags(write=False)
    X.setflags(write=False)
    return X, clean


def matrices(source: dict) -> tuple[np.ndarray, np.ndarray | None]:
    """(X, X*) of a dataset (X* None for real data), built once per process, read-only."""
    return _matrices(json.dumps(source, sort_keys=True))


def fold_users(n_users: int, folds: int, fold: int, seed: int) -> np.ndarray:
    """The held-out users of ``fold``: a fixed random permutation cut into ``folds``
    nearly equal parts (the same for every k)."""
    return np.sort(np.array_split(np.random.default_rng(seed).permutation(n_users), folds)[fold])


class RoleMiningBmf(Experiment):
    name = "role_mining_bmf"
    description = "MTC Fig. 4 — number of roles in Boolean matrix factorization (MAC)"
    Params = Params
    condition = ("dataset",)
    select = {"transfer_cost": "min"}
    timing_columns = ("fit_seconds",)

    def check(self, p: Params) -> None:
        names = [d["dataset"] for d in datasets(p)]
        if not names:
            raise MtcError("keys 'synthetic' and 'real': no dataset given")
        if len(set(names)) != len(names):
            raise MtcError(f"keys 'synthetic'/'real': duplicate dataset names {names}")
        for d in datasets(p):
            n = matrices(d)[0].shape[0]
            if n < 2 * p.folds:
                raise MtcError(f"key 'folds': {d['dataset']} has {n} users, too few for "
                               f"{p.folds} folds")

    def tasks(self, p: Params) -> list[dict]:
        fit = {"max_assignments": p.max_assignments, "noise": p.noise_model,
               "cooling": p.cooling, "tol": p.tol, "max_iter": p.max_iter}
        return [{"source": d, "dataset": d["dataset"], "rep": f, "k": k, "folds": p.folds,
                 "fold_seed": p.fold_seed, "fit": fit}
                for d in datasets(p) for f in range(p.folds) for k in range(1, p.k_max + 1)]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        X, clean = matrices(task["source"])
        test = np.zeros(len(X), dtype=bool)
        test[fold_users(len(X), task["folds"], task["rep"], task["fold_seed"])] = True
        X1, X2 = X[~test], X[test]
        start = time.perf_counter()
        sol = fit_mac(X1, task["k"], rng, **task["fit"])
        seconds = time.perf_counter() - start
        rec = sol.reconstruction()
        psi = nearest_neighbour(X1, X2, metric="hamming")
        extra = {"n_train": len(X1), "n_test": len(X2),
                 "neg_log_likelihood": sol.neg_log_likelihood(), "epsilon": sol.epsilon,
                 "r": sol.r, "roles_used": int(np.count_nonzero(sol.U.any(axis=1)
                                                                 & sol.Z.any(axis=0))),
                 "temperatures": sol.temperatures, "fit_seconds": seconds,
                 "clean_error": (hamming(rec, clean[~test]) / len(X1)
                                 if clean is not None else np.nan)}
        base = {"dataset": task["dataset"], "rep": task["rep"], "k": task["k"]}
        return [{**base, "criterion": "transfer_cost",
                 "score": bmf_transfer_cost(sol.Z, sol.U, X2, psi), **extra},
                {**base, "criterion": "training_cost",
                 "score": hamming(rec, X1) / len(X1), **extra}]

    def summarize(self, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
        """Per-fold argmin (median, quartiles), plus ``selected_k_mean_curve`` (argmin of
        the mean over folds, as the paper's figure shows) and ``true_k`` (synthetic)."""
        out = super().summarize(rows, p)
        shape = shape_table(rows, p).set_index("dataset")
        out["selected_k_mean_curve"] = out["dataset"].map(shape["k_min_mean"])
        out["true_k"] = out["dataset"].map(shape["true_k"])
        return out

    def tables(self, rows, summary, p: Params) -> dict:
        """``curve``: mean, sd and quartiles over folds per dataset × criterion × k (with the
        mean clean error); ``shape``: per dataset the U-shape and spread statistics the
        targets read."""
        return {"curve": curve_table(rows), "shape": shape_table(rows, p)}

    def timing(self, rows: pd.DataFrame) -> pd.DataFrame:
        """MAC fit time per dataset: total over folds and k, and the mean per fit."""
        fits = rows[rows["criterion"] == "transfer_cost"].groupby("dataset", sort=False)
        return fits["fit_seconds"].agg(fits="size", seconds="sum",
                                       mean_seconds="mean").reset_index()

    def plot(self, rows, summary, p: Params, outdir) -> list:
        curve = curve_table(rows)
        shape = shape_table(rows, p).set_index("dataset")
        names = list(dict.fromkeys(rows["dataset"]))
        fig = plotting.new_figure(4.8 * len(names), 5.4)
        gs = GridSpec(2, len(names), figure=fig, height_ratios=[3, 1], hspace=0.12,
                      wspace=0.3)
        for j, name in enumerate(names):
            ax = fig.add_subplot(gs[0, j])
            low = fig.add_subplot(gs[1, j], sharex=ax)
            c = curve[curve["dataset"] == name]
            tc = c[c["criterion"] == "transfer_cost"].sort_values("k")
            tr = c[c["criterion"] == "training_cost"].sort_values("k")
            for fold, g in rows[(rows["dataset"] == name)
                                & (rows["criterion"] == "transfer_cost")].groupby("rep"):
                g = g.sort_values("k")
                ax.plot(g["k"], g["score"], color="#999999", lw=0.6, alpha=0.8,
                        label="one fold" if fold == 0 else None)
            ax.fill_between(tc["k"], tc["mean"] - tc["sd"], tc["mean"] + tc["sd"],
                            color=plotting.color("mtc"), alpha=0.12, lw=0)
            ax.plot(tc["k"], tc["mean"], "o-", ms=3, color=plotting.color("mtc"),
                    label="transfer cost (mean ± sd over folds)")
            ax.plot(tr["k"], tr["mean"], "--", color="#1f77b4", lw=1.2,
                    label="cost on the training users")
            s = shape.loc[name]
            for a in (ax, low):
                a.axvline(s["k_min_mean"], color="#555555", ls=":", lw=1)
                if np.isfinite(s["true_k"]):
                    a.axvline(s["true_k"], color="#d62728", ls="--", lw=1)
            ax.plot([], [], color="#555555", ls=":", label=f"minimum of the mean curve: "
                                                           f"k = {int(s['k_min_mean'])}")
            if np.isfinite(s["true_k"]):
                ax.plot([], [], color="#d62728", ls="--",
                        label=f"true number of roles: {int(s['true_k'])}")
            info = rows[rows["dataset"] == name].iloc[0]
            ax.set_title(f"{name}: {int(info['n_train'] + info['n_test'])} users, "
                         f"{p.folds}-fold CV")
            ax.set_ylabel("mismatched bits per user")
            ax.set_ylim(bottom=0)
            ax.tick_params(labelbottom=False)
            ax.legend(fontsize=7)
            low.plot(tc["k"], tc["roles_used"], "o-", ms=3, color="#2ca02c")
            low.plot(tc["k"], tc["k"], color="#bbbbbb", lw=0.8)
            low.set_ylabel("roles used")
            low.set_xlabel("number of roles offered k")
            low.set_ylim(bottom=0)
        fig.suptitle("Boolean matrix factorization by MAC (MTC Fig. 4): transfer cost with "
                     "Hamming nearest-neighbour mapping\nlower row: roles with a user and a "
                     "permission (mean over folds; grey: k)", fontsize=9.5, y=0.99)
        return [plotting.save(fig, Path(outdir) / "role_mining_bmf.png")]


def curve_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Mean, sd (over folds), quartiles per dataset × criterion × k; the mean error of the
    reconstruction to X* per training user (synthetic) and the mean number of roles used."""
    g = rows.groupby(["dataset", "criterion", "k"], sort=False)
    return g.agg(mean=("score", "mean"), sd=("score", "std"),
                 q25=("score", lambda s: s.quantile(0.25)),
                 q75=("score", lambda s: s.quantile(0.75)), n=("score", "size"),
                 clean_error=("clean_error", "mean"),
                 roles_used=("roles_used", "mean")).reset_index()


def shape_table(rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    """Per dataset: the argmin of the mean transfer-cost curve (``k_min_mean``), the true
    number of roles (synthetic), the mean cost at k = 1, at the minimum and at k_max, the
    rise after the minimum in units of the fold sd there (``rise_in_sd``), the mean fold
    sd below and above the true number of roles."""
    curve = curve_table(rows)
    out = []
    for name, c in curve[curve["criterion"] == "transfer_cost"].groupby("dataset", sort=False):
        c = c.sort_values("k").reset_index(drop=True)
        best = c.loc[c["mean"].idxmin()]
        true_k = p.synthetic.n_roles if name == SYNTHETIC and p.synthetic else np.nan
        ref = true_k if np.isfinite(true_k) else best["k"]
        sd = best["sd"] if best["sd"] > 0 else np.nan
        out.append({
            "dataset": name, "true_k": true_k, "k_min_mean": int(best["k"]),
            "cost_k1": c["mean"].iloc[0], "cost_min": best["mean"],
            "cost_kmax": c["mean"].iloc[-1],
            "rise_after_min": c.loc[c["k"] > best["k"], "mean"].max() - best["mean"]
            if (c["k"] > best["k"]).any() else 0.0,
            "rise_in_sd": (c.loc[c["k"] > best["k"], "mean"].max() - best["mean"]) / sd
            if (c["k"] > best["k"]).any() else 0.0,
            "sd_below": c.loc[c["k"] < ref, "sd"].mean(),
            "sd_above": c.loc[c["k"] > ref, "sd"].mean()})
    return pd.DataFrame(out)


experiment = RoleMiningBmf()
