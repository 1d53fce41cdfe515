"""The covariance models of a Gaussian mixture (scikit-learn's ``covariance_type``), apart
from the numerics of :mod:`mtc_cli.core.models.gmm`, so that the command line can name them
without importing numpy."""

COVARIANCE_TYPES = ("full", "tied", "diag", "spherical")
