"""What ``hansen_pca`` computes: its parameters, its tasks and the rows of one task — the
code its code version holds (nothing here imports its tables, its figures or the show
layer)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mtc_cli.core.criteria.generalization import ml_generalization_error
from mtc_cli.core.datasets.gaussians import random_subspace, signal_plus_noise
from mtc_cli.core.errors import MtcError
from mtc_cli.core.models import pca_density
from mtc_cli.run.experiment import Experiment
from mtc_cli.run.params import param

CRITERIA = {"test": "min", "analytic_paper": "min", "analytic_ppca": "min"}


@dataclass(frozen=True)
class Params:
    L: int = param(20, help="dimension of the data vectors", min=2)
    k0: int = param(3, help="dimension K₀ of the signal subspace", min=1)
    snr: float = param(10.0, help="signal-to-noise ratio", min=0.0)
    snr_definition: str = param(
        "total", help="total: Tr Σ_s / Tr Σ_n; per_direction: signal variance per signal "
        "direction / noise variance", choices=["total", "per_direction"])
    n_train: int = param(42, help="training vectors N", min=2)
    n_test: int = param(120, help="test vectors", min=1)
    reps: int = param(10, help="replications (new subspace, training and test sets)", min=1)
    noise_model: str = param("ml", help="signal-subspace variances: ml (λ_j, probabilistic "
                             "PCA) or additive (λ_j + σ̂², Σ̂_K + σ̂²I read literally)",
                             choices=list(pca_density.NOISE_MODELS))


class HansenPcaProtocol(Experiment):
    name = "hansen_pca"
    description = "Hansen & Larsen 1996 Fig. 1 — number of PCs: analytic vs test error"
    Params = Params
    condition = ()
    select = CRITERIA

    def check(self, p: Params) -> None:
        if p.k0 >= p.L:
            raise MtcError(f"key 'k0': expected a signal dimension < L = {p.L}, got {p.k0}")
        if p.n_train <= p.L:
            raise MtcError(f"key 'n_train': expected more training vectors than L = {p.L}, "
                           f"got {p.n_train}")

    def tasks(self, p: Params) -> list[dict]:
        shared = {"L": p.L, "k0": p.k0, "snr": p.snr, "snr_definition": p.snr_definition,
                  "n_train": p.n_train, "n_test": p.n_test, "noise_model": p.noise_model}
        return [{"rep": r, **shared} for r in range(p.reps)]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        L, k0, n = task["L"], task["k0"], task["n_train"]
        noise_var = 1.0
        signal_var = task["snr"] * noise_var * (L / k0 if task["snr_definition"] == "total"
                                                else 1.0)
        basis = random_subspace(rng, L, k0)
        X = signal_plus_noise(rng, n, basis, signal_var, noise_var)
        X_test = signal_plus_noise(rng, task["n_test"], basis, signal_var, noise_var)
        sol = pca_density.fit(X)
        Ks = np.arange(1, L)
        E = np.array([pca_density.negative_log_likelihood(sol, X, K, task["noise_model"]).mean()
                      for K in Ks])
        test = np.array([pca_density.negative_log_likelihood(
            sol, X_test, K, task["noise_model"]).mean() for K in Ks])
        scores = {
            "train": E,
            "test": test,
            "analytic_paper": ml_generalization_error(
                E, [pca_density.n_parameters_paper(K, L) for K in Ks], n),
            "analytic_ppca": ml_generalization_error(
                E, [pca_density.n_parameters_ppca(K, L) for K in Ks], n),
        }
        return [{"rep": task["rep"], "criterion": c, "k": int(K), "score": float(s)}
                for c, v in scores.items() for K, s in zip(Ks, v, strict=True)]
