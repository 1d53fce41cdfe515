"""Images as patch matrices (Frank et al. 2011, Sect. 4.1): loading with Pillow, colour →
luminance, non-overlapping p×p patches as the rows of X, reassembly, and PSNR.

Pixel values are floats on the 8-bit scale 0..255, so noise levels σ are in grey levels.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
from PIL import Image, UnidentifiedImageError

from mtc_cli.core.errors import MtcError

#: ITU-R BT.601 luma weights of R, G, B (the weights of Pillow's ``convert("L")``)
LUMA = np.array([0.299, 0.587, 0.114])
#: peak signal value of the 0..255 scale, for PSNR
PEAK = 255.0
#: the largest image read (50 megapixels: 400 MB as float64 luminance); larger ones are
#: refused before they are decoded
MAX_PIXELS = 50_000_000


def load_luminance(path: Path, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """The image at ``path`` as a float (H, W) array of luminance on 0..255.

    8-bit grey is taken as is; 16-bit grey (Pillow modes ``I;16*``) is rescaled by
    255/65535; every other mode Pillow can turn into RGB (colour, palette, bilevel,
    CMYK, with or without alpha — alpha is dropped) becomes BT.601 luminance, computed in
    floating point without rounding. Multi-frame files: the first frame. An image of more
    than ``max_pixels`` pixels is refused from its header, before it is decoded.
    """
    try:
        with warnings.catch_warnings():  # our own limit guards the size, not Pillow's
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            im = Image.open(path)
        with im:
            width, height = im.size  # read from the header: nothing decoded yet
            if width * height > max_pixels:
                raise MtcError(f"{path}: the image has {width}×{height} = {width * height:,} "
                               f"pixels, more than the {max_pixels:,} mtc reads")
            mode = im.mode
            if mode == "L":
                return np.asarray(im, dtype=np.float64)
            if mode.startswith("I;16"):
                return np.asarray(im, dtype=np.float64) * (PEAK / 65535.0)
            if mode in ("I", "F"):
                raise MtcError(f"{path}: image mode {mode!r} (32-bit) has no known grey "
                               "scale; save it as 8- or 16-bit")
            return luminance(np.asarray(im.convert("RGB"), dtype=np.float64))
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError) as exc:
        raise MtcError(f"{path}: cannot read the image: {exc}") from None


def luminance(rgb: np.ndarray) -> np.ndarray:
    """Y = 0.299 R + 0.587 G + 0.114 B (ITU-R BT.601) of an (H, W, 3) array."""
    return np.asarray(rgb, dtype=np.float64) @ LUMA


def downsample(img: np.ndarray, factor: int) -> np.ndarray:
    """Mean over non-overlapping ``factor``×``factor`` blocks (sides cropped to multiples)."""
    if factor == 1:
        return img
    h, w = (s // factor * factor for s in img.shape)
    return img[:h, :w].reshape(h // factor, factor, w // factor, factor).mean(axis=(1, 3))


def crop_to_patches(img: np.ndarray, p: int) -> np.ndarray:
    """The top-left part of ``img`` whose sides are multiples of ``p`` (the rest is cut)."""
    h, w = (s // p * p for s in img.shape)
    return img[:h, :w]


def to_patches(img: np.ndarray, p: int) -> np.ndarray:
    """The matrix X of Sect. 4.1: one row per non-overlapping p×p patch (patches in
    row-major order over the patch grid, pixels row-major within a patch).

    The sides of ``img`` must be multiples of ``p`` (see :func:`crop_to_patches`).
    """
    h, w = img.shape
    if h % p or w % p:
        raise ValueError(f"image {img.shape} is not tiled by {p}×{p} patches")
    return img.reshape(h // p, p, w // p, p).swapaxes(1, 2).reshape(-1, p * p)


def from_patches(X: np.ndarray, shape: tuple[int, int], p: int) -> np.ndarray:
    """Inverse of :func:`to_patches`: reassemble the image of ``shape`` from patch rows."""
    h, w = shape
    return np.asarray(X).reshape(h // p, w // p, p, p).swapaxes(1, 2).reshape(h, w)


def psnr(reference: np.ndarray, estimate: np.ndarray, peak: float = PEAK) -> float:
    """Peak signal-to-noise ratio in dB, 10 log₁₀(peak² / MSE); ``inf`` if identical."""
    mse = float(np.mean((np.asarray(estimate) - np.asarray(reference)) ** 2))
    return float("inf") if mse == 0.0 else 10.0 * np.log10(peak * peak / mse)
