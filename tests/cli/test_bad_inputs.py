"""Every bad input of the reliability review (``tests/data/bad-inputs.tsv``: 68 cases)
as a real ``mtc`` process: an error is one line on stderr, exit status 2, no traceback and
nothing written; the cases the review marks as valid run. Then the four cache corruptions,
a code change, target injections from a config, from ``--set`` and from a planted run
directory, the lock of a run directory, file modes under the umask and SIGTERM.

Marked ``reliability``: a CI step of its own (``make test-reliability``), outside the
time budget of ``make test``.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest
import yaml
from conftest import finished, mtc, refused
from PIL import Image

pytestmark = pytest.mark.reliability

ROOT = Path(__file__).resolve().parents[2]
GMM = yaml.safe_load((ROOT / "configs" / "gmm_overlap.yaml").read_text())
LENNA = yaml.safe_load((ROOT / "configs" / "svd_lenna.yaml").read_text())
ERROR = "error"


def tree(path: Path) -> set:
    return {str(p.relative_to(path)) for p in path.rglob("*")}


def write_config(tmp: Path, data, name="c.yaml") -> Path:
    path = tmp / name
    path.write_text(data if isinstance(data, str) else yaml.safe_dump(data, sort_keys=False))
    return path


def gmm(**changes) -> dict:
    return {**GMM, **changes}


def bomb(key: str) -> str:
    """A "billion laughs" document: nine levels of nine aliases, the last under ``key``."""
    lines = ["experiment: gmm_overlap", "l0: &l0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 9)]
    return "\n".join([*lines, f"{key}: *l8", ""])


def png_claiming(path: Path, width: int, height: int) -> Path:
    """A small valid PNG whose header claims ``width`` × ``height`` pixels."""
    Image.new("L", (8, 8)).save(path)
    data = bytearray(path.read_bytes())
    ihdr = 8 + 8  # signature, then length + "IHDR"
    data[ihdr:ihdr + 8] = struct.pack(">II", width, height)
    crc = zlib.crc32(bytes(data[ihdr - 4:ihdr + 13]))
    data[ihdr + 13:ihdr + 17] = struct.pack(">I", crc)
    path.write_bytes(bytes(data))
    return path


def lenna_with(tmp: Path, image) -> list:
    return ["run", write_config(tmp, {**LENNA, "image": str(image)}), "--quick"]


# case → (want, a function of the temporary directory giving the arguments of mtc)
CASES = {
    "01_misspelt_key": (ERROR, lambda t: ["run", write_config(t, gmm(nn=100)), "--quick"]),
    "02_set_misspelt": (ERROR, lambda t: ["run", write_config(t, GMM), "--quick", "--set",
                                          "nn=5"]),
    "03_wrong_type": (ERROR, lambda t: ["run", write_config(t, gmm(reps="x")), "--quick"]),
    "04_n0": (ERROR, lambda t: ["run", write_config(t, GMM), "--set", "n=0"]),
    "05_n-5": (ERROR, lambda t: ["run", write_config(t, GMM), "--set", "n=-5"]),
    "06_n1e12_str": (ERROR, lambda t: ["run", write_config(t, GMM), "--set", "n=1e12"]),
    "07_n1e12_int": (ERROR, lambda t: ["run", write_config(t, GMM), "--set",
                                       "n=1000000000000"]),
    "08_kmax0": (ERROR, lambda t: ["run", write_config(t, GMM), "--set", "k_max=0"]),
    "09_kmax999": (ERROR, lambda t: ["run", write_config(t, GMM), "--set", "k_max=999"]),
    "10_sigma_nan": (ERROR, lambda t: ["run", write_config(t, GMM), "--quick", "--set",
                                       "sigma_over_d=[.nan]"]),
    "11_sigma_inf": (ERROR, lambda t: ["run", write_config(t, GMM), "--quick", "--set",
                                       "sigma_over_d=[.inf]"]),
    "12_sigma_empty": (ERROR, lambda t: ["run", write_config(t, GMM), "--quick", "--set",
                                         "sigma_over_d=[]"]),
    "13_yaml_list": (ERROR, lambda t: ["run", write_config(t, "- a\n- b\n")]),
    "14_yaml_scalar": (ERROR, lambda t: ["run", write_config(t, "42\n")]),
    "15_yaml_empty": (ERROR, lambda t: ["run", write_config(t, "")]),
    "16_binary_random": (ERROR, lambda t: ["run", _binary(t, os.urandom(4096))]),
    "17_binary_elf": (ERROR, lambda t: ["run", _binary(t, Path(sys.executable).read_bytes()[
        :65536])]),
    "18_unknown_exp": (ERROR, lambda t: ["run", write_config(t, gmm(
        experiment="gmm_overlapp"))]),
    "19_exp_os": (ERROR, lambda t: ["run", write_config(t, {"experiment": "os"})]),
    "20_exp_this": (ERROR, lambda t: ["run", write_config(t, {"experiment": "this"})]),
    "21_exp_int": (ERROR, lambda t: ["run", write_config(t, {"experiment": 5})]),
    "22_malformed": (ERROR, lambda t: ["run", write_config(t, "experiment: gmm_overlap\n"
                                                              "n: [1, 2\nk_max: 3\n")]),
    "23_missing_file": (ERROR, lambda t: ["run", t / "nope.yaml"]),
    "24_config_is_dir": (ERROR, lambda t: ["run", _mkdir(t / "adir")]),
    "25_wrongtype_noquick": (ERROR, lambda t: ["run", write_config(t, gmm(n="abc"))]),
    "26_wrongtype_masked_by_quick": (ERROR, lambda t: ["run", write_config(t, gmm(n="abc")),
                                                       "--quick"]),
    "27_set_noeq": (ERROR, lambda t: ["run", write_config(t, GMM), "--set", "n"]),
    "28_set_emptykey": (ERROR, lambda t: ["run", write_config(t, GMM), "--set", "=5"]),
    "29_set_badyaml": (ERROR, lambda t: ["run", write_config(t, GMM), "--set",
                                         "sigma_over_d=[0.1,"]),
    "30_set_index_oob": (ERROR, lambda t: ["run", write_config(t, GMM), "--set",
                                           "centres.9.0=1"]),
    "31_set_seed_neg": (ERROR, lambda t: ["run", write_config(t, GMM), "--set", "seed=-1"]),
    "32_set_seed_dotted": (ERROR, lambda t: ["run", write_config(t, GMM), "--quick",
                                             "--set", "seed.x=7"]),
    "33_set_covtype": (ERROR, lambda t: ["run", write_config(t, GMM), "--set",
                                         "covariance_type=fulll"]),
    "34_set_weights_len": (ERROR, lambda t: ["run", write_config(t, GMM), "--set",
                                             "weights=[1,2]"]),
    "35_set_centres_coincide": (ERROR, lambda t: ["run", write_config(t, GMM), "--set",
                                                  "centres=[[0,0],[0,0],[1,1]]"]),
    "36_set_weights_zero": (ERROR, lambda t: ["run", write_config(t, GMM), "--quick",
                                              "--set", "weights=[0,0,0]"]),
    "37_set_dotted_into_scalar": (ERROR, lambda t: ["run", write_config(t, GMM), "--set",
                                                    "n.x=3"]),
    "38_j0": (ERROR, lambda t: ["run", write_config(t, GMM), "-j", "0"]),
    "39_j-2": (ERROR, lambda t: ["run", write_config(t, GMM), "-j", "-2"]),
    "40_out_noparent": ("ok", lambda t: ["run", write_config(t, GMM), "--quick", "--set",
                                         "reps=1", "--out", t / "new" / "deep" / "run"]),
    "41_out_is_file": (ERROR, lambda t: ["run", write_config(t, GMM), "--out",
                                         _file(t / "afile")]),
    "42_shard_3of2": (ERROR, lambda t: ["run", write_config(t, GMM), "--shard", "3/2"]),
    "43_shard_neg": (ERROR, lambda t: ["run", write_config(t, GMM), "--shard", "-1/2"]),
    "44_shard_0of0": (ERROR, lambda t: ["run", write_config(t, GMM), "--shard", "0/0"]),
    "45_merge_empty": (ERROR, lambda t: ["merge", _mkdir(t / "emptydir")]),
    "46_merge_nonexist": (ERROR, lambda t: ["merge", t / "nonexist"]),
    "47_render_nocsv": (ERROR, lambda t: ["render", _half_run(t / "r")]),
    "48_render_empty": (ERROR, lambda t: ["render", _mkdir(t / "r2")]),
    "49_bad_target_expr": (ERROR, lambda t: ["run", write_config(t, gmm(targets=[
        {"claim": "c", "expect": "selected_k ==== 3"}])), "--quick"]),
    "50_quick_is_list": (ERROR, lambda t: ["run", write_config(t, gmm(quick=[1, 2]))]),
    "50b_quick_old": (ERROR, lambda t: ["run", write_config(t, gmm(quick_old={"n": 5}))]),
    "51_scheduler_wo_dask": (ERROR, lambda t: ["run", write_config(t, GMM), "--scheduler",
                                               "tcp://127.0.0.1:1"]),
    "52_dask_bad_scheduler": (ERROR, lambda t: ["run", write_config(t, GMM), "--quick",
                                                "--backend", "dask", "--scheduler",
                                                "tcp://127.0.0.1:1"]),
    "53_cov_int_noquick": (ERROR, lambda t: ["run", write_config(t, gmm(covariance_type=5))]),
    "54_dup_key": (ERROR, lambda t: ["run", write_config(t, "experiment: gmm_overlap\n"
                                                            "n: 100\nreps: 1\nn: 200\n")]),
    "55_yaml_tab": (ERROR, lambda t: ["run", write_config(t, "experiment: gmm_overlap\n"
                                                             "quick:\n\tn: 5\n")]),
    "56_image_notimage": (ERROR, lambda t: lenna_with(t, _file(t / "x.png", b"not an image"))),
    "57_image_trunc": (ERROR, lambda t: lenna_with(t, _truncated_png(t / "trunc.png"))),
    "58_image_bomb20k": (ERROR, lambda t: lenna_with(t, png_claiming(t / "bomb.png", 20000,
                                                                     20000))),
    "59_image_missing": (ERROR, lambda t: lenna_with(t, t / "missing.png")),
    "60_image_empty": (ERROR, lambda t: lenna_with(t, "")),
    "61_cluster_bad": (ERROR, lambda t: ["run", write_config(t, GMM), "--backend", "dask",
                                         "--cluster", write_config(t, {"type": "slurmm"},
                                                                   "cluster.yaml")]),
    "62_yaml_bomb_unknown": (ERROR, lambda t: ["run", write_config(t, bomb("a"))]),
    "63_yaml_bomb_description": (ERROR, lambda t: ["run", write_config(t, bomb(
        "description"))]),
    "64_yaml_50MB_comments": ("ok", lambda t: ["run", write_config(
        t, yaml.safe_dump(gmm(reps=1)) + ("# " + "x" * 1000 + "\n") * 50_000), "--quick",
        "--set", "reps=1"]),
    "65_yaml_50MB_list": (ERROR, lambda t: ["run", write_config(
        t, yaml.safe_dump(GMM) + "junk:\n" + "  - 12345678\n" * 4_000_000)]),
    "66_image_144Mpx": (ERROR, lambda t: lenna_with(t, png_claiming(t / "big.png", 12000,
                                                                    12000))),
    "67_out_immutable_dir": (ERROR, lambda t: ["run", write_config(t, GMM), "--quick",
                                               "--out", _immutable(t / "frozen") / "run"]),
    "68_out_readonly_fs": (ERROR, lambda t: ["run", write_config(t, GMM), "--quick", "--out",
                                             _readonly_mount(t / "ro") / "run"]),
}


def _binary(t: Path, data: bytes) -> Path:
    path = t / "c.yaml"
    path.write_bytes(data)
    return path


def _mkdir(path: Path) -> Path:
    path.mkdir(parents=True)
    return path


def _file(path: Path, data: bytes = b"x") -> Path:
    path.write_bytes(data)
    return path


def _half_run(path: Path) -> Path:
    path.mkdir()
    (path / "config.json").write_text("{}")
    (path / "run.json").write_text("{}")
    return path


def _truncated_png(path: Path) -> Path:
    Image.new("L", (64, 64), 128).save(path)
    path.write_bytes(path.read_bytes()[:60])
    return path


def _immutable(path: Path) -> Path:
    path.mkdir()
    if shutil.which("chattr") is None or subprocess.run(
            ["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available on this filesystem")
    return path


def _readonly_mount(path: Path) -> Path:
    path.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m",
                                            "tmpfs", str(path)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a read-only filesystem here (needs root)")
    return path


def _cleanup(t: Path) -> None:
    for path in (t / "frozen", t / "ro"):
        if path.exists():
            subprocess.run(["chattr", "-i", str(path)], capture_output=True)
            subprocess.run(["umount", str(path)], capture_output=True)


@pytest.mark.parametrize("case", list(CASES))
def test_bad_input(case, tmp_path):
    want, make = CASES[case]
    work = tmp_path / "work"
    work.mkdir()
    try:
        args = make(work)
        before = tree(work)
        proc = mtc(*args, cwd=work)
        after = tree(work)
    finally:
        _cleanup(work)
    assert "Traceback" not in proc.stderr, proc.stderr
    if want == "ok":
        finished(proc)
        return
    refused(proc)
    assert after == before, sorted(after - before)
    if case == "20_exp_this":
        assert "Beautiful is better" not in proc.stdout + proc.stderr  # nothing imported


def test_the_review_cases_are_all_here():
    """Every case of the bad-input review's table (copied to tests/data/) is tested here."""
    review = ROOT / "tests" / "data" / "bad-inputs.tsv"
    names = {line.split("\t")[0] for line in review.read_text().splitlines()[1:] if line}
    assert names <= set(CASES) | {"50_quick_is_list"}


