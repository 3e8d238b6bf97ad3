"""Org names, shared by ``connect()``, ``crmarena-sf serve`` and ``crmarena-sf query/search``.

- ``crmarena`` (default): the default synthetic CRMArena org (generated once and cached;
  each call gets its own copy-on-write fork);
- ``blank``: a brand-new org with the CRMArena schema and what a new org contains;
- ``standard``: a brand-new org with standard objects only;
- a path to an org file (``.duckdb``) written by ``crmarena-sf load`` or ``Org.save``;
- a dataset directory (one holding ``manifest.json``), loaded into a new org;
- an :class:`emulator.store.org.Org` object, used as is.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from emulator.store.org import Org

ORG_NAMES = ("crmarena", "blank", "standard")
ORG_HELP = "crmarena (default synthetic org), blank, standard, an org file (.duckdb) or a dataset directory"


class OrgNotFound(ValueError):
    """An org name that names nothing usable; the message says what was expected."""


def resolve_org(org: str | Path | Any = "crmarena") -> Org:
    """The emulated org ``org`` names (see the module docstring)."""
    from emulator.store.org import Org

    if isinstance(org, Org):
        return org
    if not isinstance(org, (str, Path)):
        raise OrgNotFound(f"not an org: {org!r}; expected {ORG_HELP}")
    name = str(org)
    if name == "blank":
        return Org.new()
    if name == "standard":
        return Org.new(profile="standard")
    if name == "crmarena":
        return _build(_loader("loaders.default_org", "crmarena_org"))
    path = Path(name).expanduser()
    if path.is_file():
        try:
            return Org.open(path)
        except ValueError as exc:  # a DuckDB file of something else, or not DuckDB at all
            raise OrgNotFound(str(exc)) from None
    if path.is_dir():
        if not (path / "manifest.json").is_file():
            raise OrgNotFound(f"{path} is a directory without manifest.json, so not a dataset")
        return _build(_loader("loaders.load", "load_dataset"), path)
    raise OrgNotFound(f"unknown org {name!r}: no such file or directory; expected {ORG_HELP}")


def _build(loader, *args: Any) -> Org:
    """Run a loader; a dataset it cannot use becomes :class:`OrgNotFound` with the loader's own message."""
    from loaders.dataset import DatasetError

    try:
        return loader(*args)
    except DatasetError as exc:
        raise OrgNotFound(str(exc)) from None


def _loader(module: str, function: str):
    """A loader function another package provides, or a clear message when it is not there yet."""
    try:
        return getattr(importlib.import_module(module), function)
    except (ModuleNotFoundError, AttributeError) as exc:
        if isinstance(exc, ModuleNotFoundError) and exc.name and not module.startswith(exc.name):
            raise
        raise OrgNotFound(
            f"this installation cannot build that org yet ({module}.{function} is missing); "
            "use --org blank, --org standard or an org file"
        ) from None
