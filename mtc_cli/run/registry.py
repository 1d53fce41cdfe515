"""Find experiments by name, without importing anything that was not asked for: the modules
of the ``experiments`` package, the entry points of the group ``mtc.experiments`` (an
installed package of yours declares ``name = "package.module"``), and modules enabled for
one command with ``--plugin MODULE``. A name outside these is refused before any import,
so a config cannot make mtc import (and run the import-time code of) an arbitrary module."""

from __future__ import annotations

import difflib
import importlib
import pkgutil
from types import SimpleNamespace

from mtc_cli.core.errors import MtcError
from mtc_cli.run import declared

GROUP = "mtc.experiments"
_PLUGINS: set[str] = set()


def enable(module: str) -> None:
    """Allow the importable module ``module`` (exposing ``experiment``) as an experiment
    name for this process (``--plugin MODULE``)."""
    _PLUGINS.add(module)


def experiment_names() -> list[str]:
    """Names of the experiments shipped in the ``experiments`` package: its subpackages
    (``experiments/<name>/``: protocol, tables, figures) and modules (a name that starts
    with ``_`` is a protocol shared by several, or its tables or figures, not an
    experiment)."""
    import experiments

    return sorted(m.name for m in pkgutil.iter_modules(experiments.__path__)
                  if not m.name.startswith("_"))


def _entry_points() -> dict[str, str]:
    from importlib.metadata import entry_points

    return {ep.name: ep.value for ep in entry_points(group=GROUP)}


def known_names() -> list[str]:
    """Every experiment name a config may use in this process."""
    return sorted({*experiment_names(), *_entry_points(), *_PLUGINS})


def module_of(name: str) -> str:
    """The module an experiment name stands for; an unknown name is an MtcError (nothing
    is imported to find out)."""
    if not isinstance(name, str) or not name:
        raise MtcError(f"expected an experiment name, got {name!r}")
    if name in experiment_names():
        return f"experiments.{name}"
    points = _entry_points()
    if name in points:
        return points[name].partition(":")[0]
    if name in _PLUGINS:
        return name
    near = difflib.get_close_matches(name, known_names(), n=1, cutoff=0.5)
    hint = f" (did you mean '{near[0]}'?)" if near else ""
    raise MtcError(f"unknown experiment '{name}'{hint}; a module of your own must be enabled "
                   f"with --plugin MODULE or declared in the entry-point group {GROUP}")


def get_experiment(name: str):
    """The experiment object named ``name`` (see :func:`module_of`)."""
    module_name = module_of(name)
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise MtcError(f"cannot import experiment module '{module_name}': {exc}") from None
    exp = getattr(module, "experiment", None)
    if exp is None:
        raise MtcError(f"module '{module_name}' has no 'experiment' object")
    return exp


def description(name: str) -> str:
    """The experiment's one-line description, read from its module's source (the module is
    imported only if the source does not state it as a string)."""
    tree = declared.parse(module_of(name))
    text = None if tree is None else declared.description(tree)
    return text if text is not None else get_experiment(name).description


def declared_experiment(name: str):
    """A stand-in of the shipped experiment ``name`` whose ``Params`` is read from its
    module's source (:func:`mtc_cli.run.declared.params`; a test holds each shipped one to
    checking less than the real one, never more), or None (a module of yours); nothing is
    imported."""
    module = module_of(name)
    tree = declared.parse(module) if name in experiment_names() else None
    params = None if tree is None else declared.params(tree)
    return None if params is None else SimpleNamespace(Params=params)
