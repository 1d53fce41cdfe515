"""A league table of the criteria: ``mtc select`` over a suite of data sets with a known
number of groups, scoring each criterion by the share of data sets where it recovers that
number and by its mean error |k̂ − k|.

The suite (:mod:`mtc_cli.core.datasets.milligan_cooper`): Milligan & Cooper's (1985) design —
2–5 clusters in 4, 6 or 8 dimensions, equal or unequal sizes, error-free, with perturbed
coordinates or with 20 % outliers — plus null data (one cluster, uniform or Gaussian),
elongated clusters and clusters of unequal variances; and four real data sets that ship
with scikit-learn (iris, wine, breast cancer, digits), whose classes are taken as the
reference number of groups (a convention: classes need not be clusters). Every data set is
drawn once and given to every model. One task is one data set × model: all of that
selection's work runs in the task through the selection engine
(:func:`mtc_cli.selection.engine.run`) with the seed ``select_seed``, so a data set's
choices are those of ``mtc select --seed`` (or ``OrderSelector``) on the same matrix.

Two halves: the simulated designs drawn with the first of ``data_seeds`` are the *fit*
half, on which the vote's rule is fitted (:mod:`mtc_cli.selection.voting`); those drawn
with the other seeds, and the real sets, are the *test* half, on which the league reports.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from mtc_cli.core.datasets import milligan_cooper as mc
from mtc_cli.core.errors import MtcError
from mtc_cli.core.models.gmm import COVARIANCE_TYPES
from mtc_cli.run.experiment import Experiment
from mtc_cli.run.params import param
from mtc_cli.selection import choice, engine, voting
from mtc_cli.selection.catalog import CLUSTERING
from mtc_cli.selection.settings import make_settings

#: scikit-learn's bundled data sets: their number of classes (the reference k) and objects
REAL = {"iris": 3, "wine": 3, "breast_cancer": 2, "digits": 10}
REAL_SIZE = {"iris": 150, "wine": 178, "breast_cancer": 569, "digits": 1797}
FAMILIES = ("milligan_cooper", "one_cluster", "elongated", "unequal_variance", "real")


@dataclass(frozen=True)
class Suite:
    families: list[str] = param(list(FAMILIES[:-1]), help="simulated families",
                                choices=list(FAMILIES[:-1]))
    reps: int = param(3, help="replications of every simulated design (Milligan & Cooper: 3)",
                      min=1)
    n_points: int = param(200, help="objects per simulated data set (M&C: 50)", min=20)
    n_clusters: list[int] = param([2, 3, 4, 5], help="Milligan–Cooper: numbers of clusters",
                                  min=1)
    n_dims: list[int] = param([4, 6, 8], help="Milligan–Cooper and one-cluster: dimensions", min=1)
    sizes: list[str] = param(list(mc.SIZES), help="Milligan–Cooper: size patterns",
                             choices=list(mc.SIZES))
    errors: list[str] = param(list(mc.ERRORS), help="Milligan–Cooper: error conditions",
                              choices=list(mc.ERRORS))
    real: list[str] = param(list(REAL), help="scikit-learn data sets (classes as k)",
                            choices=list(REAL))
    standardize_real: bool = param(True, help="z-score the real data sets' features "
                                              "(constant features dropped)")
    data_seeds: list[int] = param([1985, 2026], help="seeds of the simulated data sets: the "
                                  "first draws the fit half (the vote's rule is fitted on "
                                  "it), the others the test half (the real sets too)", min=0)


@dataclass(frozen=True)
class Params:
    suite: Suite = param(Suite(), help="the data sets")
    models: list[str] = param(["kmeans", "gmm"], help="models whose criteria compete",
                              choices=list(CLUSTERING[:2]))
    k_max: int = param(12, help="k = 1..k_max offered on every data set", min=2)
    splits: int = param(10, help="select: random splits into halves", min=1)
    references: int = param(10, help="select: gap statistic reference sets", min=2)
    clest_references: int = param(5, help="select: Clest reference sets", min=1)
    clest_splits: int = param(5, help="select: Clest learning/test splits", min=1)
    n_init: int | None = param(None, help="select: restarts of every fit (default: by "
                                          "model, as mtc select)", min=1)
    covariance_type: str = param("full", help="gmm covariance model",
                                 choices=list(COVARIANCE_TYPES))
    select_seed: int = param(0, help="the seed of every selection (as mtc select --seed)",
                             min=0)


def datasets(s: Suite) -> list[dict]:
    """Every data set of the suite as a JSON-able description (with ``id``, ``true_k`` and
    ``half``: ``fit`` for the first data seed, ``test`` for the others and the real sets;
    ids of the later seeds end in ``-s<seed>``)."""
    out = []
    for i, seed in enumerate(s.data_seeds):
        for d in mc.designs(s.reps, s.n_points):
            if d["family"] not in s.families:
                continue
            if d["family"] == "milligan_cooper" and not (
                    d["n_clusters"] in s.n_clusters and d["n_dims"] in s.n_dims
                    and d["sizes"] in s.sizes and d["error"] in s.errors):
                continue
            if d["family"] == "one_cluster" and d["n_dims"] not in s.n_dims:
                continue
            out.append({**d, "id": d["id"] + (f"-s{seed}" if i else ""), "data_seed": seed,
                        "half": "test" if i else "fit"})
    out += [{"id": name, "family": "real", "real": name, "true_k": REAL[name], "rep": 0,
             "standardize": s.standardize_real, "half": "test"} for name in s.real]
    return out


@lru_cache(maxsize=8)
def _data(design: tuple) -> tuple[np.ndarray, int]:
    d = dict(design)
    if d["family"] == "real":
        import sklearn.datasets as skd

        X = getattr(skd, f"load_{d['real']}")().data.astype(np.float64)
        X = X[:, np.ptp(X, axis=0) > 0]
        if d["standardize"]:
            X = (X - X.mean(axis=0)) / X.std(axis=0)
        return X, d["true_k"]
    X, _, true_k = mc.make(d, mc.design_rng(d, d["data_seed"]))
    return X, true_k


def data(design: dict) -> tuple[np.ndarray, int]:
    """(X, true k) of a data set (drawn or loaded once per process)."""
    return _data(tuple(sorted(design.items())))


class CriteriaLeague(Experiment):
    name = "criteria_league"
    description = "League table of the criteria over Milligan–Cooper and real data sets"
    Params = Params
    condition = ("dataset", "model")

    def check(self, p: Params) -> None:
        if not datasets(p.suite):
            raise MtcError("key 'suite': the suite has no data set")
        sizes = [REAL_SIZE[d["real"]] if d["family"] == "real" else p.suite.n_points
                 for d in datasets(p.suite)]
        if p.k_max > min(sizes) // 2:
            raise MtcError(f"key 'k_max': {p.k_max} exceeds the {min(sizes) // 2} objects of "
                           "a random half of the smallest data set")

    def paper_targets(self, p: Params) -> bool:
        return False

    def tasks(self, p: Params) -> list[dict]:
        options = {k: getattr(p, k) for k in ("k_max", "splits", "references",
                                              "clest_references", "clest_splits", "n_init",
                                              "covariance_type", "select_seed")}
        return [{"design": d, "model": m, **options} for d in datasets(p.suite)
                for m in p.models]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        design = task["design"]
        X, true_k = data(design)
        s = make_settings(task["model"], (1, task["k_max"]), None, n=len(X), d=X.shape[1],
                          **{k: task[k] for k in ("splits", "references", "clest_references",
                                                  "clest_splits", "n_init",
                                                  "covariance_type")})
        rows = engine.run(X, s, task["select_seed"])
        summary, _ = choice.summarize(rows, s.criteria, k_lo=1, k_hi=s.k_hi, model=s.model)
        base = {"dataset": design["id"], "model": task["model"], "family": design["family"],
                "condition": _condition(design), "rep": design["rep"],
                "half": design["half"], "true_k": true_k, "n": X.shape[0], "d": X.shape[1],
                "k_hi": s.k_hi}
        return [{**base, "criterion": c, "k": k,
                 "score": abs(k - true_k) if np.isfinite(k) else np.nan}
                for c, k in zip(summary["criterion"], summary["selected_k"], strict=True)]

    def summarize(self, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
        """Per data set × model × criterion (and the votes of :func:`with_votes`): the chosen
        k and the true k."""
        out = with_votes(rows)[["dataset", "model", "criterion", "k", "true_k", "family",
                                "condition", "half"]].rename(columns={"k": "selected_k"})
        return out.assign(selected_k_q25=out["selected_k"], selected_k_q75=out["selected_k"],
                          n_reps=1)

    def tables(self, rows, summary, p: Params) -> dict:
        """``vote_rule``: per model the vote's rule fitted on the fit half
        (:func:`mtc_cli.selection.voting.fit_rule`; shipped with mtc as
        ``mtc_cli/selection/vote_rule.csv``); ``league``: per half × model × criterion
        (and vote) the share of data sets recovered, the mean and median |k̂ − k|, and the
        share per family; ``league_conditions``: the share per Milligan–Cooper error
        condition and size pattern (test half)."""
        voted = with_votes(rows)
        test = voted[voted["half"] == "test"]
        return {"vote_rule": voting.rule_table(fit_rules(rows)),
                "league": league(voted), "league_conditions": by_condition(test)}

    def plot(self, rows, summary, p: Params, outdir) -> list:
        table = pd.read_csv(Path(outdir) / "league.csv")
        return [plot_league(table[table["half"] == "test"],
                            Path(outdir) / "criteria_league.png")]

    def report(self, summary, p: Params, run_dir) -> str:
        table = pd.read_csv(Path(run_dir) / "league.csv")
        cols = ["model", "criterion", "recovered", "recovered_k_ge_2", "mean_abs_error",
                "n_datasets", *[f for f in FAMILIES if f in table.columns]]
        out = []
        for half in ("test", "fit"):
            t = table[table["half"] == half]
            with pd.option_context("display.width", 200,
                                   "display.float_format", "{:.2f}".format):
                out.append(f"League table, {half} half (share of data sets where k is "
                           f"recovered):\n" + t[cols].to_string(index=False))
        return "\n\n".join(out)


def fit_rules(rows: pd.DataFrame) -> dict:
    """model → (the vote's rule, the criteria's records), fitted on the fit half."""
    fit = rows[rows["half"] == "fit"]
    return {m: voting.fit_rule(g[["dataset", "criterion", "k", "true_k", "k_hi", "family"]])
            for m, g in fit.groupby("model", sort=True)}


def with_votes(rows: pd.DataFrame) -> pd.DataFrame:
    """The criteria's rows and two votes per data set × model: ``vote`` (the rule fitted on
    the fit half, :func:`fit_rules`) and ``plurality`` (every criterion, one vote each)."""
    rules = {m: r for m, (r, _) in fit_rules(rows).items()}
    extra = []
    for (_, model), g in rows.groupby(["dataset", "model"], sort=False):
        picks = dict(zip(g["criterion"], g["k"], strict=True))
        first = g.iloc[0]
        for name, rule in (("vote", rules.get(model)), ("plurality", voting.PLURALITY)):
            if rule is None:
                continue
            k, _ = voting.decide(picks, rule, int(first["k_hi"]))
            extra.append({**first.to_dict(), "criterion": name, "k": k,
                          "score": abs(k - first["true_k"]) if np.isfinite(k) else np.nan})
    return pd.concat([rows, pd.DataFrame(extra, columns=rows.columns)], ignore_index=True)


def _condition(design: dict) -> str:
    if design["family"] == "milligan_cooper":
        return f"{design['error']}/{design['sizes']}"
    return design["family"]


def league(rows: pd.DataFrame) -> pd.DataFrame:
    """Per half × model × criterion: data sets, share with k̂ = k (``recovered``; also over
    the data sets with k ≥ 2 only, where criteria undefined at k = 1 can compete), mean and
    median |k̂ − k| (a criterion without a choice counts as not recovered and is left out
    of the errors), then the recovered share per family; the test half first, best first
    within each model."""
    keys = ["half", "model", "criterion"]
    r = rows.assign(hit=rows["score"] == 0, hit_k2=(rows["score"] == 0).where(
        rows["true_k"] >= 2))
    out = r.groupby(keys, sort=False).agg(
        n_datasets=("hit", "size"), recovered=("hit", "mean"),
        recovered_k_ge_2=("hit_k2", "mean"), mean_abs_error=("score", "mean"),
        median_abs_error=("score", "median"),
        no_choice=("score", lambda s: int(s.isna().sum()))).reset_index()
    fam = r.pivot_table(index=keys, columns="family", values="hit", aggfunc="mean")
    fam = fam[[f for f in FAMILIES if f in fam.columns]].reset_index()
    out = out.merge(fam, on=keys, how="left")
    out = out.assign(test_first=out["half"] != "test").sort_values(
        ["test_first", "model", "recovered", "mean_abs_error"],
        ascending=[True, True, False, True], kind="stable").drop(columns="test_first")
    out.insert(3, "rank", out.groupby(["half", "model"]).cumcount() + 1)
    return out.reset_index(drop=True)


def by_condition(rows: pd.DataFrame) -> pd.DataFrame:
    """The recovered share per model × criterion × Milligan–Cooper condition."""
    sub = rows[rows["family"] == "milligan_cooper"].assign(
        hit=lambda d: d["score"] == 0)
    if sub.empty:
        return pd.DataFrame(columns=["model", "criterion"])
    return (sub.pivot_table(index=["model", "criterion"], columns="condition", values="hit",
                            aggfunc="mean").reset_index())


def plot_league(table: pd.DataFrame, path: Path) -> Path:
    """Per model: the recovered share of every criterion on the test half (bars, best on
    top, mean |k̂ − k| beside; the votes in red) and a heat map of the share per family."""
    from mtc_cli.show import plotting

    models = list(dict.fromkeys(table["model"]))
    fams = [f for f in FAMILIES if f in table.columns]
    fig, axes = plotting.figure(len(models), 2, width=5.2, height=0.32 * table.groupby(
        "model").size().max() + 1.6, gridspec_kw={"width_ratios": [1.2, 1.0]},
        layout="constrained")
    for i, m in enumerate(models):
        t = table[table["model"] == m].iloc[::-1]
        ax = axes[i, 0]
        colours = ["#d62728" if c in ("vote", "plurality") else "#1f77b4"
                   for c in t["criterion"]]
        ax.barh(t["criterion"], t["recovered"], color=colours)
        for y, (share, err) in enumerate(zip(t["recovered"], t["mean_abs_error"],
                                             strict=True)):
            ax.text(min(share, 1.0) + 0.01, y, f"{share:.0%}  |Δk| {err:.2f}", va="center",
                    fontsize=7)
        ax.set_xlim(0, 1.35)
        ax.set_ylim(-0.5, len(t) - 0.5)  # row for row with the heat map beside
        ax.set_xlabel("share of data sets with k̂ = k")
        ax.set_title(f"{m}: {int(t['n_datasets'].max())} data sets of the test half",
                     fontsize=9)
        ax = axes[i, 1]
        best_first = t.iloc[::-1]  # the bars' order, best at the top
        im = ax.imshow(best_first[fams].to_numpy(dtype=float), aspect="auto", vmin=0, vmax=1,
                       cmap="viridis")
        ax.set_yticks(range(len(best_first)))
        ax.set_yticklabels(best_first["criterion"], fontsize=7)
        ax.set_xticks(range(len(fams)))
        ax.set_xticklabels([f.replace("_", " ") for f in fams], rotation=30, ha="right",
                           fontsize=7)
        ax.grid(False)
        fig.colorbar(im, ax=ax, fraction=0.05, label="recovered share")
    fig.suptitle("League of the criteria: recovery of the known number of groups", fontsize=10)
    return plotting.save(fig, path)


experiment = CriteriaLeague()
