"""Lange et al. 2002, Fig. 1 and the toy rows of Table 1: stability, Gap statistic, Clest
and Prediction Strength on "3 Gaussians" (two small close clouds and a larger one apart)
and "3 rings" (concentric), with k-means and Path-Based Clustering; interleaved spirals as
an optional extra case.

Each data set is drawn once from ``data_seed`` (as the paper's one data set per case); a
task is one run (splits, reference sets) of all criteria on one data set × clusterer.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from experiments import _lange2002 as lange2002
from mtc_cli.core.datasets import toy
from mtc_cli.core.errors import MtcError
from mtc_cli.run.experiment import Experiment, check_memory
from mtc_cli.run.params import param
from mtc_cli.show import plotting

#: Lange et al. 2002, Table 1
PAPER = {("gaussians", "kmeans"): {"stability": 3, "gap": 3, "clest": 3,
                                   "prediction_strength": 3},
         ("rings", "kmeans"): {"stability": 7, "gap": 1, "clest": 7, "prediction_strength": 1},
         ("rings", "pathbased"): {"stability": 3, "gap": 1, "clest": 1,
                                  "prediction_strength": 1}}
DATASETS = ("gaussians", "rings", "spirals")
#: name prefix of the data sets of the separation sweep of the 3 Gaussians
SWEEP = "gaussians-sep"


@dataclass(frozen=True)
class Gaussians:
    sizes: list[int] = param([50, 50, 100], help="points per cloud", min=1)
    centres: list[list[float]] = param([[0.0, 0.0], [2.5, 0.0], [1.25, 6.0]],
                                       help="cloud centres")
    sds: list[float] = param([0.5, 0.5, 1.0], help="standard deviation per cloud", min=0.0)
    separations: list[float] = param(
        [], help="a sweep: the gaussians/kmeans case again with the second cloud moved to "
                 "each of these distances from the first (along the line through both)",
        min=0.0)


@dataclass(frozen=True)
class Rings:
    sizes: list[int] = param([100, 200, 300], help="points per ring", min=1)
    radii: list[float] = param([1.0, 2.0, 3.0], help="ring radii", min=0.0)
    noise: float = param(0.05, help="sd of the radial Gaussian noise", min=0.0)


@dataclass(frozen=True)
class Spirals:
    sizes: list[int] = param([150, 150, 150], help="points per arm", min=1)
    turns: float = param(1.0, help="turns of each arm", min=0.0)
    noise: float = param(0.03, help="sd of the isotropic Gaussian noise", min=0.0)


@dataclass(frozen=True)
class Params:
    cases: list[str] = param(["gaussians/kmeans", "rings/kmeans", "rings/pathbased"],
                             help="data set/clusterer pairs (gaussians, rings, spirals; "
                                  "kmeans, pathbased)")
    data_seed: int = param(2002, help="seed of the toy data sets", min=0)
    gaussians: Gaussians = param(Gaussians(), help="3 Gaussians")
    rings: Rings = param(Rings(), help="3 rings")
    spirals: Spirals = param(Spirals(), help="3 spirals (extra)")
    runs: int = param(3, help="independent runs (new splits and reference sets)", min=1)
    criteria: lange2002.Criteria = param(lange2002.Criteria(),
                                           help="stability and baseline settings")


def generate(name: str, spec: dict, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The toy data set ``name`` (points, true components) from its settings and seed."""
    rng = np.random.default_rng(seed)
    if name.startswith("gaussians"):
        return toy.gaussian_clouds(rng, spec["sizes"], spec["centres"], spec["sds"])
    if name == "rings":
        return toy.rings(rng, spec["sizes"], spec["radii"], spec["noise"])
    return toy.spirals(rng, spec["sizes"], spec["turns"], spec["noise"])


def _cases(p: Params) -> list[tuple[str, str]]:
    out = []
    for case in p.cases:
        parts = case.split("/")
        if len(parts) != 2 or parts[0] not in DATASETS or parts[1] not in ("kmeans",
                                                                           "pathbased"):
            raise MtcError(f"key 'cases': expected 'dataset/clusterer' with dataset in "
                           f"{', '.join(DATASETS)} and clusterer kmeans or pathbased, got "
                           f"{case!r}")
        out.append((parts[0], parts[1]))
    return out


