"""Metadata API deploys and retrieves with zip files: ``deploy``/``checkDeployStatus``, ``retrieve``/``checkRetrieveStatus``.

Metadata API Developer Guide, "deploy()" (a base64 zip holding ``package.xml`` and the components'
files in their type's directory, ``DeployOptions`` ``checkOnly``, ``rollbackOnError``,
``testLevel``, ``runTests`` ...; the answer is an ``AsyncResult`` whose ``id`` the client polls),
"checkDeployStatus()" (``DeployResult``: ``status``, ``success``, ``done``, the
``numberComponents*`` and ``numberTests*`` counts, ``details`` with ``componentSuccesses`` and
``componentFailures``, each a ``DeployMessage``), "retrieve()" (a ``RetrieveRequest``:
``unpackaged`` members by type, or ``packageNames``, ``singlePackage``) and
"checkRetrieveStatus()" (``RetrieveResult``: ``fileProperties``, ``status``, ``success``,
``zipFile``). A deploy without ``package.xml`` fails with "No package.xml found".

Here a deploy runs at once (the first status check already finds it done). CustomObject files
(``objects/X__c.object``) create the object and the fields it lists that the org lacks, through
the same store code as ``createMetadata``; every component is checked before anything is
applied, so with ``rollbackOnError`` (every production deploy) a failure applies nothing.
Components of other types are stored as sent (:mod:`crmarena_sf.emulator.store.deployed_metadata`).
A deploy that asks for Apex tests succeeds without running any (Apex is not emulated): its
result counts no tests and ``runTestsEnabled`` is false. ``destructiveChanges.xml`` removes
stored components. A retrieve answers the org's objects and fields from the describes and the
stored components as deployed, under ``unpackaged/`` unless ``singlePackage``.
"""

from __future__ import annotations

import base64
import datetime as dt
import io
import threading
import weakref
import zipfile
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from crmarena_sf.emulator.errors import SalesforceError
from crmarena_sf.emulator.rest.schema_api.metadata_components import custom_field_xml, custom_object_xml
from crmarena_sf.emulator.rest.schema_api.metadata_read import DIRECTORIES, METADATA_TYPES
from crmarena_sf.emulator.rest.schema_api.metadata_types import as_list, field_spec, is_true, name_field_spec
from crmarena_sf.emulator.rest.transport.xml_body import UnreadableXml, XmlElement, read_xml
from crmarena_sf.emulator.store import deployed_metadata
from crmarena_sf.emulator.store.schema_changes import add_custom_field, add_custom_object

if TYPE_CHECKING:
    from crmarena_sf.emulator.store.org import Org

NAMESPACE = "http://soap.sforce.com/2006/04/metadata"
MAX_ZIP_BYTES = 39_000_000
"""The Metadata API's limit on a deploy's zip (Metadata API Developer Guide, "Metadata Limits": 39 MB)."""
MAX_ENTRIES = 10_000
MAX_DEPTH = 64


@dataclass
class DeployJob:
    id: str
    check_only: bool
    created: dt.datetime
    successes: list[dict[str, Any]] = field(default_factory=list)
    failures: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    tests_requested: bool = False
    rollback_on_error: bool = True
    ignore_warnings: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    """The DeployOptions a REST deployRequest sent, as sent (its answers repeat them)."""

    @property
    def status(self) -> str:
        if self.error or (self.failures and (self.rollback_on_error or not self.successes)):
            return "Failed"
        return "SucceededPartial" if self.failures else "Succeeded"


@dataclass
class RetrieveJob:
    id: str
    zip_bytes: bytes
    files: list[tuple[str, str, str]]
    """(type, full name, file name) of each component in the zip."""
    messages: list[tuple[str, str]]
    created: dt.datetime
    prefix: str = "unpackaged/"
    """Where the zip holds the files: ``unpackaged/``, or its root for a single package."""


_JOBS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_PACKAGES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()
_counter = [0]


def _job_id(prefix: str) -> str:
    from crmarena_sf.emulator import ids

    with _LOCK:
        _counter[0] += 1
        return ids.make_id(prefix, _counter[0])


def find_job(org: Org, job_id: str):
    from crmarena_sf.emulator import ids

    with _LOCK:
        return _JOBS.get(org, {}).get(ids.normalize(job_id) or job_id)


