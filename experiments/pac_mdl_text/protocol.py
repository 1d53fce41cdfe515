"""What ``pac_mdl_text`` computes: its parameters, its tasks and the rows of one task — the
code its code version holds (nothing here imports its tables, its figures or the show
layer)."""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mtc_cli.core.criteria import pac_mdl
from mtc_cli.core.datasets import text
from mtc_cli.core.errors import MtcError
from mtc_cli.core.models.text import ALGORITHMS
from mtc_cli.run.experiment import Experiment
from mtc_cli.run.params import PROJECT_ROOT, param, to_plain

DATA = Path("data")


@dataclass(frozen=True)
class Params:
    datasets: list[str] = param(list(text.DATASETS), help="datasets (Sect. 4.1)",
                                choices=list(text.DATASETS))
    algorithms: list[str] = param(list(ALGORITHMS), help="clustering algorithms (Sect. 4.2)",
                                  choices=list(ALGORITHMS))
    k_values: list[int] = param(list(range(2, 21)), help="numbers of clusters c", min=2)
    inits: int = param(10, help="random initialisations r per (algorithm, k)", min=1)
    heavy_datasets: list[str] = param([], help="datasets run with the heavy_* grid instead",
                                      choices=list(text.DATASETS))
    heavy_k_values: list[int] = param([2, 3, 5, 10, 15, 20], help="k grid of heavy datasets",
                                      min=2)
    heavy_inits: int = param(3, help="initialisations of heavy datasets", min=1)
    train_fractions: list[float] = param([0.1, 0.3, 0.5, 0.7, 0.9],
                                         help="train fractions m/(m+n)", min=0.01, max=0.99)
    focus_fraction: float = param(0.5, help="train fraction of Figs. 1–3 and 6", min=0.01,
                                  max=0.99)
    splits: int = param(1, help="random train/test splits per train fraction", min=1)
    split_seed: int = param(2004, help="seed of the train/test splits", min=0)
    delta: float = param(0.1, help="bounds hold with probability 1 − δ", min=1e-12, max=1.0)
    kmeans_representation: str = param(
        "l1_tf", help="document vectors of KMeans", choices=list(text.REPRESENTATIONS))
    klkmeans_smoothing: float = param(0.1, help="KLKMeans: weight λ of the corpus "
                                      "distribution mixed into every document", min=1e-6,
                                      max=1.0)
    min_df: int = param(2, help="drop words in fewer documents", min=1)
    max_df: float = param(0.5, help="drop words in a larger fraction of documents",
                          min=0.01, max=1.0)
    subset_seed: int = param(0, help="seed of the 100-per-group subsets", min=0)
    classic3: Path = param(DATA / "classic3/classic3.mat", help="classic3 count matrix")
    newsgroups: Path = param(DATA / "20newsgroups/20news-19997.tar.gz",
                             help="20 Newsgroups tarball (the original 19 997 messages)")
    yahoo: Path = param(DATA / "k1_yahoo_cluto/sparse_k1a_k1b.txt.gz",
                        help="Yahoo K1 CLUTO count matrix")
    yahoo_labels: Path = param(DATA / "k1_yahoo_cluto/k1a_labels.csv",
                               help="Yahoo K1a labels (20 classes)")
    cache_dir: str = param("data/cache", help="cache of the built count matrices")


def _sources(p: Params) -> dict:
    return {k: str(to_plain(getattr(p, k)))
            for k in ("classic3", "newsgroups", "yahoo", "yahoo_labels")}


def _abs(path: str) -> Path:
    path = Path(path)
    return path if path.is_absolute() else PROJECT_ROOT / path


def corpus(task: dict) -> text.Corpus:
    """The task's dataset (built from the raw files once, then from the cache)."""
    return text.load(task["dataset"], {k: _abs(v) for k, v in task["sources"].items()},
                     _abs(task["cache_dir"]), min_df=task["min_df"], max_df=task["max_df"],
                     subset_seed=task["subset_seed"])


def train_indices(n_docs: int, fraction: float, dataset: str, split: int,
                  seed: int) -> np.ndarray:
    """The train documents of one split: the first round(fraction · N) of a permutation
    drawn from (seed, dataset, split) — the same for every algorithm, k and init, and
    nested across fractions."""
    rng = np.random.default_rng([seed, zlib.crc32(dataset.encode()), split])
    perm = rng.permutation(n_docs)
    return np.sort(perm[:int(round(fraction * n_docs))])


