"""MTC Fig. 4: the number of roles of a Boolean matrix factorization, by minimum transfer cost.

Frank, Chehreghani, Buhmann 2011, Sect. 5. A user × permission matrix is factorized as
X ≈ Z ∨· U (users × roles, roles × permissions) by multi-assignment clustering (MAC,
Streich et al. 2009) fitted with deterministic annealing, for k = 1..k_max roles. Five-fold
cross-validation over the users: the factorization learned on the training users is
transferred to each held-out user x²_i' through its Hamming nearest training user ψ(i'),
and the transfer cost counts the bits of x²_i' that differ from z_ψ(i') ∨· U.

Datasets: ``synthetic``, a matrix of the paper's size from a known number of flat random
roles plus flip noise (MAC recovers it exactly for every k at or above the true number, so
it has no overfitting regime); ``skewed``, a small matrix whose roles have skewed
popularity, with user-specific exceptions and flip noise, so that extra roles can fit
patterns that do not generalize; and real HP Labs matrices (used as they are). One task is
one fit: dataset × fold × k. The folds are fixed by ``fold_seed`` so that every k of a fold
sees the same split.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from experiments._access_control import HP, Noise, file_source, load_file
from mtc_cli.core.criteria.boolean_transfer import bmf_transfer_cost, hamming_transfer_cost
from mtc_cli.core.datasets import access_control as ac
from mtc_cli.core.errors import MtcError
from mtc_cli.core.mappings import nearest_neighbour
from mtc_cli.core.models.boolean import boolean_product, fit_mac, hamming
from mtc_cli.run.experiment import Experiment
from mtc_cli.run.params import param, to_plain

SYNTHETIC = "synthetic"
SKEWED = "skewed"


@dataclass(frozen=True)
class Synthetic:
    n_users: int = param(3000, help="users", min=2)
    n_perms: int = param(500, help="permissions", min=1)
    n_roles: int = param(10, help="true number of roles", min=1)
    max_roles_per_user: int = param(2, help="each user holds 1..this many roles", min=1)
    max_perms_per_role: int = param(60, help="each role holds 1..this many permissions", min=1)


@dataclass(frozen=True)
class Skewed:
    n_users: int = param(200, help="users", min=2)
    n_perms: int = param(100, help="permissions", min=1)
    n_roles: int = param(10, help="shared roles (the true number of roles)", min=1)
    max_roles_per_user: int = param(2, help="each user holds 1..this many shared roles",
                                    min=1)
    max_perms_per_role: int = param(25, help="each shared role holds 1..this many "
                                             "permissions", min=1)
    popularity: float = param(1.0, help="Zipf exponent of the shared roles' popularity: "
                                        "role t is drawn ∝ (t + 1)^−popularity (0: uniform)",
                              min=0.0)
    exception_users: float = param(0.25, help="fraction of the users with exceptions",
                                   min=0.0, max=1.0)
    max_exceptions: int = param(20, help="an exception user gets 1..this many permissions "
                                         "of its own", min=1)
    noise: Noise = param(Noise(additive=0.05, subtractive=0.05),
                         help="flip noise added to X* (roles and exceptions)")
    k_max: int = param(40, help="numbers of roles offered for this design: k = 1..k_max",
                       min=1)


@dataclass(frozen=True)
class Real:
    file: Path = param(HP / "hc.txt.gz", help="a user–permission file (used as is)")
    k: list[int] = param([], help="numbers of roles offered for this file (empty: "
                                  "1..k_max)", min=1)


@dataclass(frozen=True)
class Params:
    synthetic: Synthetic | None = param(Synthetic(), help="paper-size synthetic matrix of "
                                                          "flat random roles (null: none)")
    noise: Noise = param(Noise(), help="flip noise added to the synthetic X*")
    skewed: Skewed | None = param(None, help="small synthetic matrix of roles of skewed "
                                             "popularity with user-specific exceptions "
                                             "(access_control.skewed_roles; null: none)")
    data_seed: int = param(2009, help="seed of the synthetic matrices and their noise",
                           min=0)
    real: list[Real] = param([Real()], help="real user–permission files, each with its "
                                            "numbers of roles")
    k_max: int = param(20, help="numbers of roles offered for 'synthetic' and for real "
                                "files without their own: k = 1..k_max", min=1)
    folds: int = param(5, help="cross-validation folds over the users", min=2)
    fold_seed: int = param(5, help="seed of the users' assignment to folds", min=0)
    max_assignments: int = param(2, help="MAC: largest number of roles of one user", min=1)
    noise_model: bool = param(True, help="MAC: mixture noise model of eq. 16 (else ε = 0)")
    cooling: float = param(0.8, help="annealing: T ← cooling · T", min=0.01, max=0.99)
    tol: float = param(1e-4, help="annealing: relative free-energy change that ends the "
                                  "updates at one temperature", min=0.0)
    max_iter: int = param(30, help="annealing: most updates at one temperature", min=1)


def datasets(p: Params) -> list[dict]:
    """One source description per dataset (what a task needs to rebuild X)."""
    out = []
    if p.synthetic is not None:
        out.append({"dataset": SYNTHETIC, "params": asdict(p.synthetic),
                    "noise": asdict(p.noise), "data_seed": p.data_seed})
    if p.skewed is not None:
        params = {k: v for k, v in asdict(p.skewed).items() if k not in ("noise", "k_max")}
        out.append({"dataset": SKEWED, "generator": "skewed_roles", "params": params,
                    "noise": asdict(p.skewed.noise), "data_seed": p.data_seed})
    out += [file_source(r.file) for r in p.real]
    return out


def k_values(p: Params) -> dict[str, list[int]]:
    """The numbers of roles offered, per dataset name."""
    out = {}
    if p.synthetic is not None:
        out[SYNTHETIC] = list(range(1, p.k_max + 1))
    if p.skewed is not None:
        out[SKEWED] = list(range(1, p.skewed.k_max + 1))
    for r in p.real:
        out[Path(r.file).name.split(".")[0]] = sorted(r.k) or list(range(1, p.k_max + 1))
    return out


def true_k(p: Params, name: str) -> float:
    """The true number of (shared) roles of a synthetic dataset, NaN for real data."""
    if name == SYNTHETIC and p.synthetic is not None:
        return p.synthetic.n_roles
    if name == SKEWED and p.skewed is not None:
        return p.skewed.n_roles
    return np.nan


@lru_cache(maxsize=8)
def _matrices(source: str) -> tuple[np.ndarray, np.ndarray | None]:
    s = json.loads(source)
    if "file" in s:
        X = load_file(s)
        clean = None
    else:
        rng = np.random.default_rng(s["data_seed"])
        nz = s["noise"]
        if s.get("generator") == "skewed_roles":
            m = ac.skewed_roles(rng, **s["params"])
            X = ac.flip_noise(rng, m.X, nz["additive"], nz["subtractive"], nz["relative_to"])
            shared = m.parts["shared"]
            clean = boolean_product(m.Z[:, :shared], m.U[:shared])
        else:
            clean = ac.flat_roles(rng, **s["params"]).X
            X = ac.flip_noise(rng, clean, nz["additive"], nz["subtractive"], nz["relative_to"])
        clean.setflags(write=False)
    X.setflags(write=False)
    return X, clean


def matrices(source: dict) -> tuple[np.ndarray, np.ndarray | None]:
    """(X, clean) of a dataset, built once per process, read-only. ``clean`` is the
    structure that can generalize: X* for ``synthetic``, the matrix of the shared roles
    alone (no exceptions, no flips) for ``skewed``, None for real data."""
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
            raise MtcError(f"keys 'synthetic'/'skewed'/'real': duplicate dataset names "
                           f"{names}")
        for r in p.real:
            if len(set(r.k)) != len(r.k):
                raise MtcError(f"key 'real': {to_plain(r.file)}: repeated k in {r.k}")
        for d in datasets(p):
            n = matrices(d)[0].shape[0]
            if n < 2 * p.folds:
                raise MtcError(f"key 'folds': {d['dataset']} has {n} users, too few for "
                               f"{p.folds} folds")

    def tasks(self, p: Params) -> list[dict]:
        fit = {"max_assignments": p.max_assignments, "noise": p.noise_model,
               "cooling": p.cooling, "tol": p.tol, "max_iter": p.max_iter}
        ks = k_values(p)
        return [{"source": d, "dataset": d["dataset"], "rep": f, "k": k, "folds": p.folds,
                 "fold_seed": p.fold_seed, "fit": fit}
                for d in datasets(p) for f in range(p.folds) for k in ks[d["dataset"]]]

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
                 "copy_cost": hamming_transfer_cost(X1, X2, psi),
                 "clean_error": (hamming(rec, clean[~test]) / len(X1)
                                 if clean is not None else np.nan)}
        base = {"dataset": task["dataset"], "rep": task["rep"], "k": task["k"]}
        return [{**base, "criterion": "transfer_cost",
                 "score": bmf_transfer_cost(sol.Z, sol.U, X2, psi), **extra},
                {**base, "criterion": "training_cost",
                 "score": hamming(rec, X1) / len(X1), **extra}]

    def summarize(self, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
        """Per-fold argmin (median, quartiles), plus ``selected_k_mean_curve`` (argmin of
        the mean over folds, as the paper's figure shows), ``true_k`` and ``oracle_k``
        (synthetic; see :func:`shape_table`)."""
        out = super().summarize(rows, p)
        shape = shape_table(rows, p).set_index("dataset")
        out["selected_k_mean_curve"] = out["dataset"].map(shape["k_min_mean"])
        out["true_k"] = out["dataset"].map(shape["true_k"])
        out["oracle_k"] = out["dataset"].map(shape["oracle_k"])
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
        from matplotlib.gridspec import GridSpec

        from mtc_cli.show import plotting

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
            ax.axhline(s["copy_cost"], color="#8c564b", ls="-.", lw=1,
                       label="memorized training users (overfitting limit)")
            ax.plot([], [], color="#555555", ls=":", label=f"minimum of the mean curve: "
                                                           f"k = {int(s['k_min_mean'])}")
            if np.isfinite(s["true_k"]):
                ax.plot([], [], color="#d62728", ls="--",
                        label=f"true number of {'shared ' if name == SKEWED else ''}roles: "
                              f"{int(s['true_k'])}")
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
    reconstruction to the clean structure per training user (synthetic), the mean number of
    roles used and ``copy_cost``, the mean transfer cost of memorizing the training users
    (reconstruction = X¹; the same for every k)."""
    g = rows.groupby(["dataset", "criterion", "k"], sort=False)
    return g.agg(mean=("score", "mean"), sd=("score", "std"),
                 q25=("score", lambda s: s.quantile(0.25)),
                 q75=("score", lambda s: s.quantile(0.75)), n=("score", "size"),
                 clean_error=("clean_error", "mean"),
                 roles_used=("roles_used", "mean"),
                 copy_cost=("copy_cost", "mean")).reset_index()


def shape_table(rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    """Per dataset: the argmin of the mean transfer-cost curve (``k_min_mean``, ties to the
    smallest k), the true number of (shared) roles and ``oracle_k``, the argmin of the mean
    error to the clean structure (synthetic); the largest k offered; the mean cost at the
    smallest k, at the minimum and at k_max; ``copy_cost``, the limit of overfitting
    (memorized training users; above ``cost_min``, overfitting can cost more); the largest
    rise of the mean curve after the minimum, also in units of the fold sd at the minimum
    (``rise_in_sd``); the mean fold sd below and above the minimum (underfitting and
    overfitting regimes), and below and above the true number of roles (``sd_below_true``,
    ``sd_above_true``; NaN on the real matrices); ``u_shape``: the minimum is interior, the
    curve falls to it and rises after it by more than one fold sd."""
    curve = curve_table(rows)
    out = []
    for name, c in curve[curve["criterion"] == "transfer_cost"].groupby("dataset", sort=False):
        c = c.sort_values("k").reset_index(drop=True)
        best = c.loc[c["mean"].idxmin()]
        truth = true_k(p, name)
        after = c.loc[c["k"] > best["k"], "mean"]
        rise = after.max() - best["mean"] if len(after) else 0.0
        rise_in_sd = (rise / best["sd"] if best["sd"] > 0 else np.nan) if len(after) else 0.0
        out.append({
            "dataset": name, "true_k": truth,
            "oracle_k": (c.loc[c["clean_error"].idxmin(), "k"]
                         if c["clean_error"].notna().any() else np.nan),
            "k_min_mean": int(best["k"]), "k_max": int(c["k"].iloc[-1]),
            "cost_k1": c["mean"].iloc[0], "cost_min": best["mean"],
            "cost_kmax": c["mean"].iloc[-1], "copy_cost": c["copy_cost"].iloc[0],
            "rise_after_min": rise, "rise_in_sd": rise_in_sd,
            "sd_below": c.loc[c["k"] < best["k"], "sd"].mean(),
            "sd_above": c.loc[c["k"] > best["k"], "sd"].mean(),
            "sd_below_true": c.loc[c["k"] < truth, "sd"].mean(),
            "sd_above_true": c.loc[c["k"] > truth, "sd"].mean(),
            "u_shape": bool(len(after) and c["mean"].iloc[0] > best["mean"]
                            and rise_in_sd > 1)})
    return pd.DataFrame(out)


experiment = RoleMiningBmf()
