"""``mtc select`` end to end: every data kind, the outputs, resume, JSON, and bad input as
one line with exit status 2 and nothing written."""

import json
import re

import numpy as np
import pandas as pd
import pytest
import scipy.io
import scipy.sparse as sp
from PIL import Image
from sklearn.datasets import make_blobs

#: small and fast: every criterion still runs
FAST = ["--set", "references=2", "--set", "clest_references=1", "--set", "clest_splits=2",
        "--splits", "2"]


@pytest.fixture
def blobs(tmp_path):
    X, y = make_blobs(90, 3, centers=3, cluster_std=0.5, random_state=1)
    df = pd.DataFrame(X, columns=["a", "b", "c"]).assign(label=y)
    path = tmp_path / "blobs.csv"
    df.to_csv(path, index=False)
    return path


def run(cli, *args):
    return cli("select", *map(str, args))


def test_table_run_writes_outputs_votes_and_resumes(cli, blobs, tmp_path):
    out = tmp_path / "run"
    result = run(cli, blobs, "--label-column", "label", "--model", "gmm", "--k", "1..5",
                 "--out", out, *FAST)
    assert result.exit_code == 0, result.output
    text = result.output
    for criterion in ("mtc", "capacity", "bic", "aic", "stability", "prediction_strength",
                      "gap", "clest", "silhouette", "calinski_harabasz", "davies_bouldin"):
        assert criterion in text, criterion
    assert " vote: k = 3 (" in text and "True k" in text
    assert "Vote: " in text and "Not voting, not among the" in text  # the rule, said
    assert "starting at k = 2: stability, clest, silhouette" in text
    for name in ("rows.csv", "summary.csv", "curves.csv", "vote.csv", "projection.csv",
                 "run.json", "select.png"):
        assert (out / name).stat().st_size > 0, name
    assert not (out / "targets.csv").exists()  # no paper claim is about a user's data
    summary = pd.read_csv(out / "summary.csv")
    assert (summary["true_k"] == 3).all()
    assert summary.loc[summary["criterion"] == "stability", "k_min"].item() == 2
    again = run(cli, blobs, "--label-column", "label", "--model", "gmm", "--k", "1..5",
                "--out", out, *FAST)
    assert "0 tasks computed" in again.output


def test_json_output_is_the_summary(cli, blobs, tmp_path):
    result = run(cli, blobs, "--label-column", "label", "--k", "1..4", "--model", "kmeans",
                 "--criteria", "mtc,gap,silhouette", "--out", tmp_path / "j", "--json", *FAST)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["model"] == "kmeans" and doc["k_range"] == [1, 4] and doc["true_k"] == 3
    assert [c["criterion"] for c in doc["criteria"]] == ["mtc", "gap", "silhouette"]
    tally = {int(k): v for k, v in doc["vote"]["tally"].items()}
    voters = [c["criterion"] for c in doc["criteria"] if c["votes"]]
    # the league's k-means rule (the shipped vote_rule.csv): the gap statistic votes, MTC and
    # the silhouette do not (not among its 5 voters); the gap's 3 is the vote
    assert voters == ["gap"]
    assert tally == {3: 1} and doc["vote"]["k"] == 3
    assert all(c["selected_k"] == int(c["selected_k"]) for c in doc["criteria"])