class PacMdlTextProtocol(Experiment):
    name = "pac_mdl_text"
    description = "Banerjee & Langford 2004 — PAC-MDL test-error bounds for text clustering"
    Params = Params
    condition = ("dataset", "algorithm", "train_frac")
    select = {"Init": "min", "Cluster": "min"}
    timing_columns = ("fit_seconds",)

    def check(self, p: Params) -> None:
        if p.focus_fraction not in p.train_fractions:
            raise MtcError(f"key 'focus_fraction': {p.focus_fraction} is not one of "
                           f"train_fractions {p.train_fractions}")
        for key in ("datasets", "algorithms", "k_values", "train_fractions"):
            values = getattr(p, key)
            if not values or len(set(values)) != len(values):
                raise MtcError(f"key '{key}': expected distinct values, got {values}")

    def tasks(self, p: Params) -> list[dict]:
        shared = {"train_fractions": list(p.train_fractions), "focus_fraction": p.focus_fraction,
                  "splits": p.splits, "split_seed": p.split_seed, "delta": p.delta,
                  "n_algorithms": len(p.algorithms), "sources": _sources(p),
                  "cache_dir": p.cache_dir, "min_df": p.min_df, "max_df": p.max_df,
                  "subset_seed": p.subset_seed}
        out = []
        for d in p.datasets:
            heavy = d in p.heavy_datasets
            ks, r = (p.heavy_k_values, p.heavy_inits) if heavy else (p.k_values, p.inits)
            for a in p.algorithms:
                options = ({"representation": p.kmeans_representation} if a == "KMeans" else
                           {"smoothing": p.klkmeans_smoothing} if a == "KLKMeans" else {})
                out += [{"dataset": d, "algorithm": a, "k": int(k), "inits": r, **options,
                         **shared} for k in ks]
        return out

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        c = corpus(task)
        fit, rep = ALGORITHMS[task["algorithm"]]
        X = c.representation(task.get("representation", rep))
        kwargs = {"smoothing": task["smoothing"]} if "smoothing" in task else {}
        k, r, N, ell = task["k"], task["inits"], c.n_docs, c.n_labels
        clusterings, seconds = [], []
        for _ in range(r):
            seeds = rng.choice(N, size=k, replace=False)
            start = time.perf_counter()
            clusterings.append(fit(X, seeds, **kwargs).labels)
            seconds.append(time.perf_counter() - start)
        base = {"dataset": task["dataset"], "algorithm": task["algorithm"], "k": k,
                "n_docs": N, "n_labels": ell, "constant_error": c.constant_error()}
        bits = {lang: float(pac_mdl.description_length(lang, k, ell, r=r,
                                                       s=task["n_algorithms"]))
                for lang in pac_mdl.LANGUAGES}
        pending = []          # (row, m, n, train errors, bits): bounds computed in one call
        for frac in task["train_fractions"]:
            for split in range(task["splits"]):
                train = train_indices(N, frac, task["dataset"], split, task["split_seed"])
                is_test = np.ones(N, dtype=bool)
                is_test[train] = False
                m, n = len(train), N - len(train)
                errors = []
                for z in clusterings:
                    wrong = pac_mdl.transductive_labels(z, train, c.labels[train], ell, rng,
                                                        n_clusters=k)[z] != c.labels
                    errors.append((int(wrong[train].sum()), int(wrong[is_test].sum())))
                common = {**base, "train_frac": frac, "rep": split, "m": m, "n": n}
                if frac == task["focus_fraction"]:
                    for i, (a, e) in enumerate(errors):
                        pending.append(({**common, "criterion": "Simple", "init": i,
                                         "train_errors": a, "test_errors": e,
                                         "fit_seconds": seconds[i]}, m, n, a, bits["Simple"]))
                best = int(np.argmin([a for a, _ in errors]))
                a, e = errors[best]
                for lang in ("Init", "Cluster", "Algo"):
                    pending.append(({**common, "criterion": lang, "init": best,
                                     "train_errors": a, "test_errors": e}, m, n, a, bits[lang]))
        _, m, n, a, b = (np.array(v) for v in zip(*pending, strict=True))
        bounds = pac_mdl.test_error_bound(m, n, a, b, task["delta"])
        return [{**row, "bits": bb, "score": float(s)}
                for (row, *_), bb, s in zip(pending, b, bounds, strict=True)]
