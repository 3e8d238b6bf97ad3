"""The Python tools CRM-agent builders and org loaders use, unmodified, against ``crmarena-sf serve`` and in-process.

- salesforce-bulk 2.2.0 (Bulk API 1.0 with CSV, JSON and XML jobs, PK chunking);
- langchain-salesforce 0.2.2 (``SalesforceTool``: list, describe, field metadata, SOQL, writes, errors);
- llama-index-tools-salesforce 0.6.0 (``SalesforceToolSpec``: SOQL with paging, subqueries,
  GROUP BY, SOSL, errors);
- CumulusCI 4.10.1 with Snowfakery 4.2.1 (tests/test_clients_cumulusci.py).

They are installed with the test extras, never at run time; a module skips with the reason when
its library is missing. Clients that use plain ``requests`` trust serve's certificate through
``REQUESTS_CA_BUNDLE``, as their users would set it.
"""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET

import pytest
from serving import served

import crmarena_sf
from crmarena_sf.connection.mock import mock_salesforce

pytestmark = pytest.mark.slow  # serves the default org


@pytest.fixture(scope="module")
def server(crmarena_dataset, tmp_path_factory):
    with served("--org", "crmarena", cert_dir=tmp_path_factory.mktemp("tls")) as printed:
        yield printed


@pytest.fixture
def trusted(server, monkeypatch):
    """serve's certificate trusted the way users of plain-requests clients trust it."""
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", server["certificate"])
    return server


def served_client(server):
    return crmarena_sf.connect(
        backend="salesforce",
        instance_url=server["instance_url"],
        session_id=server["session_id"],
        verify=server["certificate"],
        env_file=None,
    )


# ---------------------------------------------------------------------------- salesforce-bulk
def _salesforce_bulk():
    return pytest.importorskip(
        "salesforce_bulk", reason="salesforce-bulk is not installed (pip install -e '.[test]')"
    )


def _bulk(server):
    host = server["instance_url"].split("://", 1)[1]
    return _salesforce_bulk().SalesforceBulk(sessionId=server["session_id"], host=host, API_version="62.0")


