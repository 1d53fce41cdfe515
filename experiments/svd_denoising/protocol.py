"""What ``svd_denoising`` computes: its parameters, its tasks and the rows of one task — the
code its code version holds (nothing here imports its tables, its figures or the show
layer)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from mtc_cli.core.criteria.transfer_cost import svd_transfer_costs
from mtc_cli.core.datasets import images
from mtc_cli.core.errors import MtcError
from mtc_cli.core.files import file_sha256
from mtc_cli.core.mappings import nearest_neighbour
from mtc_cli.core.models import svd
from mtc_cli.run.experiment import Experiment
from mtc_cli.run.params import PROJECT_ROOT, param, to_plain

CRITERIA = {"mtc": "min", "psnr": "max"}


@dataclass(frozen=True)
class Params:
    image: Path = param(PROJECT_ROOT / "data" / "lena" / "lena512_gray.png",
                        help="image file, grey or colour (colour → BT.601 luminance)")
    patch: int = param(8, help="patch side p: rows of X are p×p patches (D = p²); "
                               "image sides are cropped to multiples of p", min=1, max=32)
    downsample: int = param(1, help="average f×f pixel blocks of the image first "
                                    "(1 = full resolution)", min=1)
    sigma: list[float] = param([float(s) for s in range(5, 101, 5)],
                               help="grid of noise std σ in grey levels (0..255 scale), > 0",
                               min=0.0)
    reps: int = param(20, help="noise draws × random splits per σ", min=1)


def image_info(p: Params) -> dict:
    """Sizes of the image as loaded, after downsampling and after cropping to patches."""
    raw = images.load_luminance(p.image)
    small = images.downsample(raw, p.downsample)
    used = images.crop_to_patches(small, p.patch)
    return {"image": Path(p.image).name, "height": raw.shape[0], "width": raw.shape[1],
            "downsample": p.downsample, "used_height": used.shape[0],
            "used_width": used.shape[1], "cropped_rows": small.shape[0] - used.shape[0],
            "cropped_cols": small.shape[1] - used.shape[1], "patch": p.patch,
            "n_patches": used.size // p.patch**2, "dim": p.patch**2}


@lru_cache(maxsize=4)
def clean_image(path: str, downsample: int, patch: int) -> np.ndarray:
    """The noise-free image the task works on (loaded once per process, read-only)."""
    img = images.crop_to_patches(
        images.downsample(images.load_luminance(Path(path)), downsample), patch)
    img.setflags(write=False)
    return img


class SvdDenoisingProtocol(Experiment):
    name = "svd_denoising"
    description = "MTC Fig. 2 — SVD rank for image denoising: MTC vs the PSNR-optimal rank"
    Params = Params
    condition = ("sigma",)
    select = CRITERIA

    def check(self, p: Params) -> None:
        bad = [s for s in p.sigma if s <= 0]
        if bad or not p.sigma:
            raise MtcError(f"key 'sigma': expected noise levels > 0 (σ = 0 has infinite "
                           f"PSNR at full rank), got {p.sigma}")
        info = image_info(p)
        if info["n_patches"] < 2:
            raise MtcError(f"key 'image': {p.image} gives {info['n_patches']} patch(es) of "
                           f"{p.patch}×{p.patch} after downsampling by {p.downsample}; "
                           "need at least 2")
        if info["cropped_rows"] or info["cropped_cols"]:
            print(f"note: {info['image']}: sides are not multiples of patch={p.patch}; "
                  f"cropped to the top-left {info['used_height']}×{info['used_width']} "
                  f"pixels (cut {info['cropped_rows']} rows, {info['cropped_cols']} columns)",
                  file=sys.stderr)

    def tasks(self, p: Params) -> list[dict]:
        # the file's hash is part of each task's cache key: an edited image is recomputed
        shared = {"image": to_plain(p.image), "image_sha256": file_sha256(p.image),
                  "patch": p.patch, "downsample": p.downsample}
        return [{"sigma": s, "rep": r, **shared} for s in p.sigma for r in range(p.reps)]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        path = Path(task["image"])
        path = path if path.is_absolute() else PROJECT_ROOT / path
        clean = clean_image(str(path), task["downsample"], task["patch"])
        p, sigma = task["patch"], task["sigma"]
        X = images.to_patches(clean + sigma * rng.standard_normal(clean.shape), p)

        # oracle: rank-k SVD of all noisy patches → reassembled image → PSNR vs clean
        psnr = [images.psnr(clean, images.from_patches(Xk, clean.shape, p))
                for Xk in svd.reconstructions(svd.fit(X))]

        # MTC: random halves, one nearest-neighbour map and one SVD of X¹ for all ranks
        perm = rng.permutation(len(X))
        X1, X2 = X[perm[:len(X) // 2]], X[perm[len(X) // 2:]]
        costs = svd_transfer_costs(svd.fit(X1), X2, nearest_neighbour(X1, X2))

        base = {"sigma": sigma, "rep": task["rep"]}
        return ([{**base, "criterion": "mtc", "k": k, "score": float(c)}
                 for k, c in enumerate(costs, start=1)]
                + [{**base, "criterion": "psnr", "k": k, "score": v}
                   for k, v in enumerate(psnr, start=1)])