def _keep(org: Org, job) -> None:
    with _LOCK:
        _JOBS.setdefault(org, {})[job.id] = job


# ---------------------------------------------------------------------------- deploy
def deploy(org: Org, zip_bytes: bytes, options: dict[str, str]) -> DeployJob:
    """Deploy ``zip_bytes`` with ``options`` (DeployOptions as text) now; the job says how it went."""
    job = DeployJob(
        _job_id("0Af"),
        is_true(options.get("checkOnly")),
        org.clock.now(),
        tests_requested=(options.get("testLevel") or "NoTestRun") not in ("NoTestRun", "Default")
        or bool(options.get("runTests")),
        rollback_on_error=options.get("rollbackOnError") is None or is_true(options.get("rollbackOnError")),
        ignore_warnings=is_true(options.get("ignoreWarnings")),
    )
    _keep(org, job)
    try:
        files = _read_zip(zip_bytes)
    except ValueError as exc:
        job.error = str(exc)
        return job
    root = _package_root(files)
    if root is None:
        job.failures.append(_message("package.xml", "", "", False, "No package.xml found"))
        return job
    package = _read_package(files[f"{root}package.xml"])
    changes = list(_planned(org, files, root))
    for kind, full_name, file_name, _apply, error in changes:
        if error is not None:
            job.failures.append(_message(file_name, full_name, kind, False, error.message))
    if job.failures and job.rollback_on_error:
        return job
    with org.lock:
        for kind, full_name, file_name, apply, error in changes:
            if error is not None:
                continue
            created = True
            if not job.check_only:
                try:
                    created = apply()
                except SalesforceError as exc:
                    job.failures.append(_message(file_name, full_name, kind, False, exc.message))
                    continue
            job.successes.append(_message(file_name, full_name, kind, True, None, created=created))
        destructive = files.get(f"{root}destructiveChanges.xml") or files.get(
            f"{root}destructiveChangesPost.xml"
        )
        if destructive and not job.check_only:
            for kind, members in _read_package(destructive)["types"].items():
                for member in members:
                    if deployed_metadata.remove(org, kind, member):
                        job.successes.append(
                            _message("destructiveChanges.xml", member, kind, True, None, deleted=True)
                        )
    if not job.check_only and package.get("fullName"):
        with _LOCK:
            _PACKAGES.setdefault(org, {})[package["fullName"]] = package["types"]
    job.successes.insert(0, _message("package.xml", "package.xml", "", True, None, created=False))
    return job


def _read_zip(zip_bytes: bytes) -> dict[str, bytes]:
    if len(zip_bytes) > MAX_ZIP_BYTES:
        raise ValueError("Maximum size of request reached. Maximum size of request is 52428800 bytes.")
    try:
        archive = zipfile.ZipFile(io.BytesIO(zip_bytes))
        entries = [i for i in archive.infolist() if not i.is_dir()]
        if len(entries) > MAX_ENTRIES or sum(i.file_size for i in entries) > 10 * MAX_ZIP_BYTES:
            raise ValueError("Maximum size of request reached.")
        return {i.filename.replace("\\", "/"): archive.read(i) for i in entries}
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError) as exc:
        raise ValueError(f"Error reading the zip file: {exc}") from None


def _package_root(files: dict[str, bytes]) -> str | None:
    """Where package.xml is: the zip's root, or the one folder holding it (``unpackaged/``)."""
    if "package.xml" in files:
        return ""
    roots = sorted(
        name[: -len("package.xml")]
        for name in files
        if name.count("/") == 1 and name.endswith("/package.xml")
    )
    return roots[0] if len(roots) == 1 else None


def _xml(content: bytes) -> XmlElement:
    return read_xml(content, MAX_DEPTH)


def _dict(element: XmlElement) -> dict[str, Any]:
    from crmarena_sf.emulator.rest.schema_api.metadata_api import element_dict

    return element_dict(element)


