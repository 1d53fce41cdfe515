"""The third probe of ``mtc select``, ``OrderSelector`` and ``mtc render`` as a new user
(``tests/data/bad-inputs-turn4.tsv``: 120 cases, verdicts recorded before the fixes of the
trust issue on the new paths). Every case it found neither clean nor reasonable, and the
reasonable ones the issue names, has a test, named in :data:`COVERED` (most here, end to end
as a real ``mtc`` process; the Python API's as the probe's scripts ran it), and a test
checks that the map is complete and that every test it names runs under
``make test-reliability``.
"""

from __future__ import annotations

import csv
import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

import conftest
import numpy as np
import pandas as pd
import pytest
from conftest import finished, refused
from PIL import Image
from sklearn.datasets import make_blobs

pytestmark = pytest.mark.reliability

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "tests" / "data" / "bad-inputs-turn4.tsv"
HERE = "tests/selection/test_review_turn4.py"
#: the cases the issue names beside the table's unclean ones (all "reasonable")
NAMED = {"O01_k_single_number", "O18_save_config_unwritable", "R09_fifo_no_writer",
         "R10_fifo_with_writer", "R11_dev_zero", "R12_dev_null", "R13_process_substitution",
         "R27_animated_gif", "A04_pathbased_2_distinct_x50", "A07_single_k_1_only",
         "A17_kmeans_max_items_10"}

#: case of the table → the test that holds it (pytest node id from the project root)
COVERED = {
    "R37_binary_single_column": f"{HERE}::test_one_column_has_no_rank_to_select[boolean]",
    "R38_svd_on_one_column": f"{HERE}::test_one_column_has_no_rank_to_select[svd]",
    "O13_jobs_1000": f"{HERE}::test_jobs_beyond_the_cores_are_capped_and_said",
    "A02_spectral_4_points": f"{HERE}::test_spectral_clustering_answers_small_data[4]",
    "A02b_spectral_20_points_default_k":
        f"{HERE}::test_spectral_clustering_answers_small_data[20]",
    "A15_spectral_n22_24_30_default_k":
        f"{HERE}::test_spectral_clustering_answers_small_data[22]",
    "A16_spectral_max_items_10": f"{HERE}::test_spectral_clustering_on_a_sample_of_10",
    "A13_auto_4_points": f"{HERE}::test_auto_finishes_on_small_data[4]",
    "A14_auto_20_points": f"{HERE}::test_auto_finishes_on_small_data[20]",
    "M01c_render_truncated_stability_csv":
        f"{HERE}::test_render_refuses_a_damaged_auto_run[stability_cut]",
    "M02_render_auto_csv_deleted": f"{HERE}::test_render_refuses_a_damaged_auto_run[auto_gone]",
    "P10_random_state_none": f"{HERE}::test_a_drawn_random_state_fits_and_repeats[None]",
    "P11_random_state_RandomState":
        f"{HERE}::test_a_drawn_random_state_fits_and_repeats[RandomState]",
    "P13b_k_int": f"{HERE}::test_k_as_an_int_is_the_range_up_to_it",
    "P15_y_wrong_length": f"{HERE}::test_y_of_another_length_is_refused",
    "P17_auto_identical_points": f"{HERE}::test_identical_rows_are_refused[auto]",
    "P20_refit_stale_attributes": f"{HERE}::test_a_refit_keeps_nothing_of_the_fit_before",
    "P21_kmeans_identical_points": f"{HERE}::test_identical_rows_are_refused[kmeans]",
    "P22_auto_on_20_points": f"{HERE}::test_order_selector_auto_answers_20_points",
    "O01_k_single_number": f"{HERE}::test_a_single_k_is_the_range_up_to_it",
    "O18_save_config_unwritable": f"{HERE}::test_an_unwritable_saved_config_is_refused_first",
    "R09_fifo_no_writer": f"{HERE}::test_a_data_path_that_is_no_file_says_what_it_is[fifo]",
    "R10_fifo_with_writer":
        f"{HERE}::test_a_data_path_that_is_no_file_says_what_it_is[fifo_written]",
    "R11_dev_zero": f"{HERE}::test_a_data_path_that_is_no_file_says_what_it_is[zero]",
    "R12_dev_null": f"{HERE}::test_a_data_path_that_is_no_file_says_what_it_is[null]",
    "R13_process_substitution":
        f"{HERE}::test_a_data_path_that_is_no_file_says_what_it_is[pipe]",
    "R27_animated_gif": f"{HERE}::test_an_animation_says_which_frame_it_reads",
    "A04_pathbased_2_distinct_x50": f"{HERE}::test_clest_says_why_in_words[two_points]",
    "A07_single_k_1_only": f"{HERE}::test_a_range_of_one_k_is_refused",
    "A17_kmeans_max_items_10": f"{HERE}::test_clest_says_why_in_words[max_items_10]",
}

