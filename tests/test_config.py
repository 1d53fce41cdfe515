"""Config loading: overrides and every kind of bad input → one line, exit 2, nothing written."""

import pytest

from mtc_cli.config import load_config
from mtc_cli.errors import MtcError

GOOD = """\
experiment: gmm_overlap
seed: 3
sigma_over_d: [0.2, 0.4]
n: 100
reps: 2
quick:
  n: 50
  reps: 1
targets:
  - claim: "c"
    expect: "selected_k == 3"
"""


def write(tmp_path, text, name="c.yaml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_good_config_is_typed(tmp_path):
    cfg = load_config(write(tmp_path, GOOD))
    assert cfg.experiment == "gmm_overlap" and cfg.seed == 3
    assert cfg.params.sigma_over_d == [0.2, 0.4] and cfg.params.n == 100
    assert cfg.params.k_max == 8  # default filled in
    assert cfg.targets[0].table == "summary"


def test_quick_block_and_set_overrides(tmp_path):
    path = write(tmp_path, GOOD)
    cfg = load_config(path, quick=True, overrides=["n=70", "sigma_over_d=[1, 2.5]", "seed=9"])
    assert cfg.params.reps == 1  # from quick
    assert cfg.params.n == 70  # --set wins over quick
    assert cfg.params.sigma_over_d == [1.0, 2.5] and isinstance(cfg.params.sigma_over_d[0], float)
    assert cfg.seed == 9
    moved = load_config(path, overrides=["centres=[[0, 0], [1, 0]]", "centres.1.0=2"])
    assert moved.params.centres == [[0.0, 0.0], [2.0, 0.0]]


@pytest.mark.parametrize("text,overrides,fragment", [
    (GOOD.replace("reps: 2", "repz: 2"), [], "unknown key 'repz' (did you mean 'reps'?)"),
    (GOOD, ["sigma=1"], "unknown key 'sigma'"),
    (GOOD.replace("n: 100", "n: many"), [], "key 'n': expected an integer, got 'many'"),
    (GOOD.replace("n: 100", "n: 1"), [], "key 'n': expected a value ≥ 2, got 1"),
    (GOOD, ["covariance_type=ful"], "expected one of 'full', 'tied', 'diag', 'spherical' "
                                    "(did you mean 'full'?), got 'ful'"),
    (GOOD, ["sigma_over_d=[0.1, x]"], "key 'sigma_over_d[1]': expected a number"),
    (GOOD.replace("gmm_overlap", "gmm_overlp"), [], "unknown experiment 'gmm_overlp' (did you"),
    (GOOD + "  - claim: x\n    expct: y\n", [], "unknown key 'targets[1].expct'"),
    (GOOD + "  - claim: x\n    expect: k == 1\n    kind: mine\n", [],
     "key 'targets[1].kind': expected one of paper, derived, ours"),
    (GOOD + "  - claim: x\n    expect: k == 1\n    testable: false\n", [],
     "key 'targets[1].why': a target that is not testable says why"),
    ("experiment: gmm_overlap\nn: [1, 2\n", [], "malformed YAML at line"),
    ("n: 3\n", [], "missing key 'experiment'"),
    (GOOD, ["seed=-1"], "key 'seed': expected a non-negative integer"),
    (GOOD, ["novalue"], "expected KEY=VALUE"),
])
def test_bad_input_names_file_key_and_value(tmp_path, text, overrides, fragment):
    path = write(tmp_path, text)
    with pytest.raises(MtcError) as err:
        load_config(path, overrides=overrides)
    message = str(err.value)
    assert fragment in message
    assert str(path) in message and "\n" not in message


def test_missing_file(tmp_path):
    with pytest.raises(MtcError, match="config file not found"):
        load_config(tmp_path / "nope.yaml")


def test_cli_bad_config_exits_2_with_one_line_and_writes_nothing(tmp_path, cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = write(tmp_path, GOOD.replace("reps: 2", "repz: 2"))
    result = cli("run", path, "--out", tmp_path / "out")
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "repz" in lines[0] and "Traceback" not in result.output
    assert not (tmp_path / "out").exists() and not (tmp_path / "results").exists()


def test_every_shipped_config_loads_in_both_profiles(root):
    for path in sorted((root / "configs").glob("*.yaml")):
        for quick in (False, True):
            cfg = load_config(path, quick=quick)
            assert cfg.params is not None, path
