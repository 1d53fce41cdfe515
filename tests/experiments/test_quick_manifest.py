"""The quick profiles' CSVs against a committed manifest of their sha256 digests.

Written before the structural step of issue 28 (modules moved into layers, the experiments
split) so that the step is shown to move no number: every CSV that ``make figures`` writes
under ``results/quick/`` must be byte for byte what it was. Bytes depend on the CPU's
kernels (OpenBLAS picks AVX-512 or Haswell kernels; numpy and numba dispatch on the CPU's
features) and on the libraries' versions, so the manifest holds one set of digests per
*platform* (:func:`platform`); on a platform it does not know the test skips and says so.

``python tests/experiments/test_quick_manifest.py`` adds this platform's digests of the present
``results/quick/`` (after ``make figures`` on a clean tree) to the manifest.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
QUICK = ROOT / "results" / "quick"
MANIFEST = Path(__file__).resolve().parents[1].joinpath("data") / "quick_manifest.json"


def platform() -> str:
    """OpenBLAS's kernel architecture, whether the CPU has AVX-512F, and the versions of
    the libraries whose arithmetic or formatting reaches the CSVs."""
    from importlib.metadata import version

    import numpy as np
    from threadpoolctl import threadpool_info

    arch = sorted({i.get("architecture") or "?" for i in threadpool_info()
                   if i.get("internal_api") == "openblas"})
    try:
        features = np._core._multiarray_umath.__cpu_features__
    except AttributeError:  # numpy < 2
        features = np.core._multiarray_umath.__cpu_features__
    libs = [f"{p}={version(p)}" for p in ("numpy", "scipy", "scikit-learn", "pandas", "numba")]
    return " ".join(["openblas=" + "+".join(arch),
                     "avx512f=" + str(bool(features.get("AVX512F"))).lower(), *libs])


def digests(root: Path) -> dict[str, str]:
    """sha256 of every CSV under ``root`` (task caches left out), by relative path."""
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*.csv")) if "tasks" not in p.relative_to(root).parts}


@pytest.mark.slow
def test_quick_profiles_csvs_are_those_of_the_manifest():
    """Run after ``make figures`` (CI does): every quick CSV of the manifest is present with
    its digest, and there is none the manifest does not list."""
    known = json.loads(MANIFEST.read_text())
    here = platform()
    if here not in known:
        pytest.skip(f"no quick-output digests for this platform ({here}); "
                    f"known: {'; '.join(known)}")
    if not QUICK.is_dir():
        pytest.skip("results/quick/ is absent: run `make figures` first")
    found, expected = digests(QUICK), known[here]
    assert sorted(found) == sorted(expected), "quick CSVs added or missing"
    moved = [p for p in expected if found[p] != expected[p]]
    assert not moved, f"quick CSVs changed: {moved}"


if __name__ == "__main__":
    known = json.loads(MANIFEST.read_text()) if MANIFEST.is_file() else {}
    known[platform()] = digests(QUICK)
    MANIFEST.write_text(json.dumps(known, indent=1, sort_keys=True) + "\n")
    print(f"{MANIFEST}: {len(known[platform()])} CSVs for {platform()}")
