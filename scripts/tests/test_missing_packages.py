"""Without matplotlib, perf_history.py report names the packages to
install (Debian's python3-matplotlib, or a venv) instead of a traceback."""
import builtins
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import perf_history  # noqa: E402


def test_report_without_matplotlib_names_the_packages(monkeypatch, tmp_path,
                                                       capsys):
    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError("No module named 'matplotlib'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    rc = perf_history.main(["perf_history.py", "report",
                            "--db", str(tmp_path / "history.db"),
                            "--out", str(tmp_path / "report")])
    err = capsys.readouterr().err
    assert rc == perf_history.EXIT_USAGE
    assert "apt-get install python3-matplotlib" in err
    assert "python3 -m venv" in err
    assert "Traceback" not in err
