"""The node client tests on a machine whose npm registry does not answer: skipped, saying why, nothing left running.

``tests/test_clients_node.py`` runs in a pytest of its own with ``npm_config_registry`` pointing at
a port nothing listens on (npm reads any ``npm_config_*`` variable as its configuration: npm's
config documentation, https://docs.npmjs.com/cli/using-npm/config#environment-variables).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or shutil.which("npm") is None,
    reason="node and npm are needed to run the client tests whose skipping this checks",
)


def test_without_a_registry_the_client_tests_skip_with_a_reason_and_leave_nothing(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    registry = f"http://127.0.0.1:{port}/"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-rs",
            "-p",
            "no:cacheprovider",
            str(HERE / "test_clients_node.py"),
        ],
        cwd=tmp_path,
        # its own "user's cache": the outer session's is being written (npm packages prefetched)
        env={
            **os.environ,
            "npm_config_registry": registry,
            "HOME": str(tmp_path / "home"),
            "CRMARENA_SF_CACHE": str(tmp_path / "cache"),
        },
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "3 skipped" in done.stdout, done.stdout[-3000:]
    assert (
        f"the npm registry {registry} cannot be reached (ECONNREFUSED), so jsforce3 cannot be installed"
        in (done.stdout)
    )
    assert "passed" not in done.stdout and "error" not in done.stdout.lower()
