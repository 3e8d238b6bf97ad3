"""Price books, order/opportunity/quote line items and the totals the org keeps (emulator/store/price_books.py,
emulator/store/rollups.py), through simple-salesforce.

Object Reference pages relied on: "PricebookEntry" (one entry per product per price book, the
standard price first), "Pricebook2" (IsStandard and IsArchived are read-only flags a new book
reads false), "Order" (TotalAmount), "Opportunity" (Amount of an opportunity with products is
their sum), "OpportunityStage" (IsClosed, IsWon and ForecastCategory follow the stage), "Quote" (Subtotal, TotalPrice, Discount, GrandTotal, LineItemCount), "Contract"
(EndDate from StartDate and ContractTerm; StatusCode from Status).
"""

from __future__ import annotations

import pytest
from simple_salesforce.exceptions import SalesforceMalformedRequest

import crmarena_sf


@pytest.fixture
def sf():
    return crmarena_sf.connect("blank")


def _refusal(create, values):
    with pytest.raises(SalesforceMalformedRequest) as refused:
        create(values)
    [error] = refused.value.content
    return error


def _standard_book(sf):
    return sf.query("SELECT Id FROM Pricebook2 WHERE IsStandard = true")["records"][0]["Id"]


def test_a_new_price_book_reads_not_standard_and_not_archived_and_cannot_set_either(sf):
    book = sf.Pricebook2.create({"Name": "Wholesale", "IsActive": True})["id"]
    record = sf.Pricebook2.get(book)
    assert (record["IsStandard"], record["IsArchived"], record["IsActive"]) == (False, False, True)
    error = _refusal(sf.Pricebook2.create, {"Name": "Fake standard", "IsStandard": True})
    assert (error["errorCode"], error["fields"]) == ("INVALID_FIELD_FOR_INSERT_UPDATE", ["IsStandard"])


def test_a_custom_price_needs_the_standard_price_first_standard_price_not_defined(sf):
    product = sf.Product2.create({"Name": "Trail shoe"})["id"]
    custom = sf.Pricebook2.create({"Name": "Wholesale", "IsActive": True})["id"]
    error = _refusal(
        sf.PricebookEntry.create, {"Pricebook2Id": custom, "Product2Id": product, "UnitPrice": 40}
    )
    assert error == {
        "errorCode": "STANDARD_PRICE_NOT_DEFINED",
        "message": "No standard price defined for this product",
        "fields": [],
    }
    assert sf.query("SELECT COUNT() FROM PricebookEntry")["totalSize"] == 0
    sf.PricebookEntry.create({"Pricebook2Id": _standard_book(sf), "Product2Id": product, "UnitPrice": 50})
    assert sf.PricebookEntry.create({"Pricebook2Id": custom, "Product2Id": product, "UnitPrice": 40})[
        "success"
    ]


def test_one_entry_per_product_per_price_book_duplicate_value(sf):
    product = sf.Product2.create({"Name": "Trail shoe"})["id"]
    values = {"Pricebook2Id": _standard_book(sf), "Product2Id": product, "UnitPrice": 50}
    sf.PricebookEntry.create(values)
    error = _refusal(sf.PricebookEntry.create, {**values, "UnitPrice": 55})
    assert (error["errorCode"], error["message"]) == (
        "DUPLICATE_VALUE",
        "This price definition already exists in this price book",
    )
    # Two entries for one product in one request: the second is the duplicate (sObject Collections).
    other = sf.Product2.create({"Name": "Rain jacket"})["id"]
    twice = {"attributes": {"type": "PricebookEntry"}, **values, "Product2Id": other}
    results = sf.restful("composite/sobjects", method="POST", json={"records": [twice, twice]})
    assert [r["success"] for r in results] == [True, False]
    assert results[1]["errors"][0]["statusCode"] == "DUPLICATE_VALUE"


def _priced_product(sf, name, book=None, price=50):
    product = sf.Product2.create({"Name": name, "ProductCode": name[:3].upper()})["id"]
    standard = sf.PricebookEntry.create(
        {"Pricebook2Id": _standard_book(sf), "Product2Id": product, "UnitPrice": price, "IsActive": True}
    )["id"]
    if book is None:
        return product, standard
    entry = sf.PricebookEntry.create(
        {"Pricebook2Id": book, "Product2Id": product, "UnitPrice": price - 5, "IsActive": True}
    )["id"]
    return product, entry


