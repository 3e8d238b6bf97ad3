"""Ctrl-C at random moments (seeded): every command stops with exit 130 and one line, and leaves no cut work.

A terminal sends SIGINT to the whole foreground process group; so do these tests (each command
runs in a session of its own, and ``os.killpg`` reaches its worker processes too). Moments are
drawn from a seeded generator, once the command is at work (episodes logged, a staging directory
made, the cache being built), so some land inside DuckDB statements: DuckDB answers SIGINT there
with ``RuntimeError: Query interrupted``, which must become the interrupt, never an episode's
error or a traceback (issue 25).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from crmarena_sf.cli.main import main

INTERRUPTED = "crmarena-sf: interrupted\n"


def start(args: list[str], **env: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "crmarena_sf.cli.main", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: os.killpg reaches it and its workers only
        env={**os.environ, **env},
    )


def wait_for(condition, process: subprocess.Popen, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if process.poll() is not None:
            pytest.fail(f"the command ended before it was interrupted: {process.communicate()}")
        assert time.monotonic() < deadline, "the command never got to work"
        time.sleep(0.02)


def interrupt(process: subprocess.Popen, after: float) -> tuple[int, str, str]:
    """Ctrl-C ``after`` seconds from now, as a terminal sends it; the exit code, stdout and stderr."""
    time.sleep(after)
    assert process.poll() is None, "the command ended before the interrupt: pick an earlier moment"
    os.killpg(process.pid, signal.SIGINT)
    try:
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return process.returncode, out, err


def no_process_left(process: subprocess.Popen) -> None:
    """Nothing of the command's process group still runs (worker processes included).

    An exited child whose parent ended first stays a zombie until init reaps it: that one has ended.
    """
    deadline = time.monotonic() + 10
    while live_processes(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert live_processes(process.pid) == []


def live_processes(group: int) -> list[str]:
    """The command lines of the processes of a process group that have not exited (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            command = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue  # it ended while we looked
        state, process_group = fields[0], int(fields[2])
        if process_group == group and state != "Z":
            found.append(command)
    return found


@pytest.fixture(scope="module")
def long_task_file(tiny_dataset, tmp_path_factory):
    """The tiny org's task set, repeated under new idx until a run lasts a few seconds."""
    folder = tmp_path_factory.mktemp("interrupts")
    built = folder / "built.jsonl"
    assert main(["tasks", "build", "--org", str(tiny_dataset), "--per-task", "3", "--out", str(built)]) == 0
    records = [json.loads(line) for line in built.read_text().splitlines()]
    path = folder / "tasks.jsonl"
    with path.open("w") as out:
        for copy in range(30):
            for n, record in enumerate(records):
                out.write(json.dumps({**record, "idx": copy * len(records) + n}) + "\n")
    return path


@pytest.mark.parametrize(
    ("workers", "moments"),
    [
        pytest.param([], 3, id="one worker"),
        pytest.param(["--workers", "2"], 2, id="two threads"),
        pytest.param(["--workers", "2", "--parallel", "processes"], 2, id="two processes"),
    ],
)
def test_an_interrupted_run_stops_at_once_and_logs_no_cut_episode(
    long_task_file, tiny_dataset, tmp_path, capsys, workers, moments
):
    out, log = tmp_path / "results.json", tmp_path / "results.episodes.jsonl"
    args = ["run", "--agent", "reference", "--tasks", str(long_task_file), "--org", str(tiny_dataset)]
    args += ["--out", str(out), "--quiet", *workers]
    rng = random.Random(f"issue 25: run {workers}")
    for _ in range(moments):
        logged = len(log.read_text().splitlines()) if log.exists() else 0
        process = start(args)
        wait_for(lambda n=logged: log.exists() and len(log.read_text().splitlines()) > n + 1, process)
        code, printed, err = interrupt(process, rng.uniform(0, 1.0))
        resumed = [f"resuming: {logged - 1} episodes from {log} reused"] if logged else []
        assert (code, printed) == (130, "")
        assert [line.split(",")[0] for line in err.splitlines()] == [*resumed, INTERRUPTED.strip()]
        no_process_left(process)
        assert not out.exists()
        episodes = [json.loads(line) for line in log.read_text().splitlines()[1:]]
        # Every logged episode is a whole answer: the reference agent scores 1 unless an interrupt cut it.
        assert [e["idx"] for e in episodes if e["reward"] != 1 or "error" in e or "scored" in e] == []
        assert len({e["idx"] for e in episodes}) == len(episodes)
    # The same command resumes (here on the first tasks only, which is quicker and reuses the log alike).
    done = len(log.read_text().splitlines()) - 1
    logged = {e["idx"] for e in map(json.loads, log.read_text().splitlines()[1:])}
    assert main([*args[: args.index("--quiet")], "--limit", str(done + 10)]) == 0
    first = [json.loads(line)["idx"] for line in long_task_file.read_text().splitlines()[: done + 10]]
    reused = len(logged & set(first))
    assert (
        f"resuming: {reused} episodes from {log} reused, {done + 10 - reused} to run"
        in capsys.readouterr().err
    )
    body = json.loads(out.read_text())
    assert body["overall"] == 100.0 and sorted(e["idx"] for e in body["episodes"]) == sorted(first)


def test_an_interrupted_generate_leaves_nothing_behind(tmp_path):
    rng = random.Random("issue 25: generate")
    for n in range(3):
        target = tmp_path / f"ds{n}"
        process = start(["generate", "--profile", "full", "--scale", "3", "--out", str(target), "--quiet"])
        wait_for(lambda t=target: any(p.name.startswith(f".{t.name}.") for p in tmp_path.iterdir()), process)
        code, printed, err = interrupt(process, rng.uniform(0, 2.0))
        assert (code, err, printed) == (130, INTERRUPTED, "")
        assert list(tmp_path.iterdir()) == []  # no dataset, no staging directory


@pytest.mark.slow
def test_an_interrupted_first_build_of_the_default_org_stops_cleanly_and_the_next_use_rebuilds(tmp_path):
    """Each moment gets a cache of its own, so the build is really the first."""
    rng = random.Random("issue 25: first build")
    for n in range(3):
        cache = tmp_path / f"cache{n}"
        process = start(
            ["run", "--agent", "reference", "--per-task", "1", "--quiet"], CRMARENA_SF_CACHE=str(cache)
        )
        wait_for(lambda c=cache: (c / "datasets").is_dir(), process)
        code, printed, err = interrupt(process, rng.uniform(0, 3.0))
        assert (code, err, printed) == (130, INTERRUPTED, "")
        datasets = cache / "datasets"
        assert [p.name for p in datasets.iterdir() if p.name.startswith(".") and p.name != ".lock"] == []
    # What an interrupt left is either whole or rebuilt: the org answers as the default org does.
    done = subprocess.run(
        [sys.executable, "-m", "crmarena_sf.cli.main", "query", "SELECT COUNT() FROM Case"],
        capture_output=True,
        text=True,
        env={**os.environ, "CRMARENA_SF_CACHE": str(cache)},
        timeout=300,
    )
    assert done.returncode == 0 and done.stdout.strip() == "(977 records)", done.stderr