#: small and fast: every criterion still runs
FAST = ["--splits", "3", "--set", "references=2", "--set", "clest_references=1",
        "--set", "clest_splits=2"]


#: a real ``mtc`` process, given up to 10 minutes
mtc = functools.partial(conftest.mtc, timeout=600)


def blobs_csv(path: Path, n: int, d: int = 2, centers: int = 2, seed: int = 5,
              label: bool = False) -> Path:
    X, y = make_blobs(n, d, centers=centers, random_state=seed)
    df = pd.DataFrame(X, columns=[f"x{j}" for j in range(d)])
    if label:
        df["label"] = y
    df.to_csv(path, index=False)
    return path


# --- the table and the map ---------------------------------------------------------------------


def review() -> dict[str, str]:
    with open(TABLE, newline="") as fh:
        return {row["id"]: row["verdict"] for row in csv.DictReader(fh, delimiter="\t")}


def test_every_case_the_probe_did_not_find_clean_has_a_reliability_test():
    verdicts = review()
    assert len(verdicts) == 120
    unclean = {case for case, v in verdicts.items() if v not in ("clean", "reasonable")}
    assert len(unclean) == 19
    assert NAMED <= set(verdicts) and unclean | NAMED == set(COVERED), \
        sorted((unclean | NAMED) ^ set(COVERED))
    files = sorted({node.split("::")[0] for node in COVERED.values()})
    proc = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                           "-p", "no:cacheprovider", "-m", "reliability", *files], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    collected = set(proc.stdout.split())
    missing = {case: node for case, node in COVERED.items() if node not in collected}
    assert not missing, (missing, proc.stdout[-2000:])


# --- data that leave nothing to select, or too little for an algorithm -----------------------


@pytest.mark.parametrize("model", ["boolean", "svd"])
def test_one_column_has_no_rank_to_select(tmp_path, model):
    path = tmp_path / "one.csv"
    rng = np.random.default_rng(0)
    values = rng.integers(0, 2, 100) if model == "boolean" else rng.normal(size=100)
    pd.DataFrame({"b": values}).to_csv(path, index=False)
    extra = [] if model == "boolean" else ["--model", "svd"]
    line = refused(mtc("select", path, *extra, "--out", tmp_path / "out", cwd=tmp_path),
                   tmp_path / "out")
    assert "one column" in line and "kmeans or gmm" in line


@pytest.mark.parametrize("n", [4, 20, 22])
def test_spectral_clustering_answers_small_data(tmp_path, n):
    """ARPACK cannot give as many eigenvectors as objects: the dense solver takes over, and
    Clest's subsets too small for the larger k say so."""
    path = blobs_csv(tmp_path / "small.csv", n)
    k = ["--k", "1..2"] if n == 4 else []
    proc = finished(mtc("select", path, "--model", "spectral", *k, *FAST, "--out",
                        tmp_path / "out", cwd=tmp_path))
    assert "Vote of the stability alone: k = " in proc.stdout
    if n > 4:
        assert "clest: not computed at k > " in proc.stdout


def test_spectral_clustering_on_a_sample_of_10(tmp_path):
    path = blobs_csv(tmp_path / "small.csv", 120, d=3, centers=3, seed=1, label=True)
    finished(mtc("select", path, "--label-column", "label", "--model", "spectral", "--set",
                 "max_items=10", "--k", "1..10", *FAST, "--out", tmp_path / "out",
                 cwd=tmp_path))


@pytest.mark.parametrize("n", [4, 20, 30])
def test_auto_finishes_on_small_data(tmp_path, n):
    """Every algorithm answers or is left out with one line; the run finishes, and a rerun
    finds every task cached."""
    path = blobs_csv(tmp_path / "small.csv", n)
    out = tmp_path / "out"
    proc = finished(mtc("select", path, "--model", "auto", "-j", "2", *FAST, "--out", out,
                        cwd=tmp_path))
    decision = pd.read_csv(out / "auto.csv")
    unranked = decision.loc[decision["min_stability"].isna(), "model"]
    for model in unranked:
        assert f"Left out: {model}, whose stability is not defined here: " in proc.stdout
    assert decision["winner"].sum() == 1
    again = finished(mtc("select", path, "--model", "auto", *FAST, "--out", out, cwd=tmp_path))
    assert "0 tasks computed" in again.stdout


