"""mtc: model-order selection for unsupervised learning, from the papers' equations.

``from mtc_cli import OrderSelector`` gives the scikit-learn style estimator of
``mtc select``; it and ``__version__`` are looked up on first use, so that the command
line starts fast.
"""


def __getattr__(name):
    if name == "OrderSelector":  # imported by name: no experiment's code version counts it
        import importlib

        return importlib.import_module("mtc_cli.selection.estimator").OrderSelector
    if name == "__version__":
        from mtc_cli.run.versions import mtc_version

        globals()["__version__"] = value = mtc_version()
        return value
    raise AttributeError(f"module 'mtc_cli' has no attribute {name!r}")
