"""Org names, shared by ``connect()``, ``crmarena-sf serve`` and ``crmarena-sf query/search``.

- ``crmarena`` (default): the default synthetic CRMArena org (generated once and cached);
- ``crmarena-pro-b2b`` and ``crmarena-pro-b2c``: CRMArena-Pro's two synthetic orgs (generated
  once and cached the same way);
- ``blank``: a brand-new org with the CRMArena schema and what a new org contains;
- ``standard``: a brand-new org with standard objects only;
- a path to an org file (``.duckdb``) written by ``crmarena-sf load`` or ``Org.save``;
- a dataset directory (one holding ``manifest.json``);
- an :class:`crmarena_sf.emulator.store.org.Org` object, used as is.

Every name gives a private org: the synthetic orgs, org files and dataset directories are read
once per process into a template (an org file is attached read-only, so any number of
processes may read it, also while another serves it) and each call gets a copy-on-write
fork of it (:mod:`crmarena_sf.loaders.org_templates`), so writes stay in the caller's copy. Writing into
an org file is an explicit choice: ``writable=True`` opens the file itself (for an org file
only; DuckDB lets many processes read a file or one write it, so it must not be in use
elsewhere when written).

``describes=DIR`` (one directory or several) adds the objects and fields of describe documents
to the org (:mod:`crmarena_sf.metadata.user_describes`): a new org is made with them, an org with data gets
their tables and columns, empty (:mod:`crmarena_sf.emulator.store.schema_extension`); with ``writable`` the
org file keeps them (their documents too, so it opens with them without the directory).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

ORG_NAMES = ("crmarena", "crmarena-pro-b2b", "crmarena-pro-b2c", "blank", "standard")
ORG_HELP = (
    "crmarena (default synthetic org), crmarena-pro-b2b, crmarena-pro-b2c, blank, standard, "
    "an org file (.duckdb) or a dataset directory"
)


class OrgNotFound(ValueError):
    """An org name that names nothing usable; the message says what was expected."""


class OrgInUse(OrgNotFound):
    """An org file another process (or this one) holds in a way that stops this use; the message names the holder."""


def resolve_org(
    org: str | Path | Any = "crmarena",
    *,
    writable: bool = False,
    progress: bool = True,
    describes: str | Path | list[str | Path] | None = None,
) -> Org:
    """The emulated org ``org`` names (see the module docstring): a private fork, or with ``writable`` the file itself.

    ``progress`` shows progress bars on stderr for long first-use work (generating the
    default org, indexing a large org for search). ``describes``: directories of describe
    documents whose objects and fields the org gains; raises
    :class:`~crmarena_sf.metadata.user_describes.DescribesError` (a ``ValueError``) for an unusable one.
    """
    from crmarena_sf.metadata.user_describes import describe_dirs

    dirs = describe_dirs(describes)  # before the org, which may take seconds: a bad directory fails at once
    found = _resolve(org, writable=writable, progress=progress)
    if dirs:
        from crmarena_sf.emulator.store.schema_extension import extend_org
        from crmarena_sf.metadata.user_describes import extend_schema

        extend_org(found, *extend_schema(found.schema, dirs))
    return found


def _resolve(org: str | Path | Any, *, writable: bool, progress: bool) -> Org:
    from crmarena_sf.emulator.store.org import Org

    if isinstance(org, Org):
        return org
    if not isinstance(org, (str, Path)):
        raise OrgNotFound(f"not an org: {org!r}; expected {ORG_HELP}")
    name = str(org)
    if writable and name in ORG_NAMES:
        raise OrgNotFound(f"writable=True writes into an org file (.duckdb); {name!r} is not one")
    if name == "blank":
        return Org.new()
    if name == "standard":
        return Org.new(profile="standard")
    if name in ("crmarena", "crmarena-pro-b2b", "crmarena-pro-b2c"):
        from crmarena_sf.loaders.default_org import named_org

        return _build(named_org, name, progress=progress)
    path = Path(name).expanduser()
    if path.is_file():
        from crmarena_sf.loaders.org_templates import open_writable, org_file_fork

        return _build(open_writable if writable else org_file_fork, path, progress=progress)
    if path.is_dir():
        if not (path / "manifest.json").is_file():
            raise OrgNotFound(f"{path} is a directory without manifest.json, so not a dataset")
        if writable:
            raise OrgNotFound(
                f"{path} is a dataset directory, which is never written; load it into an org file "
                f"(crmarena-sf load {path} --org FILE.duckdb) and open that with writable=True"
            )
        from crmarena_sf.loaders.org_templates import dataset_fork

        return _build(dataset_fork, path, progress=progress)
    raise OrgNotFound(f"unknown org {name!r}: no such file or directory; expected {ORG_HELP}")


def _build(loader, *args: Any, **options: Any) -> Org:
    """Run a loader; an unusable dataset or file, or a file in use, becomes :class:`OrgNotFound` with its message."""
    from crmarena_sf.emulator.store.files import FileInUse, NotAnOrgFile
    from crmarena_sf.loaders.dataset import DatasetError

    try:
        return loader(*args, **options)
    except FileInUse as exc:
        raise OrgInUse(str(exc)) from None
    except (DatasetError, NotAnOrgFile) as exc:
        raise OrgNotFound(str(exc)) from None
