"""What a selection computes (:class:`Settings`), checked against the data it runs on.

:func:`make_settings` is the one validation of a selection, shared by ``mtc select``, the
``select`` experiment's config and :class:`~mtc_cli.selection.estimator.OrderSelector`:
the model against the kind of data, the k range against the number of objects, the
criteria against the model and the range. Errors are :class:`~mtc_cli.core.errors.MtcError`
lines naming the key and the value.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mtc_cli.core.errors import MtcError
from mtc_cli.selection.catalog import CRITERIA, LABEL_CLUSTERING, applicable

#: the fewest objects a selection runs on: two in each random half
MIN_OBJECTS = 4
#: the largest k offered by default (svd: every rank up to this many)
DEFAULT_K_HI = {"gmm": 10, "kmeans": 10, "spkmeans": 10, "boolean": 10, "svd": 100,
                **dict.fromkeys(LABEL_CLUSTERING, 10)}
#: restarts of every fit a criterion reads (k-means++ starts for k-means, EM runs for GMMs,
#: the best objective kept), by model — the default of every entry point (``mtc select``,
#: the select experiment, ``OrderSelector``, the league). Chosen on 20 data sets of the
#: league's suite for n_init ∈ {1, 3, 5, 10} (``tests/benchmarks/bench_restarts.py``,
#: ``results/benchmarks/restarts.csv``) as the smallest n_init whose vote and summed hits of
#: all criteria are within one data set of every larger n_init's: k-means 3 (summed hits
#: 93 → 97, vote 15 → 16, at 1.37× the time), GMM 1 (restarts did not help: summed hits 109,
#: 97, 98, 90). Spherical k-means was not measured and keeps 1.
N_INIT = {"kmeans": 3, "gmm": 1, "spkmeans": 1}


@dataclass(frozen=True)
class Settings:
    """What a selection computes; every field is a config key of the ``select`` experiment."""

    model: str
    k_lo: int
    k_hi: int
    criteria: tuple[str, ...]
    splits: int = 10
    references: int = 10
    clest_references: int = 5
    clest_splits: int = 5
    n_init: int = 1
    covariance_type: str = "full"
    max_items: int = 2000
    n_random: int = 20
    ps_threshold: float = 0.8
    train_fraction: float = 0.5
    holdout: float = 0.5
    permutations: int = 20
    max_assignments: int = 2
    coverage: float = 0.8
    increment_tol: float = 0.001
    beta_factor: float = 0.75
    hdbscan_min_cluster_size: int = 10

    def ks(self, criterion: str) -> list[int]:
        """The k of the range at which ``criterion`` is defined."""
        return list(range(max(self.k_lo, CRITERIA[criterion].k_min), self.k_hi + 1))


def parse_range(text: str) -> tuple[int, int]:
    """``"LO..HI"`` → (LO, HI); a single ``"K"`` → (1, K), every k up to K."""
    lo, sep, hi = str(text).strip().partition("..")
    try:
        lo_i, hi_i = (int(lo), int(hi)) if sep else (1, int(lo))
    except ValueError:
        raise MtcError(f"key 'k': expected a range LO..HI such as 1..10, got {text!r}") from None
    if not 1 <= lo_i <= hi_i:
        raise MtcError(f"key 'k': expected 1 ≤ LO ≤ HI, got {text!r}")
    return lo_i, hi_i


def default_range(model: str, n: int, d: int) -> tuple[int, int]:
    """1..10 for clustering and roles, every rank up to 100 for svd — at most half the
    objects (each random half must hold the largest k) and, for svd, the columns."""
    hi = min(DEFAULT_K_HI[model], max(1, n // 2))
    return 1, min(hi, d) if model == "svd" else hi


def make_settings(model: str, k_range: tuple[int, int] | None, criteria, *, n: int, d: int,
                  train_labels=None, **options) -> Settings:
    """The validated :class:`Settings` of a selection on n objects × d features.
    ``criteria`` None: every criterion that applies to the model and is defined on the
    range (PAC-MDL only with ``train_labels``); ``options``: the other Settings fields
    (``n_init`` None or left out: the model's default, :data:`N_INIT`)."""
    if options.get("n_init") is None:
        options["n_init"] = N_INIT.get(model, 1)
    if options.get("hdbscan_min_cluster_size") is None:
        from mtc_cli.selection.answer import shipped

        options["hdbscan_min_cluster_size"] = int(shipped()["hdbscan_min_cluster_size"])
    if n < MIN_OBJECTS:
        raise MtcError(f"the data hold {n} objects: a selection needs at least {MIN_OBJECTS} "
                       "(each random half holds two or more)")
    half = n // 2
    lo, hi = default_range(model, n, d) if k_range is None else k_range
    if not 1 <= lo <= hi:
        raise MtcError(f"key 'k': expected 1 ≤ LO ≤ HI, got {lo}..{hi}")
    if lo == hi:
        raise MtcError(f"key 'k': the range {lo}..{hi} offers one k, there is nothing to "
                       f"choose; give a range such as 1..{max(hi, 2)}")
    if hi > half:
        raise MtcError(f"key 'k': k = {hi} exceeds the {half} objects of each random half "
                       f"(n = {n}); offer at most {max(1, half)}")
    if model == "svd" and hi > d:
        raise MtcError(f"key 'k': rank {hi} exceeds the {d} columns of the data")
    has_train = train_labels is not None
    if criteria is None:
        chosen = [c for c in applicable(model, train_labels=has_train)
                  if hi >= CRITERIA[c].k_min]
    else:
        chosen = list(dict.fromkeys(criteria))
        for c in chosen:
            if c not in CRITERIA:
                raise MtcError(f"key 'criteria': unknown criterion {c!r} (for {model}: "
                               f"{', '.join(applicable(model, train_labels=True))})")
            if model not in CRITERIA[c].models:
                raise MtcError(f"key 'criteria': {c} does not apply to model {model} (it "
                               f"does to: {', '.join(applicable(model, train_labels=True))})")
            if hi < CRITERIA[c].k_min:
                raise MtcError(f"key 'criteria': {c} is defined for k ≥ {CRITERIA[c].k_min}, "
                               f"outside the range {lo}..{hi}")
    if "pac_mdl" in chosen:
        if not has_train:
            raise MtcError("key 'criteria': pac_mdl needs training labels (train_labels)")
        if len({v for v in train_labels if v is not None}) < 2:
            raise MtcError("key 'train_labels': fewer than 2 distinct training labels")
    if not chosen:
        raise MtcError(f"key 'criteria': no criterion is defined on k = {lo}..{hi}")
    if model == "gmm":
        _check_gmm_memory(hi, d, options.get("covariance_type", "full"))
    return Settings(model=model, k_lo=lo, k_hi=hi, criteria=tuple(chosen), **options)


def _check_gmm_memory(k: int, d: int, covariance_type: str) -> None:
    """Refuse, before any fit, a GMM whose k covariance matrices of d × d (full, tied and
    spherical are held so: k·d²·8 bytes per fit) exceed this machine's memory; diag keeps
    k·d numbers."""
    from mtc_cli.run.experiment import physical_memory

    need, total = 8 * k * d * d, physical_memory()
    if covariance_type != "diag" and need > total:
        raise MtcError(f"key 'covariance_type': a GMM with {covariance_type} covariances at "
                       f"k = {k} on {d:,} features needs about {need / 2**30:,.0f} GiB per fit "
                       f"(k·d²·8 bytes), this machine has {total / 2**30:.0f} GiB: use "
                       "--set covariance_type=diag, fewer features (--columns, --drop) or "
                       "another --model")


def check_data(X, model: str, name: str) -> None:
    """The data against the model: not every object identical (as the loader refuses them,
    :func:`~mtc_cli.core.datasets.checks.check_not_constant`), two columns or more for a
    rank or roles, dense for all but spherical k-means, 0/1 for roles, no all-zero row for
    the cosine of spherical k-means, values whose squared distances neither overflow nor
    underflow, and for GMMs variances at a scale their regularisation fits."""
    import scipy.sparse as sp

    from mtc_cli.core.datasets.checks import check_not_constant

    check_not_constant(X, name)
    if model in ("svd", "boolean") and X.shape[1] < 2:
        what = "rank" if model == "svd" else "number of roles"
        raise MtcError(f"{name}: one column: its {what} is 1, there is nothing to select; to "
                       "group the objects by it, use the model kmeans or gmm")
    if sp.issparse(X) and model != "spkmeans":
        raise MtcError(f"{name}: a sparse matrix cannot be given to model {model} "
                       "(use model spkmeans)")
    if model == "boolean":
        values = X.data if sp.issparse(X) else X
        if not np.isin(values, (0.0, 1.0)).all():
            raise MtcError(f"{name}: model boolean needs a 0/1 matrix or a user–permission "
                           "list")
    if not sp.issparse(X) and model != "boolean":
        _check_scale(np.asarray(X, dtype=np.float64), name)
    if model == "gmm":
        _check_gmm_scale(np.asarray(X, dtype=np.float64), name)
    if model == "spkmeans":
        norms = np.asarray(abs(X).sum(axis=1)).ravel()
        empty = np.flatnonzero(norms == 0)
        if len(empty):
            raise MtcError(f"{name}: {len(empty)} all-zero rows (first: row {empty[0] + 1}) "
                           "have no direction for spherical k-means")


RESCALE = "rescale the features, e.g. with --standardize (standardize: true in a config)"


def _check_scale(X: np.ndarray, name: str) -> None:
    """Refuse values whose squared deviations from the mean overflow to inf or underflow to
    0 while the values differ: every criterion computes squared distances."""
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        dev = X - X.mean(axis=0)
        sq = np.einsum("ij,ij->i", dev, dev)
    if not np.isfinite(sq).all():
        raise MtcError(f"{name}: values up to {np.nanmax(np.abs(X)):.3g} overflow the squared "
                       f"distances every criterion computes; {RESCALE}")
    lost = (sq == 0) & (dev != 0).any(axis=1)
    if lost.any():
        raise MtcError(f"{name}: values as small as {np.abs(dev[lost]).max():.3g} apart "
                       "underflow to 0 in the squared distances every criterion computes; "
                       f"{RESCALE}")


def _check_gmm_scale(X: np.ndarray, name: str) -> None:
    """EM adds :data:`~mtc_cli.core.models.gmm.REG_COVAR` to every variance. Refuse features whose
    variance loses it in rounding (a component on fewer points than dimensions then cannot be
    fitted: scikit-learn's error at values of 10⁶) or that it would swamp (every variance
    below 100 × REG_COVAR: the components blur into one, k = 1 at values of 10⁻⁵)."""
    from mtc_cli.core.models.gmm import REG_COVAR

    top = float(X.var(axis=0).max())
    if top * np.finfo(np.float64).eps > REG_COVAR:
        raise MtcError(f"{name}: feature variances up to {top:.3g} lose the GMM's covariance "
                       f"regularisation ({REG_COVAR:g}) in rounding, and a component on few "
                       f"points cannot be fitted; {RESCALE}")
    if top < 100 * REG_COVAR:
        raise MtcError(f"{name}: feature variances of at most {top:.3g} are swamped by the "
                       f"GMM's covariance regularisation ({REG_COVAR:g}); {RESCALE}")