def test_an_order_product_must_use_an_entry_of_its_orders_price_book_and_the_order_sums_them(sf):
    account = sf.Account.create({"Name": "Acme"})["id"]
    custom = sf.Pricebook2.create({"Name": "Wholesale", "IsActive": True})["id"]
    _, standard_entry = _priced_product(sf, "Trail shoe")
    _, custom_entry = _priced_product(sf, "Rain jacket", custom)
    order = sf.Order.create(
        {"AccountId": account, "EffectiveDate": "2024-05-01", "Status": "Draft", "Pricebook2Id": custom}
    )["id"]
    wrong_book = {"OrderId": order, "PricebookEntryId": standard_entry, "Quantity": 1, "UnitPrice": 50}
    assert _refusal(sf.OrderItem.create, wrong_book) == {
        "errorCode": "FIELD_INTEGRITY_EXCEPTION",
        "message": "Order Products must have a Price Book Entry that belongs to the Price Book related to "
        "the parent Order.: Price Book Entry ID",
        "fields": ["PricebookEntryId"],
    }
    sf.OrderItem.create({"OrderId": order, "PricebookEntryId": custom_entry, "Quantity": 2, "UnitPrice": 45})
    sf.OrderItem.create(
        {"OrderId": order, "PricebookEntryId": custom_entry, "Quantity": 1, "UnitPrice": 10.5}
    )
    record = sf.Order.get(order)
    assert (record["TotalAmount"], record["OrderNumber"], record["StatusCode"]) == (
        100.5,
        "00000100",
        "Draft",
    )
    items = sf.query(f"SELECT Id, ListPrice, TotalPrice FROM OrderItem WHERE OrderId = '{order}' ORDER BY Id")
    assert [(r["ListPrice"], r["TotalPrice"]) for r in items["records"]] == [(45, 90), (45, 10.5)]
    sf.OrderItem.delete(items["records"][0]["Id"])
    assert sf.Order.get(order)["TotalAmount"] == 10.5
    # An order without a price book takes no entry at all.
    bare = sf.Order.create({"AccountId": account, "EffectiveDate": "2024-05-01", "Status": "Draft"})["id"]
    error = _refusal(
        sf.OrderItem.create,
        {"OrderId": bare, "PricebookEntryId": custom_entry, "Quantity": 1, "UnitPrice": 1},
    )
    assert error["errorCode"] == "FIELD_INTEGRITY_EXCEPTION"


def test_an_opportunity_product_must_use_its_opportunitys_price_book_and_sets_the_amount(sf):
    custom = sf.Pricebook2.create({"Name": "Wholesale", "IsActive": True})["id"]
    shoe, standard_entry = _priced_product(sf, "Trail shoe")
    _, custom_entry = _priced_product(sf, "Rain jacket", custom)
    opportunity = sf.Opportunity.create(
        {"Name": "Deal", "StageName": "Prospecting", "CloseDate": "2024-06-01", "Amount": 5}
    )["id"]
    assert sf.Opportunity.get(opportunity)["HasOpportunityLineItem"] is False
    # Without a price book, the opportunity takes the first product's.
    sf.OpportunityLineItem.create(
        {"OpportunityId": opportunity, "PricebookEntryId": standard_entry, "Quantity": 3, "UnitPrice": 45}
    )
    record = sf.Opportunity.get(opportunity)
    assert record["Pricebook2Id"] == _standard_book(sf)
    assert (record["HasOpportunityLineItem"], record["Amount"], record["TotalOpportunityQuantity"]) == (
        True,
        135,
        3,
    )
    other_book = {
        "OpportunityId": opportunity,
        "PricebookEntryId": custom_entry,
        "Quantity": 1,
        "UnitPrice": 1,
    }
    assert _refusal(sf.OpportunityLineItem.create, other_book) == {
        "errorCode": "FIELD_INTEGRITY_EXCEPTION",
        "message": "field integrity exception: PricebookEntryId (pricebook entry is in a different pricebook "
        "than the one assigned to the opportunity)",
        "fields": ["PricebookEntryId"],
    }
    line = sf.OpportunityLineItem.create(
        {"OpportunityId": opportunity, "PricebookEntryId": standard_entry, "Quantity": 1, "TotalPrice": 20}
    )["id"]
    assert sf.OpportunityLineItem.get(line)["Product2Id"] == shoe
    assert sf.Opportunity.get(opportunity)["Amount"] == 155
    assert sf.Opportunity.get(opportunity)["ExpectedRevenue"] == 15.5  # Prospecting: 10 %
    sf.OpportunityLineItem.delete(line)
    assert sf.Opportunity.get(opportunity)["Amount"] == 135


