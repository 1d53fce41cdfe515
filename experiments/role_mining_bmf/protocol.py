"""What ``role_mining_bmf`` computes: its parameters, its tasks and the rows of one task —
the code its code version holds (nothing here imports its tables, its figures or the show
layer)."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

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


class RoleMiningBmfProtocol(Experiment):
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
