"""What an entry of the catalog is (:mod:`mtc_cli.selection.catalog`): an :class:`Algorithm`
(what its k counts, the model that fits it, its flags), a :class:`Criterion` (which algorithms
it applies to, the rows it computes, how it chooses k from them) and a :class:`Gate` (a test
of k = 1, "no group structure", that the answer weighs against the algorithms' k).

A criterion's rows are computed inside a task of its *family* — ``split`` (random halves X¹,
X² of the objects, both fitted for every k), ``full`` (one fit of all objects for every k),
``gap`` and ``clest`` (reference data sets), ``bicross`` (row/column permutations) — which
holds the work every criterion of the task shares (:mod:`mtc_cli.selection.tasks`). Its
:class:`Hooks` add its rows: ``prepare`` once before the k loop, ``at_k`` for each k of the
range, ``finish`` once after it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field

#: what an algorithm's solution is: object-wise costs (MTC and the capacity apply), labels
#: only, a rank (truncated SVD) or Boolean roles
KINDS = ("costs", "labels", "rank", "roles")
#: the kinds that cluster the objects
CLUSTERING_KINDS = ("costs", "labels")


@dataclass(frozen=True)
class Algorithm:
    """An algorithm of ``mtc select``: ``counts`` what its k counts; ``kind`` of
    :data:`KINDS`; ``model`` the class of its fitted model (``"module:Class"``, imported when
    first built; None for ranks and roles, which their tasks compute directly), made by
    :meth:`build` from ``fixed`` keyword arguments and the Settings fields named in
    ``options``; ``shape_free``: it finds groups of any shape (only the stability votes,
    Lange et al. 2002, Sect. 4); ``auto``: its place in the roster ``--model auto`` compares
    (None: not among them); ``likelihood``: its model has a likelihood (BIC, AIC);
    ``metric`` of its dissimilarities; ``sparse``: it takes a sparse matrix; ``n_init``: its
    restarts by default (None: not restarted); ``k_hi``: the largest k offered by default;
    ``transfer_cost``: MTC's transfer cost for it, in words."""

    name: str
    counts: str
    kind: str
    model: str | type | None = None
    options: tuple[str, ...] = ()
    fixed: dict = field(default_factory=dict)
    shape_free: bool = False
    auto: int | None = None
    likelihood: bool = False
    metric: str = "euclidean"
    sparse: bool = False
    n_init: int | None = None
    k_hi: int = 10
    transfer_cost: str = ""

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"algorithm {self.name}: kind must be one of {KINDS}, "
                             f"got {self.kind!r}")

    @property
    def clusters(self) -> bool:
        return self.kind in CLUSTERING_KINDS

    def model_class(self) -> type:
        if not isinstance(self.model, str):
            return self.model
        module, _, name = self.model.partition(":")
        return getattr(importlib.import_module(module), name)

    def build(self, settings):
        """The fitted model's object with this selection's ``settings``."""
        return self.make(**{o: getattr(settings, o) for o in self.options})

    def make(self, **options):
        """The fitted model's object with those of ``options`` it takes (the others at its
        class's defaults)."""
        return self.model_class()(**self.fixed,
                                  **{o: options[o] for o in self.options if o in options})

    def check(self, X, name: str) -> None:
        """The model's own check of the data before any fit (its class's ``check_data``,
        where it has one), one line naming ``name``."""
        check = getattr(self.model_class(), "check_data", None) if self.model else None
        if check is not None:
            check(X, name)

    @property
    def predictors(self) -> tuple[str, str]:
        """How a solution is transferred to new objects: (for the stability, Lange et al.
        2002; for the prediction strength, Tibshirani & Walther 2005), as the model class
        says (its ``predictor`` and ``strength_predictor``)."""
        cls = self.model_class()
        return cls.predictor, cls.strength_predictor


@dataclass(frozen=True)
class Hooks:
    """How a criterion adds its rows to a task of one family: ``prepare(ctx)`` before the
    loop over k, ``at_k(ctx, k)`` for each k, ``finish(ctx)`` after it; each returns a list
    of rows (dicts with ``criterion``, ``k``, ``score``, …) and may set up what its later
    hooks read on ``ctx``. The context is the family's (:mod:`mtc_cli.selection.tasks`)."""

    prepare: Callable | None = None
    at_k: Callable | None = None
    finish: Callable | None = None


@dataclass(frozen=True)
class Criterion:
    """A criterion of ``mtc select``.

    ``applies(algorithm) -> bool``: the algorithms it applies to; ``k_min``: the smallest k
    where it is defined; ``family``: the task that computes it (``also``: other families that
    compute part of its rows, as the fit on all objects computes the gap statistic's log W_k
    of the data); ``hooks``: family → :class:`Hooks`; ``rows``: the name its rows carry
    (criteria that read one curve with different rules share it, as the gap statistic's
    three); ``reader``: how it chooses k from its rows (:mod:`mtc_cli.selection.readers`);
    ``optimises`` in words (``describe`` per algorithm, where it depends on the model, as
    MTC's transfer cost); ``source``: its paper; ``reads``: the Settings fields its hooks
    read (beyond those of its family's task: they join the task's key);
    ``needs_train_labels``: PAC-MDL's training labels."""

    name: str
    applies: Callable
    k_min: int
    family: str
    hooks: dict
    reader: object
    optimises: str
    source: str
    rows: str = ""
    also: tuple[str, ...] = ()
    reads: tuple[str, ...] = ()
    needs_train_labels: bool = False
    describe_for: Callable | None = None

    def __post_init__(self):
        if not self.rows:
            object.__setattr__(self, "rows", self.name)

    def describe(self, model: str) -> str:
        """What the criterion optimises for ``model``."""
        return self.describe_for(model) if self.describe_for is not None else self.optimises

    @property
    def better(self) -> str:
        """``"low"`` or ``"high"``: which way its curve is better (the figure's 1)."""
        return self.reader.better


@dataclass(frozen=True)
class Gate:
    """A test of k = 1, "no group structure", that the answer weighs against the k the
    algorithms found: ``measure(ctx, k, param, model)`` what it measures of the data (``ctx``:
    the data and the choices and curves of the algorithm it reads,
    :class:`mtc_cli.selection.measuring.Measuring`; ``model``: the algorithm that answers),
    ``judge(statistic, k, param)`` its verdict at k̂ = ``k`` as an
    :class:`~mtc_cli.core.criteria.one_group.Evidence`, ``words(evidence, model)`` that
    verdict in words; ``asks`` what it tests, ``source`` its paper; ``param`` its default
    parameter (a level where ``param_is_level``: the answer rule's ``k1_level`` replaces
    it); ``at_k``: what it measures depends on k̂ (else it is measured once); ``per_model``:
    on the answering algorithm."""

    name: str
    measure: Callable
    judge: Callable
    words: Callable
    asks: str
    source: str
    param: float | None = None
    param_is_level: bool = False
    at_k: bool = False
    per_model: bool = False
