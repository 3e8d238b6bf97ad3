"""The test suite builds what it needs in a cache of its own and leaves the user's crmarena-sf cache untouched.

``tests/conftest.py`` points ``CRMARENA_SF_CACHE`` at a temporary directory for the session
and fails the run if the user's cache changed. Checked here on this session and on a small
session run the way a user runs the suite: no ``CRMARENA_SF_CACHE``, their own home and
``XDG_CACHE_HOME``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from crmarena_sf.loaders.default_org import cache_root

REPO = Path(__file__).resolve().parents[1]

INNER_TESTS = """
import os
from pathlib import Path


def test_the_default_org_is_made_in_the_sessions_cache(monkeypatch):
    from crmarena_sf.loaders import default_org

    monkeypatch.setattr(default_org, "PROFILE", "tiny")  # the same mechanics, built in a second
    Path(os.environ["WHERE"]).write_text(str(default_org.default_dataset_dir(progress=False)))


def test_a_test_that_writes_the_users_cache_fails_the_run():
    intruder = Path(os.environ["XDG_CACHE_HOME"]) / "crmarena-sf" / "intruder"
    intruder.parent.mkdir(parents=True)
    intruder.write_text("x")
"""


def test_this_session_uses_a_private_cache_and_has_left_the_users_alone(private_cache, user_cache):
    assert cache_root() == private_cache
    assert not any(private_cache.is_relative_to(d) for d in user_cache.directories)
    child = subprocess.run(
        [sys.executable, "-c", "from loaders.default_org import cache_root; print(cache_root())"],
        capture_output=True,
        text=True,
    )
    assert child.stdout.strip() == str(private_cache)  # the crmarena-sf processes tests start too
    assert user_cache.changes() == []


def test_a_session_run_like_a_users_builds_in_its_own_cache_and_fails_on_writes_to_the_users(tmp_path):
    home, xdg = tmp_path / "home", tmp_path / "xdg"
    home.mkdir()
    tests = tmp_path / "inner"
    tests.mkdir()
    (tests / "test_inner.py").write_text(INNER_TESTS)
    where = tmp_path / "where.txt"
    env = {key: value for key, value in os.environ.items() if key != "CRMARENA_SF_CACHE"}
    env.update(
        HOME=str(home),
        XDG_CACHE_HOME=str(xdg),
        WHERE=str(where),
        PYTHONPATH=os.pathsep.join([str(REPO), str(REPO / "tests"), env.get("PYTHONPATH", "")]),
    )
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "conftest", str(tests)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert "2 passed" in run.stdout, run.stdout + run.stderr
    built = Path(where.read_text())
    assert not built.is_relative_to(xdg) and not built.is_relative_to(home)
    assert not built.exists()  # the session's cache is removed when the session ends
    # The only change to the user's cache is the intruder, and it fails the run by name.
    assert [p.name for p in (xdg / "crmarena-sf").rglob("*")] == ["intruder"]
    assert not (home / ".cache").exists()
    assert run.returncode == 1
    assert "changed the user's crmarena-sf cache" in run.stdout and "intruder" in run.stdout