def test_order_selector_auto_answers_20_points():
    from mtc_cli import OrderSelector

    X, _ = make_blobs(20, 2, centers=2, random_state=5)
    sel = OrderSelector(model="auto", splits=3, references=2, clest_references=1,
                        clest_splits=2).fit(X)
    # an answer: an algorithm's k, or k = 1 (no group structure, no algorithm named: on 20
    # points the most stable algorithms may vote 1)
    assert sel.k_ is not None
    assert sel.model_ in sel.selections_ or (sel.k_ == 1 and sel.model_ is None)
    assert set(sel.selections_) | set(sel.left_out_) >= {"spectral", "kmeans", "single"}


def test_a_single_k_is_the_range_up_to_it(tmp_path):
    """``--k 3`` is 1..3 (said in the first line); a clustering run writes the projection,
    never the SVD spectrum."""
    path = blobs_csv(tmp_path / "small.csv", 120, d=3, centers=3, seed=1, label=True)
    out = tmp_path / "out"
    proc = finished(mtc("select", path, "--label-column", "label", "--model", "gmm", "--k", "3",
                        *FAST,
                        "--out", out, cwd=tmp_path))
    assert "k = number of Gaussian components, 1..3" in proc.stdout
    assert (out / "projection.csv").is_file() and not (out / "spectrum.csv").exists()


def test_a_range_of_one_k_is_refused(tmp_path):
    path = blobs_csv(tmp_path / "small.csv", 120, d=3, centers=3, seed=1, label=True)
    line = refused(mtc("select", path, "--label-column", "label", "--model", "single", "--k",
                       "1..1", "--out", tmp_path / "out", cwd=tmp_path), tmp_path / "out")
    assert line == ("mtc: error: --k: the range 1..1 offers one k, there is nothing to "
                    "choose; give a range such as 1..2")


@pytest.mark.parametrize("case", ["two_points", "max_items_10"])
def test_clest_says_why_in_words(tmp_path, case):
    if case == "two_points":  # 25 copies of each of two points
        path = tmp_path / "two.csv"
        pd.DataFrame({"a": [0.0] * 25 + [1.0] * 25, "b": [0.0] * 25 + [1.0] * 25}).to_csv(
            path, index=False)
        args = [path, "--model", "pathbased", "--k", "1..4"]
        note = ("clest: not computed: every learning cluster is a single repeated point: "
                "linear discriminant analysis has no within-cluster variance to scale by")
    else:
        path = blobs_csv(tmp_path / "small.csv", 120, d=3, centers=3, seed=1, label=True)
        args = [path, "--label-column", "label", "--model", "kmeans", "--set", "max_items=10",
                "--k", "1..10"]
        note = ("clest: not computed at k > 3: a learning/test split of 10 objects clusters "
                "at most 3 in its test set")
    proc = finished(mtc("select", *args, *FAST, "--out", tmp_path / "out", cwd=tmp_path))
    assert note in proc.stdout.splitlines()


# --- options and paths ---------------------------------------------------------------------------


def test_jobs_beyond_the_cores_are_capped_and_said(tmp_path):
    from mtc_cli.run.workers import cores

    path = blobs_csv(tmp_path / "small.csv", 120, d=3, centers=3, seed=1, label=True)
    proc = finished(mtc("select", path, "--label-column", "label", "--model", "kmeans",
                        "--k", "1..4", *FAST, "--out", tmp_path / "out", "-j", "1000",
                        cwd=tmp_path))
    n = cores()
    said = f"mtc: -j 1000: {n} worker{'s' if n != 1 else ''}, as this machine has {n} cores"
    assert said in proc.stderr.splitlines()


def test_an_unwritable_saved_config_is_refused_first(tmp_path):
    path = blobs_csv(tmp_path / "small.csv", 120, d=3, centers=3, seed=1, label=True)
    out = tmp_path / "out"
    for target, why in ((Path("/proc/mine.yaml"), "cannot be written"),
                        (tmp_path / "no" / "mine.yaml", "no directory")):
        line = refused(mtc("select", path, "--label-column", "label", "--k", "1..4",
                           "--out", out, "--save-config", target, cwd=tmp_path), out)
        assert line.startswith(f"mtc: error: --save-config {target}: {why}"), line


