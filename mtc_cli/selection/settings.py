"""What a selection computes for one model (:data:`Settings`), checked against the data it runs
on.

:func:`make_settings` is the one validation of a selection beyond its options' own ranges
(:mod:`mtc_cli.selection.options`), shared by ``mtc select``, the ``select`` experiment's
config and :class:`~mtc_cli.selection.estimator.OrderSelector`: the model against the kind of
data, the k range against the number of objects, the criteria against the model and the
range. Errors are :class:`~mtc_cli.core.errors.MtcError` lines naming the key and the value.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from mtc_cli.core.errors import MtcError
from mtc_cli.selection.catalog import ALGORITHMS, CRITERIA, applicable
from mtc_cli.selection.options import Options

#: the fewest objects a selection runs on: two in each random half
MIN_OBJECTS = 4
#: the options a Settings carries as they are; the model, the k range (``k_lo``, ``k_hi``)
#: and the criteria it holds resolved
CARRIED = tuple(f for f in dataclasses.fields(Options) if f.name not in ("model", "k",
                                                                         "criteria"))


def _ks(self, criterion: str) -> list[int]:
    """The k of the range at which ``criterion`` is defined."""
    return list(range(max(self.k_lo, CRITERIA[criterion].k_min), self.k_hi + 1))


#: What a selection computes for one model: ``model``, the range ``k_lo``..``k_hi``, the
#: ``criteria`` (a tuple) and every other option of :class:`~mtc_cli.selection.options.Options`
#: resolved (``n_init`` and ``hdbscan_min_cluster_size`` at their defaults where not given).
Settings = dataclasses.make_dataclass(
    "Settings",
    [("model", str), ("k_lo", int), ("k_hi", int), ("criteria", tuple),
     *((f.name, f.type, dataclasses.field(default=f.default)) for f in CARRIED)],
    frozen=True, namespace={"ks": _ks, "__module__": __name__,
                            "__doc__": "What a selection computes for one model."})


def edge(settings, distinct: int | None = None) -> float:
    """The largest k of ``settings``' range beyond which a criterion's curve might keep
    improving (a choice there is flagged, and abstains from an edge rule's vote): ``k_hi``,
    or none (inf) where ``k_hi`` is the number of ``distinct`` rows, the most clusters the
    data hold."""
    return np.inf if distinct is not None and settings.k_hi >= distinct else settings.k_hi


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
    """1..10 for clustering and roles, every rank up to 100 for svd (the algorithm's
    ``k_hi``) — at most half the objects (each random half must hold the largest k) and, for
    a rank, the columns."""
    a = ALGORITHMS[model]
    hi = min(a.k_hi, max(1, n // 2))
    return 1, min(hi, d) if a.kind == "rank" else hi


def make_settings(model: str, k_range: tuple[int, int] | None, criteria, *, n: int, d: int,
                  train_labels=None, **options) -> Settings:
    """The validated :data:`Settings` of a selection on n objects × d features.
    ``criteria`` None: every criterion that applies to the model and is defined on the
    range (PAC-MDL only with ``train_labels``); ``options``: the other Settings fields
    (``n_init`` None or left out: the algorithm's default; ``hdbscan_min_cluster_size``:
    the league's, :func:`mtc_cli.selection.shipped.answer_rule`)."""
    algorithm = ALGORITHMS[model]
    if options.get("n_init") is None:
        options["n_init"] = algorithm.n_init or 1
    if options.get("hdbscan_min_cluster_size") is None:
        from mtc_cli.selection.shipped import answer_rule

        options["hdbscan_min_cluster_size"] = int(answer_rule()["hdbscan_min_cluster_size"])
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
    if algorithm.kind == "rank" and hi > d:
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
            if not CRITERIA[c].applies(algorithm):
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
    settings = Settings(model=model, k_lo=lo, k_hi=hi, criteria=tuple(chosen), **options)
    check = getattr(algorithm.model_class(), "check_settings", None) if algorithm.model \
        else None
    if check is not None:
        check(settings, d)
    return settings


def check_data(X, model: str, name: str) -> None:
    """The data against the model: not every object identical (as the loader refuses them,
    :func:`~mtc_cli.core.datasets.checks.check_not_constant`), two columns or more for a
    rank or roles, dense unless the algorithm takes a sparse matrix, 0/1 for roles, values
    whose squared distances neither overflow nor underflow, and the model's own check
    (:meth:`~mtc_cli.selection.spec.Algorithm.check`: a GMM's variances at a scale its
    regularisation fits, a direction for every row of spherical k-means)."""
    import scipy.sparse as sp

    from mtc_cli.core.datasets.checks import check_not_constant

    algorithm = ALGORITHMS[model]
    check_not_constant(X, name)
    if algorithm.kind in ("rank", "roles") and X.shape[1] < 2:
        what = "rank" if algorithm.kind == "rank" else "number of roles"
        raise MtcError(f"{name}: one column: its {what} is 1, there is nothing to select; to "
                       "group the objects by it, use the model kmeans or gmm")
    if sp.issparse(X) and not algorithm.sparse:
        raise MtcError(f"{name}: a sparse matrix cannot be given to model {model} "
                       "(use model spkmeans)")
    if algorithm.kind == "roles":
        values = X.data if sp.issparse(X) else X
        if not np.isin(values, (0.0, 1.0)).all():
            raise MtcError(f"{name}: model boolean needs a 0/1 matrix or a user–permission "
                           "list")
    if not sp.issparse(X) and algorithm.kind != "roles":
        _check_scale(np.asarray(X, dtype=np.float64), name)
    algorithm.check(X, name)


def _check_scale(X: np.ndarray, name: str) -> None:
    """Refuse values whose squared deviations from the mean overflow to inf or underflow to
    0 while the values differ: every criterion computes squared distances."""
    from mtc_cli.core.datasets.checks import RESCALE
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
