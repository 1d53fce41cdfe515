"""Every config's quick profile gives byte-identical CSVs with -j 1 and -j 2 (fresh run
directories): no clock, process id or task order may leak into a table."""

from pathlib import Path

import pytest

from mtc_cli.run import pipeline
from mtc_cli.run.config import load_config

CONFIGS = sorted((Path(__file__).resolve().parents[2] / "configs").glob("*.yaml"))


@pytest.mark.parametrize("config", CONFIGS, ids=[c.stem for c in CONFIGS])
def test_quick_profile_csvs_do_not_depend_on_jobs(config, tmp_path):
    cfg = load_config(config, quick=True)
    one = pipeline.run(cfg, out=tmp_path / "j1", jobs=1).run_dir
    two = pipeline.run(cfg, out=tmp_path / "j2", jobs=2).run_dir
    names = sorted(p.name for p in one.glob("*.csv"))
    assert names == sorted(p.name for p in two.glob("*.csv"))
    differ = [n for n in names if (one / n).read_bytes() != (two / n).read_bytes()]
    assert not differ, f"{config.name}: CSVs differ between -j 1 and -j 2: {differ}"
