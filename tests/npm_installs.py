"""The npm packages the client tests install, and a prefetch that installs them while other tests run.

Every npm package a test needs is named in :data:`PACKAGES` and installed by :func:`npm_install`
into ``npm/<name>`` of the crmarena-sf cache (``loaders.default_org.cache_root``; in the test
suite the session's private cache, see conftest.py, so every run installs afresh), once, under a
file lock. Without an npm registry that answers (``npm ping``) the test is skipped, saying why;
an install from a registry that answers and fails is an error, never a skip.

Installing them takes minutes (measured on the two-core machine: jsforce 23 s, the sf CLI with
Node 22 100 s, Salesforce's DX MCP server 144 s), nearly all of it waiting on the registry and
the disk. So a test module that needs packages says so with ``pytest.mark.npm(NAME, ...)``;
conftest.py runs those modules last and starts a :class:`Prefetch` when collection ends, which
installs the packages one after the other in a background thread while the other tests use the
cores. A test that reaches :func:`npm_install` while its package is being prefetched waits on the
same lock and finds it installed; a prefetch that fails leaves the test to install (and report)
by itself. The prefetch is stopped, its npm process group ended, when the session ends.

Nothing reaches the user's home: npm runs with ``HOME``, npm's cache and user config and the XDG
directories in a temporary folder (:func:`node_base_env`); every command runs in a process group
of its own that is ended after it (:func:`run`).
"""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
from crmarena_sf.loaders.default_org import cache_root

NPM_TIMEOUT = 900
PING_TIMEOUT = 30

PACKAGES: dict[str, tuple[list[str], str]] = {
    "jsforce3": (["jsforce@3"], "node_modules/jsforce/package.json"),
    "sf-cli": (["@salesforce/cli@2", "node@22"], "node_modules/.bin/sf"),
    "mcp-tsmztech": (
        ["@tsmztech/mcp-server-salesforce"],
        "node_modules/@tsmztech/mcp-server-salesforce/package.json",
    ),
    "mcp-dx": (["@salesforce/mcp"], "node_modules/@salesforce/mcp/package.json"),
}
"""Name (the folder under ``npm/``) -> the packages ``npm install`` gets, and the file that shows they are in."""


def node_base_env(home: Path) -> dict[str, str]:
    """The environment of every npm, node and sf process: its home and caches in ``home``, no self-update."""
    return {
        **os.environ,
        "HOME": str(home),
        "npm_config_cache": str(home / ".npm"),
        "npm_config_userconfig": str(home / ".npmrc"),
        "npm_config_update_notifier": "false",
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "SF_AUTOUPDATE_DISABLE": "true",
        "SF_DISABLE_AUTOUPDATE": "true",
        "SF_DISABLE_TELEMETRY": "true",
        "SF_USE_GENERIC_UNIX_KEYCHAIN": "true",
    }


def run(command: list[str], env: dict[str, str], timeout: float, started=None) -> subprocess.CompletedProcess:
    """Run a command in a process group of its own, and end that group when it is done (or timed out).

    ``started``, when given, is called with the process as soon as it runs (the prefetch keeps it to stop it).
    """
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True
    )
    if started is not None:
        started(process)
    try:
        out, err = process.communicate(timeout=timeout)
    finally:
        end(process.pid, group=True)
        process.wait()
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def end(pid: int, *, group: bool = False) -> None:
    """End a process (or the process group it leads): SIGTERM, then SIGKILL if it is still there."""
    send = os.killpg if group else os.kill
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            send(pid, sig)
        except ProcessLookupError:
            return
        time.sleep(0.2)


def processes_from(folder: Path) -> list[tuple[int, str]]:
    """Running processes whose command line names ``folder`` (from /proc; zombies have ended),
    leaving out a running prefetch's own install."""
    busy = Prefetch.running_group()
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            state, group = fields[0], int(fields[2])
            command = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError, ValueError):
            continue
        if state != "Z" and str(folder) in command and group != busy:
            found.append((int(stat.parent.name), command.strip()))
    return found


