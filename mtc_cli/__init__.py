"""mtc: model-order selection for unsupervised learning, from the papers' equations."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("mtc")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"
