"""What ``select`` computes: its parameters, its tasks and the rows of one task — the code
its code version holds (nothing here imports its tables, its figures or the show layer)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from mtc_cli.core.datasets.formats import FORMATS
from mtc_cli.core.errors import MtcError, not_found, not_regular
from mtc_cli.core.files import file_sha256
from mtc_cli.core.models.gmm import COVARIANCE_TYPES
from mtc_cli.run.experiment import Experiment
from mtc_cli.run.params import param
from mtc_cli.run.tasking import LOCATION
from mtc_cli.selection import answer, engine
from mtc_cli.selection.catalog import AUTO_MODELS, CRITERIA, MODELS
from mtc_cli.selection.settings import Settings, check_data, make_settings, parse_range

#: the model a kind of input counts by default; a table's is the answer's default, chosen
#: on the league of families (:func:`mtc_cli.selection.answer.shipped`)
DEFAULT_MODEL = {"sparse": "spkmeans", "image": "svd", "boolean": "boolean"}
#: the largest matrix (n × d numbers) whose selection runs on threads of the main process
#: rather than in worker processes: measured, tests/benchmarks/bench_select.py
THREADS_UP_TO = 2_000_000
#: Params keys passed on to :class:`~mtc_cli.selection.settings.Settings` as they are
OPTIONS = ("splits", "references", "clest_references", "clest_splits", "n_init",
           "covariance_type", "max_items", "n_random", "ps_threshold", "train_fraction",
           "holdout", "permutations", "max_assignments", "coverage", "increment_tol",
           "beta_factor", "hdbscan_min_cluster_size")


@dataclass(frozen=True)
class Params:
    data: Path | None = param(None, help="the data file: CSV/TSV, NPY/NPZ, Matrix Market "
                                         ".mtx, an image, or a user–permission list")
    format: str | None = param(None, help="file format (default: from the suffix)",
                               choices=list(FORMATS))
    label_column: str | None = param(None, help="column of known labels: the true k is "
                                                "reported beside every choice, never used")
    train_labels: str | None = param(None, help="column of training labels for the PAC-MDL "
                                                "bound (empty cells: unlabelled objects)")
    columns: list[str] | None = param(None, help="feature columns to keep (default: all)")
    drop: list[str] = param([], help="feature columns to leave out")
    header: bool | None = param(None, help="CSV/TSV header row (default: detected)")
    sep: str | None = param(None, help="CSV/TSV field separator, one character or \\t "
                                       "(default: comma for CSV, tab for TSV)")
    dropna: bool = param(False, help="drop rows with missing or non-finite values")
    standardize: bool = param(False, help="z-score every feature column first")
    patch: int = param(8, help="images: side of the square patches (rows of X)", min=1)
    max_pixels: int = param(50_000_000, help="images: largest number of pixels read", min=1)
    tfidf: bool = param(True, help="spkmeans: tf-idf weighting of the counts before the "
                                   "rows are L2-normalised")
    model: str | None = param(None, help="what k counts (default: the league's answer, auto, "
                                         "for tables; spkmeans for .mtx, svd for images, "
                                         "boolean for 0/1 data); "
                                         "auto: the clustering algorithm of lowest "
                                         "normalised stability and its k",
                              choices=[*MODELS, "auto"])
    k: str | None = param(None, help="range of k, LO..HI, or K for 1..K (default 1..10; "
                                     "svd: every rank up to 100)")
    criteria: list[str] | None = param(None, help="criteria to compute (default: all that "
                                                  "apply to the model)",
                                       choices=list(CRITERIA))
    splits: int = param(10, help="random splits into halves (MTC, capacity, stability, "
                                 "prediction strength; PAC-MDL train/test splits)", min=1)
    references: int = param(10, help="gap statistic: uniform reference data sets (B)", min=2)
    clest_references: int = param(5, help="Clest: uniform reference data sets", min=1)
    clest_splits: int = param(5, help="Clest: learning/test splits per data set", min=1)
    n_init: int | None = param(None, help="restarts of every k-means and GMM fit, the "
                                          "best objective kept (default: by model, kmeans "
                                          "3, gmm 1, spkmeans 1)", min=1)
    covariance_type: str = param("full", help="gmm: covariance model",
                                 choices=list(COVARIANCE_TYPES))
    max_items: int = param(2000, help="above this many objects, a random sample of this "
                                      "size serves the silhouette (all pairwise distances), "
                                      "the capacity's nearest-neighbour alignment, the gap "
                                      "statistic and Clest (their reference sets)", min=10)
    n_random: int = param(20, help="stability: random labellings per baseline", min=1)
    ps_threshold: float = param(0.8, help="prediction strength threshold", min=0.0, max=1.0)
    train_fraction: float = param(0.5, help="PAC-MDL with every row labelled: the share of "
                                            "labels kept for training", min=0.01, max=0.99)
    holdout: float = param(0.5, help="bi-cross-validation: held-out share of rows and "
                                     "of columns", min=0.01, max=0.99)
    permutations: int = param(20, help="bi-cross-validation: random permutations", min=1)
    max_assignments: int = param(2, help="boolean: most roles of one user (MAC)", min=1)
    coverage: float = param(0.8, help="boolean: Molloy's coverage rule threshold", min=0.0,
                            max=1.0)
    increment_tol: float = param(0.001, help="boolean: Molloy's increment rule threshold",
                                 min=0.0)
    beta_factor: float = param(0.75, help="kmeans/spkmeans MTC: β = factor / R(s¹, X¹, 1)",
                               min=0.0)
    hdbscan_min_cluster_size: int | None = param(None, help="hdbscan_count: HDBSCAN's "
                                                 "min_cluster_size (default: the league's)",
                                                 min=2)


def source(p: Params) -> dict:
    """What the data matrix depends on: the file's digest and every reading option (not
    its location: the same data read the same way gives the same results anywhere)."""
    path = location(p)
    return {"sha256": file_sha256(path), "format": p.format, "label_column": p.label_column,
            "train_labels": p.train_labels, "columns": p.columns, "drop": list(p.drop),
            "header": p.header, "sep": p.sep, "dropna": p.dropna, "standardize": p.standardize,
            "patch": p.patch, "max_pixels": p.max_pixels}


def location(p: Params) -> str:
    """Where the data file is (a task's ``location``, outside its cache key)."""
    if p.data is None:
        raise MtcError("key 'data': a data file is required")
    path = Path(p.data)
    if not path.exists():
        raise MtcError(f"{path}: {not_found(path, 'data file')}")
    why = not_regular(path)
    if why is not None:
        raise MtcError(f"{path}: {why}")
    return str(path.resolve())


def _key(s: dict) -> tuple:
    return tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in sorted(s.items()))


