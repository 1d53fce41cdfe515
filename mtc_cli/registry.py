"""Find experiments by name: the modules of the ``experiments`` package, or any
importable ``package.module`` of the user's that exposes an ``experiment`` object."""

from __future__ import annotations

import difflib
import importlib
import pkgutil

from mtc_cli.errors import MtcError


def experiment_names() -> list[str]:
    """Names of the experiments shipped in the ``experiments`` package."""
    import experiments

    return sorted(m.name for m in pkgutil.iter_modules(experiments.__path__))


def get_experiment(name: str):
    """The experiment object named ``name`` (a shipped name or a dotted module path)."""
    shipped = experiment_names()
    module_name = f"experiments.{name}" if name in shipped else name
    if name not in shipped and "." not in name:
        near = difflib.get_close_matches(name, shipped, n=1, cutoff=0.5)
        hint = f" (did you mean '{near[0]}'?)" if near else ""
        raise MtcError(f"unknown experiment '{name}'{hint}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise MtcError(f"cannot import experiment module '{module_name}': {exc}") from None
    exp = getattr(module, "experiment", None)
    if exp is None:
        raise MtcError(f"module '{module_name}' has no 'experiment' object")
    return exp
