"""Answers without ORDER BY come back in the same order in every process: a benchmark's runs are byte-identical.

Salesforce promises no order without ORDER BY (SOQL and SOSL Reference, "ORDER BY",
https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/sforce_api_calls_soql_select_orderby.htm),
and DuckDB's hash aggregate returned GROUP BY's groups in a different order now and then. A
GROUP BY without ORDER BY now lists its groups in ORDER BY's order of their keys: picklist values
in their defined order, other values ascending ignoring case, nulls first.
"""

from __future__ import annotations

import concurrent.futures as futures
import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # the default org

QUERIES = [
    "SELECT Status, COUNT(Id) n FROM Case GROUP BY Status",
    "SELECT Account.Name, COUNT(Id) n FROM Case GROUP BY Account.Name",
    "SELECT OwnerId, Priority, COUNT(Id) n FROM Case GROUP BY OwnerId, Priority",
    "SELECT Origin, MAX(CreatedDate) m FROM Case GROUP BY Origin",
    "SELECT Subject, Account.Name, Contact.Email FROM Case WHERE Priority = 'High'",
]
SCRIPT = """
import json, sys
import crmarena_sf
sf = crmarena_sf.connect()
print(json.dumps([sf.query_all(q)["records"] for q in json.loads(sys.argv[1])]))
"""


def test_group_by_answers_are_byte_identical_across_ten_processes(crmarena_dataset):
    env = {**os.environ}

    def one(_):
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT, json.dumps(QUERIES)],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    with futures.ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(one, range(10)))
    assert len(set(answers)) == 1
    by_status, *_ = json.loads(answers[0])
    assert [r["Status"] for r in by_status] == [
        "New",
        "Working",
        "Escalated",
        "Closed",
    ]  # the picklist's order


def test_groups_follow_their_keys_ascending_with_nulls_first(crmarena_fork):
    import crmarena_sf

    sf = crmarena_sf.connect(org=crmarena_fork)
    rows = sf.query("SELECT Account.Name, COUNT(Id) n FROM Case GROUP BY Account.Name")["records"]
    names = [r["Name"] for r in rows]
    assert names == sorted(names, key=lambda n: (n is not None, (n or "").lower()))
    origins = [r["Origin"] for r in sf.query("SELECT Origin, COUNT(Id) FROM Case GROUP BY Origin")["records"]]
    assert len(origins) > 1 and origins == _picklist_order(sf, "Case", "Origin", origins)


def _picklist_order(sf, obj, field, present):
    values = next(f for f in getattr(sf, obj).describe()["fields"] if f["name"] == field)["picklistValues"]
    order = [v["value"] for v in values]
    return sorted(present, key=lambda v: (v is not None, order.index(v) if v in order else len(order)))
