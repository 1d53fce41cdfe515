"""Importing an experiment module (to read its Params) loads no matplotlib: pyplot is
imported by the plotting code only, so workers that compute never pay for it."""

import json
import pkgutil
import subprocess
import sys

import pytest

import experiments


def _loaded(code: str, root) -> list[str]:
    """The matplotlib modules in ``sys.modules`` after running ``code`` in a fresh
    interpreter."""
    probe = (f"{code}\nimport json, sys\nprint(json.dumps("
             "[m for m in ('matplotlib', 'matplotlib.pyplot') if m in sys.modules]))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         cwd=root, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", [m.name for m in pkgutil.iter_modules(experiments.__path__)])
def test_experiment_import_loads_no_matplotlib(name, root):
    assert _loaded(f"import experiments.{name}", root) == []


def test_plotting_loads_pyplot_on_agg_at_first_figure(root):
    assert _loaded("import mtc_cli.show.plotting", root) == []
    code = ("from mtc_cli.show import plotting\nfig, _ = plotting.figure()\n"
            "import matplotlib\nassert matplotlib.get_backend().lower() == 'agg'")
    assert _loaded(code, root) == ["matplotlib", "matplotlib.pyplot"]
