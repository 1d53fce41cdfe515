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
    """The experiment object named ``name``: a shipped experiment or an importable module."""
    shipped = experiment_names()
    module_name = f"experiments.{name}" if name in shipped else name
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name.split(".")[0] and exc.name != module_name:
            raise MtcError(f"cannot import experiment module '{module_name}': {exc}") from None
        near = difflib.get_close_matches(name, shipped, n=1, cutoff=0.5)
        hint = f" (did you mean '{near[0]}'?)" if near else ""
        raise MtcError(f"unknown experiment '{name}'{hint}") from None
    except ImportError as exc:
        raise MtcError(f"cannot import experiment module '{module_name}': {exc}") from None
    exp = getattr(module, "experiment", None)
    if exp is None:
        raise MtcError(f"module '{module_name}' has no 'experiment' object")
    return exp
