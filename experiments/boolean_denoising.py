"""MTC Fig. 3: the rank of the SVD-threshold denoiser for access-control matrices.

Frank, Chehreghani, Buhmann 2011, Sect. 4.2. An error-free user × permission matrix X*
(real HP Labs matrices of Ene et al. 2008, treated as error-free as Molloy et al. did with
real data, and three role-based generators after Molloy et al. 2010) receives additive and
subtractive noise → X. The denoiser X̃_k = g(U_k S_k V_kᵀ) thresholds the rank-k SVD of X
at 0.5; the oracle rank minimises Hamming(X̃_k, X*). Rank selectors compared:

- ``mtc``: random halves of the users X¹, X²; each x²_i' is mapped to its Hamming nearest
  neighbour in X¹ and costed by the bits in which it differs from that neighbour's row of
  g(U_k S_k V_kᵀ) of X¹; per split the argmin, per noise draw the median over splits;
- ``op_cv_<h>``: Owen–Perry bi-cross-validation, held-out block of a fraction h of the
  rows and of the columns, rank with the lowest median error over random permutations;
- ``coverage``: Molloy's 80 % rule — the smallest k whose X̃_k covers 80 % of the ones of X;
- ``increment``: Molloy's increment rule — the smallest k with
  ‖X̃_k − X̃_{k+1}‖₁ / ‖X‖₁ < 0.001.

A method is judged by the Hamming error to X* at its rank divided by the oracle's (the
error ratio), not only by its distance in rank. One task is one noise draw of one dataset
with all its splits and permutations.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

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
from mtc_cli.show import plotting

ORACLE = "#d62728"


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


def method_labels(p: Params) -> dict:
    """criterion → label, in the figure's order (the oracle is drawn apart)."""
    out = {"mtc": "MTC"}
    out.update({_opcv(h): f"OP-CV {h:.0%}" for h in p.holdouts})
    out.update({"coverage": f"{p.coverage:.0%} rule", "increment": "increment rule"})
    return out


def data_note(p: Params) -> str:
    """The figure's source: the paper's (MTC Fig. 3), or the user's files among ``real``
    (any outside the shipped HP Labs folder), by name."""
    own = [Path(f).name for f in p.real if Path(f).resolve().parent != HP.resolve()]
    return f"on {', '.join(own)}" if own else "(MTC Fig. 3)"


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


