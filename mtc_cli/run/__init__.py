"""Running experiments: parameters and configs, the registry, tasks, the runner and its
cache, provenance, the dask backend, locks. Imports the math (``mtc_cli.core``) and the
show layer, never the product (``mtc_cli.selection``); outside the code version but for
``tasking`` (how a task is keyed, seeded and run)."""
