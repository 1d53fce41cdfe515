"""What ``boolean_denoising`` computes: its parameters, its tasks and the rows of one task —
the code its code version holds (nothing here imports its tables, its figures or the show
layer)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from experiments._access_control import HP, Noise, file_source, load_file
from mtc_cli.core.criteria import bicross, molloy
from mtc_cli.core.criteria.boolean_transfer import svd_threshold_transfer_costs
from mtc_cli.core.datasets import access_control as ac
from mtc_cli.core.errors import MtcError
from mtc_cli.core.mappings import nearest_neighbour
from mtc_cli.core.models import svd
from mtc_cli.core.models.boolean import hamming, svd_denoisings
from mtc_cli.run.experiment import Experiment
from mtc_cli.run.params import param


@dataclass(frozen=True)
class Flat:
    n_users: int = param(500, help="users", min=2)
    n_perms: int = param(101, help="permissions", min=1)
    n_roles: int = param(15, help="roles", min=1)
    max_roles_per_user: int = param(3, help="each user holds 1..this many roles", min=1)
    max_perms_per_role: int = param(20, help="each role holds 1..this many permissions", min=1)


@dataclass(frozen=True)
class Tree:
    n_users: int = param(500, help="users", min=2)
    n_perms: int = param(347, help="permissions (split among the roles)", min=1)
    branching: int = param(3, help="children of each inner role", min=1)
    depth: int = param(3, help="depth of the role tree (root at 0)", min=0)
    max_roles_per_user: int = param(2, help="each user holds 1..this many roles", min=1)


@dataclass(frozen=True)
class Erbac:
    n_users: int = param(500, help="users", min=2)
    n_perms: int = param(190, help="permissions", min=1)
    n_functional: int = param(40, help="functional roles (permission sets)", min=1)
    max_perms_per_functional: int = param(10, help="permissions per functional role", min=1)
    n_business: int = param(20, help="business roles (sets of functional roles)", min=1)
    max_functional_per_business: int = param(4, help="functional roles per business role",
                                             min=1)
    max_business_per_user: int = param(2, help="business roles per user", min=1)


@dataclass(frozen=True)
class Params:
    real: list[Path] = param([HP / "hc.txt.gz", HP / "domino.txt.gz", HP / "fire1.txt.gz"],
                             help="user–permission files taken as error-free X*")
    generators: list[str] = param(["flat", "tree", "erbac"], help="synthetic X* generators",
                                  choices=list(ac.GENERATORS))
    flat: Flat = param(Flat(), help="flat random roles (Vaidya et al. 2006)")
    tree: Tree = param(Tree(), help="role hierarchy")
    erbac: Erbac = param(Erbac(), help="enterprise RBAC: business and functional roles")
    data_seed: int = param(2010, help="seed of the synthetic X* (drawn once: fixed datasets)",
                           min=0)
    noise: Noise = param(Noise(), help="noise turning X* into X")
    reps: int = param(5, help="noise draws per dataset", min=1)
    splits: int = param(20, help="MTC: random halves of the users per noise draw", min=1)
    permutations: int = param(20, help="OP-CV: random row/column permutations", min=1)
    holdouts: list[float] = param([0.5, 0.2], help="OP-CV: held-out fraction of rows and of "
                                                   "columns (one selector each)",
                                  min=0.01, max=0.99)
    k_max: int = param(100, help="largest rank offered to MTC and OP-CV (the oracle and "
                                 "Molloy's rules sweep every rank of X)", min=1)
    coverage: float = param(0.8, help="80 % rule: fraction of the ones of X to cover",
                            min=0.0, max=1.0)
    increment_tol: float = param(0.001, help="increment rule: threshold on "
                                             "‖X̃_k − X̃_k+1‖₁ / ‖X‖₁", min=0.0)


def _opcv(h: float) -> str:
    """Criterion name of OP-CV with held-out fraction h, in percent: ``op_cv_50``."""
    return f"op_cv_{round(100 * h)}"


def datasets(p: Params) -> list[dict]:
    """One source description per dataset (what a task needs to rebuild X*)."""
    out = [file_source(f) for f in p.real]
    out += [{"dataset": g, "generator": g, "params": asdict(getattr(p, g)),
             "data_seed": p.data_seed} for g in p.generators]
    return out


@lru_cache(maxsize=16)
def _error_free(source: str) -> np.ndarray:
    import json

    s = json.loads(source)
    if "file" in s:
        X = load_file(s)
    else:
        X = ac.GENERATORS[s["generator"]](np.random.default_rng(s["data_seed"]),
                                          **s["params"]).X
    X.setflags(write=False)
    return X


def error_free(source: dict) -> np.ndarray:
    """X* of a dataset source (loaded or generated once per process, read-only)."""
    import json

    return _error_free(json.dumps(source, sort_keys=True))


class BooleanDenoisingProtocol(Experiment):
    name = "boolean_denoising"
    description = "MTC Fig. 3 — SVD rank for denoising access-control matrices"
    Params = Params
    condition = ("dataset",)

    def check(self, p: Params) -> None:
        names = [d["dataset"] for d in datasets(p)]
        if not names:
            raise MtcError("keys 'real' and 'generators': no dataset given")
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise MtcError(f"keys 'real'/'generators': duplicate dataset names {dup}")
        if len({_opcv(h) for h in p.holdouts}) != len(p.holdouts):
            raise MtcError(f"key 'holdouts': fractions must differ in whole percent, got "
                           f"{p.holdouts}")

    def tasks(self, p: Params) -> list[dict]:
        noise = asdict(p.noise)
        return [{"source": d, "dataset": d["dataset"], "noise": noise, "rep": r,
                 "splits": p.splits, "permutations": p.permutations,
                 "holdouts": list(p.holdouts), "k_max": p.k_max}
                for d in datasets(p) for r in range(p.reps)]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        Xstar = error_free(task["source"])
        nz = task["noise"]
        X = ac.flip_noise(rng, Xstar, nz["additive"], nz["subtractive"], nz["relative_to"])
        base = {"dataset": task["dataset"], "rep": task["rep"]}
        k_max = min(task["k_max"], *X.shape)
        rows = []

        # oracle and Molloy's rules: one SVD of X, X̃_k for every rank k (not capped: the
        # increment rule may need ranks beyond k_max, and the error there is reported)
        errors, cover, incr, prev = [], [], [], None
        for Xk in svd_denoisings(svd.fit(X)):
            if prev is not None:
                incr.append(molloy.increment(prev, Xk, X))
            errors.append(hamming(Xk, Xstar))
            cover.append(molloy.coverage(Xk, X))
            prev = Xk
        incr.append(np.nan)  # no X̃_{k+1} beyond the largest rank
        info = {"n_users": X.shape[0], "n_perms": X.shape[1], "ones": int(Xstar.sum()),
                "noise_hamming": hamming(X, Xstar)}
        for crit, vals in (("hamming", errors), ("coverage", cover), ("increment", incr)):
            rows += [{**base, "criterion": crit, "k": k, "score": float(v), **info}
                     for k, v in enumerate(vals, start=1)]

        # MTC: random halves; one SVD of X¹ and one ψ_NN (Hamming) per split serve all k
        n1 = len(X) // 2
        for s in range(task["splits"]):
            perm = rng.permutation(len(X))
            X1, X2 = X[perm[:n1]], X[perm[n1:]]
            costs = svd_threshold_transfer_costs(
                svd.fit(X1), X2, nearest_neighbour(X1, X2, metric="hamming"), k_max)
            rows += [{**base, "criterion": "mtc", "k": k, "score": float(c), "split": s}
                     for k, c in enumerate(costs, start=1)]

        # OP-CV: median error over random permutations, per held-out fraction
        for h in task["holdouts"]:
            curves = bicross.bicross_validation(X, rng, holdout=h,
                                                permutations=task["permutations"], k_max=k_max)
            rows += [{**base, "criterion": _opcv(h), "k": k, "score": float(v)}
                     for k, v in enumerate(np.median(curves, axis=0), start=1)]
        return rows