def _data_key(p: Params) -> tuple:
    return _key(source(p)), location(p)


@lru_cache(maxsize=4)
def _read(key: tuple, path: str):
    from mtc_cli.core.datasets import user_data

    s = dict(key)
    return user_data.load(Path(path), format=s["format"], label_column=s["label_column"],
                          train_labels=s["train_labels"],
                          columns=list(s["columns"]) if s["columns"] is not None else None,
                          drop=list(s["drop"]), header=s["header"], sep=s["sep"],
                          dropna=s["dropna"],
                          standardize=s["standardize"], patch=s["patch"],
                          max_pixels=s["max_pixels"])


@lru_cache(maxsize=4)
def _matrix(key: tuple, path: str, model: str, tfidf: bool):
    """The matrix the model sees: tf-idf and unit rows for ``spkmeans``; dense otherwise."""
    X = _read(key, path).X
    if model == "spkmeans":
        import scipy.sparse as sp

        from mtc_cli.selection.fitting import unit_rows

        if tfidf:
            from sklearn.feature_extraction.text import TfidfTransformer

            X = TfidfTransformer(norm=None).fit_transform(sp.csr_matrix(X))
        X = unit_rows(sp.csr_matrix(X) if sp.issparse(X) else X)
    return engine.canonical(X)


@lru_cache(maxsize=4)
def _digest(key: tuple, path: str, model: str, tfidf: bool) -> str:
    """The digest of the matrix the model sees, with the training labels if read
    (:func:`mtc_cli.selection.engine.data_digest`)."""
    train = _read(key, path).train_labels if dict(key)["train_labels"] else None
    return engine.data_digest(_matrix(key, path, model, tfidf), train)


def model_of(p: Params) -> str:
    if p.model:
        return p.model
    kind = _read(*_data_key(p)).kind
    return answer.shipped()["default_model"] if kind == "table" else DEFAULT_MODEL[kind]