@pytest.mark.parametrize("kind", ["fifo", "fifo_written", "zero", "null", "pipe"])
def test_a_data_path_that_is_no_file_says_what_it_is(tmp_path, kind):
    source = blobs_csv(tmp_path / "small.csv", 60, label=False)
    out = tmp_path / "out"
    if kind in ("fifo", "fifo_written"):
        path = tmp_path / "f.csv"
        os.mkfifo(path)
        if kind == "fifo_written":  # a writer waiting on the pipe
            writer = subprocess.Popen(["sh", "-c", f"cat {source} > {path}"])
        proc = mtc("select", path, "--k", "1..3", "--out", out, cwd=tmp_path)
        if kind == "fifo_written":
            with open(path, "rb") as fh:  # release the writer
                fh.read()
            writer.wait(timeout=30)
        what = "a named pipe"
    elif kind == "pipe":
        proc = subprocess.run(["bash", "-c", f'{sys.executable} -m mtc_cli.cli select '
                               f'<(cat {source}) --k 1..3 --out {out}'], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
        what = "a named pipe"
    else:
        proc = mtc("select", f"/dev/{kind}", "--format", "csv", "--k", "1..3", "--out", out,
                   cwd=tmp_path)
        what = "a device"
    line = refused(proc, out)
    assert f": is {what}, not a data file: " in line and "save them to a file first" in line


def test_an_animation_says_which_frame_it_reads(tmp_path):
    frames = [Image.fromarray((np.random.default_rng(i).random((64, 64)) * 255)
                              .astype("uint8")) for i in range(3)]
    path = tmp_path / "anim.gif"
    frames[0].save(path, save_all=True, append_images=frames[1:])
    proc = finished(mtc("select", path, "--k", "1..4", *FAST, "--out", tmp_path / "out",
                        cwd=tmp_path))
    assert "the first of its 3 frames (an animation or a multi-page file)" in proc.stdout


# --- mtc render on a damaged run -----------------------------------------------------------------


@pytest.fixture(scope="module")
def auto_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("auto")
    path = blobs_csv(tmp / "n30.csv", 30)
    finished(mtc("select", path, "--model", "auto", "-j", "2", *FAST, "--out", tmp / "run",
                 cwd=tmp))
    return tmp


@pytest.mark.parametrize("damage", ["stability_cut", "auto_gone"])
def test_render_refuses_a_damaged_auto_run(auto_run, tmp_path, damage):
    run = tmp_path / "run"
    shutil.copytree(auto_run / "run", run)
    figure = (run / "select.png").read_bytes()
    if damage == "stability_cut":
        data = (run / "stability.csv").read_bytes()
        (run / "stability.csv").write_bytes(data[:len(data) // 2])
        why = "stability.csv: cut short"
    else:
        (run / "auto.csv").unlink()
        why = "auto.csv: missing from the run directory"
    line = refused(mtc("render", run, cwd=auto_run))
    assert why in line
    assert (run / "select.png").read_bytes() == figure


# --- the Python API ------------------------------------------------------------------------------

SMALL = {"splits": 2, "references": 2, "clest_references": 1, "clest_splits": 2}


def small_selector(**params):
    from mtc_cli import OrderSelector

    return OrderSelector(**{"model": "kmeans", "k": (1, 3), **SMALL, **params})


def api_blobs(n: int = 80):
    """Two blobs: k = 2 lies inside the selectors' range 1..3, where a choice of its largest
    k abstains."""
    return make_blobs(n, 2, centers=2, random_state=0)


@pytest.mark.parametrize("kind", ["None", "RandomState"])
def test_a_drawn_random_state_fits_and_repeats(kind):
    X, _ = api_blobs()
    state = None if kind == "None" else np.random.RandomState(0)
    sel = small_selector(random_state=state).fit(X)
    assert isinstance(sel.random_state_, int) and sel.k_ is not None
    again = small_selector(random_state=sel.random_state_).fit(X)
    pd.testing.assert_frame_equal(sel.results_, again.results_)


def test_k_as_an_int_is_the_range_up_to_it():
    X, _ = api_blobs()
    sel = small_selector(k=3).fit(X)
    assert (sel.settings_.k_lo, sel.settings_.k_hi) == (1, 3)


def test_y_of_another_length_is_refused():
    X, y = api_blobs()
    with pytest.raises(ValueError, match=r"^y must hold one entry per row of X"):
        small_selector().fit(X, y[:2])


@pytest.mark.parametrize("model", ["auto", "kmeans"])
def test_identical_rows_are_refused(model):
    from mtc_cli.selection.estimator import DataRefused

    with pytest.raises(DataRefused, match="all 40 rows are identical"):
        small_selector(model=model).fit(np.ones((40, 2)))


def test_a_refit_keeps_nothing_of_the_fit_before():
    X, _ = api_blobs()
    sel = small_selector().fit(X)
    assert len(sel.labels_) == 80
    sel.set_params(model="svd", k=(1, 2)).fit(X[:40])
    assert not hasattr(sel, "labels_") and sel.settings_.model == "svd"