def test_a_quote_sums_its_lines_and_takes_its_opportunitys_account(sf):
    account = sf.Account.create({"Name": "Acme"})["id"]
    _, entry = _priced_product(sf, "Trail shoe")
    opportunity = sf.Opportunity.create(
        {"Name": "Deal", "StageName": "Prospecting", "CloseDate": "2024-06-01", "AccountId": account}
    )["id"]
    quote = sf.Quote.create({"Name": "Q-1", "OpportunityId": opportunity, "Tax": 7, "ShippingHandling": 3})[
        "id"
    ]
    record = sf.Quote.get(quote)
    assert (record["AccountId"], record["LineItemCount"], record["GrandTotal"]) == (account, 0, 10)
    sf.QuoteLineItem.create(
        {"QuoteId": quote, "PricebookEntryId": entry, "Quantity": 2, "UnitPrice": 40, "Discount": 10}
    )
    sf.QuoteLineItem.create({"QuoteId": quote, "PricebookEntryId": entry, "Quantity": 1, "UnitPrice": 20})
    record = sf.Quote.get(quote)
    assert (record["LineItemCount"], record["Subtotal"], record["TotalPrice"], record["GrandTotal"]) == (
        2,
        100,
        92,
        102,
    )
    assert record["Discount"] == 8 and record["Pricebook2Id"] == _standard_book(sf)
    sf.Quote.update(quote, {"Tax": 0})
    assert sf.Quote.get(quote)["GrandTotal"] == 95


def test_a_contract_computes_its_end_date_and_status_code(sf):
    account = sf.Account.create({"Name": "Acme"})["id"]
    contract = sf.Contract.create({"AccountId": account, "StartDate": "2024-01-01", "ContractTerm": 12})["id"]
    record = sf.Contract.get(contract)
    assert (record["Status"], record["StatusCode"], record["EndDate"], record["ActivatedDate"]) == (
        "Draft",
        "Draft",
        "2024-12-31",
        None,
    )
    assert record["ContractNumber"] == "00000100"
    sf.Contract.update(contract, {"Status": "Activated", "ContractTerm": 1, "StartDate": "2024-01-31"})
    record = sf.Contract.get(contract)
    assert (record["StatusCode"], record["EndDate"]) == ("Activated", "2024-02-28")
    assert record["ActivatedDate"] is not None


@pytest.mark.parametrize(
    "stage,closed,won,category",
    [("Prospecting", False, False, "Pipeline"), ("Closed Won", True, True, "Closed"), ("Closed Lost", True, False, "Omitted")],
)  # fmt: skip
def test_is_closed_is_won_and_forecast_category_follow_the_stage(sf, stage, closed, won, category):
    """Object Reference, "OpportunityStage" (sforce_api_objects_opportunitystage.htm): each stage sets
    IsClosed, IsWon and ForecastCategory, which the client cannot write."""
    opportunity = sf.Opportunity.create(
        {"Name": "Deal", "StageName": "Needs Analysis", "CloseDate": "2024-06-01"}
    )["id"]
    sf.Opportunity.update(opportunity, {"StageName": stage})
    record = sf.Opportunity.get(opportunity)
    assert (record["IsClosed"], record["IsWon"], record["ForecastCategory"]) == (closed, won, category)
    for field, value in (("IsClosed", not closed), ("IsWon", not won), ("ForecastCategory", "BestCase")):
        error = _refusal(lambda values: sf.Opportunity.update(opportunity, values), {field: value})
        assert (error["errorCode"], error["fields"]) == ("INVALID_FIELD_FOR_INSERT_UPDATE", [field])
