"""Banerjee & Langford 2004, Figs. 1–6: PAC-MDL bounds on the test error of text clusterings
used as transductive classifiers.

One task = one (dataset, algorithm, k): it runs the algorithm from ``inits`` random seed
sets on all documents, once, and scores every clustering on every train/test split
(``train_fractions`` × ``splits``, the same splits for all tasks of a dataset). Rows:

- ``Simple``: the bound of every single run (eq. 1), at the ``focus_fraction`` split only
  (Fig. 1 and Fig. 6's average); these rows also carry the run's ``fit_seconds``
  (summarised per algorithm in run.json, left out of the CSVs);
- ``Init``, ``Cluster``, ``Algo``: the bound of the best of the r runs (the run with the
  fewest train errors: for a fixed description length the bound grows with them) under the
  languages of eqs. 2–4, at every split. The best over k (Cluster) and over algorithms and
  k (Algo) are taken in :meth:`PacMdlText.tables`.
"""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from mtc_cli.core.criteria import pac_mdl
from mtc_cli.core.datasets import text
from mtc_cli.core.errors import MtcError
from mtc_cli.core.models.text import ALGORITHMS
from mtc_cli.run.experiment import Experiment
from mtc_cli.run.params import PROJECT_ROOT, param, to_plain
from mtc_cli.show import plotting

DATA = Path("data")
#: every number of SPEC §E8 (the paper's text and figures, 50-50 split, δ = 0.1), in %:
#: (figure, dataset, algorithm, language, paper's k, paper's bound)
PAPER = [
    ("Fig. 1", "cmu-different-1000", "KMeans", "Simple", 3, 34.1),
    ("Fig. 1", "cmu-different-1000", "SPKMeans", "Simple", 3, 4.9),
    ("Fig. 1", "cmu-same-1000", "KMeans", "Simple", 3, 50.8),
    ("Fig. 1", "cmu-same-1000", "SPKMeans", "Simple", 3, 31.0),
    ("Fig. 2", "cmu-different-1000", "SPKMeans", "Init", 3, 5.46),
    ("Fig. 2", "cmu-different-1000", "KMeans", "Init", 13, 17.2),
    ("Fig. 2", "cmu-same-1000", "SPKMeans", "Init", 3, 32.2),
    ("Fig. 2", "cmu-same-1000", "KMeans", "Init", 10, 40.3),
    ("Fig. 3", "cmu-different-100", "Soft-moVMF", "Cluster", None, 18.6),
    ("Fig. 3", "cmu-different-1000", "Soft-moVMF", "Cluster", None, 5.67),
    ("Figs. 4-5", "classic2", "best", "Algo", None, 1.68),
    ("Figs. 4-5", "classic3", "best", "Algo", None, 2.0),
    ("Figs. 4-5", "cmu-different-100", "best", "Algo", None, 20.6),
    ("Figs. 4-5", "cmu-different-1000", "best", "Algo", None, 6.0),
    ("Figs. 4-5", "cmu-same-100", "best", "Algo", None, 64.0),
    ("Figs. 4-5", "cmu-same-1000", "best", "Algo", None, 28.4),
    ("Figs. 4-5", "cmu-newsgroup-clean-100", "best", "Algo", None, 84.0),
    ("Figs. 4-5", "cmu-newsgroup-clean-1000", "best", "Algo", None, 47.9),
    ("Figs. 4-5", "yahoo", "best", "Algo", None, 73.8),
    *(("constant", d, "constant", "-", None, v) for d, v in [
        ("classic2", 48.95), ("classic3", 62.5), ("cmu-different-100", 66.7),
        ("cmu-different-1000", 66.7), ("cmu-similar-100", 66.7), ("cmu-similar-1000", 66.7),
        ("cmu-same-100", 66.7), ("cmu-same-1000", 66.7), ("cmu-newsgroup-clean-100", 95.0),
        ("cmu-newsgroup-clean-1000", 95.0), ("yahoo", 78.9)]),
]
LANGUAGE_COLORS = {"Simple": "#bbbbbb", "Init": "#1f77b4", "Cluster": "#2ca02c",
                   "Algo": "#d62728"}
