"""KnowledgeArticle: the article behind every Knowledge__kav version (Object Reference: KnowledgeArticle).

Read-only through the API: articles are created by inserting their first version and managed by
publishing actions. Key prefix ``kA0``.
"""

from crmarena_sf.metadata.spec import sobject
from crmarena_sf.metadata.specs._common import id_field, is_deleted, last_viewed_fields, read_only
from crmarena_sf.metadata.specs._locales import LANGUAGES

SPEC = sobject(
    "KnowledgeArticle",
    "Knowledge Article",
    "Knowledge Articles",
    "kA0",
    createable=False,
    updateable=False,
    deletable=False,
    undeletable=False,
    searchable=False,
    scopes=[("everything", "All knowledge articles")],
    fields=[
        id_field("Knowledge Article ID"),
        read_only("ArticleNumber", "string", "Article Number", required=True, autoNumber=True, defaultedOnCreate=True, length=30, nameField=True),
        read_only("CreatedDate", "datetime", "Created Date", required=True, defaultedOnCreate=True),
        read_only("CreatedById", "reference", "Created By ID", to="User", required=True, defaultedOnCreate=True),
        read_only("LastModifiedDate", "datetime", "Last Modified Date", required=True, defaultedOnCreate=True),
        read_only("LastModifiedById", "reference", "Last Modified By ID", to="User", required=True, defaultedOnCreate=True),
        read_only("SystemModstamp", "datetime", "System Modstamp", required=True, defaultedOnCreate=True),
        read_only("ArchivedDate", "datetime", "Archived Date"),
        read_only("ArchivedById", "reference", "Archived By ID", to="User"),
        read_only("FirstPublishedDate", "datetime", "First Published Date"),
        read_only("LastPublishedDate", "datetime", "Last Published Date"),
        read_only("CaseAssociationCount", "int", "Case Association Count"),
        read_only("TotalViewCount", "int", "Total View Count"),
        read_only("MasterLanguage", "picklist", "Master Language", required=True, values=LANGUAGES, restrictedPicklist=True, defaultedOnCreate=True),
        is_deleted(),
        *last_viewed_fields(),
    ],
)
