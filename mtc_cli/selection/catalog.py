"""The catalog of ``mtc select``: every algorithm, criterion and test of k = 1, each registered
once by its definition (:mod:`mtc_cli.selection.algorithms`, :mod:`mtc_cli.selection.criteria`)
— or by a plugin of yours with :func:`register_algorithm`, :func:`register_criterion` and
:func:`register_gate` — and every list the product reads derived from them: the command
line's ``--model`` and ``--criteria`` choices, which criteria apply to an algorithm, the
algorithms ``--model auto`` compares, the README's table.

Adding a criterion: a :class:`~mtc_cli.selection.spec.Criterion` with the hooks that add its
rows to the tasks of its family, its reader (how it chooses k) and its paper, then
``register_criterion``; adding an algorithm: a model class with ``fit_all``, ``predict_all``
and ``strength_predict_all`` (:mod:`mtc_cli.selection.fitting`) and an
:class:`~mtc_cli.selection.spec.Algorithm`, then ``register_algorithm``
(docs/architecture.md shows one of each).
"""

from __future__ import annotations

from contextlib import contextmanager

from mtc_cli.selection.algorithms import BUILTIN as BUILTIN_ALGORITHMS
from mtc_cli.selection.criteria import BUILTIN as BUILTIN_CRITERIA
from mtc_cli.selection.gates import GATES as BUILTIN_GATES
from mtc_cli.selection.spec import Algorithm, Criterion, Gate

#: name → algorithm, in the order of the output
ALGORITHMS: dict[str, Algorithm] = {}
#: name → criterion, in the order of the output
CRITERIA: dict[str, Criterion] = {}
#: name → test of k = 1
GATES: dict[str, Gate] = {}
#: name → what its k counts (``mtc_cli.selection.MODELS``)
MODELS: dict[str, str] = {}


def register_algorithm(algorithm: Algorithm) -> Algorithm:
    """Add ``algorithm`` to the catalog (a name taken is refused)."""
    if algorithm.name in ALGORITHMS or algorithm.name == "auto":
        raise ValueError(f"an algorithm named {algorithm.name!r} is already in the catalog")
    ALGORITHMS[algorithm.name] = algorithm
    MODELS[algorithm.name] = algorithm.counts
    return algorithm


def register_criterion(criterion: Criterion) -> Criterion:
    """Add ``criterion`` to the catalog (a name taken is refused)."""
    if criterion.name in CRITERIA:
        raise ValueError(f"a criterion named {criterion.name!r} is already in the catalog")
    CRITERIA[criterion.name] = criterion
    return criterion


def register_gate(gate: Gate) -> Gate:
    """Add the test of k = 1 ``gate`` to the catalog (a name taken is refused)."""
    if gate.name in GATES:
        raise ValueError(f"a test of k = 1 named {gate.name!r} is already in the catalog")
    GATES[gate.name] = gate
    return gate


@contextmanager
def extended(*entries):
    """The catalog with ``entries`` (algorithms, criteria, tests of k = 1) registered for the
    duration of a ``with`` block (a plugin registers for good; a test for its own run)."""
    tables = {Algorithm: (ALGORITHMS, register_algorithm), Criterion: (CRITERIA,
                                                                       register_criterion),
              Gate: (GATES, register_gate)}
    added = []
    try:
        for entry in entries:
            table, register = tables[type(entry)]
            register(entry)
            added.append((table, entry.name))
        yield
    finally:
        for table, name in reversed(added):
            del table[name]
            if table is ALGORITHMS:
                del MODELS[name]


for _a in BUILTIN_ALGORITHMS:
    register_algorithm(_a)
for _c in BUILTIN_CRITERIA:
    register_criterion(_c)
for _g in BUILTIN_GATES:
    register_gate(_g)


def model_choices() -> list[str]:
    """What ``--model`` takes: every algorithm, and ``auto``."""
    return [*ALGORITHMS, "auto"]


def criterion_choices() -> list[str]:
    return list(CRITERIA)


def models_of(criterion: str) -> tuple[str, ...]:
    """The algorithms ``criterion`` applies to."""
    c = CRITERIA[criterion]
    return tuple(a.name for a in ALGORITHMS.values() if c.applies(a))


def applies(criterion: str, model: str) -> bool:
    return CRITERIA[criterion].applies(ALGORITHMS[model])


def applicable(model: str, *, train_labels: bool = False) -> list[str]:
    """Every criterion that applies to ``model`` (PAC-MDL only with training labels)."""
    a = ALGORITHMS[model]
    return [c.name for c in CRITERIA.values() if c.applies(a)
            and (train_labels or not c.needs_train_labels)]


def clustering() -> tuple[str, ...]:
    """The algorithms that cluster the objects."""
    return tuple(a.name for a in ALGORITHMS.values() if a.clusters)


def auto_models() -> tuple[str, ...]:
    """The algorithms ``--model auto`` compares, in the order of its roster."""
    ranked = sorted((a for a in ALGORITHMS.values() if a.auto is not None),
                    key=lambda a: a.auto)
    return tuple(a.name for a in ranked)


def markdown_table() -> str:
    """The README's table of criteria × algorithms, with where each is defined and how it
    chooses (``tests/test_readme.py`` checks that the README holds this table), MTC's
    transfer cost per algorithm and the predictors."""
    names = list(ALGORITHMS)
    head = ("| criterion | " + " | ".join(names) + " | defined for | chooses | reference |\n"
            "|---|" + "---|" * (len(names) + 3))
    rows = []
    for c in CRITERIA.values():
        marks = " | ".join("✓" if c.applies(ALGORITHMS[m]) else "" for m in names)
        how = "see the MTC table" if c.name == "mtc" else c.optimises
        if c.needs_train_labels:
            how += " (needs `--train-labels`)"
        rows.append(f"| `{c.name}` | {marks} | k ≥ {c.k_min} | {how} | {c.source} |")
    mtc = "\n".join(f"| `{a.name}` | {a.counts} | {a.transfer_cost} |"
                    for a in ALGORITHMS.values() if CRITERIA["mtc"].applies(a))
    predictors = "\n".join(f"| `{a.name}` | {a.predictors[0]} | {a.predictors[1]} |"
                           for a in ALGORITHMS.values() if a.clusters)
    return ("\n".join([head, *rows]) + "\n\nMTC's transfer cost per model:\n\n"
            "| model | k counts | `mtc` chooses |\n|---|---|---|\n" + mtc
            + "\n\nThe predictor that transfers a solution to new objects:\n\n"
            "| model | stability | prediction strength |\n|---|---|---|\n" + predictors)
