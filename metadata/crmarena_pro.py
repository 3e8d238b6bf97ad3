"""CRMArena-Pro's schema: the CRMArena org's objects plus what its two sales orgs add.

CRMArena-Pro (arXiv 2505.18878) runs on a B2B and a B2C org of 27 objects each: CRMArena's
service objects and the sales side (Lead, Opportunity, OpportunityLineItem, Quote,
QuoteLineItem, Contract, Task, Event), Sales Territories (Territory2 with its model and type,
UserTerritory2Association), the custom object ``VoiceCallTranscript__c`` and the custom field
``Opportunity.ContractID__c`` (CRMArena-Pro's org dumps, SalesforceAIResearch/CRMArena
local_data/crmarenapro_b2b_data.db). The project's specs describe them all; this module says
which parts only the ``crmarena-pro`` schema profile has:

- :data:`PRO_OBJECTS` and :data:`PRO_FIELDS` are left out of the ``crmarena`` and ``standard``
  profiles (the territory objects exist only once Sales Territories is enabled in Setup, which a
  new org has not done: Object Reference, Territory2, "Available if Sales Territories has been
  enabled");
- the Pro orgs' opportunities move through five stages (:data:`PRO_STAGES`, the labels
  CRMArena-Pro's tasks name), which replace a new org's stage picklist in that profile.

:func:`with_key_prefixes` gives custom objects the key prefixes an imported org used (a real
org hands custom-object prefixes out per org, so the official dumps' Ids carry their own).
"""

from __future__ import annotations

import copy

from crmarena_sf.metadata.model import Schema, SObject

PROFILE = "crmarena-pro"

TERRITORY_OBJECTS = ("Territory2", "Territory2Model", "Territory2Type", "UserTerritory2Association")
PRO_OBJECTS = (*TERRITORY_OBJECTS, "VoiceCallTranscript__c")
PRO_FIELDS = {"Opportunity": ("ContractID__c",)}

PRO_STAGES = [
    ("Qualification", 10, "Pipeline"),
    ("Discovery", 20, "Pipeline"),
    ("Quote", 50, "Pipeline"),
    ("Negotiation", 75, "Pipeline"),
    ("Closed", 100, "Closed"),
]
"""The Pro orgs' opportunity stages, in order: (StageName, default probability, forecast
category). The labels are CRMArena-Pro's; the probabilities and categories are this project's
(a stage is open, or closed and won: ``Closed`` is the org's one closed stage, a won deal with
a signed contract)."""


def without_pro(docs: dict[str, dict]) -> dict[str, dict]:
    """Describe documents without the Pro-only objects and fields (and the relationships to them)."""
    out = {}
    for name, doc in docs.items():
        if name in PRO_OBJECTS:
            continue
        dropped = set(PRO_FIELDS.get(name, ()))
        children = [
            c
            for c in doc["childRelationships"]
            if c["childSObject"] not in PRO_OBJECTS
            and c["field"] not in PRO_FIELDS.get(c["childSObject"], ())
        ]
        if dropped or len(children) != len(doc["childRelationships"]):
            doc = dict(doc)
            doc["fields"] = [f for f in doc["fields"] if f["name"] not in dropped]
            doc["childRelationships"] = children
        out[name] = doc
    return out


def pro_documents(docs: dict[str, dict]) -> dict[str, dict]:
    """The Pro orgs' documents: every object, with the five-stage opportunity picklist."""
    out = dict(docs)
    opportunity = copy.deepcopy(out["Opportunity"])
    for f in opportunity["fields"]:
        if f["name"] == "StageName":
            f["picklistValues"] = [
                {"active": True, "defaultValue": False, "label": stage, "validFor": None, "value": stage}
                for stage, _, _ in PRO_STAGES
            ]
    out["Opportunity"] = opportunity
    return out


def with_key_prefixes(schema: Schema, prefixes: dict[str, str]) -> tuple[Schema, set[str]]:
    """``schema`` with custom objects renumbered to ``prefixes`` (object -> key prefix), and the
    names of the objects that changed. A prefix another object holds is a ValueError."""
    changed: set[str] = set()
    objects: list[SObject] = []
    taken = {obj.keyPrefix: obj.name for obj in schema if obj.keyPrefix}
    for obj in schema:
        wanted = prefixes.get(obj.name)
        if wanted and wanted != obj.keyPrefix:
            holder = taken.get(wanted)
            if holder is not None and holder not in prefixes:
                raise ValueError(f"key prefix {wanted} of {obj.name} is already {holder}'s")
            obj = obj.model_copy(update={"keyPrefix": wanted})
            changed.add(obj.name)
        objects.append(obj)
    return Schema(objects), changed
