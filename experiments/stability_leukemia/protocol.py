"""What ``stability_leukemia`` computes: its parameters, its tasks and the rows of one task
— the code its code version holds (nothing here imports its tables, its figures or the show
layer)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from experiments import _lange2002 as lange2002
from mtc_cli.core.datasets import golub, user_data
from mtc_cli.core.errors import MtcError
from mtc_cli.core.files import file_sha256
from mtc_cli.run.experiment import Experiment
from mtc_cli.run.params import PROJECT_ROOT, param, to_plain

GOLUB = "golub"


@dataclass(frozen=True)
class Table:
    path: Path | None = param(None, help="a table of objects × features (CSV/TSV, NPY/NPZ; "
                                         "see mtc select)")
    label_column: str | None = param(None, help="column of known labels (CSV: its name; NPY: "
                                                "its index), used only for the agreement")


@dataclass(frozen=True)
class Params:
    golub: Path = param(PROJECT_ROOT / "data" / "golub_leukemia",
                        help="folder of the Golub et al. files (used unless 'dataset' is set)")
    dataset: Table | None = param(None, help="a user's own table instead of the Golub data")
    standardise: bool = param(True, help="standardise each sample (row) across features")
    n_features: int | None = param(100, help="keep the features of highest variance "
                                             "(null: all)", min=1)
    clusterers: list[str] = param(["kmeans"], help="clusterers: kmeans, pathbased",
                                  choices=["kmeans", "pathbased"])
    runs: int = param(5, help="independent runs (new splits and reference sets)", min=1)
    criteria: lange2002.Criteria = param(lange2002.Criteria(),
                                           help="stability and baseline settings")


def source(p: Params) -> dict:
    """What the data matrix depends on (file names and digests, preprocessing)."""
    prep = {"standardise": p.standardise, "n_features": p.n_features}
    if p.dataset is not None:
        path = Path(p.dataset.path)
        return {"dataset": path.name.split(".")[0], "file": str(to_plain(path)),
                "sha256": _sha256(path), "label_column": p.dataset.label_column, **prep}
    folder = Path(p.golub)
    files = [*golub.FILES, golub.LABELS]
    return {"dataset": GOLUB, "folder": str(to_plain(folder)),
            "sha256": [_sha256(folder / f) for f in files], **prep}


def _sha256(path: Path) -> str:
    path = Path(path)
    if not path.is_file():
        raise MtcError(f"{path}: data file not found")
    return file_sha256(path)


def _resolve(path: str) -> Path:
    p = Path(path)
    return p if p.is_absolute() else PROJECT_ROOT / p


@lru_cache(maxsize=4)
def _data(key: tuple) -> tuple[np.ndarray, dict]:
    """The preprocessed matrix and the known labellings of a :func:`source` (as a
    tuple of items, for the cache)."""
    s = dict(key)
    if "folder" in s:
        g = golub.load(_resolve(s["folder"]))
        X, _ = golub.dudoit_filter(g.X)
        references = {"subtype": g.subtype, "all_aml": g.all_aml}
    else:
        data = user_data.load(_resolve(s["file"]), label_column=s["label_column"])
        if data.kind == "sparse":
            raise MtcError(f"{data.source}: a sparse matrix; this experiment needs a dense "
                           "table")
        X, labels = data.X, data.labels
        references = {} if labels is None else {"labels": labels}
    if s["standardise"]:
        X = golub.standardise_samples(X)
    if s["n_features"] is not None and s["n_features"] < X.shape[1]:
        X = X[:, golub.top_variance(X, s["n_features"])]
    return X, references


def _key(s: dict) -> tuple:
    return tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in s.items())


class StabilityLeukemiaProtocol(Experiment):
    name = "stability_leukemia"
    description = "Lange et al. 2002 Fig. 2 / Table 1 — Golub leukemia: stability vs baselines"
    Params = Params
    condition = ("dataset", "clusterer")
    select = {c: "min" for c in lange2002.CRITERIA}

    def check(self, p: Params) -> None:
        if p.dataset is not None and p.dataset.path is None:
            raise MtcError("key 'dataset.path': a table file is required when 'dataset' is set")
        X, _ = _data(_key(source(p)))
        if len(X) < 2 * p.criteria.k_max:
            raise MtcError(f"key 'criteria.k_max': {p.criteria.k_max} is too large for "
                           f"{len(X)} objects (each half needs ≥ k_max)")

    def tasks(self, p: Params) -> list[dict]:
        s = source(p)
        return [{"source": s, "clusterer": c, "run": r, "criteria": asdict(p.criteria)}
                for c in p.clusterers for r in range(p.runs)]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        X, references = _data(_key(task["source"]))
        c = lange2002.Criteria(**task["criteria"])
        base = {"dataset": task["source"]["dataset"], "clusterer": task["clusterer"],
                "rep": task["run"]}
        rows = lange2002.evaluate(X, task["clusterer"], c, rng)
        rows += lange2002.agreement_rows(X, task["clusterer"], c, references, rng)
        return [{**base, **r} for r in rows]

    def paper_targets(self, p: Params) -> bool:
        """Lange et al.'s Golub claims apply to the Golub data only, not to a user's table."""
        return p.dataset is None
