"""End to end: ``crmarena-sf push`` of the ``tiny`` dataset into ``crmarena-sf serve --org standard`` over
HTTPS, through the same HTTP path a real org would see (SALESFORCE_INSTANCE_URL, SALESFORCE_SESSION_ID,
REQUESTS_CA_BUNDLE). The new org starts without CRMArena's schema and ends with it; a second push
changes nothing; every record is there exactly once; CRMArena's queries (the tool functions of
https://github.com/SalesforceAIResearch/CRMArena, crm_sandbox/env/functions.py) and every gold answer of the benchmark tasks equal the directly loaded org's once Ids are mapped;
``--teardown`` removes exactly what the push loaded."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from crmarena_sf.loaders.dataset import Dataset
from crmarena_sf.loaders.generate import generate
from crmarena_sf.loaders.push.idmap import IdMap
from crmarena_sf.loaders.push.keys import KEY_FIELD
from crmarena_sf.loaders.push.plan import NOT_PUSHED
from crmarena_sf.tasks.build import build_tasks
from simple_salesforce import Salesforce

import crmarena_sf

CLI = [sys.executable, "-m", "crmarena_sf.cli.main"]
PER_TASK = 25
ID = re.compile(r"\b[a-zA-Z0-9]{18}\b")


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    return generate(tmp_path_factory.mktemp("push") / "tiny", profile="tiny", seed=0)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``crmarena-sf serve --org standard`` on a free port; yields the environment a real org's user sets."""
    certs = tmp_path_factory.mktemp("certs")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [*CLI, "serve", "--org", "standard", "--port", "0", "--cert-dir", str(certs)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    lines = {}
    while len(lines) < 3:
        line = proc.stdout.readline()
        assert line, proc.stderr.read()
        key, _, value = line.strip().partition(": ")
        lines[key] = value
    yield {
        "SALESFORCE_INSTANCE_URL": lines["instance_url"],
        "SALESFORCE_SESSION_ID": lines["session_id"],
        "REQUESTS_CA_BUNDLE": lines["certificate"],
    }
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="module")
def sf(served):
    os.environ["REQUESTS_CA_BUNDLE"] = served["REQUESTS_CA_BUNDLE"]
    try:
        yield Salesforce(
            instance_url=served["SALESFORCE_INSTANCE_URL"], session_id=served["SALESFORCE_SESSION_ID"]
        )
    finally:
        os.environ.pop("REQUESTS_CA_BUNDLE", None)


def _push(served, *args, state):
    env = {**os.environ, **served, "CRMARENA_SF_CACHE": str(Path(state).parent / "cache")}
    for name in ("SALESFORCE_USERNAME", "SALESFORCE_PASSWORD", "SALESFORCE_SECURITY_TOKEN"):
        env.pop(name, None)
    return subprocess.run(
        [*CLI, "push", *args, "--state", str(state), "--json", "--quiet", "--bulk-poll", "0.05"],
        capture_output=True,
        text=True,
        env=env,
        cwd=Path(state).parent,  # no .env from the repository
        timeout=300,
    )


@pytest.fixture(scope="module")
def pushed(dataset, served, sf, tmp_path_factory):
    """Two pushes (the first with small Bulk API 2.0 jobs), the org before, and the id map."""
    state = tmp_path_factory.mktemp("state") / "ids.duckdb"
    before = {o["name"] for o in sf.describe()["sobjects"]}
    case_fields_before = {f["name"] for f in sf.Case.describe()["fields"]}
    # records the push did not make: it must never touch them
    not_ours = sf.Account.create({"Name": "Not pushed Ltd"})["id"]
    not_ours_contact = sf.Contact.create({"LastName": "Outsider", "AccountId": not_ours})["id"]
    first = _push(served, str(dataset), "--bulk-threshold", "100", state=state)
    second = _push(served, str(dataset), state=state)
    ids = IdMap(state)
    mapping = ids.mapping()
    ids.close()
    return {
        "first": first,
        "second": second,
        "before": before,
        "case_fields_before": case_fields_before,
        "mapping": mapping,
        "not_ours": [not_ours, not_ours_contact],
        "state": state,
    }


def _loadable_counts(dataset: Dataset) -> dict[str, int]:
    con = dataset.connect()
    counts = {name: con.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0] for name in dataset.objects}
    counts["Contact"] = con.execute('SELECT count(*) FROM "Contact" WHERE NOT "IsPersonAccount"').fetchone()[
        0
    ]
    counts["Pricebook2"] = con.execute('SELECT count(*) FROM "Pricebook2" WHERE NOT "IsStandard"').fetchone()[
        0
    ]
    del counts["KnowledgeArticle"]  # made by the org with each article version
    for name in NOT_PUSHED:  # left out on purpose (data categories need the org's category groups)
        counts.pop(name, None)
    return counts


