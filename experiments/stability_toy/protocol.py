"""What ``stability_toy`` computes: its parameters, its tasks and the rows of one task — the
code its code version holds (nothing here imports its tables, its figures or the show
layer)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from experiments import _lange2002 as lange2002
from mtc_cli.core.datasets import toy
from mtc_cli.core.errors import MtcError
from mtc_cli.run.experiment import Experiment, check_memory
from mtc_cli.run.params import param

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


class StabilityToyProtocol(Experiment):
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
