"""Deploys over REST: ``POST metadata/deployRequest`` and ``GET metadata/deployRequest/<id>``.

Metadata API Developer Guide, "Deploy Metadata with Apex Testing Using REST"
(https://developer.salesforce.com/docs/atlas.en-us.api_meta.meta/api_meta/meta_rest_deploy.htm):
the POST is ``multipart/form-data`` with a ``json`` part (``{"deployOptions": {...}}``) and a
``file`` part (the zip); the answer is 201 with the request's ``id``, its ``deployOptions`` and a
``deployResult``. "Check the Status of Your Deployment Using REST" (meta_rest_deploy_checkstatus.htm):
``GET metadata/deployRequest/<id>[?includeDetails=true]`` answers the same document with the
deployment's result (``details`` when asked). The Metadata API has no REST retrieve. The deploy
itself is the SOAP call's (:mod:`crmarena_sf.emulator.rest.schema_api.metadata_deploy`), so both
routes deploy alike; it runs at once.
"""

from __future__ import annotations

import json
from email import policy
from email.parser import BytesParser
from typing import Any

from crmarena_sf.emulator.errors import SalesforceError, not_found
from crmarena_sf.emulator.rest.schema_api.metadata_deploy import DeployJob, deploy, deploy_result, find_job
from crmarena_sf.emulator.rest.transport.messages import Response, json_response
from crmarena_sf.emulator.rest.transport.resource import RestCall, Route


def _parts(call: RestCall) -> tuple[dict[str, Any], bytes]:
    content_type = call.request.headers.get("Content-Type") or ""
    if "multipart/form-data" not in content_type.lower():
        raise SalesforceError("INVALID_MULTIPART_REQUEST", "Content-Type must be multipart/form-data")
    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode()
    message = BytesParser(policy=policy.HTTP).parsebytes(head + (call.request.body or b""))
    options: dict[str, Any] = {}
    data = b""
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True) or b""
        if name == "json":
            try:
                options = (json.loads(payload or b"{}") or {}).get("deployOptions") or {}
            except (ValueError, AttributeError):
                raise SalesforceError("JSON_PARSER_ERROR", "The json part is not valid JSON") from None
        elif name == "file":
            data = payload
    if not data:
        raise SalesforceError("INVALID_MULTIPART_REQUEST", "A file part with the zip to deploy is required")
    return options, data


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return "" if value is None else str(value)


def _document(call: RestCall, job: DeployJob, include_details: bool) -> dict[str, Any]:
    return {
        "id": job.id,
        "validatedDeployRequestId": None,
        "url": f"{call.data_path}/metadata/deployRequest/{job.id}",
        "deployOptions": job.options,
        "deployResult": deploy_result(call.org, job, include_details),
    }


def create_deploy_request(call: RestCall) -> Response:
    """``POST metadata/deployRequest``: deploy the zip with the options given."""
    options, data = _parts(call)
    settings = {key: _text(value) for key, value in options.items()}
    with call.org.lock:
        job = deploy(call.org, data, settings)
    job.options = options
    return json_response(201, _document(call, job, False))


def deploy_request_status(call: RestCall, job_id: str) -> Response:
    """``GET metadata/deployRequest/<id>``: the deployment's result."""
    job = find_job(call.org, job_id)
    if not isinstance(job, DeployJob):
        raise not_found()
    include = (call.request.param("includeDetails") or "").lower() == "true"
    return json_response(200, _document(call, job, include))


ROUTES = [
    Route(r"metadata/deployRequest", POST=create_deploy_request),
    Route(r"metadata/deployRequest/(?P<job_id>[^/]+)", GET=deploy_request_status),
]