def test_the_first_push_creates_the_schema_and_loads_every_row(pushed, dataset, sf):
    first = pushed["first"]
    assert first.returncode == 0, first.stderr
    report = json.loads(first.stdout)
    expected = _loadable_counts(Dataset(dataset))
    assert {name: c["loaded"] for name, c in report["objects"].items()} == expected
    assert report["failed"] == 0 and report["skipped"] == 0
    assert report["published_articles"] == expected["Knowledge__kav"]
    assert report["updated_after_load"] == expected["Order"]  # activated after their items
    assert report["api_calls"] > 0
    assert "Issue__c" not in pushed["before"] and "CaseHistory__c" not in pushed["before"]
    assert "IssueId__c" not in pushed["case_fields_before"]
    after = {o["name"] for o in sf.describe()["sobjects"]}
    assert {"Issue__c", "CaseHistory__c"} <= after
    case = {f["name"]: f for f in sf.Case.describe()["fields"]}
    assert case["IssueId__c"]["referenceTo"] == ["Issue__c"] and case[KEY_FIELD]["externalId"]
    for name in expected:
        assert any(f["name"] == KEY_FIELD for f in getattr(sf, name).describe()["fields"]), name
    granted = sf.query("SELECT Field FROM FieldPermissions WHERE Parent.Name = 'CRMArena_Push'")["records"]
    assert {"Case.IssueId__c", f"Account.{KEY_FIELD}"} <= {r["Field"] for r in granted}
    assigned = sf.query(
        "SELECT AssigneeId FROM PermissionSetAssignment WHERE PermissionSet.Name = 'CRMArena_Push'"
    )
    assert assigned["totalSize"] == 1


def test_the_second_push_changes_nothing_and_every_record_is_there_once(pushed, dataset, sf):
    second = pushed["second"]
    assert second.returncode == 0, second.stderr
    report = json.loads(second.stdout)
    expected = _loadable_counts(Dataset(dataset))
    assert report["loaded"] == 0 and report["failed"] == 0
    assert {name: c["skipped"] for name, c in report["objects"].items()} == expected
    for name, count in expected.items():
        keyed = sf.query_all(
            f"SELECT {KEY_FIELD} FROM {name} WHERE {KEY_FIELD} != null"
            + (" AND PublishStatus = 'Online'" if name == "Knowledge__kav" else "")
        )
        keys = [r[KEY_FIELD] for r in keyed["records"]]
        assert len(keys) == count == len(set(keys)), name
    # a person account's contact comes with it: 40 of them, plus 2 business contacts and ours
    assert sf.query("SELECT COUNT() FROM Contact")["totalSize"] == 42 + 1
    assert sf.query("SELECT COUNT() FROM Account")["totalSize"] == expected["Account"] + 1


def test_gold_answers_equal_the_directly_loaded_orgs_after_mapping_ids(pushed, dataset, sf):
    mapping = pushed["mapping"]
    assert sum(1 for k, v in mapping.items() if k != v) > 100  # the pushed org's Ids really differ
    direct = build_tasks(crmarena_sf.connect(org=str(dataset)), per_task=PER_TASK)
    remote = build_tasks(sf, per_task=PER_TASK)
    assert direct.made == remote.made and sum(direct.made.values()) > 150

    # Each record names the org it was built on (issue 25): the pushed copy is another org.
    assert {r.org_fingerprint for r in direct.records}.isdisjoint(r.org_fingerprint for r in remote.records)

    def text(record):
        return json.dumps({**record.to_json(), "org_fingerprint": None}, sort_keys=True)

    def mapped(record):
        return ID.sub(lambda m: mapping.get(m.group(0), m.group(0)), text(record))

    assert [mapped(r) for r in direct.records] == [text(r) for r in remote.records]
    assert [json.dumps(r.to_json()) for r in direct.records] != [
        json.dumps(r.to_json()) for r in remote.records
    ]