class StabilityToy(Experiment):
    name = "stability_toy"
    description = "Lange et al. 2002 Fig. 1 / Table 1 — toy data: stability vs baselines"
    Params = Params
    condition = ("dataset", "clusterer")
    select = {c: "min" for c in lange2002.CRITERIA}

    def check(self, p: Params) -> None:
        for name, _ in _cases(p):
            spec = getattr(p, name)
            if sum(spec.sizes) < 2 * p.criteria.k_max:
                raise MtcError(f"key '{name}.sizes': {sum(spec.sizes)} points are too few "
                               f"for k_max = {p.criteria.k_max}")
        g = p.gaussians
        if len(g.centres) != len(g.sizes) or len(g.sds) != len(g.sizes):
            raise MtcError("key 'gaussians': need one centre and one sd per size")
        if len(p.rings.radii) != len(p.rings.sizes):
            raise MtcError("key 'rings': need one radius per size")
        for name, _ in _cases(p):
            n = sum(getattr(p, name).sizes)
            check_memory(f"{name}.sizes", 8.0 * 4 * n * n)  # path-based dissimilarities

    def tasks(self, p: Params) -> list[dict]:
        out = [{"dataset": d, "clusterer": c, "data": _spec(p, d), "data_seed": p.data_seed,
                "run": r, "criteria": asdict(p.criteria)}
               for d, c in _cases(p) for r in range(p.runs)]
        out += [{"dataset": name, "clusterer": "kmeans", "data": spec,
                 "data_seed": p.data_seed, "run": r, "criteria": asdict(p.criteria)}
                for name, spec in _sweep(p) for r in range(p.runs)]
        return out

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        X, truth = generate(task["dataset"], task["data"], task["data_seed"])
        c = lange2002.Criteria(**task["criteria"])
        base = {"dataset": task["dataset"], "clusterer": task["clusterer"],
                "rep": task["run"]}
        rows = lange2002.evaluate(X, task["clusterer"], c, rng)
        rows += lange2002.agreement_rows(X, task["clusterer"], c, {"truth": truth}, rng)
        return [{**base, **r} for r in rows]

    def summarize(self, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
        out = lange2002.summarize(rows, list(self.condition))
        out["true_k"] = [len(getattr(p, d.split("-")[0]).sizes) for d in out["dataset"]]
        return out

    def tables(self, rows, summary, p: Params) -> dict:
        """``table1``: the toy rows of Lange et al.'s Table 1 (and the sweep's);
        ``curves``: mean curves over runs; ``points``: the data sets (for the scatter
        plots); ``design``: the distances of the 3 Gaussians (the two small clouds' to each
        other and to the big one); ``sweep``: each criterion's choice against the small
        clouds' separation."""
        true_k = {d: len(getattr(p, d).sizes) for d, _ in _cases(p)}
        true_k.update({name: len(p.gaussians.sizes) for name, _ in _sweep(p)})
        points = []
        for d in dict.fromkeys(d for d, _ in _cases(p)):
            X, truth = generate(d, _spec(p, d), p.data_seed)
            points.append(pd.DataFrame({"dataset": d, "x": X[:, 0], "y": X[:, 1],
                                        "component": truth}))
        t1 = lange2002.table1(rows, summary, PAPER, true_k)
        sweep = t1[t1["dataset"].str.startswith(SWEEP)]
        sweep = sweep.assign(separation=[float(d.split("sep")[1]) for d in sweep["dataset"]])
        return {"table1": t1[~t1["dataset"].isin(sweep["dataset"])],
                "curves": lange2002.curves(rows, list(self.condition)),
                "points": pd.concat(points, ignore_index=True), "design": _design(p),
                "sweep": sweep[["separation", *lange2002.CRITERIA, "runs"]]}

    def plot(self, rows, summary, p: Params, outdir) -> list:
        outdir = Path(outdir)
        main = ~rows["dataset"].str.startswith(SWEEP)  # the sweep has a figure of its own
        curve = lange2002.curves(rows[main], list(self.condition))
        summary = summary[~summary["dataset"].str.startswith(SWEEP)]
        title = (f"Lange et al. 2002 Fig. 1: toy data, {rows['rep'].nunique()} runs of "
                 f"r = {p.criteria.n_resamples} splits")
        paths = [lange2002.plot_curves(curve, summary, list(self.condition), title,
                                         outdir / "stability_toy.png",
                                         p.criteria.ps_threshold)]
        points = pd.read_csv(outdir / "points.csv")
        names = list(points["dataset"].unique())
        fig, axes = plotting.figure(1, len(names), width=3.6, height=3.4)
        for ax, name in zip(axes[0], names, strict=True):
            pts = points[points["dataset"] == name]
            for comp, sub in pts.groupby("component"):
                ax.scatter(sub["x"], sub["y"], s=4, label=f"component {comp}")
            ax.set_aspect("equal")
            ax.set_title(f"{name} (data_seed {p.data_seed})")
            plotting.legend_below(ax, gap=20, fontsize=6, markerscale=2, ncol=3)
        paths.append(plotting.save(fig, outdir / "stability_toy_data.png"))
        if (outdir / "sweep.csv").is_file() and len(pd.read_csv(outdir / "sweep.csv")):
            paths.append(_plot_sweep(pd.read_csv(outdir / "sweep.csv"),
                                     outdir / "stability_toy_sweep.png"))
        return paths


def _spec(p: Params, name: str) -> dict:
    spec = asdict(getattr(p, name))
    spec.pop("separations", None)  # the sweep's, not the data set's
    return spec


def _sweep(p: Params) -> list[tuple[str, dict]]:
    """(name, data spec) of every separation of the sweep: the second Gaussian moved along
    the line from the first to it, to the given distance from the first."""
    base = _spec(p, "gaussians")
    c = np.asarray(base["centres"], dtype=np.float64)
    direction = (c[1] - c[0]) / np.linalg.norm(c[1] - c[0])
    out = []
    for sep in p.gaussians.separations:
        centres = c.copy()
        centres[1] = c[0] + sep * direction
        out.append((f"{SWEEP}{sep:g}", {**base, "centres": centres.tolist()}))
    return out


def _design(p: Params) -> pd.DataFrame:
    """The 3 Gaussians' geometry: the distance between the two small clouds (the first
    two) and the smaller of their distances to the third, in cloud sds."""
    c = np.asarray(p.gaussians.centres, dtype=np.float64)
    small = float(np.linalg.norm(c[0] - c[1]))
    to_big = float(min(np.linalg.norm(c[0] - c[2]), np.linalg.norm(c[1] - c[2])))
    return pd.DataFrame([{"small_apart": small, "small_to_big": to_big,
                          "small_apart_in_sd": small / max(p.gaussians.sds[:2])}])


def _plot_sweep(sweep: pd.DataFrame, path: Path) -> Path:
    """Each criterion's median choice against the small clouds' separation, the criteria
    side by side at each separation (every k on its integer tick)."""
    sweep = sweep.sort_values("separation")
    fig, axes = plotting.figure(1, 1, width=5.5, height=3.4)
    ax = axes[0, 0]
    offsets, _ = plotting.dodge(sweep["separation"], len(lange2002.CRITERIA))
    for c, off in zip(lange2002.CRITERIA, offsets, strict=True):
        (line,) = ax.step(sweep["separation"] + off, sweep[c], where="mid", lw=0.8,
                          alpha=0.5)
        ax.plot(sweep["separation"] + off, sweep[c], ls="none", marker="o", ms=4,
                color=line.get_color(), label=lange2002.LABELS[c])
    ax.axhline(3, color="#999999", ls="--", lw=0.8, label="3 clouds")
    ax.set_xlabel("distance between the two small clouds (sd 0.5 each)")
    ax.set_ylabel("selected k (median over runs)")
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.set_title("3 Gaussians: the small clouds moved apart", fontsize=9)
    plotting.legend_beside(ax, fontsize=7, title="at each distance,\nleft to right:",
                           title_fontsize=7)
    return plotting.save(fig, path)


experiment = StabilityToy()
