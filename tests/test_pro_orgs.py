"""CRMArena-Pro's two orgs as generated: the official dumps' row counts, valid records, references
that resolve (polymorphic ones too), dates inside each record's life, the same org for the same
seed, ``--scale``, and the org names that reach them.

Row counts: CRMArena-Pro's SQLite dumps (SalesforceAIResearch/CRMArena local_data/crmarenapro_b2b_data.db
and crmarenapro_b2c_data.db), 29,221 and 54,662 records over 27 objects.
"""

from __future__ import annotations

import datetime as dt
import filecmp
import re
from collections import Counter

import pytest
from crmarena_sf.loaders.dataset import Dataset
from crmarena_sf.loaders.validate import validate_dataset
from crmarena_sf.metadata import load_schema

from crmarena_sf.cli.main import main as cli
from crmarena_sf.connection.connect import connect

pytestmark = pytest.mark.slow

OFFICIAL = {
    "b2b": {
        "User": 212, "Account": 101, "Contact": 886, "Lead": 1465, "Opportunity": 1170, "OpportunityLineItem": 4926,
        "Quote": 704, "QuoteLineItem": 2966, "Contract": 163, "Order": 163, "OrderItem": 689, "Product2": 51,
        "ProductCategory": 10, "ProductCategoryProduct": 100, "Pricebook2": 2, "PricebookEntry": 50, "Case": 153,
        "EmailMessage": 5686, "LiveChatTranscript": 58, "Task": 4783, "Event": 54, "Territory2": 10,
        "UserTerritory2Association": 184, "Knowledge__kav": 194, "Issue__c": 15, "CaseHistory__c": 393,
        "VoiceCallTranscript__c": 4033,
    },
    "b2c": {
        "User": 212, "Account": 200, "Contact": 200, "Lead": 222, "Opportunity": 2292, "OpportunityLineItem": 11913,
        "Quote": 1379, "QuoteLineItem": 7107, "Contract": 329, "Order": 329, "OrderItem": 1649, "Product2": 51,
        "ProductCategory": 5, "ProductCategoryProduct": 70, "Pricebook2": 2, "PricebookEntry": 50, "Case": 289,
        "EmailMessage": 11403, "LiveChatTranscript": 110, "Task": 8955, "Event": 19, "Territory2": 10,
        "UserTerritory2Association": 204, "Knowledge__kav": 110, "Issue__c": 15, "CaseHistory__c": 741,
        "VoiceCallTranscript__c": 6796,
    },
}  # fmt: skip
LINE = re.compile(r"^\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\] ([^:]+): (.+)$")


@pytest.fixture(scope="module", params=["b2b", "b2c"])
def pro(request, pro_org):
    """(profile, simple-salesforce client on a fork of that org)."""
    fork = pro_org(request.param)
    yield request.param, connect(org=fork)
    fork.close()


def records(sf, soql):
    return sf.query_all(soql)["records"]


def when(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value[:19])


def test_each_object_has_the_official_dumps_row_count(pro):
    profile, sf = pro
    counts = {name: sf.query(f"SELECT COUNT() FROM {name}")["totalSize"] for name in OFFICIAL[profile]}
    assert counts == OFFICIAL[profile]
    assert sum(counts.values()) == {"b2b": 29_221, "b2c": 54_662}[profile]


@pytest.mark.parametrize("profile", ["b2b", "b2c"])
def test_every_record_fits_the_crmarena_pro_metadata(pro_dataset, profile):
    # strict: every picklist value, restricted or not, is one the describe lists (the five stages too)
    assert validate_dataset(Dataset(pro_dataset(profile)), load_schema("crmarena-pro"), strict=True) == []


def test_polymorphic_lookups_resolve_to_the_records_they_name(pro):
    _, sf = pro
    # every activity is about a deal and with one of its contacts; emails belong to a case or a deal
    for activity in ("Task", "Event"):
        total = sf.query(f"SELECT COUNT() FROM {activity}")["totalSize"]
        on_deals = sf.query(
            f"SELECT COUNT() FROM {activity} WHERE WhatId IN (SELECT Id FROM Opportunity) "
            "AND WhoId IN (SELECT Id FROM Contact)"
        )["totalSize"]
        assert total == on_deals > 0
    total = sf.query("SELECT COUNT() FROM EmailMessage")["totalSize"]
    on_cases = sf.query("SELECT COUNT() FROM EmailMessage WHERE RelatedToId IN (SELECT Id FROM Case)")[
        "totalSize"
    ]
    on_deals = sf.query("SELECT COUNT() FROM EmailMessage WHERE RelatedToId IN (SELECT Id FROM Opportunity)")[
        "totalSize"
    ]
    assert on_cases > 0 and on_deals > 0 and on_cases + on_deals == total
    people = {r["Id"] for r in records(sf, "SELECT Id FROM Contact")} | {
        r["Id"] for r in records(sf, "SELECT Id FROM User")
    }
    for email in records(sf, "SELECT ToIds FROM EmailMessage"):
        assert email["ToIds"] and set(email["ToIds"]) <= people


