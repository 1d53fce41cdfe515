"""SVD image denoising (MTC Sect. 4.1, Fig. 2): image I/O and patches, the truncated SVD,
the all-ranks transfer cost of eq. 7 and the experiment end to end, each checked by an
independent route (loops, per-k factorizations, Eckart–Young, known PSNR limits)."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from PIL import Image

from mtc_cli.core.criteria.transfer_cost import svd_transfer_costs, transfer_cost
from mtc_cli.core.datasets import images
from mtc_cli.core.errors import MtcError
from mtc_cli.core.mappings import nearest_neighbour
from mtc_cli.core.models import svd

LENA = "data/lena/lena512_gray.png"


# --- images -------------------------------------------------------------------------------

def test_patches_match_loops_and_round_trip():
    rng = np.random.default_rng(0)
    img = rng.normal(size=(12, 8))
    X = images.to_patches(img, 4)
    assert X.shape == (6, 16)
    i = 0
    for r in range(0, 12, 4):  # patch grid row-major, pixels row-major inside a patch
        for c in range(0, 8, 4):
            np.testing.assert_array_equal(X[i], img[r:r + 4, c:c + 4].ravel())
            i += 1
    np.testing.assert_array_equal(images.from_patches(X, img.shape, 4), img)
    with pytest.raises(ValueError):
        images.to_patches(img, 5)


def test_crop_and_downsample():
    img = np.arange(7 * 10, dtype=float).reshape(7, 10)
    assert images.crop_to_patches(img, 3).shape == (6, 9)
    np.testing.assert_array_equal(images.crop_to_patches(img, 3), img[:6, :9])
    small = images.downsample(img, 2)
    assert small.shape == (3, 5)
    assert small[1, 2] == np.mean(img[2:4, 4:6])
    assert images.downsample(img, 1) is img


def test_load_grey_colour_and_16_bit(tmp_path):
    rng = np.random.default_rng(1)
    rgb = rng.integers(0, 256, size=(9, 7, 3), dtype=np.uint8)
    Image.fromarray(rgb).save(tmp_path / "c.png")
    Image.fromarray(np.dstack([rgb, np.full((9, 7), 128, np.uint8)])).save(tmp_path / "a.png")
    lum = images.load_luminance(tmp_path / "c.png")
    ref = 0.299 * rgb[..., 0] + 0.587 * rgb[..., 1] + 0.114 * rgb[..., 2]
    np.testing.assert_allclose(lum, ref, atol=1e-12)
    np.testing.assert_allclose(images.load_luminance(tmp_path / "a.png"), ref, atol=1e-12)
    # Pillow's own 8-bit luminance differs only by its rounding to integers
    assert np.abs(lum - np.asarray(Image.fromarray(rgb).convert("L"))).max() <= 1.0
    grey = rgb[..., 0]
    Image.fromarray(grey).save(tmp_path / "g.png")
    np.testing.assert_array_equal(images.load_luminance(tmp_path / "g.png"), grey)
    Image.fromarray(grey.astype(np.uint16) * 257).save(tmp_path / "g16.png")
    np.testing.assert_allclose(images.load_luminance(tmp_path / "g16.png"), grey, atol=1e-9)
    (tmp_path / "bad.png").write_text("not an image")
    with pytest.raises(MtcError, match="cannot read"):
        images.load_luminance(tmp_path / "bad.png")


def test_psnr_by_hand():
    a = np.zeros((4, 4))
    assert images.psnr(a, a + 1.0) == pytest.approx(20 * np.log10(255.0))
    assert images.psnr(a, a + 255.0) == pytest.approx(0.0)
    assert images.psnr(a, a) == float("inf")


# --- truncated SVD --------------------------------------------------------------------------

@pytest.fixture
def matrix():
    return np.random.default_rng(2).normal(size=(40, 6)) @ np.diag([5, 4, 3, 2, 1, 0.5])


def test_reconstructions_match_per_k_svd_and_eckart_young(matrix):
    sol = svd.fit(matrix)
    recs = list(svd.reconstructions(sol))
    assert len(recs) == sol.rank == 6
    for k, Xk in enumerate(recs, start=1):
        U, s, Vt = np.linalg.svd(matrix, full_matrices=False)  # an independent factorization
        np.testing.assert_allclose(Xk, (U[:, :k] * s[:k]) @ Vt[:k], atol=1e-10)
        assert np.linalg.matrix_rank(Xk) == k
        # Eckart–Young: the residual's squared norm is the sum of the dropped s_l²
        assert np.sum((matrix - Xk) ** 2) == pytest.approx(np.sum(s[k:] ** 2))
    np.testing.assert_allclose(recs[-1], matrix, atol=1e-10)


# --- transfer cost, eq. 7 -------------------------------------------------------------------

def test_svd_transfer_costs_match_brute_force(matrix):
    rng = np.random.default_rng(3)
    X1, X2 = matrix[:25], matrix[25:] + rng.normal(size=(15, 6))
    psi = nearest_neighbour(X1, X2)
    sol = svd.fit(X1)
    costs = svd_transfer_costs(sol, X2, psi)
    assert costs.shape == (6,)
    for k in range(1, 7):
        rec = (sol.U[:, :k] * sol.s[:k]) @ sol.Vt[:k]  # U_k S_k V_kᵀ
        # eq. 7 term by term, and through eq. 3 with the (N2, N1) matrix of partial costs
        loop = np.mean([np.sum((X2[i] - rec[psi[i]]) ** 2) for i in range(len(X2))])
        partial = ((X2[:, None, :] - rec[None, :, :]) ** 2).sum(axis=2)
        assert costs[k - 1] == pytest.approx(loop, rel=1e-12)
        assert costs[k - 1] == pytest.approx(transfer_cost(partial, psi), rel=1e-12)


def test_svd_transfer_cost_identity_mapping_is_training_error(matrix):
    # X² = X¹ and ψ = identity: the cost is the rank-k training error Σ_{l>k} s_l² / N
    sol = svd.fit(matrix)
    costs = svd_transfer_costs(sol, matrix, np.arange(len(matrix)))
    expected = [np.sum(sol.s[k:] ** 2) / len(matrix) for k in range(1, 7)]
    np.testing.assert_allclose(costs, expected, atol=1e-9)


def test_svd_transfer_costs_rank_deficient_x1():
    # fewer rows in X¹ than dimensions: ranks offered stop at N1
    rng = np.random.default_rng(4)
    X1, X2 = rng.normal(size=(3, 5)), rng.normal(size=(4, 5))
    psi = nearest_neighbour(X1, X2)
    sol = svd.fit(X1)
    costs = svd_transfer_costs(sol, X2, psi)
    assert costs.shape == (3,)
    assert costs[-1] == pytest.approx(np.mean(np.sum((X2 - X1[psi]) ** 2, axis=1)))
    with pytest.raises(ValueError):
        svd_transfer_costs(sol, X2[:, :4], psi)


# --- the experiment -----------------------------------------------------------------------

def test_full_rank_psnr_is_the_noisy_image(root):
    from experiments.svd_denoising import experiment

    task = {"sigma": 20.0, "rep": 0, "image": LENA, "image_sha256": "", "patch": 8,
            "downsample": 2}
    rows = pd.DataFrame(experiment.run_task(task, np.random.default_rng(5)))
    psnr = rows[rows["criterion"] == "psnr"].set_index("k")["score"]
    mtc = rows[rows["criterion"] == "mtc"].set_index("k")["score"]
    assert list(psnr.index) == list(mtc.index) == list(range(1, 65))
    # rank 64 of a 64-column matrix reproduces the noisy image: PSNR ≈ 20 log10(255/σ)
    assert psnr[64] == pytest.approx(20 * np.log10(255 / 20), abs=0.15)
    assert psnr.max() > psnr[64] + 2  # denoising helps
    assert 1 < psnr.idxmax() < 64 and 1 < mtc.idxmin() < 64
    # the same rng gives the same rows (all randomness from the task's generator)
    again = pd.DataFrame(experiment.run_task(task, np.random.default_rng(5)))
    pd.testing.assert_frame_equal(rows, again)


def test_check_rejects_bad_sigma_and_tiny_image(tmp_path):
    from experiments.svd_denoising import Params, experiment

    with pytest.raises(MtcError, match="sigma"):
        experiment.check(Params(sigma=[0.0, 10.0]))
    Image.fromarray(np.zeros((10, 12), np.uint8)).save(tmp_path / "tiny.png")
    with pytest.raises(MtcError, match="patch"):
        experiment.check(Params(image=tmp_path / "tiny.png"))


def _run(root, out, *extra):
    return subprocess.run([sys.executable, "-m", "mtc_cli.cli", "run",
                           str(root / "configs" / "svd_lenna.yaml"), "--quick",
                           "--out", str(out), *extra],
                          capture_output=True, text=True, cwd=root, timeout=120)


def test_quick_profile_end_to_end(root, tmp_path):
    res = _run(root, tmp_path)
    assert res.returncode == 0, res.stderr
    for name in ("rows.csv", "summary.csv", "gaps.csv", "overall.csv", "image.csv",
                 "targets.csv", "run.json", "svd_lenna.png"):
        assert (tmp_path / name).is_file(), name
    rows = pd.read_csv(tmp_path / "rows.csv")
    assert set(rows["criterion"]) == {"mtc", "psnr"}
    assert np.isfinite(rows["score"]).all()
    summary = pd.read_csv(tmp_path / "summary.csv")
    assert {"selected_k", "oracle_k", "psnr_db", "gap_db"} <= set(summary.columns)
    gaps = pd.read_csv(tmp_path / "gaps.csv")
    assert (gaps["gap"] >= 0).all() and np.isfinite(gaps.to_numpy(float)).all()
    # the gap table agrees with the rows: the oracle's PSNR is the best of each rep's curve
    best = rows[rows["criterion"] == "psnr"].groupby(["sigma", "rep"])["score"].max()
    assert gaps["psnr_oracle"].to_numpy() == pytest.approx(
        best.groupby("sigma").mean().to_numpy())


def test_other_colour_image_is_cropped(root, tmp_path):
    # a smooth colour image whose sides are not multiples of 8
    y, x = np.mgrid[0:75, 0:90]
    rgb = np.dstack([128 + 100 * np.sin(x / 9), 128 + 100 * np.cos(y / 7),
                     (x + y) % 256]).astype(np.uint8)
    Image.fromarray(rgb).save(tmp_path / "colour.png")
    out = tmp_path / "run"
    res = _run(root, out, "--set", f"image={tmp_path / 'colour.png'}", "--set", "downsample=1")
    assert res.returncode == 0, res.stderr
    assert "cropped to the top-left 72×88" in res.stderr
    info = pd.read_csv(out / "image.csv").iloc[0]
    assert (info["used_height"], info["used_width"], info["n_patches"]) == (72, 88, 99)
    assert (out / "svd_lenna.png").is_file()
