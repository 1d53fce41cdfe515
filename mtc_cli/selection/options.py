"""Every option of a selection, declared once — its type, default, range or choices and help
— from which come the ``select`` experiment's config keys (``mtc keys select``), the options of
``mtc select`` (``mtc_cli/cli.py``), the parameters of
:class:`~mtc_cli.selection.estimator.OrderSelector` and the options table of docs/select.md
(:func:`markdown_table`); each is checked by the one check of config keys
(:func:`mtc_cli.run.params.build`) wherever it is given.

- :class:`Options`: what a selection computes — the model, the k range, the criteria and
  their settings. Every entry point takes them.
- :class:`Reading`: how a data file is read — ``mtc select`` and a config (OrderSelector
  takes an array).
- :class:`Run`: how the work runs — the seed and the worker processes.

Imports nothing heavy: the command line builds its options from these at start-up. The
``model`` and ``criteria`` choices are read from the catalog when a value is checked, so
that an algorithm or criterion registered by a plugin is among them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from mtc_cli.core.datasets.formats import FORMATS
from mtc_cli.core.models.covariance_types import COVARIANCE_TYPES
from mtc_cli.run.params import param


def model_choices() -> list[str]:
    from mtc_cli.selection.catalog import model_choices

    return model_choices()


def criterion_choices() -> list[str]:
    from mtc_cli.selection.catalog import criterion_choices

    return criterion_choices()


@dataclass(frozen=True)
class Options:
    """What a selection computes."""

    model: str | None = param(
        None, help="what k counts: an algorithm, or auto — every clustering algorithm, the "
                   "k most of the most stable ones vote (the league's answer rule: "
                   "normalised stability within 0.02 of the lowest; HDBSCAN's own count, "
                   "min_cluster_size 10, breaks a tie between k with as many votes), k = 1 "
                   "only where that vote is 1 (no test of k = 1) (default: auto for tables; "
                   "spkmeans for sparse .mtx, svd for images, boolean for 0/1 data)",
        choices=model_choices)
    k: str | None = param(None, help="range of k, LO..HI, or K for 1..K (default 1..10, svd: "
                                     "every rank up to 100; at most half the objects)",
                          metavar="LO..HI")
    criteria: list[str] | None = param(None, help="criteria to compute (default: all that "
                                                  "apply to the model)",
                                       choices=criterion_choices, metavar="LIST")
    splits: int = param(10, help="random splits into halves (MTC, capacity, stability, "
                                 "prediction strength; PAC-MDL train/test splits)", min=1)
    references: int = param(10, help="gap statistic: uniform reference data sets (B)", min=2)
    clest_references: int = param(5, help="Clest: uniform reference data sets", min=1)
    clest_splits: int = param(5, help="Clest: learning/test splits per data set", min=1)
    n_init: int | None = param(None, help="restarts of every k-means and GMM fit, the "
                                          "best objective kept (default: by model, kmeans "
                                          "3, gmm 1, spkmeans 1)", min=1)
    covariance_type: str = param("full", help="GMM: covariance model",
                                 choices=list(COVARIANCE_TYPES))
    max_items: int = param(2000, help="above this many objects, a random sample of this "
                                      "size serves the silhouette (all pairwise distances), "
                                      "the capacity's nearest-neighbour alignment, the gap "
                                      "statistic and Clest (their reference sets), and the "
                                      "fits of the label-only algorithms", min=10)
    n_random: int = param(20, help="the stability: random labellings per baseline", min=1)
    ps_threshold: float = param(0.8, help="prediction strength threshold", min=0.0, max=1.0)
    train_fraction: float = param(0.5, help="PAC-MDL with every row labelled: the share of "
                                            "labels kept for training", min=0.01, max=0.99)
    holdout: float = param(0.5, help="bi-cross-validation: held-out share of rows and "
                                     "of columns", min=0.01, max=0.99)
    permutations: int = param(20, help="bi-cross-validation: random permutations", min=1)
    max_assignments: int = param(2, help="Boolean roles: the most roles of one user (MAC)", min=1)
    coverage: float = param(0.8, help="Boolean roles: Molloy's coverage rule threshold", min=0.0,
                            max=1.0)
    increment_tol: float = param(0.001, help="Boolean roles: Molloy's increment rule threshold",
                                 min=0.0)
    beta_factor: float = param(0.75, help="k-means and spherical k-means: MTC's β = factor / "
                                          "R(s¹, X¹, 1)", min=0.0)
    hdbscan_min_cluster_size: int | None = param(None, help="HDBSCAN's own count (the criterion "
                                                 "hdbscan_count): its min_cluster_size "
                                                 "(default: the league's)",
                                                 min=2)


@dataclass(frozen=True)
class Reading:
    """How a data file is read."""

    data: Path | None = param(None, help="the data file: CSV/TSV, NPY/NPZ, Matrix Market "
                                         ".mtx, an image, or a user–permission list")
    format: str | None = param(None, help="file format (default: from the suffix)",
                               choices=list(FORMATS))
    label_column: str | None = param(None, help="column of known labels: the true k is "
                                                "reported beside every choice, never used",
                                     metavar="COL")
    train_labels: str | None = param(None, help="column of training labels for the PAC-MDL "
                                                "bound (empty cells: unlabelled objects); "
                                                "the criterion pac_mdl reads them",
                                     metavar="COL")
    columns: list[str] | None = param(None, help="feature columns to keep (default: all)",
                                      metavar="LIST")
    drop: list[str] = param([], help="feature columns to leave out", metavar="LIST")
    header: bool | None = param(None, help="CSV/TSV header row (default: detected)")
    sep: str | None = param(None, help="CSV/TSV field separator, one character or \\t "
                                       "(default: comma for CSV, tab for TSV)", metavar="CHAR")
    dropna: bool = param(False, help="drop rows with missing or non-finite values")
    standardize: bool = param(False, help="z-score every feature column first")
    patch: int = param(8, help="an image: side of the square patches (rows of X)", min=1)
    max_pixels: int = param(50_000_000, help="an image: largest number of pixels read", min=1)
    tfidf: bool = param(True, help="spherical k-means: tf-idf weighting of the counts before the "
                                   "rows are L2-normalised")


@dataclass(frozen=True)
class Run:
    """How the work of a selection runs (not what it computes: the rows are the same)."""

    seed: int = param(0, help="the seed every task's random generator is spawned from (with "
                              "the task and the data): the same seed, data and options give "
                              "the same answer", min=0)
    n_jobs: int = param(1, help="worker processes (-1: every core; at most the cores, the "
                                "tasks and what memory holds)", min=-1)


def option_fields(*classes) -> list[dataclasses.Field]:
    """The fields of the option classes ``classes``, in order."""
    return [f for cls in classes for f in dataclasses.fields(cls)]


def flag(name: str) -> str:
    """The command line's option of the key ``name`` (``label_column`` → ``--label-column``;
    ``data`` is the argument DATA, ``n_jobs`` is ``-j``)."""
    return {"data": "DATA", "n_jobs": "-j"}.get(name, "--" + name.replace("_", "-"))


def markdown_table() -> str:
    """docs/select.md's table of every option: its key in a config and OrderSelector, its
    option of ``mtc select``, default, range or choices, and what it does."""
    from mtc_cli.run.params import keys

    out = ["| key (config, OrderSelector) | `mtc select` | default | range | what it does |",
           "|---|---|---|---|---|"]
    for cls in (Options, Run, Reading):
        for row in keys(cls):
            where = {"seed": "`seed` (OrderSelector: `random_state`)",
                     "n_jobs": "— (OrderSelector: `n_jobs`)"}.get(row["key"], f"`{row['key']}`")
            if cls is Reading:
                where += " (not OrderSelector)"
            span = row["range"] or row["choices"]
            out.append(f"| {where} | `{flag(row['key'])}` | {row['default'] or '—'} | "
                       f"{span} | {row['help']} |")
    return "\n".join(out)
