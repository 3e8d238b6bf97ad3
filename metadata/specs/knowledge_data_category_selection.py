"""Knowledge__DataCategorySelection: a data category that classifies an article (Object Reference).

Object Reference, "Knowledge__DataCategorySelection"
(https://developer.salesforce.com/docs/atlas.en-us.object_reference.meta/object_reference/sforce_api_objects_knowledge__datacategoryselection.htm):
supported calls create, delete, describeSObjects, getDeleted, getUpdated, query, retrieve (no
update); ``DataCategoryGroupName`` and ``DataCategoryName`` are ``datacategorygroupreference``
fields of length 80 (developer names, properties Create only); ``ParentId`` is the article
version (Create, Filter, Group, Sort); the article lists its selections as
``DataCategorySelections`` ("Data Category Selection Objects" in the SOQL and SOSL Reference).
The groups and categories themselves are metadata (:mod:`crmarena_sf.metadata.data_categories`).
Key prefix ``02o``: not confirmed from a public source.
"""

from crmarena_sf.metadata.spec import field, sobject
from crmarena_sf.metadata.specs._common import id_field, is_deleted, read_only

_CREATE_ONLY = {"updateable": False, "filterable": False, "groupable": False, "sortable": False, "required": True}

SPEC = sobject(
    "Knowledge__DataCategorySelection",
    "Knowledge Data Category Selection",
    "Knowledge Data Category Selections",
    "02o",
    updateable=False,
    searchable=False,
    layoutable=False,
    mruEnabled=False,
    undeletable=False,
    triggerable=False,
    compactLayoutable=False,
    searchLayoutable=False,
    fields=[
        id_field("Entity Data Category Selection ID"),
        field(
            "ParentId",
            "reference",
            "Knowledge Article Version ID",
            to="Knowledge__kav",
            child="DataCategorySelections",
            cascade=True,
            required=True,
            updateable=False,
        ),
        field("DataCategoryGroupName", "datacategorygroupreference", "Selected Data Category Group's Developer Name", length=80, **_CREATE_ONLY),
        field("DataCategoryName", "datacategorygroupreference", "Selected Data Category's Developer Name", length=80, **_CREATE_ONLY),
        is_deleted(),
        field("CreatedDate", "datetime", "Created Date", required=True, defaultedOnCreate=True, createable=False, updateable=False),
        field("CreatedById", "reference", "Created By ID", to="User", required=True, defaultedOnCreate=True, createable=False, updateable=False),
        read_only("SystemModstamp", "datetime", "System Modstamp", required=True, defaultedOnCreate=True),
    ],
)
