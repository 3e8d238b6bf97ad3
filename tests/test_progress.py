"""Progress on stderr: a bar on a terminal, plain occasional lines in logs and pipes (no carriage returns)."""

from __future__ import annotations

import io
import subprocess
import sys

from crmarena_sf import progress
from crmarena_sf.progress import progress_bar


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _run(steps: int, postfix: str = "") -> None:
    with progress_bar(steps, "loading", enabled=True) as bar:
        for _ in range(steps):
            if postfix:
                bar.set_postfix_str(postfix)
            bar.update(1)


def test_a_log_gets_one_final_line_for_quick_work(capsys):
    _run(30)
    err = capsys.readouterr().err
    assert "\r" not in err
    [line] = err.splitlines()
    assert line.startswith("loading: 30/30 (100%) in ") and line.endswith("s")


def test_a_log_gets_a_whole_line_at_each_interval(capsys, monkeypatch):
    monkeypatch.setattr(progress, "PLAIN_INTERVAL", 0.0)
    _run(4, postfix="Account")
    lines = capsys.readouterr().err.split("\n")
    assert "\r" not in "".join(lines)
    assert lines[:4] == [
        "loading: 1/4 (25%) Account",
        "loading: 2/4 (50%) Account",
        "loading: 3/4 (75%) Account",
        "loading: 4/4 (100%) Account",
    ]
    assert lines[4].startswith("loading: 4/4 (100%) in ") and lines[5] == ""


def test_a_terminal_still_gets_the_bar(monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    _run(5)
    assert "\r" in terminal.getvalue() and "5/5" in terminal.getvalue()


def test_disabled_progress_prints_nothing(capsys):
    with progress_bar(3, "quiet", enabled=False) as bar:
        bar.update(3)
    assert capsys.readouterr().err == ""


def test_a_command_piped_to_a_log_writes_no_carriage_returns(tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "crmarena_sf.cli.main",
            "generate",
            "--profile",
            "tiny",
            "--out",
            str(tmp_path / "ds"),
        ],
        capture_output=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert b"\r" not in result.stderr
    assert result.stderr.decode().startswith("generating tiny: ")
