"""What the test modules share: a private cache for the session, and orgs built once per session.

The cache. ``crmarena-sf`` keeps the default org under ``$CRMARENA_SF_CACHE`` (else the
user's cache directory). Before any test module is imported, :func:`pytest_configure` points
``CRMARENA_SF_CACHE`` at a temporary directory for the whole session, subprocesses included,
so the suite builds its own default org there and never writes the user's. At the end the
user's cache is compared with a snapshot taken at the start: any change fails the run
(``tests/test_suite_cache.py`` checks the redirection itself).

The orgs, each built once per session and handed out as forks (copy-on-write, so a module's
writes stay in its fork):

- ``tiny_dataset``: the ``tiny`` profile, seed :data:`TINY_SEED`, to read (copy it before changing it);
- ``tiny_org``: that dataset loaded and indexed for search; ``tiny_fork`` is a module's fork;
- ``tiny_task_file``, ``tiny_soql_task_file``: that org's nine tasks, one instance each, and its
  text-to-SOQL track, 48 questions (read them, never change them);
- ``built``: the SOQL tests' small org (``tests/small_org.py``) and its named Ids, one fork per module;
- ``crmarena_dataset`` and ``crmarena_fork``: the default CRMArena org (``full``, seed 0) in the
  session's cache; tests using them are ``slow`` (they build a CRMArena-size org);
- ``pro_dataset(profile)`` and ``pro_org(profile)``: CRMArena-Pro's ``b2b`` and ``b2c`` orgs (seed 0)
  in the session's cache, the dataset and a fork of the org (tests using them are ``slow`` too);
- ``recorded``: wraps an org's DuckDB cursor so ``org.con.statements`` lists the SQL it runs.

Threads: the session runs with ``CRMARENA_SF_CHECK_THREADS=1`` (subprocesses too), so a thread
that takes an org's DuckDB cursor without the org's lock fails at once.

npm packages: test modules marked ``npm(NAME, ...)`` run last, and the packages they name start
installing in the background as soon as collection ends (:mod:`npm_installs`), so the minutes
spent fetching them overlap the other tests instead of adding to them.

Signals: a session started with SIGINT ignored (in the background of a script) answers it again,
so the processes the tests start and interrupt do too.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from npm_installs import Prefetch
from small_org import build_small_org

TINY_SEED = 0
"""The seed of ``tiny_dataset``: its org gives every one of the nine task families a few instances
(not every seed's tiny org does: seed 7's has no named-entity question)."""

_USER_CACHE_KEY = pytest.StashKey["UserCache"]()
_PRIVATE_CACHE_KEY = pytest.StashKey[Path]()
_PREFETCH_KEY = pytest.StashKey[Prefetch]()


# ---------------------------------------------------------------------------- the session's cache
@dataclass
class UserCache:
    """The user's crmarena-sf cache directories and their files when the session began."""

    directories: list[Path]
    before: dict[str, tuple[int, int] | None] = field(default_factory=dict)

    @classmethod
    def of_this_environment(cls) -> UserCache:
        """Where crmarena-sf writes for this environment: the cache root, and the default TLS directory's parent."""
        from crmarena_sf.loaders.default_org import cache_root

        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache").expanduser()
        cache = cls(sorted({cache_root(), base / "crmarena-sf"}))
        cache.before = cache.files()
        return cache

    def files(self) -> dict[str, tuple[int, int] | None]:
        """Every file with its size and modification time (a missing directory maps to None)."""
        found: dict[str, tuple[int, int] | None] = {}
        for directory in self.directories:
            if not directory.is_dir():
                found[str(directory)] = None
                continue
            for path in directory.rglob("*"):
                if path.is_file():
                    stat = path.stat()
                    found[str(path)] = (stat.st_size, stat.st_mtime_ns)
        return found

    def changes(self) -> list[str]:
        """Paths created, changed or removed since the session began."""
        after = self.files()
        return sorted(k for k in set(after) | set(self.before) if after.get(k) != self.before.get(k))


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_USER_CACHE_KEY] = UserCache.of_this_environment()
    private = Path(tempfile.mkdtemp(prefix="crmarena-sf-test-cache-"))
    config.stash[_PRIVATE_CACHE_KEY] = private
    os.environ["CRMARENA_SF_CACHE"] = str(private)
    # Every org in the session, subprocesses' too, refuses its cursor to a thread without its lock
    # (emulator/store/org.py, "Threads"): a race shows on its first try, not one run in ten.
    from crmarena_sf.emulator.store import org as org_module

    os.environ["CRMARENA_SF_CHECK_THREADS"] = "1"
    org_module.CHECK_THREADS = True
    # Tests press Ctrl-C on the commands they start (serve, run, generate). A pytest started in
    # the background of a shell without job control (`pytest &` in a script, nohup, some CI
    # runners) ignores SIGINT, and every process it starts would inherit that and never stop.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list) -> None:
    """Modules that need npm packages run last (in their order), and those packages start installing now."""
    late_modules = {item.module for item in items if item.get_closest_marker("npm") is not None}
    if not late_modules:
        return
    late = [item for item in items if item.module in late_modules]
    items[:] = [item for item in items if item.module not in late_modules] + late
    names: list[str] = []
    for item in late:
        for marker in item.iter_markers("npm"):
            names += [name for name in marker.args if name not in names]
    if shutil.which("node") and shutil.which("npm") and not config.option.collectonly:
        home = config.stash[_PRIVATE_CACHE_KEY] / "prefetch-home"
        home.mkdir(exist_ok=True)
        config.stash[_PREFETCH_KEY] = Prefetch(names, home).start()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    user_cache = session.config.stash.get(_USER_CACHE_KEY, None)
    changed = user_cache.changes() if user_cache is not None else []
    if changed:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(
                "the test session changed the user's crmarena-sf cache: " + ", ".join(changed[:5]),
                red=True,
                bold=True,
            )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_unconfigure(config: pytest.Config) -> None:
    prefetch = config.stash.get(_PREFETCH_KEY, None)
    if prefetch is not None:
        prefetch.stop()
    private = config.stash.get(_PRIVATE_CACHE_KEY, None)
    if private is not None:
        shutil.rmtree(private, ignore_errors=True)