def _read_package(content: bytes) -> dict[str, Any]:
    """``{"fullName": ..., "types": {type: [members]}}`` of a package.xml (unreadable: nothing)."""
    try:
        root = _xml(content)
    except UnreadableXml:
        return {"fullName": None, "types": {}}
    types: dict[str, list[str]] = {}
    for entry in (c for c in root.children if c.name == "types"):
        name = (entry.child("name").text if entry.child("name") else "").strip()
        members = [m.text.strip() for m in entry.children if m.name == "members"]
        if name:
            types.setdefault(name, []).extend(members)
    full_name = root.child("fullName")
    return {"fullName": full_name.text.strip() if full_name else None, "types": types}


def _planned(org: Org, files: dict[str, bytes], root: str):
    """``(type, full name, file name, apply, error)`` for each component file, checked, not applied."""
    for path, content in sorted(files.items()):
        if not path.startswith(root):
            continue
        relative = path[len(root) :]
        if relative in (
            "package.xml",
            "destructiveChanges.xml",
            "destructiveChangesPre.xml",
            "destructiveChangesPost.xml",
        ):
            continue
        directory, _, rest = relative.partition("/")
        entry = DIRECTORIES.get(directory)
        if entry is None or not rest:
            error = SalesforceError("UNKNOWN_EXCEPTION", f"Unknown metadata directory: {directory}")
            yield ("", relative, relative, None, error)
            continue
        kind, _dir, suffix, _in_folder, meta_file, _children = entry
        if rest.endswith("-meta.xml") and f"{root}{relative[: -len('-meta.xml')]}" in files:
            continue  # the meta file of a component read with it
        full_name = _full_name(rest, suffix)
        if kind == "CustomObject":
            apply, error = _object_change(org, full_name, content)
            yield (kind, full_name, relative, apply, error)
            if error is None:  # a real deploy reports each field of the object file as a component too
                for field_name in _field_names(content):
                    yield (
                        "CustomField",
                        f"{full_name}.{field_name}",
                        relative,
                        _already_applied(org, full_name, field_name),
                        None,
                    )
            continue
        meta = files.get(f"{path}-meta.xml") if meta_file else None
        yield kind, full_name, relative, _storing(org, kind, full_name, relative, content, meta), None


def _storing(org: Org, kind: str, full_name: str, file_name: str, content: bytes, meta: bytes | None):
    """The apply step of a component kept as sent: True when it is new to the org."""

    def apply() -> bool:
        created = deployed_metadata.find(org, kind, full_name) is None
        deployed_metadata.store(org, kind, full_name, file_name, content, meta)
        return created

    return apply


def _field_names(content: bytes) -> list[str]:
    try:
        data = _dict(_xml(content))
    except UnreadableXml:
        return []
    return [
        str((f or {}).get("fullName") or "") for f in as_list(data.get("fields")) if (f or {}).get("fullName")
    ]


def _already_applied(org: Org, object_name: str, field_name: str):
    """The apply step of a field its object file creates: True when the object did not have it before."""
    obj = org.schema.get(object_name)
    new = obj is None or obj.field(field_name) is None
    return lambda: new


def _full_name(rest: str, suffix: str | None) -> str:
    name = rest.removesuffix("-meta.xml")
    if suffix and name.endswith(f".{suffix}"):
        name = name[: -len(suffix) - 1]
    return name


def _object_change(org: Org, name: str, content: bytes):
    """(apply, error) for a CustomObject file: create the object if new, then the fields it lacks."""
    try:
        data = _dict(_xml(content))
    except UnreadableXml as exc:
        return None, SalesforceError("UNKNOWN_EXCEPTION", f"Error parsing file: {exc}")
    existing = org.schema.get(name)
    try:
        specs = []
        for item in as_list(data.get("fields")):
            field_name = str((item or {}).get("fullName") or "")
            if existing is not None and existing.field(field_name) is not None:
                continue
            if not field_name.endswith("__c"):
                raise SalesforceError(
                    "FIELD_INTEGRITY_EXCEPTION", f"Custom field names must end with __c: {name}.{field_name}"
                )
            specs.append(field_spec(field_name, item))
        if existing is None:
            if not name.endswith("__c"):
                raise SalesforceError("INVALID_TYPE", f"Cannot find the object: {name}")
            for required in ("label", "pluralLabel", "deploymentStatus", "sharingModel"):
                if not data.get(required):
                    raise SalesforceError("REQUIRED_FIELD_MISSING", f"Required field is missing: {required}")
            name_spec = name_field_spec(data.get("nameField"))
    except SalesforceError as exc:
        return None, exc

    def apply() -> bool:
        if existing is None:
            add_custom_object(org, name, data["label"], data["pluralLabel"], name_spec)
        for spec in specs:
            add_custom_field(org, name, spec)
        return existing is None

    return apply, None


