"""The wheel: built from the repository, installed into a fresh environment, it holds one top-level name,
``crmarena_sf``, and its CLI and pytest plugin work from there.

The repository keeps its folders (emulator/, metadata/, loaders/, tasks/) at the top; the
wheel maps them under crmarena_sf, so installing crmarena-sf never overwrites PyPI's packages
called emulator, metadata, tasks or bench. The fresh environment borrows this environment's
dependencies (duckdb, sqlglot, simple-salesforce ...) through a path file, minus the editable
install of the project itself, so the test needs no registry.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[1]
LOCAL_ONLY = (
    ".git",
    ".venv",
    ".ci",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    "*_cache",
    ".hypothesis",
    "*.duckdb",
)
"""What a checkout holds beside the sources (environments, caches): not copied into the build."""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    source = tmp_path_factory.mktemp("source") / "crmarena-sf"  # setuptools writes build/ beside the source
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(*LOCAL_ONLY))
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(source)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=out)
    if done.returncode and ("No matching distribution" in done.stderr or "NewConnectionError" in done.stderr):
        pytest.skip("building the wheel needs setuptools from a package registry, which cannot be reached")
    assert done.returncode == 0, done.stderr
    (found,) = out.glob("crmarena_sf-*.whl")
    return found


@pytest.fixture(scope="module")
def fresh(wheel, tmp_path_factory) -> Path:
    """A new virtual environment with the wheel installed and this environment's dependencies beside it."""
    root = tmp_path_factory.mktemp("fresh")
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    purelib = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    borrowed = root / "dependencies"
    borrowed.mkdir()
    for directory in {*site.getsitepackages(), sysconfig.get_paths()["purelib"]}:
        for entry in Path(directory).iterdir():
            if "crmarena" in entry.name.lower() or entry.name.startswith("__editable__"):
                continue  # this environment's (editable) install of the project itself
            target = borrowed / entry.name
            if not target.exists():
                target.symlink_to(entry)
    (purelib / "dependencies.pth").write_text(f"{borrowed}\n")
    install = [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q", str(wheel)]
    done = subprocess.run(install, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return venv


def test_the_wheel_holds_one_top_level_name(wheel):
    with zipfile.ZipFile(wheel) as archive:
        tops = {name.split("/")[0] for name in archive.namelist() if ".dist-info/" not in name}
        names = set(archive.namelist())
    assert tops == {"crmarena_sf"}
    assert "crmarena_sf/emulator/store/org.py" in names and "crmarena_sf/tasks/runner.py" in names
    assert any(n.startswith("crmarena_sf/metadata/describes/") and n.endswith(".json") for n in names)


def test_the_installed_cli_runs_the_reference_agent(fresh, tmp_path, private_cache):
    env = {**os.environ, "CRMARENA_SF_CACHE": str(private_cache)}
    command = [str(fresh / "bin" / "crmarena-sf"), "run", "--agent", "reference", "--limit", "9", "--quiet"]
    done = subprocess.run(
        [*command, "--out", str(tmp_path / "r.json")],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("overall", 1)[1].split()[:2] == ["9", "100.0"]
    where = subprocess.run(
        [str(fresh / "bin" / "python"), "-c", "import crmarena_sf.emulator as e; print(e.__file__)"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=True,
    ).stdout
    assert str(fresh) in where  # the wheel's copy, not the repository's folder


def test_pytest_loads_the_plugin_from_the_installed_wheel(fresh, tmp_path):
    done = subprocess.run(
        [str(fresh / "bin" / "python"), "-m", "pytest", "--help"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "--crmarena-org=ORG" in done.stdout
