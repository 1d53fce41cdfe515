"""Showing results: tables derived from rows, paper targets and their expressions, figures,
the README's generated tables. Imports only ``mtc_cli.core``; outside the code version
(tables and figures are derived anew from the cached rows on every run)."""