# --- the task cache ---------------------------------------------------------------------------

QUICK = ["--quick", "--set", "reps=1", "--set", "sigma_over_d=[0.3,1.0]"]


@pytest.fixture
def cached_run(tmp_path):
    cfg = write_config(tmp_path, GMM)
    out = tmp_path / "run"
    proc = mtc("run", cfg, *QUICK, "--out", out, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    return cfg, out, sorted((out / "tasks").glob("*.json"))


@pytest.mark.parametrize("damage", ["zero_bytes", "garbage", "keyless", "edited_score"])
def test_a_damaged_cache_entry_is_named_and_recomputed(cached_run, damage):
    cfg, out, entries = cached_run
    summary = (out / "summary.csv").read_bytes()
    victim = entries[0]
    if damage == "zero_bytes":
        victim.write_bytes(b"")
    elif damage == "garbage":
        victim.write_bytes(os.urandom(200))
    elif damage == "keyless":
        victim.write_text(json.dumps({"rows": []}))
    else:
        entry = json.loads(victim.read_text())
        entry["rows"][0]["score"] += 1.0
        victim.write_text(json.dumps(entry))
    proc = mtc("run", cfg, *QUICK, "--out", out, cwd=cfg.parent)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    warnings = [line for line in proc.stderr.splitlines() if line.startswith("mtc: warning")]
    assert len(warnings) == 1 and victim.name in warnings[0], proc.stderr
    assert "1 tasks computed" in proc.stdout
    assert (out / "summary.csv").read_bytes() == summary  # recomputed, not believed


def test_a_code_change_recomputes_and_the_record_names_its_commit(cached_run):
    cfg, out, entries = cached_run
    for path in entries:
        entry = json.loads(path.read_text())
        entry["code_version"] = "0000000000000000"
        path.write_text(json.dumps(entry))
    proc = mtc("run", cfg, *QUICK, "--out", out, cwd=cfg.parent)
    assert proc.returncode == 0, proc.stderr
    assert "another version of the code" in proc.stderr
    assert f"{len(entries)} tasks computed" in proc.stdout
    run = json.loads((out / "run.json").read_text())
    versions = {json.loads(p.read_text())["code_version"] for p in entries}
    assert versions == {run["code_version"]} and run["code_version"] != "0000000000000000"


def test_injected_targets_run_nothing(tmp_path):
    planted = tmp_path / "pwned"
    attack = f"@os.system('touch {planted}') == 0"
    cfg = write_config(tmp_path, gmm(targets=[{"claim": "x", "expect": attack}]))
    proc = mtc("run", cfg, "--quick", "--out", tmp_path / "a", cwd=tmp_path)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    # from a planted run directory: mtc merge and render read its config.json
    good = write_config(tmp_path, GMM, "good.yaml")
    out = tmp_path / "b"
    assert mtc("run", good, *QUICK, "--out", out, cwd=tmp_path).returncode == 0
    for name in ("config.json", "run.json"):
        meta = json.loads((out / name).read_text())
        meta["config"]["targets"] = [{"claim": "x", "expect": attack, "table": "summary",
                                      "where": "", "paper": ""}]
        (out / name).write_text(json.dumps(meta))
    for command in ("merge", "render"):
        proc = mtc(command, out, cwd=tmp_path)
        assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, command
    meta = json.loads((out / "config.json").read_text())
    meta["config"]["experiment"] = "this"
    (out / "config.json").write_text(json.dumps(meta))
    proc = mtc("merge", out, cwd=tmp_path)
    assert proc.returncode == 2 and "Beautiful" not in proc.stdout
    assert not planted.exists()


def test_one_run_directory_one_run(tmp_path):
    cfg = write_config(tmp_path, GMM)
    other = write_config(tmp_path, gmm(n=300), "other.yaml")
    out = tmp_path / "run"
    first = subprocess.Popen([sys.executable, "-m", "mtc_cli.cli", "run", cfg, "--out", out],
                             cwd=tmp_path, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)  # the full profile: minutes
    deadline = time.time() + 60
    while not (out / ".mtc-lock").exists() and time.time() < deadline:
        time.sleep(0.05)
    second = mtc("run", cfg, "--out", out, cwd=tmp_path)
    # a run stopped before its first task is cached leaves nothing behind: stop it after one
    while not any((out / "tasks").glob("*.json")) and time.time() < deadline:
        time.sleep(0.05)
    first.send_signal(signal.SIGTERM)
    assert first.wait(timeout=60) == 143
    assert second.returncode == 2 and "in use by mtc (pid" in second.stderr, second.stderr
    assert not (out / ".mtc-lock").exists()  # released on the way out
    clash = mtc("run", other, "--quick", "--out", out, cwd=tmp_path)
    assert clash.returncode == 2 and "another config" in clash.stderr
    forced = mtc("run", other, "--quick", "--set", "reps=1", "--out", out, "--force",
                 cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr


def test_outputs_honour_the_umask(tmp_path):
    cfg = write_config(tmp_path, GMM)
    out = tmp_path / "run"
    old = os.umask(0o022)
    try:
        assert mtc("run", cfg, *QUICK, "--out", out, cwd=tmp_path).returncode == 0
    finally:
        os.umask(old)
    modes = {p.name: p.stat().st_mode & 0o777 for p in out.rglob("*") if p.is_file()}
    assert set(modes.values()) == {0o644}, modes


def test_sigterm_is_an_interruption_and_no_worker_outlives_the_run(tmp_path):
    cfg = write_config(tmp_path, gmm(reps=20))
    out = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-m", "mtc_cli.cli", "run", cfg, "-j", "2",
                             "--out", out], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert _until(lambda: len(list((out / "tasks").glob("*.json"))) >= 2)
    children = _children(proc.pid)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err
    assert [line for line in err.splitlines() if line.startswith("mtc:")] == [
        "mtc: error: terminated (SIGTERM); finished tasks are cached, run the same command "
        "again to resume"]
    assert "Traceback" not in err
    assert _until(lambda: not [c for c in children if _alive(c)])
    # SIGKILL of the main process while its workers compute: they end on their own
    done = len(list((out / "tasks").glob("*.json")))
    proc = subprocess.Popen([sys.executable, "-m", "mtc_cli.cli", "run", cfg, "-j", "2",
                             "--out", out], cwd=tmp_path, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    assert _until(lambda: len(_children(proc.pid)) >= 2
                  and len(list((out / "tasks").glob("*.json"))) > done)
    children = _children(proc.pid)
    proc.kill()
    proc.wait()
    assert children and _until(lambda: not [c for c in children if _alive(c)])


def _until(state, timeout: float = 120.0) -> bool:
    """Whether ``state()`` holds within ``timeout`` seconds (polled): a test waits for a
    state, not for a time, so that a loaded machine only makes it slower."""
    deadline = time.time() + timeout
    while not state():
        if time.time() > deadline:
            return False
        time.sleep(0.1)
    return True


def _children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    kids = [int(p) for p in out.split()]
    return kids + [g for k in kids for g in _children(k)]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split()[2] != "Z"


def test_a_killed_resource_tracker_prints_no_traceback(tmp_path):
    cfg = write_config(tmp_path, GMM)
    proc = subprocess.Popen([sys.executable, "-m", "mtc_cli.cli", "run", cfg, "--quick",
                             "-j", "2", "--set", "reps=10", "--out", tmp_path / "run"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    deadline, tracker = time.time() + 60, None
    while tracker is None and time.time() < deadline:
        out = subprocess.run(["pgrep", "-P", str(proc.pid), "-f", "resource_tracker"],
                             capture_output=True, text=True).stdout.split()
        tracker = int(out[0]) if out else None
        time.sleep(0.1)
    assert tracker is not None
    os.kill(tracker, signal.SIGKILL)
    _, err = proc.communicate(timeout=240)
    assert proc.returncode == 0 and "Traceback" not in err, err