def _rows(records: list[dict], content_type: str) -> str:
    if content_type == "JSON":
        return json.dumps(records)
    if content_type == "XML":
        ns = "http://www.force.com/2009/06/asyncapi/dataload"
        root = ET.Element("sObjects", xmlns=ns)
        for record in records:
            element = ET.SubElement(root, "sObject")
            for key, value in record.items():
                ET.SubElement(element, key).text = value
        return ET.tostring(root, encoding="unicode")
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(records[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(records)
    return out.getvalue()


def _run(bulk, job, data):
    batch = bulk.post_batch(job, data)
    bulk.wait_for_batch(job, batch, timeout=60)
    results = bulk.get_batch_results(batch, job)
    bulk.close_job(job)
    return results


def _query(bulk, soql, content_type="CSV"):
    job = bulk.create_query_job(soql.split(" FROM ")[1].split()[0], contentType=content_type)
    batch = bulk.query(job, soql)
    bulk.wait_for_batch(job, batch, timeout=60)
    bulk.close_job(job)
    rows = []
    for result in bulk.get_all_results_for_query_batch(batch, job):
        if content_type == "JSON":
            rows.extend(json.load(io.TextIOWrapper(result, "utf-8")))
        else:
            rows.extend(csv.DictReader(io.TextIOWrapper(result, "utf-8")))
    return rows


@pytest.mark.parametrize("content_type", ["CSV", "JSON", "XML"])
def test_salesforce_bulk_writes_and_reads_every_operation(trusted, content_type):
    """Bulk API Developer Guide: jobs, batches and results (asynch_api_batches_get_results.htm)."""
    bulk = _bulk(trusted)
    tag = f"Bulk {content_type}"
    inserted = _run(
        bulk,
        bulk.create_insert_job("Account", contentType=content_type),
        _rows(
            [{"Name": f"{tag} {i}", "AccountNumber": f"{content_type}-{i}"} for i in range(3)], content_type
        ),
    )
    assert [(bool(r.success in (True, "true")), bool(r.created in (True, "true"))) for r in inserted] == [
        (True, True)
    ] * 3
    ids = [r.id for r in inserted]
    assert (
        all(i and i.startswith("001") for i in ids) or content_type == "XML"
    )  # salesforce-bulk drops XML ids
    sf = served_client(trusted)
    found = sf.query(f"SELECT Id, Name FROM Account WHERE Name LIKE '{tag} %' ORDER BY Name")["records"]
    ids = [r["Id"] for r in found]
    assert len(ids) == 3
    updated = _run(
        bulk,
        bulk.create_update_job("Account", contentType=content_type),
        _rows([{"Id": ids[0], "Name": f"{tag} renamed"}], content_type),
    )
    assert updated[0].success in (True, "true")
    upserted = _run(
        bulk,
        bulk.create_upsert_job("Account", "Id", contentType=content_type),
        _rows([{"Id": ids[1], "Name": f"{tag} upserted"}], content_type),
    )
    assert upserted[0].success in (True, "true") and upserted[0].created in (False, "false")
    deleted = _run(
        bulk,
        bulk.create_delete_job("Account", contentType=content_type),
        _rows([{"Id": ids[2]}], content_type),
    )
    assert deleted[0].success in (True, "true")
    names = sorted(
        r["Name"] for r in sf.query(f"SELECT Name FROM Account WHERE Name LIKE '{tag} %'")["records"]
    )
    assert names == [f"{tag} renamed", f"{tag} upserted"]
    if content_type != "XML":  # salesforce-bulk reads query results as CSV or JSON
        rows = _query(
            bulk, f"SELECT Id, Name FROM Account WHERE Name LIKE '{tag} %' ORDER BY Name", content_type
        )
        assert sorted(r["Name"] for r in rows) == names


def test_salesforce_bulk_hard_delete_and_a_refused_row(trusted):
    bulk = _bulk(trusted)
    created = _run(
        bulk,
        bulk.create_insert_job("Contact", contentType="CSV"),
        "LastName,Email\nHard,\n,no-name@example.com\n",
    )
    assert created[0].success == "true"
    assert created[1].success == "false" and "REQUIRED_FIELD_MISSING" in created[1].error
    job = bulk.create_job("Contact", "hardDelete", contentType="CSV")
    gone = _run(bulk, job, f"Id\n{created[0].id}\n")
    assert gone[0].success == "true"
    sf = served_client(trusted)
    assert (
        sf.query_all(f"SELECT Id FROM Contact WHERE Id = '{created[0].id}'", include_deleted=True)[
            "totalSize"
        ]
        == 0
    )


def test_salesforce_bulk_pk_chunking_splits_a_query_into_batches(trusted):
    """PK chunking: the added batch is NotProcessed, one batch per chunk of Ids holds the records
    (https://developer.salesforce.com/docs/atlas.en-us.api_asynch.meta/api_asynch/async_api_headers_enable_pk_chunking.htm)."""
    bulk = _bulk(trusted)
    job = bulk.create_query_job("Case", contentType="CSV", pk_chunking=400)
    original = bulk.query(job, "SELECT Id, Subject FROM Case WHERE Priority != null")
    batches = bulk.get_batch_list(job)
    assert [b["id"] for b in batches][0] == original and batches[0]["state"] == "NotProcessed"
    chunks = batches[1:]
    total = served_client(trusted).query("SELECT COUNT() FROM Case")["totalSize"]
    assert len(chunks) == -(-total // 400) and all(b["state"] == "Completed" for b in chunks)
    ids = []
    for chunk in chunks:
        for result in bulk.get_all_results_for_query_batch(chunk["id"], job):
            ids.extend(row["Id"] for row in csv.DictReader(io.TextIOWrapper(result, "utf-8")))
    assert (
        len(ids)
        == len(set(ids))
        == served_client(trusted).query("SELECT COUNT() FROM Case WHERE Priority != null")["totalSize"]
    )
    bulk.close_job(job)


def test_salesforce_bulk_in_process_through_the_mock():
    with mock_salesforce(org="blank") as mock:
        bulk = _salesforce_bulk().SalesforceBulk(
            username="u@example.com", password="pw", security_token="tok"
        )
        results = _run(
            bulk, bulk.create_insert_job("Account", contentType="JSON"), json.dumps([{"Name": "Mocked"}])
        )
        assert results[0].success is True
        assert mock.org.count("Account") == 1


# ---------------------------------------------------------------------------- langchain-salesforce
def _langchain_tool(sf):
    module = pytest.importorskip("langchain_salesforce", reason="langchain-salesforce is not installed")
    return module.SalesforceTool(username="", password="", security_token="", salesforce_client=sf)


@pytest.mark.parametrize("where", ["served", "in-process"])
def test_langchain_salesforce_tool(server, where):
    sf = served_client(server) if where == "served" else crmarena_sf.connect()
    tool = _langchain_tool(sf)
    objects = tool.invoke({"operation": "list_objects"})
    assert {"Case", "Account", "Knowledge__kav"} <= {o["name"] for o in objects}
    described = tool.invoke({"operation": "describe", "object_name": "Case"})
    assert described["name"] == "Case" and any(f["name"] == "Priority" for f in described["fields"])
    field = tool.invoke({"operation": "get_field_metadata", "object_name": "Case", "field_name": "Priority"})
    assert field["type"] == "picklist" and "High" in [v["value"] for v in field["picklistValues"]]
    rows = tool.invoke(
        {"operation": "query", "query": "SELECT Id, Subject FROM Case ORDER BY CaseNumber LIMIT 3"}
    )
    assert rows["totalSize"] == 3 and len(rows["records"]) == 3
    created = tool.invoke(
        {"operation": "create", "object_name": "Contact", "record_data": {"LastName": f"LangChain {where}"}}
    )
    assert created["success"] is True
    tool.invoke(
        {
            "operation": "update",
            "object_name": "Contact",
            "record_id": created["id"],
            "record_data": {"Title": "Agent"},
        }
    )
    assert sf.Contact.get(created["id"])["Title"] == "Agent"
    tool.invoke({"operation": "delete", "object_name": "Contact", "record_id": created["id"]})
    assert sf.query(f"SELECT COUNT() FROM Contact WHERE Id = '{created['id']}'")["totalSize"] == 0
    with pytest.raises(Exception, match="INVALID_FIELD"):
        tool.invoke({"operation": "query", "query": "SELECT NoSuchField__c FROM Case"})
    with pytest.raises(Exception, match="NOT_FOUND"):
        tool.invoke({"operation": "describe", "object_name": "NoSuchObject__c"})


# ---------------------------------------------------------------------------- llama-index-tools-salesforce
@pytest.mark.parametrize("where", ["served", "in-process"])
def test_llama_index_salesforce_tool_spec(server, where):
    module = pytest.importorskip(
        "llama_index.tools.salesforce", reason="llama-index-tools-salesforce is not installed"
    )
    if where == "served":
        sf = served_client(server)
        spec = module.SalesforceToolSpec(
            instance_url=server["instance_url"], session_id=server["session_id"], session=sf.session
        )
    else:
        sf = crmarena_sf.connect()
        spec = module.SalesforceToolSpec(
            instance_url=f"https://{sf.sf_instance}", session_id=sf.session_id, session=sf.session
        )
    assert {t.metadata.name for t in spec.to_tool_list()} == {"execute_soql", "execute_sosl"}
    entries = spec.execute_soql("SELECT Id, Name FROM PricebookEntry")  # more than one page of 2,000
    total = sf.query("SELECT COUNT() FROM PricebookEntry")["totalSize"]
    assert total > 2000 and entries["totalSize"] == total == len(entries["records"])
    nested = spec.execute_soql(
        "SELECT Name, (SELECT Subject FROM Cases LIMIT 2) FROM Account WHERE Id IN (SELECT AccountId FROM Case) LIMIT 3"
    )
    assert nested["totalSize"] == 3 and all(r["Cases"]["records"] for r in nested["records"])
    grouped = spec.execute_soql("SELECT Status, COUNT(Id) n FROM Case GROUP BY Status")
    assert sum(r["n"] for r in grouped["records"]) == sf.query("SELECT COUNT() FROM Case")["totalSize"]
    found = spec.execute_sosl("FIND {jacket} RETURNING Product2(Id, Name LIMIT 5)")
    assert 0 < len(found["searchRecords"]) <= 5
    refused = spec.execute_soql("SELECT Id FROM NoSuchObject__c")
    assert refused.startswith("Error running SOQL query:") and "INVALID_TYPE" in refused
    refused = spec.execute_sosl("FIND {")
    assert refused.startswith("Error running SOSL query:") and "MALFORMED_SEARCH" in refused
