"""A full disk never loses finished work: a real small filesystem (tmpfs, mounted as root)
filled at each stage of a run — set-up, tasks, outputs. Set-up errors are one line with
exit 2 and leave nothing behind; a disk that fills during the tasks or the outputs is exit
1 with the resume hint, every finished task stays cached and the rerun resumes from it.

Marked ``reliability`` (``make test-reliability``); skipped, saying why, where no tmpfs
can be mounted (not root)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.reliability

ROOT = Path(__file__).resolve().parents[2]
PAGE = os.sysconf("SC_PAGE_SIZE")
RUN = ("run", ROOT / "configs" / "gmm_overlap.yaml", "--quick", "--set", "reps=2")


def mtc(*args, cwd):
    return subprocess.run([sys.executable, "-m", "mtc_cli.cli", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture
def small_disk(tmp_path):
    """A 2 MiB tmpfs; ``fill(pages)`` leaves exactly that many free pages."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")

    def fill(pages: int) -> None:
        st = os.statvfs(mount)
        free = st.f_bavail * st.f_frsize // PAGE
        with open(mount / f".filler-{uuid.uuid4().hex}", "wb") as fh:
            fh.write(b"\0" * (free - pages) * PAGE)
        assert os.statvfs(mount).f_bavail * os.statvfs(mount).f_frsize // PAGE == pages

    yield mount, fill
    subprocess.run(["umount", "-l", str(mount)], check=False)


def pages_of(directory: Path) -> dict[str, int]:
    """Pages a file of ``directory`` takes on a tmpfs (at least one each)."""
    return {p.name: max(1, -(-p.stat().st_size // PAGE)) for p in directory.iterdir()
            if p.is_file()}


@pytest.fixture(scope="module")
def sizes(tmp_path_factory):
    """The pages of a complete run: its config.json, lock and task entries."""
    out = tmp_path_factory.mktemp("sizes") / "run"
    assert mtc(*RUN, "--out", out, cwd=ROOT).returncode == 0
    tasks = sorted(pages_of(out / "tasks").values())
    return {"config": pages_of(out)["config.json"], "tasks": tasks}


def test_no_room_for_set_up_is_one_line_and_leaves_nothing(small_disk):
    mount, fill = small_disk
    fill(0)
    done = mtc(*RUN, "--out", mount / "run", cwd=ROOT)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "No space left on device" in done.stderr and "Traceback" not in done.stderr
    assert not (mount / "run").exists()


def test_a_disk_full_during_the_tasks_keeps_the_finished_ones(small_disk, sizes):
    mount, fill = small_disk
    # config.json, the lock, the first two task entries and one temporary file
    fill(sizes["config"] + 1 + sum(sizes["tasks"][:2]) + max(sizes["tasks"]))
    done = mtc(*RUN, "--out", mount / "run", "-j", "1", cwd=ROOT)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "No space left on device" in done.stderr and "run the same command" in done.stderr
    kept = list((mount / "run" / "tasks").glob("*.json"))
    assert 2 <= len(kept) < len(sizes["tasks"])
    for entry in kept:  # every kept entry is whole
        assert json.loads(entry.read_text())["rows"]
    for filler in mount.glob(".filler-*"):
        filler.unlink()
    again = mtc(*RUN, "--out", mount / "run", cwd=ROOT)
    assert again.returncode == 0, again.stderr
    assert f"{len(kept)} from cache" in again.stdout


def test_a_disk_full_while_writing_the_outputs_keeps_every_task(small_disk, sizes):
    mount, fill = small_disk
    n = len(sizes["tasks"])
    fill(sizes["config"] + 1 + sum(sizes["tasks"]) + max(sizes["tasks"]))
    done = mtc(*RUN, "--out", mount / "run", cwd=ROOT)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "No space left on device" in done.stderr
    assert len(list((mount / "run" / "tasks").glob("*.json"))) == n
    assert not list((mount / "run").glob(".stage-*"))  # the staged tables are gone
    for filler in mount.glob(".filler-*"):
        filler.unlink()
    again = mtc(*RUN, "--out", mount / "run", cwd=ROOT)
    assert again.returncode == 0 and f"0 tasks computed, {n} from cache" in again.stdout
