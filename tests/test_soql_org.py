"""The small org the SOQL tests query (``tests/small_org.py``) holds what those tests assume."""

from __future__ import annotations

from crmarena_sf.emulator import soql
from small_org import NOW


def test_the_small_org_holds_what_the_soql_tests_assume(built):
    org, ids_ = built
    assert soql.query(org, "SELECT COUNT() FROM Case")["totalSize"] == 4
    assert soql.query(org, "SELECT COUNT() FROM Case", include_deleted=True)["totalSize"] == 5
    person = soql.query(org, f"SELECT Name FROM Account WHERE Id = '{ids_['person']}'")
    assert person["records"][0]["Name"] == "Pat Lee"
    assert org.clock.now() == NOW
