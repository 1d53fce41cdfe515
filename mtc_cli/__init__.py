"""mtc: model-order selection for unsupervised learning, from the papers' equations.

``from mtc_cli import OrderSelector`` gives the scikit-learn style estimator of
``mtc select`` (imported on first use, so that the command line starts fast).
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("mtc")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"


def __getattr__(name):
    if name == "OrderSelector":  # imported by name: no experiment's code version counts it
        import importlib

        return importlib.import_module("mtc_cli.selection.estimator").OrderSelector
    raise AttributeError(f"module 'mtc_cli' has no attribute {name!r}")