def test_default_run_directory_and_saved_config(cli, blobs, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    saved = tmp_path / "results" / "select" / "mine.yaml"  # in a folder the run makes
    result = run(cli, blobs, "--label-column", "label", "--model", "gmm", "--k", "1..3",
                 "--criteria", "bic", "--save-config", saved)
    assert result.exit_code == 0, result.output
    (folder,) = (tmp_path / "results" / "select").glob("blobs-gmm-*")
    assert re.fullmatch(r"blobs-gmm-[0-9a-f]{6}", folder.name)
    assert (folder / "summary.csv").is_file() and saved.is_file()
    rerun = cli("run", saved, "--out", tmp_path / "again")
    assert rerun.exit_code == 0, rerun.output
    a = pd.read_csv(folder / "rows.csv")
    b = pd.read_csv(tmp_path / "again" / "rows.csv")
    pd.testing.assert_frame_equal(a, b)  # mtc select and mtc run share one path


def _files(folder) -> dict:
    return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def test_other_options_keep_the_first_runs_files_and_the_same_options_resume(
        cli, blobs, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    first = ["--label-column", "label", "--model", "kmeans", "--k", "1..3", "--criteria", "gap"]
    result = run(cli, blobs, *first, *FAST)
    assert result.exit_code == 0, result.output
    last = result.output.strip().splitlines()[-1]
    (folder,) = (tmp_path / "results" / "select").iterdir()
    assert last.endswith(f"Results: results/select/{folder.name}/")  # the last line names it
    before = _files(folder)
    for other in (["--k", "1..4"], ["--criteria", "gap,silhouette"], ["--seed", "1"],
                  ["--set", "references=3"], ["--standardize"]):
        result = run(cli, blobs, *first, *FAST, *other)
        assert result.exit_code == 0, (other, result.output)
        assert f"Results: results/select/{folder.name}/" not in result.output, other
        assert _files(folder) == before, other  # byte for byte
    assert len(list((tmp_path / "results" / "select").iterdir())) == 6
    # the same options, written otherwise and with other ways of running: the same folder
    again = run(cli, blobs, "--model", "kmeans", "--label-column", "label", "--criteria", "gap",
                "--k", "1..3", *FAST, "--splits", "2", "-j", "2", "--json")
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["results"] == f"results/select/{folder.name}"
    resumed = run(cli, blobs, *first, *FAST)
    assert "0 tasks computed" in resumed.output and _files(folder) == before


def test_out_to_a_run_of_other_options_is_refused_without_force(cli, blobs, tmp_path):
    out = tmp_path / "run"
    options = ["--label-column", "label", "--model", "kmeans", "--k", "1..3", "--criteria", "gap"]
    assert run(cli, blobs, *options, "--out", out, *FAST).exit_code == 0
    before = _files(out)
    saved = tmp_path / "other.yaml"
    refused = run(cli, blobs, *options, "--k", "1..4", "--out", out, "--save-config", saved,
                  *FAST)
    assert refused.exit_code == 2 and refused.stdout == ""
    assert refused.stderr == (f"mtc: error: {out}: holds a run of other options "
                              f"({out}/config.json); choose another --out, or --force to "
                              "replace it\n")
    assert _files(out) == before and not saved.exists()  # nothing written
    forced = run(cli, blobs, *options, "--k", "1..4", "--out", out, "--force", *FAST)
    assert forced.exit_code == 0, forced.output
    assert "0 tasks computed" in run(cli, blobs, *options, "--k", "1..4", "--out", out,
                                     *FAST).output


@pytest.mark.reliability
def test_saved_config_keeps_every_set_and_waits_for_the_run(cli, blobs, tmp_path):
    saved = tmp_path / "mine.yaml"
    args = (blobs, "--label-column", "label", "--k", "1..3", "--model", "kmeans", "--criteria",
            "gap,mtc", "--set", "references=3", "--set", "seed=5", "--set", "n_init=2",
            "--splits", "2")
    result = run(cli, *args, "--out", tmp_path / "a", "--save-config", saved)
    assert result.exit_code == 0, result.output
    rerun = cli("run", saved, "--out", tmp_path / "b")
    assert rerun.exit_code == 0, rerun.output
    assert (tmp_path / "a" / "rows.csv").read_bytes() == (tmp_path / "b" / "rows.csv").read_bytes()
    # a run refused (its directory holds a run of another config) saves nothing
    refused = tmp_path / "refused.yaml"
    result = run(cli, *args, "--out", tmp_path / "b", "--save-config", refused)
    assert result.exit_code == 2 and "another config" in result.stderr
    assert not refused.exists()


def test_image_chooses_a_rank_without_noise(cli, tmp_path):
    rng = np.random.default_rng(0)
    # a rank-2 texture of 8×8 patches plus a little noise
    u, v = rng.random((16, 2)), rng.random((2, 64))
    img = np.clip(40 * (u @ v).reshape(16, 1, 8, 8).repeat(2, axis=1)
                  .transpose(0, 2, 1, 3).reshape(128, 16).repeat(4, axis=1)
                  + rng.normal(0, 2, (128, 64)), 0, 255).astype(np.uint8)
    path = tmp_path / "texture.png"
    Image.fromarray(img).save(path)
    result = run(cli, path, "--out", tmp_path / "img", "--splits", "2",
                 "--set", "permutations=3")
    assert result.exit_code == 0, result.output
    assert "model svd" in result.output.lower() or "Model svd" in result.output
    summary = pd.read_csv(tmp_path / "img" / "summary.csv")
    assert set(summary["criterion"]) == {"mtc", "bicross", "gavish_donoho", "pca_mle"}
    assert (tmp_path / "img" / "spectrum.csv").is_file()


def test_sparse_documents_with_spherical_kmeans(cli, tmp_path):
    rng = np.random.default_rng(3)
    topics = np.zeros((3, 60))
    for t in range(3):
        topics[t, 20 * t:20 * t + 20] = 1.0
    docs = np.vstack([rng.poisson(6 * topics[t] + 0.02) for t in range(3) for _ in range(30)])
    path = tmp_path / "docs.mtx"
    scipy.io.mmwrite(path, sp.csr_matrix(docs.astype(float)))
    result = run(cli, path, "--model", "spkmeans", "--k", "1..5", "--out", tmp_path / "d",
                 *FAST[4:])
    assert result.exit_code == 0, result.output
    summary = pd.read_csv(tmp_path / "d" / "summary.csv")
    assert summary.set_index("criterion").loc["silhouette", "selected_k"] == 3


def test_user_permission_list_counts_roles(cli, tmp_path):
    rng = np.random.default_rng(4)
    roles = rng.random((3, 24)) < 0.3
    users = roles[rng.integers(3, size=40)]
    path = tmp_path / "grants.txt"
    path.write_text("".join(f"u{i} " + " ".join(f"p{j}" for j in np.flatnonzero(r)) + "\n"
                            for i, r in enumerate(users)))
    result = run(cli, path, "--k", "1..4", "--out", tmp_path / "b", "--splits", "2",
                 "--set", "permutations=3")
    assert result.exit_code == 0, result.output
    summary = pd.read_csv(tmp_path / "b" / "summary.csv")
    assert set(summary["criterion"]) == {"mtc", "capacity", "bicross", "mtc_svd", "coverage",
                                         "increment"}


def test_pac_mdl_with_training_labels(cli, blobs, tmp_path):
    df = pd.read_csv(blobs)
    df["train"] = df["label"].where(np.arange(len(df)) % 2 == 0)  # half the labels hidden
    path = tmp_path / "partly.csv"
    df.drop(columns="label").to_csv(path, index=False)
    result = run(cli, path, "--train-labels", "train", "--k", "1..4", "--model", "kmeans",
                 "--criteria", "pac_mdl", "--out", tmp_path / "p")
    assert result.exit_code == 0, result.output
    rows = pd.read_csv(tmp_path / "p" / "rows.csv")
    assert set(rows["k"]) == {2, 3, 4} and (rows["n_test"] == 45).all()
    assert pd.read_csv(tmp_path / "p" / "summary.csv")["selected_k"].item() == 3


def _bad(cli, tmp_path, *args):
    out = tmp_path / "never"
    result = cli("select", *map(str, args), "--out", str(out))
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mtc: error:"), result.stderr
    assert "Traceback" not in result.output
    assert not out.exists()
    return lines[0]


def test_bad_inputs_are_one_line_and_write_nothing(cli, blobs, tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    assert "empty" in _bad(cli, tmp_path, empty)
    one = tmp_path / "one.csv"
    one.write_text("a,b\n1,2\n")
    assert "2 rows" in _bad(cli, tmp_path, one) or "row" in _bad(cli, tmp_path, one)
    text = tmp_path / "text.csv"
    text.write_text("a,name,b\n1,x,2\n3,y,4\n5,z,6\n")
    assert "'name'" in _bad(cli, tmp_path, text)
    nan = tmp_path / "nan.csv"
    nan.write_text("a,b\n1,2\n3,\n5,6\n7,8\n")
    assert "--dropna" in _bad(cli, tmp_path, nan)
    const = tmp_path / "const.csv"
    const.write_text("a,b\n" + "1,2\n" * 10)
    assert "identical" in _bad(cli, tmp_path, const)
    labelled = (blobs, "--label-column", "label")
    assert "--k" in _bad(cli, tmp_path, *labelled, "--k", "1..60")
    assert "--k" in _bad(cli, tmp_path, *labelled, "--k", "5..2")
    assert "--label-column" in _bad(cli, tmp_path, blobs, "--label-column", "nope")
    mtx = tmp_path / "m.mtx"
    scipy.io.mmwrite(mtx, sp.random(20, 10, density=0.3, random_state=0, format="csr"))
    assert "spkmeans" in _bad(cli, tmp_path, mtx, "--model", "gmm")
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"\x89PNG\r\n\x1a\n not an image")
    assert "broken.png" in _bad(cli, tmp_path, broken)
    big = tmp_path / "big.png"
    Image.new("L", (64, 64)).save(big)
    assert "pixels" in _bad(cli, tmp_path, big, "--set", "max_pixels=100")
    assert "pac_mdl" in _bad(cli, tmp_path, *labelled, "--criteria", "pac_mdl")
    assert "bicross" in _bad(cli, tmp_path, *labelled, "--criteria", "bicross")
    assert "criteria" in _bad(cli, tmp_path, *labelled, "--criteria", "nosuch")
    assert "missing.csv" in _bad(cli, tmp_path, tmp_path / "missing.csv")


def test_a_label_column_is_no_feature_unless_the_user_says_so(cli, tmp_path):
    """An integer column named like labels is refused as a feature, in one line naming both
    ways out; --label-column, --drop or --columns without it run."""
    X, y = make_blobs(60, 2, centers=3, random_state=2)
    path = tmp_path / "classes.csv"
    pd.DataFrame(X, columns=["a", "b"]).assign(Label=y).to_csv(path, index=False)
    line = _bad(cli, tmp_path, path, "--criteria", "bic")
    for part in ("classes.csv", "'Label'", "--label-column Label", "--drop Label"):
        assert part in line, (part, line)
    for i, named in enumerate((["--label-column", "Label"], ["--drop", "Label"],
                               ["--columns", "a,b"])):
        result = run(cli, path, *named, "--k", "1..3", "--criteria", "bic",
                     "--out", tmp_path / f"ok{i}")
        assert result.exit_code == 0, result.output
        assert "60 objects × 2 features" in result.output


@pytest.mark.reliability
def test_out_refuses_a_folder_of_the_users_own_files(cli, blobs, tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "rows.csv").write_text("my own rows\n")
    result = run(cli, blobs, "--label-column", "label", "--k", "1..3", "--criteria", "bic",
                 "--out", mine, *FAST)
    assert result.exit_code == 2 and "not a run directory of mtc" in result.stderr
    assert (mine / "rows.csv").read_text() == "my own rows\n"
    assert sorted(p.name for p in mine.iterdir()) == ["rows.csv"]
    forced = run(cli, blobs, "--label-column", "label", "--k", "1..3", "--criteria", "bic",
                 "--out", mine, "--force", *FAST)
    assert forced.exit_code == 0 and (mine / "config.json").is_file()


@pytest.mark.parametrize("scale,word", [(1e-300, "underflow"), (1e307, "overflow")])
@pytest.mark.reliability
def test_values_whose_squared_distances_underflow_or_overflow_are_one_line(cli, tmp_path,
                                                                          scale, word):
    X, _ = make_blobs(60, 3, centers=3, random_state=0)
    path = tmp_path / "scaled.csv"
    np.savetxt(path, X * scale, delimiter=",")
    result = cli("select", path, "--out", tmp_path / "out")
    assert result.exit_code == 2 and word in result.stderr and "--standardize" in result.stderr
    assert result.stderr.count("\n") == 1 and not (tmp_path / "out").exists()


@pytest.mark.reliability
def test_fewer_than_four_objects_are_one_line(cli, tmp_path):
    path = tmp_path / "two.csv"
    np.savetxt(path, [[1.0, 2.0], [3.0, 4.0]], delimiter=",")
    result = cli("select", path, "--out", tmp_path / "out")
    assert result.exit_code == 2 and "needs at least 4" in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("model", ["gmm", "kmeans"])
@pytest.mark.reliability
def test_clest_fails_alone_on_three_distinct_points(cli, tmp_path, model):
    """40 rows of 3 distinct points: Clest's LDA cannot be trained on a learning set with
    fewer distinct points than clusters; it reports no choice and why, the rest runs."""
    points = np.array([[0.0, 0.0], [5.0, 5.0], [10.0, 0.0]])
    path = tmp_path / "three.csv"
    np.savetxt(path, points[np.random.default_rng(0).integers(3, size=40)], delimiter=",")
    result = run(cli, path, "--model", model, "--k", "1..4", "--out", tmp_path / "o",
                 "--json", *FAST)
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    clest = next(c for c in doc["criteria"] if c["criterion"] == "clest")
    assert clest["selected_k"] is None and clest["note"].startswith("not computed")
    assert doc["vote"]["k"] is not None


def test_sep_reads_a_semicolon_file_as_the_comma_file(cli, blobs, tmp_path):
    """--sep ';' gives the same matrix, so the same tasks and rows, as the comma file."""
    semi = tmp_path / "blobs_semi.csv"
    pd.read_csv(blobs).to_csv(semi, sep=";", index=False)
    outs = []
    for path, extra in ((blobs, ()), (semi, ("--sep", ";"))):
        out = tmp_path / f"run-{path.stem}"
        result = run(cli, path, *extra, "--label-column", "label", "--k", "1..3",
                     "--criteria", "gap,silhouette", "--out", out)
        assert result.exit_code == 0, result.output
        outs.append(pd.read_csv(out / "rows.csv"))
    pd.testing.assert_frame_equal(*outs)
    refused = run(cli, semi, "--k", "1..3", "--out", tmp_path / "refused")
    assert refused.exit_code == 2 and "--sep ';'" in refused.output


def test_no_two_threads_parse_at_once(monkeypatch):
    """CPython 3.11 fails two ``ast.parse`` calls in two threads at once (python/cpython#106905):
    once serialised, a parse that takes 0.2 s in each of two threads runs one after the other."""
    import ast
    import threading
    import time

    from mtc_cli.run.pipeline import serialise_parse

    spans, real_parse = [], ast.parse

    def slow_parse(*args, **kwargs):
        start = time.perf_counter()
        time.sleep(0.2)
        tree = real_parse(*args, **kwargs)
        spans.append((start, time.perf_counter()))
        return tree

    monkeypatch.setattr(ast, "parse", slow_parse)
    serialise_parse()
    serialise_parse()  # once: a second call does not wrap the lock in another
    threads = [threading.Thread(target=ast.literal_eval, args=("[1, 2]",)) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    (a0, a1), (b0, b1) = sorted(spans)
    assert a1 <= b0, "the two parses overlapped"


def test_parallel_select_leaves_no_thread_behind(cli, blobs, tmp_path):
    """The summary's modules, imported in a background thread while the tasks run, are
    imported before the run goes on; ``ast.parse`` is serialised from the first thread on."""
    import ast
    import threading

    result = run(cli, blobs, "--label-column", "label", "--k", "1..3", "--model", "kmeans",
                 "--criteria", "gap", "--out", tmp_path / "run", "-j", "2", *FAST)
    assert result.exit_code == 0, result.output
    assert not [t for t in threading.enumerate() if t.name == "mtc-preload"]
    assert getattr(ast.parse, "mtc_serial", False)
