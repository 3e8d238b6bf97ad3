"""``crmarena-sf serve`` in a process of its own, for tests that drive it as real clients would."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

PRINTED_LAST = "sfdx_auth_url"
"""The last ``key: value`` line serve prints before it serves."""


@contextlib.contextmanager
def served(*options: str, cert_dir: Path) -> Iterator[dict[str, str]]:
    """Start ``crmarena-sf serve OPTIONS --port 0``; yield what it printed (``instance_url``, ``session_id``,
    ``certificate``, ``refresh_token`` ...); stop it at the end."""
    command = [
        sys.executable,
        "-m",
        "crmarena_sf.cli.main",
        "serve",
        "--port",
        "0",
        "--cert-dir",
        str(cert_dir),
    ]
    process = subprocess.Popen(
        [*command, *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    printed: dict[str, str] = {}
    try:
        for line in process.stdout:
            key, _, value = line.strip().partition(": ")
            printed[key] = value
            if key == PRINTED_LAST:
                break
        assert {"instance_url", "session_id", "certificate"} <= set(printed), f"serve printed {printed}"
        yield printed
    finally:
        end(process)
        process.stdout.close()


def end(process: subprocess.Popen) -> None:
    """Stop a server process: SIGTERM (it stops cleanly), then SIGKILL if it has not ended in 30 s."""
    if process.poll() is None:
        process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