def _message(
    file_name: str, full_name: str, kind: str, success: bool, problem: str | None, **flags: bool
) -> dict:
    return {
        "changed": success and not flags.get("deleted", False),
        "componentType": kind,
        "created": bool(flags.get("created", False)),
        "deleted": bool(flags.get("deleted", False)),
        "fileName": file_name,
        "fullName": full_name,
        "problem": problem,
        "problemType": None if success else "Error",
        "success": success,
    }


def deploy_result(org: Org, job: DeployJob, include_details: bool) -> dict[str, Any]:
    """The job's DeployResult as a dict (SOAP and REST render it)."""
    stamp = job.created.strftime("%Y-%m-%dT%H:%M:%S.000Z")
    deployed = len([s for s in job.successes if s["componentType"]])
    result: dict[str, Any] = {
        "id": job.id,
        "checkOnly": job.check_only,
        "completedDate": stamp,
        "createdBy": org.user_id,
        "createdByName": "Admin User",
        "createdDate": stamp,
        "done": True,
        "ignoreWarnings": job.ignore_warnings,
        "lastModifiedDate": stamp,
        "numberComponentErrors": len(job.failures),
        "numberComponentsDeployed": deployed,
        "numberComponentsTotal": deployed + len(job.failures),
        "numberTestErrors": 0,
        "numberTestsCompleted": 0,
        "numberTestsTotal": 0,
        "rollbackOnError": job.rollback_on_error,
        "runTestsEnabled": False,
        "startDate": stamp,
        "status": job.status,
        "success": job.status != "Failed",
    }
    if job.error:
        result["errorMessage"] = job.error
        result["errorStatusCode"] = "UNKNOWN_EXCEPTION"
    if include_details:
        result["details"] = {
            "componentFailures": job.failures,
            "componentSuccesses": job.successes,
            "runTestResult": {"numFailures": 0, "numTestsRun": 0, "totalTime": 0.0},
        }
    return result


def _xml_value(name: str, value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return f"<{name}>{'true' if value else 'false'}</{name}>"
    if isinstance(value, list):
        return "".join(_xml_value(name, item) for item in value)
    if isinstance(value, dict):
        return f"<{name}>{''.join(_xml_value(k, v) for k, v in value.items())}</{name}>"
    return f"<{name}>{escape(str(value))}</{name}>"


def deploy_result_xml(org: Org, job: DeployJob, include_details: bool) -> str:
    result = deploy_result(org, job, include_details)
    return _xml_value("result", result)


# ---------------------------------------------------------------------------- retrieve
def retrieve(org: Org, request: XmlElement | None) -> RetrieveJob:
    """Build the zip a RetrieveRequest asks for, now."""
    request = request or XmlElement("retrieveRequest", {})
    single = is_true(
        (request.child("singlePackage").text if request.child("singlePackage") else "") or "false"
    )
    version = (request.child("apiVersion").text.strip() if request.child("apiVersion") else "") or "62.0"
    wanted: dict[str, list[str]] = {}
    unpackaged = request.child("unpackaged")
    if unpackaged is not None:
        for entry in (c for c in unpackaged.children if c.name == "types"):
            name = entry.child("name").text.strip() if entry.child("name") else ""
            wanted.setdefault(name, []).extend(m.text.strip() for m in entry.children if m.name == "members")
    messages: list[tuple[str, str]] = []
    with _LOCK:
        packages = dict(_PACKAGES.get(org, {}))
    for package in (c.text.strip() for c in request.children if c.name == "packageNames"):
        if package in packages:
            for kind, members in packages[package].items():
                wanted.setdefault(kind, []).extend(members)
        else:
            messages.append(("package.xml", f"No package named '{package}' found"))
    prefix = "" if single else "unpackaged/"
    out: dict[str, bytes] = {}
    listed: list[tuple[str, str, str]] = []
    for kind, members in wanted.items():
        for full_name, file_name, content in _retrieved(org, kind, members, messages):
            out[prefix + file_name] = content
            listed.append((kind, full_name, file_name))
    out[prefix + "package.xml"] = _package_xml(wanted, version)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in sorted(out.items()):
            archive.writestr(name, content)
    job = RetrieveJob(_job_id("09S"), buffer.getvalue(), listed, messages, org.clock.now(), prefix)
    _keep(org, job)
    return job


def _package_xml(wanted: dict[str, list[str]], version: str) -> bytes:
    types = "".join(
        "<types>"
        + "".join(f"<members>{escape(m)}</members>" for m in members)
        + f"<name>{escape(kind)}</name></types>"
        for kind, members in sorted(wanted.items())
    )
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<Package xmlns="{NAMESPACE}">{types}<version>{escape(version)}</version></Package>\n'
    ).encode()


