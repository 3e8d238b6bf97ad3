"""Knowledge__kav: a Lightning Knowledge article version (Object Reference: KnowledgeArticleVersion).

CRMArena's articles are FAQ versions with ``Title``, ``Summary``, ``UrlName`` and the custom rich
text ``FAQ_Answer__c`` (HTML-escaped text; CRMArena's org dump, SalesforceAIResearch/CRMArena local_data/crmarena_data.db); agents search them with
``... RETURNING Knowledge__kav(... WHERE PublishStatus='Online' AND Language='en_US')``.

How the flags are kept, and how a loader sets them: the describe keeps Salesforce's real flags.
``PublishStatus`` is neither createable nor updateable (a new version starts as a Draft and is
published by an action such as ``publishKnowledgeArticles``); ``Language`` is createable but not
updateable, defaulting to the knowledge base's language (en_US). A loader that reproduces
CRMArena's published articles writes the rows directly (``emulator.store.dml.write_rows``) with
``PublishStatus='Online'``, ``Language='en_US'``, ``IsLatestVersion=true``, ``VersionNumber=1``;
an API insert gets a Draft, as on a real org.

Left out: ``SourceId`` (polymorphic to objects not in this schema), ``MasterVersionId``.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import (
    audit_fields,
    id_field,
    is_deleted,
    last_viewed_fields,
    owner_field,
    read_only,
)
from crmarena_sf.metadata.specs._locales import LANGUAGES

PUBLISH_STATUSES = ["Draft", ("Online", "Published"), "Archived"]

SPEC = sobject(
    "Knowledge__kav",
    "Knowledge",
    "Knowledge",
    "ka0",
    feedEnabled=True,
    scopes=[("everything", "All knowledge"), ("mine", "My knowledge"), ("queue_owned", "Queue owned knowledge")],
    fields=[
        id_field("Knowledge ID"),
        read_only("KnowledgeArticleId", "reference", "Knowledge Article ID", to="KnowledgeArticle", child="Versions", required=True, defaultedOnCreate=True),
        owner_field(),
        is_deleted(),
        field("ValidationStatus", "picklist", "Validation Status", values=["Not Validated", "Validated"], default="Not Validated", restrictedPicklist=True),
        read_only("PublishStatus", "picklist", "Publication Status", values=PUBLISH_STATUSES, default="Draft", required=True, restrictedPicklist=True),
        read_only("VersionNumber", "int", "Version Number", required=True, defaultedOnCreate=True),
        read_only("IsLatestVersion", "boolean", "Is Latest Version"),
        field("IsVisibleInApp", "boolean", "Visible In Internal App", defaultValue=True),
        field("IsVisibleInPkb", "boolean", "Visible In Public Knowledge Base"),
        field("IsVisibleInCsp", "boolean", "Visible to Customer"),
        field("IsVisibleInPrm", "boolean", "Visible to Partner"),
        *audit_fields(),
        field("Language", "picklist", "Language", values=LANGUAGES, default="en_US", required=True, restrictedPicklist=True, updateable=False),
        field("Title", "string", "Title", required=True, nameField=True),
        field("UrlName", "string", "URL Name", required=True),
        read_only("ArchivedDate", "datetime", "Archived Date"),
        read_only("ArchivedById", "reference", "Archived By ID", to="User"),
        field("Summary", "textarea", "Summary", length=1000),
        read_only("ArticleNumber", "string", "Article Number", required=True, autoNumber=True, defaultedOnCreate=True, length=30),
        read_only("FirstPublishedDate", "datetime", "First Published Date"),
        read_only("LastPublishedDate", "datetime", "Last Published Date"),
        read_only("ArticleArchivedById", "reference", "Archived By ID", to="User"),
        read_only("ArticleArchivedDate", "datetime", "Archived Date"),
        read_only("ArticleCaseAttachCount", "int", "Case Attach Count"),
        read_only("ArticleCreatedById", "reference", "Article Created By ID", to="User"),
        read_only("ArticleCreatedDate", "datetime", "Article Created Date"),
        read_only("ArticleMasterLanguage", "picklist", "Master Language", values=LANGUAGES, restrictedPicklist=True),
        read_only("ArticleTotalViewCount", "int", "Total View Count"),
        read_only("ArticleType", "string", "Article Type", required=True, defaultedOnCreate=True),
        field("AssignedToId", "reference", "Assigned to ID", to="User", createable=False),
        read_only("AssignedById", "reference", "Assigned by ID", to="User"),
        read_only("AssignmentDate", "datetime", "Assignment Date"),
        field("AssignmentDueDate", "datetime", "Assignment Due Date", createable=False),
        field("AssignmentNote", "textarea", "Assignment Note", createable=False),
        read_only("MigratedToFromArticleVersion", "reference", "Migrated From Article Version", to="Knowledge__kav", relationshipName=None),
        *last_viewed_fields(),
        field("RecordTypeId", "reference", "Record Type ID", to="RecordType", permissionable=False, searchPrefilterable=False),
        # CRMArena's article body (CRMArena's org dump, SalesforceAIResearch/CRMArena local_data/crmarena_data.db): a Rich Text Area.
        field("FAQ_Answer__c", "textarea", "FAQ Answer", length=32768, extraTypeInfo="richtextarea", htmlFormatted=True),
    ],
)
