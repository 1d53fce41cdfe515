"""What ``wasc_phase_transitions`` computes: its parameters, its tasks and the rows of one
task — the code its code version holds (nothing here imports its tables, its figures or the
show layer)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

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

SELECT = {"mutual_information": "max", "capacity": "max", "transfer_cost": "min"}


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


class WascPhaseTransitionsProtocol(Experiment):
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
