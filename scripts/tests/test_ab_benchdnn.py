"""A/B verdicts with a real benchdnn (the CTest perf_ab sets TSR_BENCHDNN
to the binary; without it these tests are skipped). No timing is
asserted: only verdicts.

- The same binary against itself, while a process this test starts keeps
  one core busy: no regression in 5 repetitions over AlexNet's
  convolutions (inputs/alexnet, all 6 problems).
- A real slowdown, the same binary capped at TSR_MAX_CPU_ISA=generic
  against its default ISA: flagged in every repetition. On an AMD
  EPYC (AVX-512 executed on 256-bit units) the avx2 cap is no reliable
  slowdown, so the generic cap it is, on AlexNet's conv1 only (the one
  whose generic path stays near 100 ms a run).

Budget: 2 rounds of 3 timed runs per side (6 samples) and a confirming
pass of 2 rounds for candidates; 6 problems x 2 sides x 2 rounds x 5
repetitions = 120 benchdnn calls, plus 5 x 8 for the slowdown."""
import json
import os
import subprocess
import sys
import time

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(ROOT, "scripts", "perf_ab.py")
BENCHDNN = os.environ.get("TSR_BENCHDNN")
REPETITIONS = 5
BUSY_LOOP_MAX_S = 240  # the background load ends by itself after this

pytestmark = pytest.mark.skipif(
    not BENCHDNN, reason="set TSR_BENCHDNN to a benchdnn binary (CTest perf_ab)")


def perf_ab(out, *args):
    cmd = [sys.executable, SCRIPT, "--base", BENCHDNN, "--new", BENCHDNN,
           "--set", "conv:inputs/alexnet", "--rounds", "2", "--fix-times", "3",
           "--out", str(out), *args]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode in (0, 1, 3), done.stderr
    with open(os.path.join(out, "ab.json"), encoding="utf-8") as f:
        data = json.load(f)
    return done.returncode, data


def verdicts(data):
    return {p["repro"]: p["verdict"] for p in data["problems"]}


@pytest.fixture
def busy_core():
    """A process spinning on one core, for at most BUSY_LOOP_MAX_S."""
    proc = subprocess.Popen([sys.executable, "-c",
                             "import time\nend = time.time() + "
                             f"{BUSY_LOOP_MAX_S}\nwhile time.time() < end: pass"])
    time.sleep(0.2)
    assert proc.poll() is None
    yield proc
    proc.kill()
    proc.wait()


def test_same_binary_under_load_has_no_regression(tmp_path, busy_core):
    summary = []
    for rep in range(REPETITIONS):
        status, data = perf_ab(tmp_path / f"rep{rep}")
        assert busy_core.poll() is None, "the background load ended early"
        v = verdicts(data)
        assert len(v) == 6
        summary.append(sorted(v.values()))
        print(f"same binary, repetition {rep + 1}:", ", ".join(
            f"{p['verdict']} {p['ratio']:.3f}" for p in data["problems"]))
        assert "regression" not in v.values(), (rep, data["problems"])
        assert status == 0
    print("verdicts per repetition:", summary)


def test_generic_isa_slowdown_is_flagged_every_time(tmp_path):
    for rep in range(REPETITIONS):
        status, data = perf_ab(tmp_path / f"rep{rep}", "--list-args=--match=conv1",
                               "--new-env", "TSR_MAX_CPU_ISA=generic",
                               "--ignore-env", "isa")
        (problem,) = data["problems"]
        print(f"generic vs default, repetition {rep + 1}: {problem['verdict']}, "
              f"ratio {problem['ratio']:.3f}, medians {problem['base_median_ms']:.1f}"
              f" -> {problem['new_median_ms']:.1f} ms")
        assert problem["verdict"] == "regression", problem
        assert problem["note"] == "confirmed by a second pass"
        assert status == 1
        assert data["headers"]["new"]["isa"] == "generic"


def test_an_isa_difference_not_declared_is_an_environment_change(tmp_path):
    status, data = perf_ab(tmp_path, "--list-args=--match=conv1", "--rounds", "1",
                           "--new-env", "TSR_MAX_CPU_ISA=generic")
    assert status == 3
    assert data["environment_differences"].startswith("isa: ")
    md = open(os.path.join(tmp_path, "ab.md"), encoding="utf-8").read()
    assert md.split("\n")[2].startswith("> **Environments differ** (isa: ")
