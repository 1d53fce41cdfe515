"""The shapes league: ``mtc select`` of every clustering algorithm, and ``--model auto``,
on data sets whose groups are not compact blobs (:mod:`mtc_cli.core.datasets.shapes`: rings,
moons, spirals, chain links, sheared blobs, groups of different density; with and without
background noise; in their own dimensions or embedded in 10) beside Milligan & Cooper's
compact clusters (:mod:`mtc_cli.core.datasets.milligan_cooper`). Scored as the criteria league:
the share of data sets where the answer is the known number of groups, and |k̂ − k|; beside
them, whether the answer's clustering is the true grouping: the adjusted Rand index (Hubert &
Arabie 1985, scikit-learn's ``adjusted_rand_score``) of the clustering ``mtc select`` reports
at its answer (:func:`mtc_cli.selection.engine.clustering`) with the true groups, background
noise points left out — a count can be right with the wrong groups (two halves of each of
two moons).

One task is one data set × algorithm: that algorithm's whole selection through the engine
(:func:`mtc_cli.selection.engine.run`, seed ``select_seed``), its vote
(:func:`mtc_cli.selection.voting.rule_for`, as ``mtc select``) and its normalised stability
S(k)/S_perm(k) (:func:`mtc_cli.selection.auto.normalised_stability`). ``auto`` is derived in
the tables from the algorithms' rows by :func:`mtc_cli.selection.auto.decide`: the answer
``mtc select --model auto --seed`` gives on the same matrix.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from mtc_cli.core.datasets import milligan_cooper as mc
from mtc_cli.core.datasets import shapes
from mtc_cli.core.errors import MtcError
from mtc_cli.core.files import file_sha256
from mtc_cli.run.experiment import Experiment
from mtc_cli.run.params import param
from mtc_cli.selection import auto, choice, engine, voting
from mtc_cli.selection.catalog import AUTO_MODELS
from mtc_cli.selection.settings import make_settings

FAMILIES = ("shapes", "milligan_cooper")


@dataclass(frozen=True)
class Params:
    shapes: list[str] = param(list(shapes.SHAPES), help="the shapes",
                              choices=list(shapes.SHAPES))
    n_points: int = param(400, help="objects per shape data set (before background noise)",
                          min=20)
    mc_clusters: list[int] = param([2, 3, 4, 5], help="Milligan–Cooper: numbers of clusters",
                                   min=1)
    mc_dims: list[int] = param([4, 8], help="Milligan–Cooper: dimensions", min=1)
    mc_sizes: list[str] = param(["equal", "one_10pct"], help="Milligan–Cooper: size patterns",
                                choices=list(mc.SIZES))
    mc_errors: list[str] = param(["none", "perturbed"], help="Milligan–Cooper: error "
                                 "conditions", choices=list(mc.ERRORS))
    mc_points: int = param(200, help="objects per Milligan–Cooper data set", min=20)
    reps: int = param(1, help="replications of every design", min=1)
    data_seed: int = param(2026, help="seed of every data set", min=0)
    models: list[str] = param(list(AUTO_MODELS), help="the algorithms (auto: all of them)",
                              choices=list(AUTO_MODELS))
    k_max: int = param(10, help="k = 1..k_max offered on every data set", min=2)
    splits: int = param(10, help="select: random splits into halves", min=1)
    references: int = param(10, help="select: gap statistic reference sets", min=2)
    clest_references: int = param(5, help="select: Clest reference sets", min=1)
    clest_splits: int = param(5, help="select: Clest learning/test splits", min=1)
    select_seed: int = param(0, help="the seed of every selection (as mtc select --seed)",
                             min=0)


def datasets(p: Params) -> list[dict]:
    """Every data set as a JSON-able description with ``id``, ``family`` and ``true_k``."""
    out = [d for d in shapes.designs(p.n_points, p.reps) if d["shape"] in p.shapes]
    out += [d for d in mc.designs(p.reps, p.mc_points)
            if d["family"] == "milligan_cooper" and d["n_clusters"] in p.mc_clusters
            and d["n_dims"] in p.mc_dims and d["sizes"] in p.mc_sizes
            and d["error"] in p.mc_errors]
    return [{**d, "data_seed": p.data_seed} for d in out]


@lru_cache(maxsize=8)
def _data(design: tuple) -> tuple[np.ndarray, np.ndarray, int]:
    d = dict(design)
    if d["family"] == "shapes":
        return shapes.make(d, d["data_seed"])
    return mc.make(d, mc.design_rng(d, d["data_seed"]))


def data(design: dict) -> tuple[np.ndarray, np.ndarray, int]:
    """(X, true groups (−1: a background noise point), true k) of a data set (drawn once
    per process)."""
    return _data(tuple(sorted(design.items())))


def agreement(truth: np.ndarray, labels: np.ndarray) -> float:
    """The adjusted Rand index of ``labels`` with the true groups over the objects of a
    group (background noise points, −1, left out)."""
    from sklearn.metrics import adjusted_rand_score

    keep = np.asarray(truth) >= 0
    return float(adjusted_rand_score(np.asarray(truth)[keep], np.asarray(labels)[keep]))


class ShapesLeague(Experiment):
    name = "shapes_league"
    description = "Every clustering algorithm and --model auto on groups of any shape"
    Params = Params
    condition = ("dataset", "model")

    def check(self, p: Params) -> None:
        designs = datasets(p)
        if not designs:
            raise MtcError("the league has no data set")
        if p.k_max > min(p.n_points, p.mc_points) // 2:
            raise MtcError(f"key 'k_max': {p.k_max} exceeds the objects of a random half of "
                           "the smallest data set")

    def paper_targets(self, p: Params) -> bool:
        return False

    def tasks(self, p: Params) -> list[dict]:
        options = {k: getattr(p, k) for k in ("k_max", "splits", "references",
                                              "clest_references", "clest_splits",
                                              "select_seed")}
        # each task votes by the rules mtc ships (written by the criteria league): their
        # digest is part of the task, so that new rules recompute the votes
        rules = (file_sha256(voting.RULE_FILE)[:16]
                 if voting.RULE_FILE.is_file() else None)
        return [{"design": d, "model": m, **options, "vote_rule": rules}
                for d in datasets(p) for m in p.models]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        design = task["design"]
        X, truth, true_k = data(design)
        s = make_settings(task["model"], (1, task["k_max"]), None, n=len(X), d=X.shape[1],
                          **{k: task[k] for k in ("splits", "references", "clest_references",
                                                  "clest_splits")})
        rows = engine.run(X, s, task["select_seed"])
        summary, _ = choice.summarize(rows, s.criteria, k_lo=1, k_hi=s.k_hi, model=s.model)
        voted, _ = voting.decide(choice.choices(summary), voting.rule_for(s.model, s.criteria),
                                 s.k_hi)
        base = {"dataset": design["id"], "model": task["model"], "family": design["family"],
                "group": design.get("shape", "milligan_cooper"), "true_k": true_k,
                "n": X.shape[0], "d": X.shape[1]}
        picks = [*zip(summary["criterion"], summary["selected_k"], strict=True),
                 ("vote", voted)]
        out = [{**base, "criterion": c, "k": k, "score": abs(k - true_k) if np.isfinite(k)
                else np.nan} for c, k in picks]
        if np.isfinite(voted):  # no voter, no answer: nothing to compare
            labels = engine.clustering(X, s, int(voted), task["select_seed"],
                                       engine.data_digest(X))
            out.append({**base, "criterion": "ari", "k": int(voted),
                        "score": agreement(truth, labels)})
        return out + [{**base, "criterion": "s_perm", "k": int(k), "score": float(v)}
                      for k, v in auto.normalised_stability(rows).items()]

    def summarize(self, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
        """Per data set × algorithm (and ``auto``): the voted k and the true k."""
        a = answers(rows)
        return a.rename(columns={"k": "selected_k"}).assign(
            criterion="vote", selected_k_q25=a["k"], selected_k_q75=a["k"], n_reps=1)

    def tables(self, rows, summary, p: Params) -> dict:
        """``answers``: per data set × algorithm (and ``auto``, with its winner) the voted k
        and the adjusted Rand index of its clustering; ``shapes_league``: per algorithm the
        share of data sets recovered, the mean |k̂ − k| and the mean adjusted Rand index, over
        the shapes, Milligan & Cooper's designs and each shape."""
        a = answers(rows)
        return {"answers": a, "shapes_league": league(a)}

    def plot(self, rows, summary, p: Params, outdir) -> list:
        return [plot_league(pd.read_csv(Path(outdir) / "shapes_league.csv"),
                            Path(outdir) / "shapes_league.png")]

    def report(self, summary, p: Params, run_dir) -> str:
        table = pd.read_csv(Path(run_dir) / "shapes_league.csv")
        with pd.option_context("display.width", 200, "display.float_format",
                               "{:.2f}".format):
            return ("Shapes league (share of data sets where the answer is the known k, mean "
                    "|k̂ − k|, mean adjusted Rand index of the answer's clustering):\n"
                    + table.to_string(index=False))


