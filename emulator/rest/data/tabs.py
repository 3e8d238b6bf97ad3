"""``tabs`` and ``theme``: the tabs of the org's standard apps and each object's icons and colours.

REST API Developer Guide, "Tabs" (https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/resources_tabs.htm):
``GET tabs`` lists every tab the user can see, each a ``DescribeTab`` (``colors``, ``custom``,
``iconUrl``, ``icons``, ``label``, ``miniIconUrl``, ``name``, ``sobjectName``, ``url``); "Themes"
(resources_themes.htm): ``GET theme`` answers ``{"themeItems": [{"name", "colors", "icons"}]}``, one
item per object with a tab. The SOAP API's ``describeTabs()`` groups the same tabs by app
(``DescribeTabSetResult``: ``label``, ``tabSetId``, ``selected``, ``tabs`` ...; SOAP API Developer
Guide, "describeTabs()"), built here too.

A new org's standard tabs are listed for the objects of this org's schema that have one, in the
standard Sales and Service apps; colours are the Lightning Design System's standard icon colours
and icons the standard ones under ``/img/icon/t4v35/standard/``.
"""

from __future__ import annotations

from typing import Any

from crmarena_sf.emulator.rest.transport.messages import Response, json_response
from crmarena_sf.emulator.rest.transport.resource import RestCall, Route

STANDARD_TABS = (
    ("Account", "Accounts", "account", "7F8DE1"),
    ("Contact", "Contacts", "contact", "A094ED"),
    ("Lead", "Leads", "lead", "F88962"),
    ("Opportunity", "Opportunities", "opportunity", "FCB95B"),
    ("Campaign", "Campaigns", "campaign", "F49756"),
    ("Case", "Cases", "case", "F2CF5B"),
    ("Contract", "Contracts", "contract", "6EC06E"),
    ("Order", "Orders", "orders", "769ED9"),
    ("Quote", "Quotes", "quotes", "88C651"),
    ("Product2", "Products", "product", "B781D3"),
    ("Asset", "Assets", "asset_object", "317A92"),
    ("Pricebook2", "Price Books", "pricebook", "B781D3"),
    ("Knowledge__kav", "Knowledge", "knowledge", "EC94ED"),
)
"""(object, tab label, standard icon name, colour) of a new org's standard object tabs."""

APPS = (
    (
        "standard__Sales",
        "Sales",
        (
            "Account",
            "Contact",
            "Lead",
            "Opportunity",
            "Campaign",
            "Contract",
            "Order",
            "Quote",
            "Product2",
            "Pricebook2",
        ),
    ),  # fmt: skip
    ("standard__Service", "Service", ("Account", "Contact", "Case", "Asset", "Product2", "Knowledge__kav")),
)
"""(app developer name, label, objects whose tabs it shows), the first one selected."""


def _icon_url(instance: str, icon: str, size: int) -> str:
    return f"{instance}/img/icon/t4v35/standard/{icon}_{size}.png"


def describe_tab(org, object_name: str, instance: str) -> dict[str, Any] | None:
    """The ``DescribeTab`` of ``object_name``'s standard tab, or None when the org has no such tab."""
    entry = next((t for t in STANDARD_TABS if t[0] == object_name), None)
    obj = org.schema.get(object_name)
    if entry is None or obj is None:
        return None
    name, label, icon, color = entry
    return {
        "colors": [
            {"color": color, "context": "primary", "theme": "theme4"},
            {"color": color, "context": "primary", "theme": "theme3"},
        ],
        "custom": False,
        "iconUrl": f"{instance}/img/icon/{icon}32.png",
        "icons": [
            {
                "contentType": "image/png",
                "height": 32,
                "theme": "theme3",
                "url": f"{instance}/img/icon/{icon}32.png",
                "width": 32,
            },  # fmt: skip
            {
                "contentType": "image/png",
                "height": 16,
                "theme": "theme3",
                "url": f"{instance}/img/icon/{icon}16.png",
                "width": 16,
            },  # fmt: skip
            {
                "contentType": "image/svg+xml",
                "height": 0,
                "theme": "theme4",
                "url": f"{instance}/img/icon/t4v35/standard/{icon}.svg",
                "width": 0,
            },  # fmt: skip
            {
                "contentType": "image/png",
                "height": 60,
                "theme": "theme4",
                "url": _icon_url(instance, icon, 60),
                "width": 60,
            },  # fmt: skip
            {
                "contentType": "image/png",
                "height": 120,
                "theme": "theme4",
                "url": _icon_url(instance, icon, 120),
                "width": 120,
            },  # fmt: skip
        ],
        "label": label,
        "miniIconUrl": f"{instance}/img/icon/{icon}16.png",
        "name": f"standard-{name}",
        "sobjectName": name,
        "url": f"{instance}/{obj.keyPrefix}/o",
    }


def org_tabs(org, instance: str) -> list[dict[str, Any]]:
    """Every standard tab of the org, in the order the apps list them."""
    tabs = [describe_tab(org, name, instance) for name, *_ in STANDARD_TABS]
    return [tab for tab in tabs if tab is not None]


def tab_sets(org, instance: str) -> list[dict[str, Any]]:
    """``describeTabs()``: each app with its tabs."""
    out = []
    for index, (app, label, objects) in enumerate(APPS):
        tabs = [describe_tab(org, name, instance) for name in objects]
        out.append(
            {
                "description": f"Salesforce CRM {label}",
                "label": label,
                "logoUrl": f"{instance}/img/seasonLogos/Winter_25_175x65.png",
                "namespace": None,
                "selected": index == 0,
                "tabSetId": app,
                "tabs": [tab for tab in tabs if tab is not None],
            }
        )
    return out


def tabs(call: RestCall) -> Response:
    """``GET tabs``."""
    return json_response(200, org_tabs(call.org, call.request.instance_url.rstrip("/")))


def theme(call: RestCall) -> Response:
    """``GET theme``: the colours and icons of every object with a tab."""
    items = [
        {"colors": tab["colors"], "icons": tab["icons"], "name": tab["sobjectName"]}
        for tab in org_tabs(call.org, call.request.instance_url.rstrip("/"))
    ]
    return json_response(200, {"themeItems": items})


ROUTES = [Route(r"tabs", GET=tabs, read_only=True), Route(r"theme", GET=theme, read_only=True)]