def test_custom_lookups_and_conversions_hold_together(pro):
    _, sf = pro
    calls = records(
        sf,
        "SELECT LeadId__c, LeadId__r.Name, OpportunityId__c, OpportunityId__r.Name FROM VoiceCallTranscript__c",
    )
    assert all((c["LeadId__c"] is None) != (c["OpportunityId__c"] is None) for c in calls)
    assert all(c["LeadId__r"] or c["OpportunityId__r"] for c in calls)
    deals = records(
        sf, "SELECT StageName, AccountId, ContractID__c, ContractID__r.AccountId FROM Opportunity"
    )
    for deal in deals:
        if deal["ContractID__c"]:
            assert deal["ContractID__r"]["AccountId"] == deal["AccountId"]
    converted = records(
        sf,
        "SELECT ConvertedAccountId, ConvertedContact.AccountId, ConvertedOpportunity.AccountId, ConvertedDate, "
        "ConvertedOpportunity.CreatedDate FROM Lead WHERE IsConverted = true",
    )
    assert converted
    for lead in converted:
        assert lead["ConvertedContact"]["AccountId"] == lead["ConvertedAccountId"]
        assert lead["ConvertedOpportunity"]["AccountId"] == lead["ConvertedAccountId"]
        assert lead["ConvertedOpportunity"]["CreatedDate"][:10] == lead["ConvertedDate"]
    orders = records(sf, "SELECT ContractId, Contract.Status, Opportunity.ContractID__c FROM Order")
    assert all(
        o["Opportunity"]["ContractID__c"] == o["ContractId"] and o["Contract"]["Status"] == "Activated"
        for o in orders
    )


def test_records_fall_inside_the_life_of_what_they_belong_to(pro):
    _, sf = pro
    for case in records(sf, "SELECT CreatedDate, ClosedDate, OrderItemId__r.Order.EffectiveDate FROM Case"):
        assert case["CreatedDate"][:10] > case["OrderItemId__r"]["Order"]["EffectiveDate"]
        assert case["ClosedDate"] is None or case["ClosedDate"] > case["CreatedDate"]
    deals = {
        d["Id"]: d
        for d in records(
            sf, "SELECT Id, CreatedDate, ContractID__r.CompanySignedDate, IsClosed FROM Opportunity"
        )
    }
    leads = {lead["Id"]: lead for lead in records(sf, "SELECT Id, CreatedDate, ConvertedDate FROM Lead")}
    for call in records(
        sf, "SELECT Body__c, EndTime__c, LeadId__c, OpportunityId__c FROM VoiceCallTranscript__c"
    ):
        lines = [LINE.match(line) for line in call["Body__c"].split("\n")]
        assert all(lines), call["Body__c"]
        moments = [when(m.group(1)) for m in lines]
        assert moments == sorted(moments) and moments[-1] < when(call["EndTime__c"])
        if call["LeadId__c"]:
            lead = leads[call["LeadId__c"]]
            assert moments[0] > when(lead["CreatedDate"])
            assert lead["ConvertedDate"] is None or moments[0].date().isoformat() <= lead["ConvertedDate"]
        else:
            deal = deals[call["OpportunityId__c"]]
            assert moments[0] > when(deal["CreatedDate"])
            signed = (deal["ContractID__r"] or {}).get("CompanySignedDate")
            assert signed is None or moments[-1].date().isoformat() <= signed
    for quote in records(
        sf,
        "SELECT CreatedDate, Opportunity.CreatedDate, Opportunity.ContractID__r.CompanySignedDate FROM Quote",
    ):
        assert quote["CreatedDate"] > quote["Opportunity"]["CreatedDate"]
        signed = (quote["Opportunity"]["ContractID__r"] or {}).get("CompanySignedDate")
        assert signed is None or quote["CreatedDate"][:10] <= signed
    threads: dict[str, list[str]] = {}
    for email in records(
        sf,
        "SELECT ParentId, MessageDate, Parent.CreatedDate FROM EmailMessage WHERE ParentId != null ORDER BY MessageDate",
    ):
        assert email["MessageDate"] > email["Parent"]["CreatedDate"]
        threads.setdefault(email["ParentId"], []).append(email["MessageDate"])
    assert all(len(set(dates)) == len(dates) for dates in threads.values())


def test_b2b_accounts_are_companies_and_b2c_accounts_are_consumers(pro):
    profile, sf = pro
    per_account = Counter(r["AccountId"] for r in records(sf, "SELECT AccountId FROM Contact"))
    accounts = records(sf, "SELECT Id, Name, Industry, NumberOfEmployees, IsPersonAccount FROM Account")
    assert not any(a["IsPersonAccount"] for a in accounts)
    if profile == "b2b":
        assert all(a["Industry"] and a["NumberOfEmployees"] for a in accounts)
        assert min(per_account.values()) >= 2 and sum(per_account.values()) / len(accounts) > 5
    else:
        assert set(per_account.values()) == {1}
        names = {r["AccountId"]: r["Name"] for r in records(sf, "SELECT AccountId, Name FROM Contact")}
        assert all(a["Name"] == names[a["Id"]] for a in accounts)