_ping: dict[str, str] = {}
_ping_lock = threading.Lock()


def registry_unreachable(env: dict[str, str]) -> str:
    """Why the npm registry cannot be reached ("" when it answers); asked once per session, quickly."""
    with _ping_lock:
        if "reason" not in _ping:
            _ping["reason"] = _ask_the_registry(env)
        return _ping["reason"]


def _ask_the_registry(env: dict[str, str]) -> str:
    registry = run(["npm", "config", "get", "registry"], env, PING_TIMEOUT).stdout.strip()
    command = [
        "npm",
        "ping",
        "--fetch-retries=1",
        "--fetch-retry-mintimeout=1000",
        "--fetch-retry-maxtimeout=2000",
    ]
    try:
        ping = run(command, env, PING_TIMEOUT)
        failed = ping.returncode != 0
        codes = [line.split()[-1] for line in ping.stderr.splitlines() if line.startswith("npm error code ")]
        detail = codes[0] if codes else "no answer"
    except subprocess.TimeoutExpired:
        failed, detail = True, f"no answer in {PING_TIMEOUT} s"
    return f"the npm registry {registry} cannot be reached ({detail})" if failed else ""


def npm_install(name: str, home: Path) -> Path:
    """``npm install`` the packages of :data:`PACKAGES` ``[name]`` into ``<cache>/npm/<name>`` once; the prefix.

    Skips, saying why, when the npm registry does not answer; a failed install is an error.
    """
    env = node_base_env(home)
    packages, marker = PACKAGES[name]
    prefix, done = _install(name, env)
    if done is None:
        pytest.skip(f"{registry_unreachable(env)}, so {name} cannot be installed")
    assert done.returncode == 0, f"npm install {' '.join(packages)} failed:\n{done.stderr[-3000:]}"
    return prefix


def _install(name: str, env: dict[str, str], started=None) -> tuple[Path, subprocess.CompletedProcess | None]:
    """Install ``name`` under its lock unless it is in; (prefix, the install's outcome or None when unreachable)."""
    packages, marker = PACKAGES[name]
    prefix = cache_root() / "npm" / name
    prefix.mkdir(parents=True, exist_ok=True)
    with open(prefix / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (prefix / marker).exists():
            return prefix, subprocess.CompletedProcess([], 0, "", "")
        if registry_unreachable(env):
            return prefix, None
        command = ["npm", "install", "--prefix", str(prefix), "--no-audit", "--no-fund", "--loglevel=error"]
        return prefix, run([*command, *packages], env, NPM_TIMEOUT, started)


class Prefetch:
    """Installs named packages one after the other in a background thread; :meth:`stop` ends it."""

    _current: subprocess.Popen | None = None

    def __init__(self, names: list[str], home: Path):
        self.names = names
        self.home = home
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._work, name="npm-prefetch", daemon=True)

    @classmethod
    def running_group(cls) -> int | None:
        """The process group of the install running now, if any."""
        current = cls._current
        return current.pid if current is not None and current.poll() is None else None

    def start(self) -> Prefetch:
        self._thread.start()
        return self

    def _work(self) -> None:
        env = node_base_env(self.home)
        for name in self.names:
            if self._stopped.is_set():
                return
            try:
                _, done = _install(name, env, self._keep)
            except (OSError, subprocess.SubprocessError):
                return  # the test installs by itself and reports what went wrong
            finally:
                Prefetch._current = None
            if done is None:
                return  # the registry does not answer: each test skips, saying so

    def _keep(self, process: subprocess.Popen) -> None:
        Prefetch._current = process
        if self._stopped.is_set():
            end(process.pid, group=True)

    def stop(self) -> None:
        """End the install running now (its whole process group) and wait for the thread."""
        self._stopped.set()
        current = Prefetch._current
        if current is not None:
            end(current.pid, group=True)
        self._thread.join(timeout=30)