def test_crmarena_queries_give_the_same_rows_after_mapping_ids(pushed, dataset, sf):
    mapping = pushed["mapping"]
    back = {v: k for k, v in mapping.items()}
    direct = crmarena_sf.connect(org=str(dataset))
    history = direct.query(
        "SELECT CaseId__c, NewValue__c, OldValue__c FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' "
        "AND OldValue__c != NULL LIMIT 1"
    )["records"][0]
    chatted = direct.query("SELECT CaseId FROM LiveChatTranscript WHERE Case.OrderItemId__c != null LIMIT 1")
    case = direct.query(
        "SELECT Id, AccountId, ContactId, OrderItemId__c, IssueId__c FROM Case "
        f"WHERE Id = '{chatted['records'][0]['CaseId']}'"
    )["records"][0]
    emailed = direct.query("SELECT ParentId FROM EmailMessage LIMIT 1")["records"][0]["ParentId"]
    item = direct.query(
        f"SELECT Id, Product2Id, OrderId, Order.EffectiveDate FROM OrderItem WHERE Id = '{case['OrderItemId__c']}'"
    )["records"][0]
    agents = [history["NewValue__c"], history["OldValue__c"]]
    window = "CreatedDate >= 2020-01-01T00:00:00Z AND CreatedDate <= 2023-12-31T23:59:59Z"
    queries = [
        f"SELECT NewValue__c, CreatedDate FROM CaseHistory__c WHERE {window} AND Field__c = 'Owner Assignment'",
        f"SELECT CaseId__c FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' AND {window} GROUP BY CaseId__c HAVING COUNT(Id) = 1",
        f"SELECT OldValue__c, CreatedDate FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' AND OldValue__c != NULL AND {window}",
        f"SELECT OwnerId, CreatedDate, ClosedDate, AccountId FROM Case WHERE {window} AND OwnerId IN ('{agents[0]}', '{agents[1]}') AND Status = 'Closed'",
        f"SELECT Id, ShippingState FROM Account WHERE Id IN ('{case['AccountId']}')",
        f"SELECT Id FROM OrderItem WHERE Product2Id = '{item['Product2Id']}'",
        f"SELECT IssueId__c, COUNT(Id) IssueCount FROM Case WHERE OrderItemId__c IN ('{item['Id']}') AND {window} GROUP BY IssueId__c ORDER BY COUNT(Id) DESC",
        f"SELECT AccountId FROM Contact WHERE Id = '{case['ContactId']}' LIMIT 1",
        f"SELECT Product2Id FROM OrderItem WHERE OrderItem.Order.AccountId = '{case['AccountId']}' AND OrderItem.Order.EffectiveDate = {item['Order']['EffectiveDate']} AND Product2Id IN ('{item['Product2Id']}') AND OrderItem.Order.Status = 'Activated'",
        "SELECT Id, Name FROM Issue__c",
        f"SELECT Subject, TextBody, FromAddress, ToAddress, MessageDate FROM EmailMessage WHERE ParentId = '{emailed}'",
        f"SELECT Body, EndTime FROM LiveChatTranscript WHERE CaseId = '{case['Id']}'",
    ]  # fmt: skip
    searches = [
        "FIND {return policy} IN ALL FIELDS RETURNING Knowledge__kav(Id, Title, FAQ_Answer__c WHERE PublishStatus='Online' AND Language='en_US')",
        "FIND {jacket} IN ALL FIELDS RETURNING Product2(Id, Name, Description)",
    ]  # fmt: skip

    def rows(records, translate):
        out = []
        for r in records:
            text = json.dumps({k: v for k, v in r.items() if k != "attributes"}, sort_keys=True)
            out.append(ID.sub(lambda m: translate.get(m.group(0), m.group(0)), text))
        return sorted(out)

    def on_pushed(text):
        return ID.sub(lambda m: mapping.get(m.group(0), m.group(0)), text)

    for soql in queries:
        want = rows(direct.query_all(soql)["records"], {})
        got = rows(sf.query_all(on_pushed(soql))["records"], back)
        assert want and got == want, soql
    for sosl in searches:
        want = rows(direct.search(sosl)["searchRecords"], {})
        got = rows(sf.search(sosl)["searchRecords"], back)
        assert want and got == want, sosl


def test_teardown_deletes_what_the_push_loaded_and_nothing_else(pushed, served, sf):
    done = _push(served, "--teardown", state=pushed["state"])
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["deleted"]["Case"] == 160 and report["kept"] == {"User": 12}
    for name in ("Account", "Case", "CaseHistory__c", "EmailMessage", "Order", "OrderItem", "Issue__c"):
        assert sf.query(f"SELECT COUNT() FROM {name} WHERE {KEY_FIELD} != null")["totalSize"] == 0, name
    account, contact = pushed["not_ours"]
    assert sf.Account.get(account)["Name"] == "Not pushed Ltd"
    assert sf.Contact.get(contact)["LastName"] == "Outsider"
    assert (
        sf.query("SELECT COUNT() FROM Contact")["totalSize"] == 1
    )  # person contacts went with their accounts