def settings(p: Params, model: str | None = None) -> Settings:
    """The selection a config asks for (of ``model``, one algorithm of ``auto``), validated
    against the data."""
    data = _read(*_data_key(p))
    model = model or model_of(p)
    check_data(data.X, model, data.source)
    k_range = None if p.k is None else parse_range(p.k)
    options = {f: getattr(p, f) for f in OPTIONS}
    criteria = p.criteria
    if model_of(p) == "auto" and criteria is not None:  # those that apply, and the stability
        criteria = [c for c in dict.fromkeys([*criteria, "stability"])
                    if model in CRITERIA[c].models]
    return make_settings(model, k_range, criteria, n=data.n_items, d=data.n_features,
                         train_labels=data.train_labels if p.train_labels else None,
                         **options)


def selections(p: Params) -> dict[str, Settings]:
    """model → its :class:`Settings`: one model, or every algorithm of ``auto``
    (:data:`~mtc_cli.selection.catalog.AUTO_MODELS`) that takes the data."""
    if model_of(p) == "auto":
        return auto_selections(p)[0]
    return {model_of(p): settings(p)}


def auto_selections(p: Params) -> tuple[dict[str, Settings], dict[str, str]]:
    """The algorithms of ``auto`` whose data check takes the data, with their
    :class:`Settings`, and why each other one is left out (its refusal, e.g. a GMM on
    variances its regularisation cannot fit); the first refusal if none takes them."""
    apart = [c for c in p.criteria or ()
             if not any(m in CRITERIA[c].models for m in AUTO_MODELS)]
    if apart:
        raise MtcError(f"--criteria: {', '.join(apart)} does not apply to a clustering "
                       f"algorithm, which auto compares (it does to: "
                       f"{', '.join(sorted(CRITERIA[apart[0]].models))}); pick --model")
    taken, left = {}, {}
    for m in AUTO_MODELS:
        try:
            taken[m] = settings(p, m)
        except MtcError as exc:
            left[m] = str(exc)
    if not taken:
        raise MtcError(next(iter(left.values())))
    if p.criteria is None:  # what the answer reads, no more
        tested = next(iter(taken))  # the test of k = 1 reads k-means (answer.gate)
        taken = {m: replace(s, criteria=answer.read_by(m, s.criteria, tested=m == tested))
                 for m, s in taken.items()}
    return taken, left


class SelectProtocol(Experiment):
    name = "select"
    description = "Which k? Every criterion on your own data, side by side, with a vote"
    Params = Params
    condition = ()

    def check(self, p: Params) -> None:
        selections(p)

    def small(self, p: Params) -> bool:
        """At most :data:`THREADS_UP_TO` numbers in the matrix: the tasks run on threads of
        the main process (their fits compiled, the GIL released), not in worker processes."""
        data = _read(*_data_key(p))
        return data.n_items * data.n_features <= THREADS_UP_TO

    def task_bytes(self, p: Params) -> float:
        """The matrix, its halves and a few working copies of it (8 bytes a number), the
        blocks of nearest-neighbour distances, and a GMM's k covariances of d × d."""
        data = _read(*_data_key(p))
        n, d = data.n_items, data.n_features
        k = max(s.k_hi for s in selections(p).values())
        covariances = 8 * k * d * d * 4 if model_of(p) in ("gmm", "auto") else 0
        return 8 * n * d * 6 + 16 * 2**20 + covariances

    def run_name(self, p: Params) -> str:
        """``<data stem>-<model>``: the default run directory's name under results/select/,
        which ``mtc select`` ends with the digest of the options."""
        return f"{Path(p.data).name.split('.')[0]}-{model_of(p)}"

    def paper_targets(self, p: Params) -> bool:
        return False

    def tasks(self, p: Params) -> list[dict]:
        key, path = _data_key(p)
        model = model_of(p)
        # with ``auto``, rows say their model; outside the task's key (as the file's
        # location), so that the tasks are those of each model alone and of OrderSelector
        where = {"path": path, "read": dict(key), "tfidf": p.tfidf,
                 "rows_name_model": model == "auto"}
        return [{**t, LOCATION: where}
                for m, s in selections(p).items()
                for t in engine.tasks(s, _digest(key, path, m, p.tfidf))]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        from mtc_cli.selection.tasks import run_task

        where = task[LOCATION]
        key, path = _key(where["read"]), where["path"]
        if _digest(key, path, task["model"], where["tfidf"]) != task["data"]:
            raise MtcError(f"{path}: the data changed since this run was planned; run the "
                           "command again")
        X = _matrix(key, path, task["model"], where["tfidf"])
        rows = run_task(X, task, rng, train_labels=_read(key, path).train_labels)
        return ([{**r, "model": task["model"]} for r in rows]
                if where.get("rows_name_model") else rows)
