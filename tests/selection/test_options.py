"""Every option of a selection is declared once (mtc_cli/selection/options.py) and reachable,
with the same default and the same check, from ``mtc select``, a ``select`` config and
``OrderSelector``; ``seed`` and ``n_jobs`` too."""

from __future__ import annotations

import dataclasses
import inspect

import numpy as np
import pytest
import yaml
from click.testing import CliRunner

from experiments.select.protocol import Params
from mtc_cli.core.errors import MtcError
from mtc_cli.run.config import load_config
from mtc_cli.selection.estimator import OrderSelector
from mtc_cli.selection.options import Options, Reading, Run, flag

OPTIONS = [f.name for f in dataclasses.fields(Options)]
READING = [f.name for f in dataclasses.fields(Reading)]


def select_command():
    from mtc_cli.cli import main

    return main.commands["select"]


def declared(name: str):
    return next(f for f in dataclasses.fields(Options) + dataclasses.fields(Reading)
                + dataclasses.fields(Run) if f.name == name)


def test_every_option_is_a_config_key_an_option_of_mtc_select_and_a_parameter():
    command = {o for p in select_command().params for o in (*p.opts, *p.secondary_opts)}
    keys = {f.name for f in dataclasses.fields(Params)}
    parameters = OrderSelector().get_params()
    for name in OPTIONS:
        assert name in keys and flag(name) in command and name in parameters, name
    for name in READING:  # how a file is read: the command line and a config
        assert name in keys and (flag(name) in command or name == "data"), name
    assert {"--seed", "-j"} <= command and {"random_state", "n_jobs"} <= set(parameters)


def test_the_defaults_are_the_declared_ones_everywhere():
    est, params = OrderSelector(), Params()
    for name in OPTIONS:
        default = declared(name).default
        assert getattr(est, name) == default == getattr(params, name), name
    assert est.random_state == declared("seed").default == load_seed_default()
    assert est.n_jobs == declared("n_jobs").default
    context = select_command().make_context("select", ["x.csv"])
    for name in OPTIONS:  # not given on the command line: the declaration decides
        assert context.params[name] is None, name
    signature = inspect.signature(OrderSelector)
    assert list(signature.parameters)[:3] == ["model", "k", "criteria"]


def load_seed_default() -> int:
    from mtc_cli.run.config import Config

    return next(f for f in dataclasses.fields(Config) if f.name == "seed").default


#: option → a value every entry point refuses, and the words of the refusal
BAD = {"splits": (0, "≥ 1"), "references": (1, "≥ 2"), "clest_references": (0, "≥ 1"),
       "clest_splits": (0, "≥ 1"), "n_init": (0, "≥ 1"), "max_items": (5, "≥ 10"),
       "n_random": (0, "≥ 1"), "ps_threshold": (1.5, "≤ 1.0"),
       "train_fraction": (0.995, "≤ 0.99"), "holdout": (0.0, "≥ 0.01"),
       "permutations": (0, "≥ 1"), "max_assignments": (0, "≥ 1"), "coverage": (-0.1, "≥ 0.0"),
       "increment_tol": (-1.0, "≥ 0.0"), "beta_factor": (-0.5, "≥ 0.0"),
       "hdbscan_min_cluster_size": (1, "≥ 2"), "covariance_type": ("ful", "did you mean"),
       "model": ("kmean", "did you mean 'kmeans'"),
       "criteria": (["silhoutte"], "did you mean 'silhouette'")}


def test_every_bounded_option_has_a_case():
    bounded = {f.name for f in dataclasses.fields(Options)
               if any(f.metadata.get(m) is not None for m in ("min", "max", "choices"))}
    assert bounded == set(BAD)


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_value_is_refused_alike_by_every_entry_point(name, tmp_path):
    from mtc_cli.cli import main

    value, words = BAD[name]
    csv = tmp_path / "x.csv"
    X = np.random.default_rng(0).normal(size=(40, 2))
    np.savetxt(csv, X, delimiter=",", header="a,b", comments="")
    # a config
    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump({"experiment": "select", "data": str(csv),
                                      name: value}))
    with pytest.raises(MtcError) as raised:
        load_config(config)
    assert f"key '{name}" in str(raised.value) and words in str(raised.value)
    # OrderSelector
    with pytest.raises(ValueError) as raised:
        OrderSelector(**{name: value}).fit(X)
    assert f"key '{name}" in str(raised.value) and words in str(raised.value)
    # mtc select: its option, else --set
    text = ",".join(value) if isinstance(value, list) else str(value)
    got = CliRunner().invoke(main, ["select", str(csv), flag(name), text,
                                    "--out", str(tmp_path / "run")])
    assert got.exit_code == 2 and f"{flag(name)}" in got.output and words in got.output, \
        got.output
    assert not (tmp_path / "run").exists()


def test_one_default_run_reads_and_checks_the_data_once(tmp_path, monkeypatch):
    """``mtc select FILE`` (auto: every algorithm) in this process: the data file read once,
    each model's settings made and its data check run once, the derive step included."""
    from mtc_cli.cli import main
    from mtc_cli.core.datasets import user_data
    from mtc_cli.selection import selector

    calls = {"load": 0, "make_settings": [], "check_data": []}

    def counted(name, function, model_arg):
        def call(*args, **kwargs):
            if model_arg is None:
                calls[name] += 1
            else:
                calls[name].append(args[model_arg])
            return function(*args, **kwargs)
        return call

    monkeypatch.setattr(user_data, "load", counted("load", user_data.load, None))
    monkeypatch.setattr(selector, "make_settings",
                        counted("make_settings", selector.make_settings, 0))
    monkeypatch.setattr(selector, "check_data", counted("check_data", selector.check_data, 1))
    csv = tmp_path / "three.csv"
    rng = np.random.default_rng(0)
    X = np.r_[rng.normal(0, 0.5, (40, 2)), rng.normal(6, 0.5, (40, 2))]
    np.savetxt(csv, X, delimiter=",", header="a,b", comments="")
    got = CliRunner().invoke(main, ["select", str(csv), "--k", "1..4", "--splits", "2",
                                    "--out", str(tmp_path / "run")], catch_exceptions=False)
    assert got.exit_code == 0, got.output
    from mtc_cli.selection.catalog import auto_models

    assert calls["load"] == 1
    assert sorted(calls["make_settings"]) == sorted(auto_models())
    assert sorted(calls["check_data"]) == sorted(auto_models())
