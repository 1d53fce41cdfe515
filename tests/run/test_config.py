"""Config loading: overrides and every kind of bad input → one line, exit 2, nothing written."""

import dataclasses
import subprocess
import sys
import typing

import pytest

from mtc_cli.core.errors import MtcError
from mtc_cli.run.config import load_config
from mtc_cli.run.params import _type_name

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


@pytest.mark.parametrize("text,overrides,fragment", [
    (GOOD.replace("reps: 2", "repz: 2"), [], "unknown key 'repz' (did you mean 'reps'?); valid "
     "keys: centres, weights, sigma_over_d, distance, n, k_max, covariance_type, n_init, reps, "
     "example_sigmas, experiment, description, seed, targets, quick, cluster"),
    (GOOD, ["foo=1"], "--set foo: unknown key 'foo'; valid keys: centres, weights, "),
    (GOOD.replace("  reps: 1", "  repz: 1"), [], "unknown key 'quick.repz' (did you mean "
     "'quick.reps'?); valid keys: centres, "),
    (GOOD + "  - claim: x\n    expct: y\n", [], "; valid keys: claim, table, where, expect, "
     "paper, kind, testable, why"),
])
def test_an_unknown_key_lists_the_valid_ones_on_one_line(tmp_path, text, overrides, fragment):
    with pytest.raises(MtcError) as err:
        load_config(write(tmp_path, text), overrides=overrides)
    assert fragment in str(err.value) and "\n" not in str(err.value)
    assert str(err.value).endswith(("example_sigmas, seed", "cluster", "why"))


def test_an_unknown_nested_key_lists_the_keys_of_its_mapping(tmp_path):
    path = write(tmp_path, "experiment: boolean_denoising\nflat:\n  n_user: 3\n")
    with pytest.raises(MtcError, match=r"unknown key 'flat.n_user' \(did you mean "
                       r"'flat.n_users'\?\); valid keys: n_users, n_perms, n_roles, "
                       r"max_roles_per_user, max_perms_per_role$"):
        load_config(path)


def _schema(cls):
    """Field name → (type, checks) of a dataclass, nested dataclasses expanded."""
    hints = typing.get_type_hints(cls)
    out = {}
    for f in dataclasses.fields(cls):
        tp = hints[f.name]
        args = [a for a in (tp, *typing.get_args(tp), *[b for a in typing.get_args(tp)
                                                        for b in typing.get_args(a)])
                if dataclasses.is_dataclass(a)]
        checks = {k: f.metadata.get(k) for k in ("min", "max", "choices", "allow_nan")}
        out[f.name] = (_type_name(tp), checks, _schema(args[0]) if args else None)
    return out


def test_the_params_read_from_each_source_are_the_real_ones_or_check_less(root):
    """The stand-in found without importing (mtc_cli.run.declared) has the real fields, types
    and checks; a check it cannot read (not a literal) is off, never different."""
    from mtc_cli.run.registry import declared_experiment, experiment_names, get_experiment

    def compare(stand_in, real, where):
        assert stand_in.keys() == real.keys(), where
        for name, (tp, checks, nested) in real.items():
            s_tp, s_checks, s_nested = stand_in[name]
            if s_tp == "Any":  # an annotation it cannot read: nothing checked
                assert s_checks == dict.fromkeys(checks) and s_nested is None, (where, name)
                continue
            assert s_tp == tp, (where, name)
            for key, value in checks.items():
                unread = True if key == "allow_nan" else None
                assert s_checks[key] in (value, unread), (where, name, key)
            if nested is not None:
                compare(s_nested, nested, f"{where}.{name}")

    read = 0
    for name in experiment_names():
        stand_in = declared_experiment(name)
        assert stand_in is not None, name
        compare(_schema(stand_in.Params), _schema(get_experiment(name).Params), name)
        read += sum(c["choices"] is not None for _, c, _ in _schema(stand_in.Params).values())
    assert read >= 10  # choices written as constants of mtc's modules are read too


def test_a_bad_key_or_value_is_found_before_the_experiment_is_imported(tmp_path):
    """The checks of the stand-in, in a fresh interpreter: no numpy, pandas, scikit-learn or
    matplotlib is imported to report these."""
    cases = {"repz: 2": "unknown key 'repz'", "n: many": "key 'n': expected an integer",
             "covariance_type: ful": "(did you mean 'full'?)", "k_max: 0": "≥ 1",
             "sigma_over_d: [0.1, .nan]": "expected a finite number",
             # a dataclass imported from another module of ours (experiments._access_control)
             "experiment: boolean_denoising\nnoise: {additive: -1}": "key 'noise.additive'",
             "experiment: role_mining_bmf\nnoise: {relative_to: one}": "(did you mean 'ones'?)"}
    for i, (line, fragment) in enumerate(cases.items()):
        text = line if line.startswith("experiment:") else f"experiment: gmm_overlap\n{line}"
        path = write(tmp_path, text + "\n", f"c{i}.yaml")
        code = ("import sys\nfrom mtc_cli.run.config import load_config\ntry:\n"
                f"    load_config({str(path)!r})\nexcept Exception as exc:\n    print(exc)\n"
                "print(sorted(m for m in ('numpy', 'pandas', 'sklearn', 'matplotlib', 'scipy')"
                " if m in sys.modules))")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True).stdout
        assert fragment in out and out.endswith("[]\n"), (line, out)