def _file(kind: str, body: str) -> bytes:
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<{kind} xmlns="{NAMESPACE}">{body}</{kind}>\n'.encode()


def _retrieved(org: Org, kind: str, members: list[str], messages: list):
    """(full name, file name, content) of each component of ``kind`` named by ``members`` (``*``: all)."""
    everything = "*" in members
    if kind == "CustomObject":
        names = [o.name for o in org.schema if o.custom] if everything else members
        for name in names:
            obj = org.schema.get(name)
            if obj is None:
                messages.append(
                    (
                        f"objects/{name}.object",
                        f"Entity of type 'CustomObject' named '{name}' cannot be found",
                    )
                )
                continue
            body = custom_object_xml(obj).removeprefix(f"<fullName>{escape(obj.name)}</fullName>")
            yield obj.name, f"objects/{obj.name}.object", _file("CustomObject", body)
        return
    if kind == "CustomField":
        by_object: dict[str, list[str]] = {}
        for member in members:
            object_name, _, field_name = member.partition(".")
            obj = org.schema.get(object_name)
            field_ = obj.field(field_name) if obj is not None else None
            if field_ is None:
                messages.append(
                    (
                        f"objects/{object_name}.object",
                        f"Entity of type 'CustomField' named '{member}' cannot be found",
                    )
                )
                continue
            by_object.setdefault(obj.name, []).append(
                f"<fields>{custom_field_xml(obj, field_, in_object=True)}</fields>"
            )
        for object_name, fields in by_object.items():
            yield object_name, f"objects/{object_name}.object", _file("CustomObject", "".join(fields))
        return
    stored = deployed_metadata.components(org, kind)
    chosen = stored if everything else [c for c in stored if c.full_name in members]
    for member in [] if everything else [m for m in members if m not in {c.full_name for c in stored}]:
        directory = next((e[1] for e in METADATA_TYPES if e[0] == kind), kind)
        messages.append(
            (f"{directory}/{member}", f"Entity of type '{kind}' named '{member}' cannot be found")
        )
    for component in chosen:
        yield component.full_name, component.file_name, component.content
        if component.meta is not None:
            yield component.full_name, f"{component.file_name}-meta.xml", component.meta


def retrieve_result_xml(job: RetrieveJob, include_zip: bool, org: Org) -> str:
    stamp = job.created.strftime("%Y-%m-%dT%H:%M:%S.000Z")
    properties = "".join(
        f"<fileProperties><createdById>{escape(org.user_id)}</createdById><createdByName>Admin User</createdByName>"
        f"<createdDate>{stamp}</createdDate><fileName>{escape(job.prefix + file_name)}</fileName>"
        f"<fullName>{escape(full_name)}</fullName><id></id><lastModifiedById>{escape(org.user_id)}</lastModifiedById>"
        f"<lastModifiedByName>Admin User</lastModifiedByName><lastModifiedDate>{stamp}</lastModifiedDate>"
        f"<manageableState>unmanaged</manageableState><type>{escape(kind)}</type></fileProperties>"
        for kind, full_name, file_name in job.files
    )
    messages = "".join(
        f"<messages><fileName>{escape(f)}</fileName><problem>{escape(p)}</problem></messages>"
        for f, p in job.messages
    )
    zipped = f"<zipFile>{base64.b64encode(job.zip_bytes).decode()}</zipFile>" if include_zip else ""
    return (
        f"<result><done>true</done>{properties}<id>{job.id}</id>{messages}"
        f"<status>Succeeded</status><success>true</success>{zipped}</result>"
    )