def answers(rows: pd.DataFrame) -> pd.DataFrame:
    """Per data set: every algorithm's vote and ``auto``'s answer (the vote of the
    algorithm of lowest S(k)/S_perm(k), :func:`mtc_cli.selection.auto.decide`), each with
    the adjusted Rand index of its clustering (``auto``: its winner's)."""
    keys = ["dataset", "family", "group", "true_k"]
    ari = rows[rows["criterion"] == "ari"].set_index(["dataset", "model"])["score"]
    votes = rows[rows["criterion"] == "vote"][[*keys, "model", "k"]].assign(winner="")
    votes["ari"] = [ari.get((d, m), np.nan) for d, m in zip(votes["dataset"], votes["model"],
                                                            strict=True)]
    extra = []
    for (dataset, family, group, true_k), g in rows.groupby(keys, sort=False):
        curves = {m: s.set_index("k")["score"]
                  for m, s in g[g["criterion"] == "s_perm"].groupby("model", sort=False)}
        voted = dict(zip(g.loc[g["criterion"] == "vote", "model"],
                         g.loc[g["criterion"] == "vote", "k"], strict=True))
        best, k = auto.winner(auto.decide({m: curves.get(m, pd.Series(dtype=float))
                                           for m in voted}, voted))
        extra.append({"dataset": dataset, "family": family, "group": group,
                      "true_k": true_k, "model": "auto", "k": k, "winner": best or "",
                      "ari": ari.get((dataset, best), np.nan)})
    out = pd.concat([votes, pd.DataFrame(extra)], ignore_index=True)
    return out.assign(hit=out["k"] == out["true_k"],
                      abs_error=(out["k"] - out["true_k"]).abs())


