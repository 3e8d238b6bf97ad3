"""Files and directories a command reads or writes, checked before any work starts.

A run that meets an unwritable ``--out`` only when it writes its results has already spent its
episodes (and, with an LLM, its tokens); a bare ``[Errno 17]`` does not say which option was
wrong. Each command checks its paths first and refuses with one line naming the option.
Nothing is created here: missing directories on an output's path are made when it is written.
"""

from __future__ import annotations

import os
from pathlib import Path

from crmarena_sf.cli.errors import CliError


def input_file(path: str, option: str, what: str = "file") -> Path:
    """A file the command reads: it must exist and be a file (``option`` empty for an argument)."""
    found, named = Path(path).expanduser(), _named(path, option)
    if found.is_dir():
        raise CliError(f"{named}: is a directory, not a {what}")
    if not found.is_file():
        raise CliError(f"{named}: no such {what}")
    if not os.access(found, os.R_OK):
        raise CliError(f"{named}: permission denied (cannot read it)")
    return found


def output_file(path: str, option: str, example: str = "results.json") -> Path:
    """A file the command writes (replacing any file there): its place must be a file's."""
    target = Path(path).expanduser()
    if target.is_dir():
        raise CliError(f"{option} {path}: is a directory; name a file, such as {target / example}")
    if target.exists() and not os.access(target, os.W_OK):
        raise CliError(f"{option} {path}: permission denied (cannot replace it)")
    _writable_place(target.parent, path, option)
    return target


def output_dir(path: str, option: str, *, new: bool = False) -> Path:
    """A directory the command writes into (``new``: one it creates, so it must not exist yet)."""
    target = Path(path).expanduser()
    if target.exists():
        if new:
            raise CliError(f"{option} {path}: already exists; choose another directory or remove it first")
        if not target.is_dir():
            raise CliError(f"{option} {path}: is a file, not a directory")
        if not os.access(target, os.W_OK | os.X_OK):
            raise CliError(f"{option} {path}: permission denied (cannot write in it)")
        return target
    _writable_place(target.parent, path, option)
    return target


def _named(path: str, option: str) -> str:
    return f"{option} {path}" if option else path


def _writable_place(directory: Path, path: str, option: str) -> None:
    """The nearest existing directory on the way to ``directory`` must be one, and writable."""
    existing = directory
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise CliError(f"{option} {path}: {existing} is a file, not a directory")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise CliError(f"{option} {path}: permission denied (cannot write in {existing})")
