"""perf_ab.py with a fake benchdnn (a script printing what benchdnn prints
for --mode=L and --mode=P): the alternating order, the verdicts, the
confirming pass and the exit status, deterministically."""
import json
import os
import stat
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import perf_ab  # noqa: E402

FAKE = '''#!{python}
"""Fake benchdnn: FAKE_LOG gets one line per timed call (side, problem);
FAKE_FACTOR multiplies the times of problems containing FAKE_MATCH, for
the first FAKE_SLOW_CALLS such calls (all when unset)."""
import os, sys
args = sys.argv[1:]
problems = ['--conv ic8ih7oc8oh7kh3n"net:a"', '--conv ic16ih7oc16oh7kh3n"net:b"',
            '--conv ic32ih7oc32oh7kh3n"net:c"']
if "--mode=L" in args:
    for i, p in enumerate(problems):
        print(f"{{i}}:LISTED __REPRO: {{p}}")
    print("tests:3 passed:0 listed:3")
    sys.exit(0)
batch = [a for a in args if a.startswith("--batch=")][0][8:]
prb = "--conv " + open(batch).read().splitlines()[1]
side = os.environ.get("FAKE_SIDE", "?")
factor = 1.0
match = os.environ.get("FAKE_MATCH")
if match and match in prb:
    count_file = os.environ["FAKE_LOG"] + ".count"
    n = int(open(count_file).read()) if os.path.exists(count_file) else 0
    open(count_file, "w").write(str(n + 1))
    if n < int(os.environ.get("FAKE_SLOW_CALLS", "1000000")):
        factor = float(os.environ.get("FAKE_FACTOR", "1"))
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write(f"{{side}} {{prb}}\\n")
base = 10.0 + problems.index(prb)
samples = [base * factor * (1 + 0.001 * k) for k in range(3)]
print("# date=2026-11-29T00:00:00Z")
print("# commit=fake")
print("# isa=" + os.environ.get("TSR_MAX_CPU_ISA", "avx2"))
print("# threads=2")
tpl = [a for a in args if a.startswith("--perf-template=")][0][16:]
print("Output template: " + tpl)
lo, avg = min(samples), sum(samples) / 3
print(f"perf,cpu,gemm:f32,,{{prb}},1,0.1,{{lo}},{{1e3 / lo}},{{avg}},{{1e3 / avg}},0,0,"
      + ";".join(repr(s) for s in samples))
print("tests:1 passed:1")
'''


def fake_benchdnn(tmp_path):
    path = tmp_path / "benchdnn"
    path.write_text(FAKE.format(python=sys.executable))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    batch = tmp_path / "set"
    batch.write_text("# listed by the fake\n")
    return str(path), f"conv:{batch}"


def run(tmp_path, monkeypatch, *extra, **env):
    binary, the_set = fake_benchdnn(tmp_path)
    log = tmp_path / "calls.log"
    monkeypatch.setenv("FAKE_LOG", str(log))
    for k, v in env.items():
        monkeypatch.setenv(k, str(v))
    out = tmp_path / "out"
    status = perf_ab.main(["perf_ab.py", "--base", binary, "--new", binary,
                           "--set", the_set, "--rounds", "2", "--fix-times", "3",
                           "--base-env", "FAKE_SIDE=base", "--new-env", "FAKE_SIDE=new",
                           "--out", str(out), *extra])
    data = json.loads((out / "ab.json").read_text()) if (out / "ab.json").exists() \
        else None
    return status, data, log.read_text().splitlines()


def test_sides_alternate_round_by_round_and_problem_by_problem(tmp_path, monkeypatch):
    status, data, calls = run(tmp_path, monkeypatch)
    assert status == 0
    assert [p["verdict"] for p in data["problems"]] == ["same"] * 3
    sides = [c.split(" ", 1)[0] for c in calls]
    # 2 rounds x 3 problems, two calls each: A B, B A, A B / B A, A B, B A.
    expected = []
    for rnd in range(2):
        for i in range(3):
            expected += ["base", "new"] if (rnd + i) % 2 == 0 else ["new", "base"]
    assert sides == expected
    assert all(len(r) == 3 for p in data["problems"] for r in p["passes"][0]["base"])


def test_a_real_slowdown_is_confirmed_and_fails_the_job(tmp_path, monkeypatch):
    status, data, calls = run(tmp_path, monkeypatch, "--new-env", "FAKE_MATCH=net:b",
                              "--new-env", "FAKE_FACTOR=1.3")
    assert status == 1
    verdicts = {p["repro"].split('"')[1]: p for p in data["problems"]}
    assert verdicts["net:b"]["verdict"] == "regression"
    assert verdicts["net:b"]["note"] == "confirmed by a second pass"
    assert verdicts["net:b"]["ratio"] < 1 / 1.25
    assert len(verdicts["net:b"]["passes"]) == 2  # re-run ...
    assert len(verdicts["net:a"]["passes"]) == 1  # ... alone
    md = (tmp_path / "out" / "ab.md").read_text()
    assert "**1 regression(s)**" in md and "<summary>2 unchanged</summary>" in md
    # The repro of each side carries its environment.
    page = (tmp_path / "out" / "ab.html").read_text()
    assert "new: FAKE_SIDE=new FAKE_MATCH=net:b FAKE_FACTOR=1.3 " in page
    assert "base: FAKE_SIDE=base " in page


def test_a_slowdown_the_second_pass_does_not_repeat_is_unstable(tmp_path, monkeypatch):
    # Slow during the first pass only (2 rounds = 2 calls of the new side).
    status, data, _ = run(tmp_path, monkeypatch, "--new-env", "FAKE_MATCH=net:c",
                          "--new-env", "FAKE_FACTOR=1.3", "--new-env",
                          "FAKE_SLOW_CALLS=2")
    assert status == 0
    (c,) = [p for p in data["problems"] if "net:c" in p["repro"]]
    assert c["verdict"] == "unstable"
    assert c["note"] == "first pass: regression, second: same"


def test_an_isa_difference_is_an_environment_change_unless_ignored(tmp_path,
                                                                    monkeypatch):
    status, data, _ = run(tmp_path, monkeypatch, "--new-env", "TSR_MAX_CPU_ISA=generic",
                          "--rounds", "1")
    assert status == 3 and data["environment_differences"] == "isa: avx2 -> generic"
    status, data, _ = run(tmp_path, monkeypatch, "--new-env", "TSR_MAX_CPU_ISA=generic",
                          "--ignore-env", "isa", "--rounds", "1")
    assert status == 0


def test_bad_usage(tmp_path, capsys):
    binary, the_set = fake_benchdnn(tmp_path)
    assert perf_ab.main(["perf_ab.py", "--base", binary, "--new", binary, "--set",
                         "conv:/no/such/file"]) == 2
    assert "bad set" in capsys.readouterr().err
    assert perf_ab.main(["perf_ab.py", "--base", binary, "--new", binary,
                         "--rounds", "0"]) == 2
    assert perf_ab.main(["perf_ab.py", "--base", "/no/benchdnn", "--new", binary,
                         "--set", the_set, "--out", str(tmp_path / "o")]) == 2