class BooleanDenoising(Experiment):
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

    def summarize(self, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
        """Per dataset × criterion: the median rank over noise draws (quartiles), the
        oracle's, the mean Hamming error to X* at the chosen rank and its ratio to the
        oracle's error (mean over draws), the share of draws within 10 % of the oracle's
        error, and the median distance in rank."""
        per = per_draw(rows, p)
        g = per.groupby(["dataset", "criterion"], sort=False)
        out = g.agg(selected_k=("selected_k", "median"),
                    selected_k_q25=("selected_k", lambda s: float(np.quantile(s, 0.25))),
                    selected_k_q75=("selected_k", lambda s: float(np.quantile(s, 0.75))),
                    n_reps=("selected_k", "size"), oracle_k=("oracle_k", "median"),
                    hamming=("hamming", "mean"), oracle_hamming=("oracle_hamming", "mean"),
                    ratio=("ratio", "mean"), ratio_max=("ratio", "max"),
                    within_10pct=("ratio", lambda s: float(np.mean(s <= 1.1))),
                    rank_distance=("rank_distance", "median")).reset_index()
        return out

    def tables(self, rows, summary, p: Params) -> dict:
        """``choices``: every selection (MTC per split as well, ``split`` −1 for the
        others); ``ranks``: one row per dataset with the oracle and each method's rank and
        error ratio (the README table); ``overall``: per method, pooled over datasets."""
        overall = overall_table(summary, p)
        return {"choices": choices(rows, p), "ranks": rank_table(summary, rows, p),
                "overall": overall, "pooled": pooled_table(overall)}

    def plot(self, rows, summary, p: Params, outdir) -> list:
        from matplotlib.gridspec import GridSpec
        from matplotlib.lines import Line2D

        picks = choices(rows, p)
        names = list(dict.fromkeys(summary["dataset"]))
        labels = method_labels(p)
        fig = plotting.new_figure(max(2.7 * len(names), 8.0), 7.0)
        gs = GridSpec(2, len(names), figure=fig, hspace=0.42, wspace=0.45)
        curves = (rows[rows["criterion"] == "hamming"].groupby(["dataset", "k"])["score"]
                  .mean())
        for j, name in enumerate(names):
            summ = summary[summary["dataset"] == name].set_index("criterion")
            info = _info(rows, name)
            ax = fig.add_subplot(gs[0, j])
            _rank_panel(ax, picks[picks["dataset"] == name], summ, labels)
            ax.set_title(f"{name} ({int(info['n_users'])}×{int(info['n_perms'])})")
            if j == 0:
                ax.set_ylabel("selected rank k")
            ax2 = fig.add_subplot(gs[1, j])
            _error_panel(ax2, curves.loc[name], summ, labels, int(info["ones"]))
            if j == 0:
                ax2.set_ylabel("Hamming error to X* (% of |X*|₁)")
        handles = [Line2D([], [], color=ORACLE, marker="s", ms=9, ls="none",
                          label="optimal rank (oracle; median over noise draws)"),
                   Line2D([], [], color="black", marker="D", ms=5, ls="none",
                          label="median rank of a method (MTC box: all splits)"),
                   Line2D([], [], color="#777777", marker="o", ms=3, ls="none",
                          label="one noise draw"),
                   Line2D([], [], color="#555555", lw=1.2,
                          label="lower row: Hamming error of X̃_k to X*; legend: "
                                "k and mean error ratio to the oracle")]
        fig.legend(handles=handles, loc="upper center", ncol=2, bbox_to_anchor=(0.5, 0.99),
                   fontsize=8)
        nz = p.noise
        unit = "of the ones of X*" if nz.relative_to == "ones" else "per entry"
        fig.suptitle(f"Denoising access-control matrices with rank-k SVD {data_note(p)}: noise "
                     f"+{nz.additive:.0%} / −{nz.subtractive:.0%} {unit}, "
                     f"{int(summary['n_reps'].max())} noise draws, {p.splits} MTC splits, "
                     f"{p.permutations} OP-CV permutations", fontsize=10, y=1.04)
        return [plotting.save(fig, Path(outdir) / "boolean_denoising.png")]


def per_draw(rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    """Each noise draw's rank per method (MTC: the lower median of its per-split argmins;
    OP-CV: argmin of the median curve; Molloy's rules; the oracle as criterion
    ``oracle``), the Hamming error to X* there, the oracle's rank and error, their ratio
    and the distance in rank."""
    picks = choices(rows, p)
    mtc = picks[picks["criterion"] == "mtc"]
    lower_median = (mtc.groupby(["dataset", "rep"])["selected_k"]
                    .agg(lambda s: int(np.quantile(s, 0.5, method="lower"))).reset_index()
                    .assign(criterion="mtc"))
    per = pd.concat([picks[picks["criterion"] != "mtc"], lower_median], ignore_index=True)
    per = per[["dataset", "rep", "criterion", "selected_k"]]
    err = rows[rows["criterion"] == "hamming"].set_index(["dataset", "rep", "k"])["score"]
    per["hamming"] = err.reindex(pd.MultiIndex.from_frame(
        per[["dataset", "rep", "selected_k"]])).to_numpy()
    oracle = per[per["criterion"] == "oracle"].set_index(["dataset", "rep"])
    key = pd.MultiIndex.from_frame(per[["dataset", "rep"]])
    per["oracle_k"] = oracle["selected_k"].reindex(key).to_numpy()
    per["oracle_hamming"] = oracle["hamming"].reindex(key).to_numpy()
    per["ratio"] = per["hamming"] / per["oracle_hamming"]
    per["rank_distance"] = (per["selected_k"] - per["oracle_k"]).abs()
    order = {c: i for i, c in enumerate(["oracle", *method_labels(p)])}
    per["_o"] = per["criterion"].map(order)
    names = {n: i for i, n in enumerate(dict.fromkeys(rows["dataset"]))}
    per["_d"] = per["dataset"].map(names)
    return per.sort_values(["_d", "_o", "rep"]).drop(columns=["_o", "_d"]).reset_index(
        drop=True)


def choices(rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    """Every selection: per dataset × noise draw × criterion (× split for MTC) the rank the
    criterion's rule picks from its curve; ties go to the smallest rank."""
    out = []
    for (name, rep, crit), g in rows.groupby(["dataset", "rep", "criterion"], sort=False):
        if crit == "mtc":
            for s, gs in g.groupby("split"):
                gs = gs.sort_values("k")
                out.append((name, rep, crit, int(s), int(gs["k"].iloc[gs["score"].argmin()])))
            continue
        g = g.sort_values("k")
        score, ks = g["score"].to_numpy(), g["k"].to_numpy()
        if crit == "coverage":
            k = int(ks[molloy.coverage_rule(score, p.coverage) - 1])
        elif crit == "increment":
            k = int(ks[molloy.increment_rule(score, p.increment_tol) - 1])
        else:  # hamming (the oracle) and OP-CV: argmin
            k = int(ks[np.argmin(score)])
            crit = "oracle" if crit == "hamming" else crit
        out.append((name, rep, crit, -1, k))
    return pd.DataFrame(out, columns=["dataset", "rep", "criterion", "split", "selected_k"])


def rank_table(summary: pd.DataFrame, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    """One row per dataset: size, ones of X*, noise flips, the oracle's rank and error,
    and for each method its median rank, median rank distance and mean error ratio."""
    out = []
    for name, s in summary.groupby("dataset", sort=False):
        s = s.set_index("criterion")
        info = _info(rows, name)
        row = {"dataset": name, "users": int(info["n_users"]), "perms": int(info["n_perms"]),
               "ones": int(info["ones"]),
               "noise_flips": float(rows.loc[rows["dataset"] == name, "noise_hamming"].mean()),
               "oracle_k": s.loc["oracle", "selected_k"],
               "oracle_hamming": s.loc["oracle", "hamming"]}
        for crit in method_labels(p):
            row[f"{crit}_k"] = s.loc[crit, "selected_k"]
            row[f"{crit}_dist"] = s.loc[crit, "rank_distance"]
            row[f"{crit}_ratio"] = s.loc[crit, "ratio"]
        out.append(row)
    return pd.DataFrame(out)


def overall_table(summary: pd.DataFrame, p: Params) -> pd.DataFrame:
    """One row per method pooled over datasets: mean and worst dataset error ratio, share of
    noise draws within 10 % of the oracle's error, median rank distance, the spread (sd
    over datasets) of the ratio, and on how many datasets the median rank lies above /
    below the oracle's."""
    s = summary[summary["criterion"] != "oracle"]
    w = s["n_reps"]
    out = []
    for crit, g in s.groupby("criterion", sort=False):
        gw = w[g.index]
        out.append({"criterion": crit, "label": method_labels(p)[crit],
                    "mean_ratio": float(np.average(g["ratio"], weights=gw)),
                    "worst_dataset_ratio": float(g["ratio"].max()),
                    "sd_ratio_over_datasets": float(g["ratio"].std(ddof=0)),
                    "within_10pct": float(np.average(g["within_10pct"], weights=gw)),
                    "median_rank_distance": float(g["rank_distance"].median()),
                    "n_above_oracle": int((g["selected_k"] > g["oracle_k"]).sum()),
                    "n_below_oracle": int((g["selected_k"] < g["oracle_k"]).sum())})
    return pd.DataFrame(out)


def pooled_table(overall: pd.DataFrame) -> pd.DataFrame:
    """The ``overall`` table as one row: ``<criterion>_<column>``."""
    o = overall.drop(columns="label").set_index("criterion")
    return pd.DataFrame([{f"{c}_{col}": o.loc[c, col] for c in o.index for col in o.columns}])


def _info(rows: pd.DataFrame, name: str) -> pd.Series:
    """The size columns of a dataset (carried by its oracle rows)."""
    return rows[(rows["dataset"] == name) & (rows["criterion"] == "hamming")].iloc[0]


def _color(crit: str) -> str:
    """One colour per method: MTC black, OP-CV blues, Molloy's rules purple and orange."""
    if crit == "mtc":
        return plotting.color("mtc")
    if crit.startswith("op_cv"):
        return "#17becf" if crit == "op_cv_50" else "#1f77b4"
    return {"coverage": "#9467bd", "increment": "#ff7f0e"}.get(crit, "#7f7f7f")


MARKERS = {"mtc": "D", "coverage": "v", "increment": "^"}


def _rank_panel(ax, picks: pd.DataFrame, summ: pd.DataFrame, labels: dict) -> None:
    """Fig. 3 of the paper: the rank each method selects against the optimal rank (red
    square); MTC as a box over all its splits, the others as one dot per noise draw."""
    methods = list(labels)
    mtc = picks.loc[picks["criterion"] == "mtc", "selected_k"]
    ax.boxplot([mtc.to_numpy()], positions=[0], widths=0.5, showfliers=True,
               medianprops={"color": "black"}, flierprops={"ms": 2})
    for i, crit in enumerate(methods):
        ks = picks.loc[(picks["criterion"] == crit) & (picks["split"] < 0), "selected_k"]
        if len(ks):
            ax.plot(i + np.linspace(-0.15, 0.15, len(ks)), ks, "o", ms=2.5, color="#777777",
                    alpha=0.7)
        ax.plot(i, summ.loc[crit, "selected_k"], MARKERS.get(crit, "o"), ms=6,
                color=_color(crit), zorder=3)
    ok = summ.loc["oracle", "selected_k"]
    ax.axhline(ok, color=ORACLE, lw=0.8, ls=":")
    ax.plot(len(methods) - 0.4, ok, "s", ms=10, color=ORACLE, clip_on=False, zorder=4)
    ax.set_xticks(np.arange(len(methods)))
    ax.set_xticklabels([labels[m] for m in methods], rotation=50, ha="right", fontsize=7.5)
    ax.set_xlim(-0.6, len(methods) - 0.2)
    ax.set_ylim(bottom=0)


def _error_panel(ax, curve: pd.Series, summ: pd.DataFrame, labels: dict, ones: int) -> None:
    """Hamming error of X̃_k to X* vs k (mean over noise draws, % of the ones of X*), with
    each method's median rank marked on it and its mean error ratio in the legend."""
    ks = curve.index.to_numpy()
    err = 100.0 * curve.to_numpy() / ones
    ax.plot(ks, err, color="#555555", lw=1.2)
    ok = summ.loc["oracle", "selected_k"]
    ax.plot(np.interp(ok, ks, ks), np.interp(ok, ks, err), "s", ms=9, color=ORACLE,
            label=f"oracle k={ok:g}", zorder=2)
    for crit, lab in labels.items():
        k = summ.loc[crit, "selected_k"]
        ax.plot(k, np.interp(k, ks, err), MARKERS.get(crit, "o"), ms=5, color=_color(crit),
                zorder=3, label=f"{lab} k={k:g} ×{summ.loc[crit, 'ratio']:.2f}")
    ax.legend(fontsize=6, loc="upper center", handletextpad=0.3, borderpad=0.3,
              labelspacing=0.25, framealpha=0.85)
    ax.set_xlabel("rank k")
    ax.set_xscale("log")
    ax.set_ylim(0, max(err.max(), 1e-9) * 1.6)


experiment = BooleanDenoising()