@pytest.fixture(scope="session")
def private_cache() -> Path:
    """The session's ``CRMARENA_SF_CACHE``."""
    return Path(os.environ["CRMARENA_SF_CACHE"])


@pytest.fixture(scope="session")
def user_cache(request) -> UserCache:
    """The user's crmarena-sf cache as the session found it."""
    return request.config.stash[_USER_CACHE_KEY]


# ---------------------------------------------------------------------------- orgs built once
@pytest.fixture(scope="session")
def tiny_dataset(tmp_path_factory) -> Path:
    """The ``tiny`` profile with :data:`TINY_SEED`, generated once: read it, and copy it before changing it."""
    from crmarena_sf.loaders.generate import generate

    return generate(tmp_path_factory.mktemp("tiny") / "ds", profile="tiny", seed=TINY_SEED)


@pytest.fixture(scope="session")
def tiny_org(tiny_dataset):
    """The tiny dataset loaded and indexed for search, once; tests take forks of it (``tiny_fork``)."""
    from crmarena_sf.emulator import sosl
    from crmarena_sf.loaders.load import load_dataset

    org = load_dataset(tiny_dataset)
    sosl.ensure_index(org)
    return org


@pytest.fixture(scope="module")
def tiny_fork(tiny_org):
    """A module's own fork of the tiny org."""
    fork = tiny_org.fork()
    yield fork
    fork.close()


@pytest.fixture(scope="session")
def tiny_task_file(tiny_dataset, tmp_path_factory) -> Path:
    """The tiny org's nine tasks, one instance each, built once by ``crmarena-sf tasks build``: read it."""
    from crmarena_sf.cli.main import main

    path = tmp_path_factory.mktemp("tiny-tasks") / "tasks.jsonl"
    args = ["tasks", "build", "--org", str(tiny_dataset), "--per-task", "1", "--out", str(path), "--quiet"]
    assert main(args) == 0
    return path


@pytest.fixture(scope="session")
def tiny_soql_task_file(tiny_dataset, tmp_path_factory) -> Path:
    """The tiny org's text-to-SOQL track, 48 questions (six per level), built once: read it."""
    from crmarena_sf.cli.main import main

    path = tmp_path_factory.mktemp("tiny-soql") / "soql.jsonl"
    args = [
        "tasks",
        "build",
        "--suite",
        "soql",
        "--org",
        str(tiny_dataset),
        "--per-task",
        "48",
        "--out",
        str(path),
    ]
    assert main([*args, "--quiet"]) == 0
    return path


@pytest.fixture(scope="session")
def small_org_template(tmp_path_factory):
    """The SOQL tests' small org and its named Ids, built once (``built`` forks it per module)."""
    return build_small_org(tmp_path_factory.mktemp("small_org"))


@pytest.fixture(scope="module")
def built(small_org_template):
    """A module's own fork of the small org, with the small org's named Ids."""
    org, named = small_org_template
    fork = org.fork()
    yield fork, named
    fork.close()


@pytest.fixture(scope="session")
def crmarena_dataset() -> Path:
    """The default org's dataset (``full``, seed 0), generated once into the session's cache."""
    from crmarena_sf.loaders.default_org import default_dataset_dir

    return default_dataset_dir(progress=False)


@pytest.fixture(scope="module")
def crmarena_fork(crmarena_dataset):
    """A module's own fork of the default CRMArena org (loaded and indexed once per session)."""
    from crmarena_sf.loaders.default_org import crmarena_org

    fork = crmarena_org(progress=False)
    yield fork
    fork.close()


@pytest.fixture(scope="session")
def pro_dataset():
    """``pro_dataset("b2b")``: the dataset of a CRMArena-Pro org (seed 0), generated once into the session's cache."""
    from crmarena_sf.loaders.default_org import default_dataset_dir

    return lambda profile: default_dataset_dir(progress=False, profile=profile)


@pytest.fixture(scope="session")
def pro_org():
    """``pro_org("b2b")``: a new fork of a CRMArena-Pro org (loaded and indexed once per session); close it after use."""
    from crmarena_sf.loaders.default_org import crmarena_org

    return lambda profile: crmarena_org(progress=False, profile=profile)


# ---------------------------------------------------------------------------- recording SQL
class RecordingConnection:
    """Forwards to an org's DuckDB cursor, keeping every SQL text executed."""

    def __init__(self, con) -> None:
        self._con = con
        self.statements: list[str] = []

    def execute(self, sql, params=None):
        self.statements.append(sql if isinstance(sql, str) else sql.query)  # a statement DuckDB parsed before
        return self._con.execute(sql, params)

    def __getattr__(self, name):
        return getattr(self._con, name)


@pytest.fixture(scope="session")
def recorded():
    """``recorded(org)``: ``org`` whose ``org.con.statements`` lists every SQL text it sends DuckDB from then on."""

    def wrap(org):
        org.con = RecordingConnection(org.con)
        return org

    return wrap
