"""Compact per-object metadata specs: one module per sObject, each defining ``SPEC``.

``python -m crmarena_sf.metadata.build`` expands them into ``metadata/describes/<Object>.json``.

The schema holds CRMArena's 16 objects (User, Account as a person-account org, Contact, Case,
Knowledge__kav, ProductCategory, Product2, ProductCategoryProduct, Pricebook2, PricebookEntry,
Order, OrderItem, EmailMessage, LiveChatTranscript, Issue__c, CaseHistory__c), the objects
they point at that a new org has: Profile, UserRole, RecordType, Group, Organization, Individual,
Asset, Contract, ProductCatalog, LiveChatVisitor, KnowledgeArticle, and the standard sales
objects every new org has, empty in CRMArena's: Lead, Opportunity, OpportunityLineItem,
Campaign, CampaignMember, Task, Event, Quote, QuoteLineItem. CRMArena-Pro's orgs add Sales
Territories (Territory2, Territory2Model, Territory2Type, UserTerritory2Association), the custom
object VoiceCallTranscript__c and Opportunity.ContractID__c, which only the ``crmarena-pro``
schema profile keeps (:mod:`crmarena_sf.metadata.crmarena_pro`).

Every ``referenceTo`` resolves inside the schema. Real standard fields whose target is outside
it are left out, each for that reason:

- Account.DandbCompanyId (DandBCompany), Account.OperatingHoursId (OperatingHours);
- User.CallCenterId (CallCenter);
- Profile.UserLicenseId (UserLicense);
- RecordType.BusinessProcessId (BusinessProcess);
- Product2.ExternalDataSourceId (ExternalDataSource);
- EmailMessage.EmailTemplateId (EmailTemplate);
- LiveChatTranscript.LiveChatDeploymentId (LiveChatDeployment),
  .LiveChatButtonId (LiveChatButton), .SkillId (Skill);
- Knowledge__kav.SourceId (polymorphic, to objects outside the schema), .MasterVersionId.

Polymorphic references list only their targets inside the schema: EmailMessage.RelatedToId,
Task.WhatId and Event.WhatId (Account, Asset, Campaign, Case, Contract, Opportunity, Order,
Product2, Quote), Group.RelatedId (User, UserRole), User.DelegatedApproverId (Group, User).

Also left out, as not part of this org or too bulky to be useful: the partner/customer-portal
fields of Account (IsPartner, IsCustomerPortal, ChannelProgramName, ChannelProgramLevelName),
the ~60 ``User.UserPreferences*`` checkboxes, ``Profile.Permissions*`` and most
``Organization.Preferences*``, EmailMessage.ValidatedFromAddress (the org's verified senders),
and MiddleName/Suffix on every person name (their org setting is off, as in the real
person-account describe). Key prefixes are Salesforce's; ProductCategoryProduct's ``0ZH`` is
the one not confirmed from a public source. Custom objects use CRMArena's: Issue__c ``a1M``,
CaseHistory__c ``a1N``, and CRMArena-Pro's VoiceCallTranscript__c ``a05``.
"""

from __future__ import annotations

import importlib
import pkgutil


def all_specs() -> list[dict]:
    """Every sObject spec in this package, in module-name order."""
    specs = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        spec = getattr(module, "SPEC", None)
        if spec is not None:
            specs.append(spec)
    return specs
