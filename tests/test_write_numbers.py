"""Numbers written through the API keep the decimals the client sent, past the field's scale.

Salesforce Help, "Salesforce Number Field Stores More Decimal Places Than Defined When Set via
API or Apex" (https://help.salesforce.com/s/articleView?id=000387302&type=1): length and decimal
places are enforced by the UI only; a value set through the API is stored and returned as sent.
For currency fields, "Round Off Decimal Values of Currency Fields in the Salesforce UI and API"
(https://help.salesforce.com/s/articleView?id=000385689&type=1): "Salesforce does not round
values provided through the API". Too many digits left of the decimal point is still refused.
"""

from __future__ import annotations

import pytest
from simple_salesforce.exceptions import SalesforceMalformedRequest

import crmarena_sf


@pytest.fixture
def sf():
    return crmarena_sf.connect("blank")


def test_number_currency_and_percent_fields_keep_the_decimals_sent_through_the_api_help_000387302(sf):
    account = sf.Account.create({"Name": "Acme", "AnnualRevenue": 1234.567})["id"]  # currency(18, 0)
    opportunity = sf.Opportunity.create(
        {"Name": "Deal", "StageName": "Prospecting", "CloseDate": "2024-06-01", "Amount": 1.234,
         "Probability": 12.345, "TotalOpportunityQuantity": 2.71828}
    )["id"]  # fmt: skip
    assert sf.Account.get(account)["AnnualRevenue"] == 1234.567
    record = sf.query(
        f"SELECT Amount, Probability, TotalOpportunityQuantity FROM Opportunity WHERE Id = '{opportunity}'"
    )
    row = record["records"][0]
    assert (row["Amount"], row["Probability"], row["TotalOpportunityQuantity"]) == (1.234, 12.345, 2.71828)
    sf.Opportunity.update(opportunity, {"Amount": "99.999"})
    assert sf.Opportunity.get(opportunity)["Amount"] == 99.999
    # A filter sees the stored value, not a rounded one.
    assert sf.query("SELECT COUNT() FROM Opportunity WHERE Amount > 99.998")["totalSize"] == 1


def test_too_many_integer_digits_is_still_refused_and_nothing_is_written(sf):
    with pytest.raises(SalesforceMalformedRequest) as refused:
        sf.Opportunity.create(
            {"Name": "Deal", "StageName": "Prospecting", "CloseDate": "2024-06-01", "Probability": 1000.5}
        )
    error = refused.value.content[0]
    assert (error["errorCode"], error["fields"]) == ("NUMBER_OUTSIDE_VALID_RANGE", ["Probability"])
    assert sf.query("SELECT COUNT() FROM Opportunity")["totalSize"] == 0


def test_sums_and_derived_totals_use_the_stored_decimals(sf):
    opportunity = sf.Opportunity.create(
        {"Name": "Deal", "StageName": "Negotiation/Review", "CloseDate": "2024-06-01", "Amount": 100.005}
    )["id"]
    # ExpectedRevenue is a calculated field: a formula's result has its field's decimal places.
    assert sf.Opportunity.get(opportunity)["ExpectedRevenue"] == 90.0
    total = sf.query("SELECT SUM(Amount) total FROM Opportunity")["records"][0]["total"]
    assert total == 100.005


def test_a_computed_total_that_outgrows_its_field_is_refused_not_a_server_error(sf):
    """Quantity x UnitPrice, and a quote's Subtotal over its lines, have the room of their currency(18, 2)
    fields; past it the write answers NUMBER_OUTSIDE_VALID_RANGE naming the field (a hypothesis draw of
    the generated rule test once met a 500 here), and nothing is written."""
    account = sf.Account.create({"Name": "Acme"})["id"]
    deal = {"Name": "Deal", "StageName": "Prospecting", "CloseDate": "2025-01-01", "AccountId": account}
    opportunity = sf.Opportunity.create(deal)["id"]
    product = sf.Product2.create({"Name": "Widget"})["id"]
    book = sf.query("SELECT Id FROM Pricebook2 WHERE IsStandard = true")["records"][0]["Id"]
    entry = sf.PricebookEntry.create(
        {"Pricebook2Id": book, "Product2Id": product, "UnitPrice": 10, "IsActive": True}
    )
    quote = sf.Quote.create({"Name": "Q", "OpportunityId": opportunity, "Pricebook2Id": book})["id"]
    line = sf.QuoteLineItem.create(
        {"QuoteId": quote, "PricebookEntryId": entry["id"], "Quantity": 1, "UnitPrice": 29928682739.5}
    )["id"]
    with pytest.raises(SalesforceMalformedRequest) as refused:
        sf.QuoteLineItem.update(line, {"Quantity": 234867870})
    assert refused.value.content[0]["errorCode"] == "NUMBER_OUTSIDE_VALID_RANGE"
    assert refused.value.content[0]["fields"] in (["TotalPrice"], ["Subtotal"])
    assert sf.QuoteLineItem.get(line)["Quantity"] == 1
    assert sf.Quote.get(quote)["Subtotal"] == 29928682739.5