ALGORITHM_COLORS = {"SPKMeans": "#1f77b4", "FSKMeans": "#17becf", "Hard-moVMF": "#2ca02c",
                    "Soft-moVMF": "#98df8a", "KMeans": "#d62728", "KLKMeans": "#ff7f0e"}


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


class PacMdlText(Experiment):
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

    def summarize(self, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
        out = super().summarize(rows, p)
        true_k = rows.groupby("dataset")["n_labels"].first()
        out["true_k"] = out["dataset"].map(true_k)
        return out

    def tables(self, rows, summary, p: Params) -> dict:
        """The figures' tables (bounds in %, mean over splits where ``splits`` > 1)."""
        rows = rows.assign(pct=100.0 * rows["score"])
        focus = rows[np.isclose(rows["train_frac"], p.focus_fraction)]
        out = {}
        simple = focus[focus["criterion"] == "Simple"]
        out["fig1_runs"] = (simple[simple["rep"] == 0]
                            [["dataset", "algorithm", "k", "init", "train_errors",
                              "test_errors", "m", "n", "pct"]]
                            .rename(columns={"pct": "simple_pct"}).reset_index(drop=True))
        init = focus[focus["criterion"] == "Init"]
        out["fig2_best_per_k"] = (init.groupby(["dataset", "algorithm", "k"], sort=False)
                                  .agg(init_pct=("pct", "mean"),
                                       test_error_pct=("test_errors", "sum"),
                                       n=("n", "sum")).reset_index())
        f2 = out["fig2_best_per_k"]
        f2["test_error_pct"] = 100.0 * f2["test_error_pct"] / f2["n"]
        out["fig2_best_per_k"] = f2.drop(columns="n")
        best_k = _best(rows[rows["criterion"] == "Cluster"],
                       ["dataset", "algorithm", "train_frac", "rep"])
        out["fig3_best_per_algorithm"] = _mean_over_splits(
            best_k, ["dataset", "algorithm", "train_frac"])
        best_all = _best(rows[rows["criterion"] == "Algo"], ["dataset", "train_frac", "rep"])
        overall = _mean_over_splits(best_all, ["dataset", "train_frac"])
        consts = rows.groupby("dataset")[["constant_error", "n_docs", "n_labels"]].first()
        overall = overall.join(consts, on="dataset")
        overall["constant_pct"] = 100.0 * overall.pop("constant_error")
        out["fig45_best_overall"] = overall
        out["fig6_languages"] = _language_averages(focus)
        out["selection"] = _selection(summary, p)
        out["paper_comparison"] = _paper_comparison(out, p)
        out["spk_vs_kmeans"] = _spk_vs_kmeans(out)
        return out

    def timing(self, rows: pd.DataFrame) -> pd.DataFrame:
        """Clustering time per algorithm (one row per clustering: the Simple rows of
        split 0)."""
        runs = rows[(rows["criterion"] == "Simple") & (rows["rep"] == 0)]
        runs = pd.concat([runs, runs.assign(algorithm="all")])
        return (runs.groupby("algorithm", sort=False)["fit_seconds"]
                .agg(clusterings="size", seconds="sum", mean_seconds="mean",
                     max_seconds="max").reset_index())

    def plot(self, rows, summary, p: Params, outdir) -> list:
        outdir = Path(outdir)
        t = {name: pd.read_csv(outdir / f"{name}.csv") for name in
             ("fig1_runs", "fig2_best_per_k", "fig3_best_per_algorithm",
              "fig45_best_overall", "fig6_languages")}
        return [_plot_fig1(t["fig1_runs"], outdir), _plot_fig2(t["fig2_best_per_k"], outdir),
                _plot_fig3(t["fig3_best_per_algorithm"], p, outdir),
                _plot_fig45(t["fig45_best_overall"], outdir),
                _plot_fig6(t["fig6_languages"], outdir)]


# --- tables --------------------------------------------------------------------------------

def _best(rows: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """The row of the lowest bound per group (ties: smallest k, then first algorithm)."""
    rows = rows.sort_values([*by, "k"], kind="stable")
    return rows.loc[rows.groupby(by, sort=False)["score"].idxmin().values]


def _mean_over_splits(best: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Bound (%) of the best per split, averaged over splits, with the spread, the k of the
    first split's best (and its algorithm) and that clustering's actual test error."""
    best = best.assign(test_error_pct=100.0 * best["test_errors"] / best["n"])
    agg = best.groupby(by, sort=False).agg(
        bound_pct=("pct", "mean"), bound_min_pct=("pct", "min"), bound_max_pct=("pct", "max"),
        test_error_pct=("test_error_pct", "mean"), splits=("rep", "size"))
    keep = ["k"] if "algorithm" in by else ["k", "algorithm"]
    first = best[best["rep"] == 0].set_index(by)[keep].add_prefix("best_")
    return agg.join(first).reset_index()


def _language_averages(focus: pd.DataFrame) -> pd.DataFrame:
    """Fig. 6: each language's bound averaged over what the language does not optimise
    (Sect. 4.4): Simple over all runs, Init over (algorithm, k), Cluster over algorithms;
    Algo is the single best. Averaged over splits."""
    def per_split(criterion, by):
        sub = focus[focus["criterion"] == criterion]
        return sub.groupby(["dataset", "rep", *by], sort=False)["pct"].min()
    out = pd.DataFrame({
        "Simple": focus[focus["criterion"] == "Simple"].groupby("dataset", sort=False)["pct"]
        .mean(),
        "Init": per_split("Init", ["algorithm", "k"]).groupby("dataset", sort=False).mean(),
        "Cluster": per_split("Cluster", ["algorithm"]).groupby("dataset", sort=False).mean(),
        "Algo": per_split("Algo", []).groupby("dataset", sort=False).mean(),
    })
    return out.rename_axis("dataset").reset_index()


def _selection(summary: pd.DataFrame, p: Params) -> pd.DataFrame:
    """The k minimising each algorithm's Init bound at the focus split (Fig. 2's model
    selection), beside the true number of classes."""
    s = summary[(summary["criterion"] == "Init")
                & np.isclose(summary["train_frac"], p.focus_fraction)]
    return s[["dataset", "algorithm", "selected_k", "selected_k_q25", "selected_k_q75",
              "true_k"]].reset_index(drop=True)


def _paper_comparison(t: dict, p: Params) -> pd.DataFrame:
    """Our bound beside every number of SPEC §E8 (NaN where the dataset or algorithm was
    not run); ``ours_init_pct`` puts the Init bound (best of r) beside Fig. 1's best run."""
    f1 = t["fig1_runs"].groupby(["dataset", "algorithm", "k"])["simple_pct"].min()
    f2 = t["fig2_best_per_k"].set_index(["dataset", "algorithm", "k"])["init_pct"]
    f2_best = t["fig2_best_per_k"].sort_values("k", kind="stable")
    f2_best = f2_best.loc[f2_best.groupby(["dataset", "algorithm"])["init_pct"].idxmin()]
    f2_best = f2_best.set_index(["dataset", "algorithm"])
    focus3 = t["fig3_best_per_algorithm"]
    f3 = focus3[np.isclose(focus3["train_frac"], p.focus_fraction)].set_index(
        ["dataset", "algorithm"])
    f45 = t["fig45_best_overall"]
    f45 = f45[np.isclose(f45["train_frac"], p.focus_fraction)].set_index("dataset")
    out = []
    for fig, d, a, lang, k_paper, paper in PAPER:
        ours = k_ours = init = np.nan
        if fig == "Fig. 1":
            ours, init, k_ours = f1.get((d, a, 3), np.nan), f2.get((d, a, 3), np.nan), 3
        elif fig == "Fig. 2" and (d, a) in f2_best.index:
            ours, k_ours = f2_best.loc[(d, a), "init_pct"], f2_best.loc[(d, a), "k"]
        elif fig == "Fig. 3" and (d, a) in f3.index:
            ours, k_ours = f3.loc[(d, a), "bound_pct"], f3.loc[(d, a), "best_k"]
        elif fig == "Figs. 4-5" and d in f45.index:
            ours, k_ours = f45.loc[d, "bound_pct"], f45.loc[d, "best_k"]
            a = f"best ({f45.loc[d, 'best_algorithm']})"
        elif fig == "constant" and d in f45.index:
            ours = f45.loc[d, "constant_pct"]
        out.append({"figure": fig, "dataset": d, "algorithm": a, "language": lang,
                    "paper_k": k_paper, "paper_pct": paper, "ours_k": k_ours,
                    "ours_pct": ours, "ours_init_pct": init, "diff_pct": ours - paper})
    return pd.DataFrame(out)


def _spk_vs_kmeans(t: dict) -> pd.DataFrame:
    """Figs. 1–2 side by side: per dataset of :func:`_fig_datasets`, the best single run at
    k = 3 (Simple) and the best Init bound over k, of SPKMeans and of KMeans."""
    f1, f2 = t["fig1_runs"], t["fig2_best_per_k"]
    out = []
    for d in _fig_datasets(f2):
        row = {"dataset": d}
        for a in ("SPKMeans", "KMeans"):
            g1 = f1[(f1["dataset"] == d) & (f1["algorithm"] == a) & (f1["k"] == 3)]
            g2 = f2[(f2["dataset"] == d) & (f2["algorithm"] == a)]
            row[f"{a.lower()}_simple_pct"] = g1["simple_pct"].min() if len(g1) else np.nan
            row[f"{a.lower()}_init_pct"] = g2["init_pct"].min() if len(g2) else np.nan
        out.append(row)
    return pd.DataFrame(out)


# --- figures -------------------------------------------------------------------------------

def _panels(n: int, width: float = 4.0, height: float = 3.0, max_cols: int = 2):
    cols = min(n, max_cols)
    rows = (n + cols - 1) // cols
    fig, axes = plotting.figure(rows, cols, width=width, height=height)
    axes = axes.ravel()
    for ax in axes[n:]:
        ax.set_visible(False)
    return fig, axes


def _fig_datasets(df: pd.DataFrame) -> list[str]:
    """The paper's two datasets of Figs. 1–2 if run, else every dataset in the table."""
    paper = [d for d in ("cmu-different-1000", "cmu-same-1000") if d in set(df["dataset"])]
    return paper or list(dict.fromkeys(df["dataset"]))


def _plot_fig1(df: pd.DataFrame, outdir: Path) -> Path:
    df = df[df["algorithm"].isin(["KMeans", "SPKMeans"])]
    df = df[df["k"] == (3 if (df["k"] == 3).any() else df["k"].min())]
    datasets = _fig_datasets(df) if not df.empty else []
    fig, axes = _panels(max(len(datasets), 1))
    for ax, d in zip(axes, datasets, strict=False):
        sub = df[df["dataset"] == d]
        for j, (a, g) in enumerate(sub.groupby("algorithm", sort=True)):
            ax.bar(g["init"] + 1 + (j - 0.5) * 0.4, g["simple_pct"], width=0.4,
                   color=ALGORITHM_COLORS[a], label=a)
        ax.set(xlabel="initialisation", ylabel="test-error bound (%)")
        ax.set_title(f"Fig. 1 — {d}, k = {sub['k'].iloc[0]}: single runs (Simple), 50-50",
                     fontsize=8)
        ax.legend(fontsize=7)
    return plotting.save(fig, outdir / "fig1_runs.png")


def _plot_fig2(df: pd.DataFrame, outdir: Path) -> Path:
    datasets = _fig_datasets(df)
    fig, axes = _panels(len(datasets))
    for ax, d in zip(axes, datasets, strict=False):
        for a, g in df[df["dataset"] == d].groupby("algorithm", sort=False):
            bold = a in ("KMeans", "SPKMeans")
            ax.plot(g["k"], g["init_pct"], marker="o" if bold else ".", ms=3,
                    lw=1.6 if bold else 0.8, color=ALGORITHM_COLORS[a], label=a)
        ax.set(xlabel="number of clusters k", ylabel="test-error bound (%)")
        ax.set_title(f"Fig. 2 — {d}: best of r initialisations (Init), 50-50", fontsize=8)
        ax.legend(fontsize=6)
    return plotting.save(fig, outdir / "fig2_best_per_k.png")


def _plot_fig3(df: pd.DataFrame, p: Params, outdir: Path) -> Path:
    df = df[np.isclose(df["train_frac"], p.focus_fraction)]
    datasets = [d for d in p.datasets if d in set(df["dataset"])]
    algorithms = [a for a in p.algorithms if a in set(df["algorithm"])]
    fig, axes = plotting.figure(1, 1, width=max(5.0, 0.75 * len(datasets) + 2), height=3.6)
    ax = axes[0, 0]
    width = 0.8 / len(algorithms)
    x = np.arange(len(datasets))
    for j, a in enumerate(algorithms):
        g = df[df["algorithm"] == a].set_index("dataset").reindex(datasets)
        ax.bar(x + (j - (len(algorithms) - 1) / 2) * width, g["bound_pct"], width=width,
               color=ALGORITHM_COLORS[a], label=a)
    ax.set_xticks(x, datasets, rotation=35, ha="right", fontsize=7)
    ax.set(ylabel="test-error bound (%)")
    ax.set_title("Fig. 3: best over k and initialisations (language Cluster), 50-50 split",
                 fontsize=9)
    ax.legend(fontsize=6, ncol=3)
    return plotting.save(fig, outdir / "fig3_best_per_algorithm.png")


def _plot_fig45(df: pd.DataFrame, outdir: Path) -> Path:
    groups = [("Fig. 4", ["classic2", "classic3", "cmu-different-100", "cmu-different-1000"]),
              ("Fig. 5", ["cmu-same-100", "cmu-same-1000", "cmu-newsgroup-clean-100",
                          "cmu-newsgroup-clean-1000"])]
    present = set(df["dataset"])
    rest = [d for d in dict.fromkeys(df["dataset"]) if not any(d in g for _, g in groups)]
    groups = [(t, [d for d in g if d in present]) for t, g in groups] + [("others", rest)]
    groups = [(t, g) for t, g in groups if g]
    fig, axes = _panels(len(groups), max_cols=3)
    cycle = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e"]
    for ax, (title, datasets) in zip(axes, groups, strict=False):
        for i, d in enumerate(datasets):
            g = df[df["dataset"] == d].sort_values("train_frac")
            col = cycle[i % len(cycle)]
            ax.plot(g["train_frac"], g["bound_pct"], marker="o", ms=3, color=col, label=d)
            ax.plot(g["train_frac"], g["constant_pct"], ls="--", lw=0.8, color=col)
        ax.set(title=f"{title}: best of all (Algo); dashed: constant classifier",
               xlabel="train fraction", ylabel="test-error bound (%)", ylim=(0, 100))
        ax.title.set_fontsize(7)
        ax.legend(fontsize=6)
    return plotting.save(fig, outdir / "fig45_best_overall.png")


def _plot_fig6(df: pd.DataFrame, outdir: Path) -> Path:
    datasets = list(df["dataset"])
    fig, axes = plotting.figure(1, 1, width=max(5.0, 0.75 * len(datasets) + 2), height=3.6)
    ax = axes[0, 0]
    x = np.arange(len(datasets))
    langs = list(pac_mdl.LANGUAGES)
    width = 0.8 / len(langs)
    for j, lang in enumerate(langs):
        ax.bar(x + (j - 1.5) * width, df[lang], width=width, color=LANGUAGE_COLORS[lang],
               label=lang)
    ax.set_xticks(x, datasets, rotation=35, ha="right", fontsize=7)
    ax.set(ylabel="average test-error bound (%)")
    ax.set_title("Fig. 6: average bound per description language, 50-50 split", fontsize=9)
    ax.legend(fontsize=7)
    return plotting.save(fig, outdir / "fig6_languages.png")


experiment = PacMdlText()