def test_the_same_seed_gives_a_byte_identical_org_and_another_seed_another(pro_dataset, tmp_path, capsys):
    cached = pro_dataset("b2b")
    assert (
        cli(["generate", "--profile", "b2b", "--seed", "0", "--out", str(tmp_path / "again"), "--quiet"]) == 0
    )
    assert "wrote 29," in capsys.readouterr().out
    names = sorted(p.name for p in cached.iterdir())
    assert names == sorted(p.name for p in (tmp_path / "again").iterdir())
    match, mismatch, errors = filecmp.cmpfiles(cached, tmp_path / "again", names, shallow=False)
    assert (mismatch, errors) == ([], [])
    assert (
        cli(["generate", "--profile", "b2b", "--seed", "1", "--out", str(tmp_path / "other"), "--quiet"]) == 0
    )
    assert not filecmp.cmp(cached / "Lead.parquet", tmp_path / "other" / "Lead.parquet", shallow=False)


def test_scale_multiplies_every_count_but_reference_data(tmp_path):
    from crmarena_sf.loaders.pro.generate import generate_pro

    counts = Dataset(generate_pro(tmp_path / "x2", profile="b2b", scale=2)).manifest["counts"]
    reference = (
        "Product2",
        "ProductCategory",
        "ProductCategoryProduct",
        "Pricebook2",
        "PricebookEntry",
        "Issue__c",
        "Territory2",
        "Knowledge__kav",
    )
    seeded = {
        "User": 1,
        "Pricebook2": 1,
    }  # a new org's admin user and standard price book are not in a dataset
    for name, n in OFFICIAL["b2b"].items():
        in_dataset = n - seeded.get(name, 0)
        assert counts[name] == (in_dataset if name in reference else 2 * in_dataset), name


def test_the_org_names_reach_both_orgs_everywhere(capsys):
    from simple_salesforce import Salesforce

    from crmarena_sf import mock_salesforce

    assert connect(org="crmarena-pro-b2b").query("SELECT COUNT() FROM Territory2")["totalSize"] == 10
    with mock_salesforce(org="crmarena-pro-b2c"):
        sf = Salesforce(username="admin@example.com", password="x", security_token="")
        assert sf.query("SELECT COUNT() FROM Account")["totalSize"] == 200
    assert (
        cli(["query", "--org", "crmarena-pro-b2b", "--json", "SELECT COUNT() FROM VoiceCallTranscript__c"])
        == 0
    )
    assert '"totalSize": 4033' in capsys.readouterr().out
    # the CRMArena org keeps its own schema: no territories, no Pro custom fields
    assert cli(["query", "--org", "crmarena", "SELECT COUNT() FROM Territory2"]) != 0
    assert "Territory2" in capsys.readouterr().err


@pytest.mark.crmarena_org("crmarena-pro-b2c")
def test_the_pytest_plugin_forks_a_pro_org(sf_org):
    stages = {r["StageName"] for r in sf_org.query_all("SELECT StageName FROM Opportunity")["records"]}
    assert stages == {"Qualification", "Discovery", "Quote", "Negotiation", "Closed"}


def test_bad_profiles_and_scales_are_one_line_errors(tmp_path, capsys):
    with pytest.raises(SystemExit):
        cli(["generate", "--profile", "b2x", "--out", str(tmp_path / "a")])
    assert "invalid choice: 'b2x'" in capsys.readouterr().err
    assert cli(["generate", "--profile", "b2c", "--enrich-with", "gpt-4o", "--out", str(tmp_path / "b")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not apply to b2b or b2c" in err
    assert not (tmp_path / "b").exists()


@pytest.mark.parametrize("profile", ["b2b", "b2c"])
def test_a_fraction_of_an_org_is_still_a_whole_org(tmp_path, profile):
    # --scale 0.05: a twentieth of every count (a Developer Edition org's size), still valid
    # (generation validates strictly) and with a rep in every territory
    from crmarena_sf.loaders.load import load_dataset
    from crmarena_sf.loaders.pro.generate import generate_pro

    dataset = Dataset(generate_pro(tmp_path / "small", profile=profile, scale=0.05))
    assert dataset.manifest["scale"] == 0.05
    assert dataset.manifest["counts"]["Opportunity"] == round(OFFICIAL[profile]["Opportunity"] * 0.05)
    sf = connect(org=load_dataset(dataset.path))
    territories = {
        r["Territory2Id"] for r in records(sf, "SELECT Territory2Id FROM UserTerritory2Association")
    }
    assert len(territories) == 10