def league(a: pd.DataFrame) -> pd.DataFrame:
    """Per algorithm (``auto`` last): data sets, the share recovered, the mean |k̂ − k| and the
    mean adjusted Rand index over the shapes and over Milligan & Cooper's designs, then the
    share per shape."""
    rows = []
    for model, g in a.groupby("model", sort=False):
        row = {"model": model}
        for fam in FAMILIES:
            f = g[g["family"] == fam]
            row[f"{fam}_n"] = len(f)
            row[f"{fam}_recovered"] = float(f["hit"].mean()) if len(f) else np.nan
            row[f"{fam}_mean_abs_error"] = float(f["abs_error"].mean()) if len(f) else np.nan
            row[f"{fam}_mean_ari"] = float(f["ari"].mean()) if len(f) else np.nan
        for group, f in g[g["family"] == "shapes"].groupby("group", sort=False):
            row[group] = float(f["hit"].mean())
        rows.append(row)
    return pd.DataFrame(rows)


def plot_league(table: pd.DataFrame, path: Path) -> Path:
    """A heat map of the recovered share: algorithms (``auto`` last) × each shape, all shapes
    and Milligan & Cooper's designs."""
    from mtc_cli.show import plotting

    groups = [c for c in table.columns if c in shapes.SHAPES]
    cols = [*groups, "shapes_recovered", "milligan_cooper_recovered"]
    names = [*groups, "all shapes", "Milligan–Cooper"]
    values = table[cols].to_numpy(dtype=float)
    fig, axes = plotting.figure(1, 1, width=1.0 + 0.75 * len(cols),
                                height=1.4 + 0.38 * len(table))
    ax = axes[0, 0]
    im = ax.imshow(values, aspect="auto", vmin=0, vmax=1, cmap="viridis")
    for (i, j), v in np.ndenumerate(values):
        if np.isfinite(v):
            ax.text(j, i, f"{v:.0%}", ha="center", va="center", fontsize=7,
                    color="white" if v < 0.6 else "black")
    ax.set_yticks(range(len(table)))
    ax.set_yticklabels(table["model"], fontsize=8)
    ax.set_xticks(range(len(cols)))
    ax.set_xticklabels(names, rotation=30, ha="right", fontsize=8)
    ax.grid(False)
    fig.colorbar(im, ax=ax, fraction=0.04, label="share of data sets with k̂ = k")
    ax.set_title("mtc select per algorithm and --model auto: recovery of the known k",
                 fontsize=9)
    return plotting.save(fig, path)


experiment = ShapesLeague()
