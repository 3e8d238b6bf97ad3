"""Check a dataset against the org's metadata, the way a real org would judge its records.

Every column must be a stored field of its object; every non-nillable field must have a
value (or be one the loader supplies, :mod:`crmarena_sf.loaders.fill`); text fits the field's length;
picklist values are the field's values (always for restricted picklists; for all picklists
with ``strict``, since the API accepts any value in an unrestricted one); emails look like
emails; Ids are well-formed 18-character Ids of the object's key prefix and unique;
references carry an Id of one of the field's target objects that exists in the dataset or
in a new org (admin user, profiles, record types, standard price book); unique fields hold
no duplicates. All checks are SQL over the Parquet files, so a million-row object costs a
few scans, not a Python loop.
"""

from __future__ import annotations

import functools

import duckdb
from crmarena_sf.emulator.store.ddl import quote
from crmarena_sf.loaders import sqlids
from crmarena_sf.loaders.dataset import Dataset, connect_files
from crmarena_sf.loaders.fill import fill_expression
from crmarena_sf.metadata.model import Field, Schema, SObject

TEXT_TYPES = {"string", "textarea", "email", "phone", "url", "picklist", "multipicklist", "combobox"}
EMAIL_PATTERN = (
    r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)+"
)
"""The shape the org store accepts for an email field (emulator.store.coerce)."""


@functools.lru_cache(maxsize=4)
def new_org_ids(profile: str = "crmarena") -> tuple[str, ...]:
    """Ids of every record a brand-new org contains (what a dataset may point at without holding)."""
    from crmarena_sf.emulator.store.org import Org

    with Org.new(profile) as org:
        found: list[str] = []
        for obj in org.schema:
            if obj.field("Id") is not None:
                found += [r[0] for r in org.con.execute(f'SELECT "Id" FROM {quote(obj.name)}').fetchall()]
    return tuple(sorted(found))


def validate_dataset(dataset: Dataset | str, schema: Schema, *, strict: bool = False) -> list[str]:
    """Problems of ``dataset`` against ``schema``, one line each (an empty list means valid)."""
    ds = dataset if isinstance(dataset, Dataset) else Dataset(dataset)
    return validate_files(ds.files, schema, strict=strict)


def validate_files(files: dict, schema: Schema, *, strict: bool = False) -> list[str]:
    """Problems of the Parquet files ``{object name: path}`` against ``schema`` (see :func:`validate_dataset`)."""
    con = connect_files(files)
    try:
        sqlids.install(con)
        return _Checker(con, schema, list(files), strict).run()
    finally:
        con.close()


class _Checker:
    def __init__(self, con: duckdb.DuckDBPyConnection, schema: Schema, objects: list[str], strict: bool):
        self.con = con
        self.schema = schema
        self.objects = objects
        self.strict = strict
        self.problems: list[str] = []

    def run(self) -> list[str]:
        known = [name for name in self.objects if self._known(name)]
        self._collect_ids(known)
        for name in known:
            self._check_object(self.schema.get(name))
        return self.problems

    def _known(self, name: str) -> bool:
        obj = self.schema.get(name)
        if obj is None or obj.name != name:
            self.problems.append(f"{name}: not an object of this org's schema")
            return False
        return True

    def _collect_ids(self, names: list[str]) -> None:
        self.present = {name for name in names if "Id" in self._columns(name)}
        parts = [
            f'SELECT "Id" AS id, {_sql_string(name)} AS object FROM {quote(name)}'
            for name in sorted(self.present)
        ]
        union = " UNION ALL ".join(parts) or "SELECT NULL::VARCHAR AS id, NULL::VARCHAR AS object WHERE false"
        # Every Id read once into memory: reference checks look Ids up here instead of reading each
        # target object's file again for every field that points at it.
        self.con.execute(f"CREATE TEMP TABLE _all_ids AS {union}")
        # Checked once here, so per-object queries only look malformed Ids up (the macro is costly to plan).
        self.con.execute("CREATE TEMP TABLE _bad_ids AS SELECT id FROM _all_ids WHERE NOT sfid_valid(id)")

    def _ids_of(self, targets: list[str], prefixes: list[str]) -> str:
        """SQL listing every Id of ``targets`` the dataset or a new org holds."""
        held = [t for t in targets if t in self.present]
        parts = [f"SELECT id FROM _all_ids WHERE object IN {_sql_tuple(held)}"] if held else []
        seeded = [i for i in new_org_ids() if i[:3] in prefixes]
        if seeded:
            parts.append(f"SELECT unnest({_sql_list(seeded)})")
        return " UNION ALL ".join(parts) or "SELECT NULL::VARCHAR WHERE false"

    def _columns(self, name: str) -> list[str]:
        return [r[0] for r in self.con.execute(f"DESCRIBE {quote(name)}").fetchall()]

    def _check_object(self, obj: SObject) -> None:
        columns = self._columns(obj.name)
        stored = {f.name: f for f in obj.stored_fields}
        for column in columns:
            if column not in stored:
                self.problems.append(f"{obj.name}.{column}: not a stored field of {obj.name}")
        present = set(columns) & set(stored)
        conditions: list[tuple[str, str, str]] = []
        for f in obj.stored_fields:
            if f.name not in present:
                if not f.nillable and f.name != "Id" and fill_expression(obj, f, present) is None:
                    self.problems.append(f"{obj.name}.{f.name}: required column missing")
                elif f.name == "Id":
                    self.problems.append(f"{obj.name}.Id: column missing")
                continue
            conditions += [(f.name, text, cond) for text, cond in self._field_conditions(obj, f)]
        self._count_failures(obj, conditions)
        for f in obj.stored_fields:
            if f.name in present and (f.unique or f.type == "id"):
                self._check_unique(obj, f)

    def _field_conditions(self, obj: SObject, f: Field) -> list[tuple[str, str]]:
        """(description, SQL condition that is true for a bad row) for one field."""
        col = quote(f.name)
        out = []
        if not f.nillable:
            out.append(("is null but the field is required", f"{col} IS NULL"))
        if f.type in TEXT_TYPES and f.length:
            out.append((f"is longer than {f.length} characters", f"length({col}) > {f.length}"))
        if f.type in ("picklist", "multipicklist") and (f.restrictedPicklist or self.strict):
            values = list(f.picklist_values)
            value_sql = f"string_split({col}, ';')" if f.type == "multipicklist" else f"[{col}]"
            out.append(
                (
                    f"holds a value outside its picklist {values[:8]}{'...' if len(values) > 8 else ''}",
                    f"{col} IS NOT NULL AND NOT list_has_all({_sql_list(values)}, {value_sql})",
                )
            )
        if f.type == "email":
            out.append(
                (
                    "is not an email address",
                    f"{col} IS NOT NULL AND NOT regexp_full_match({col}, {_sql_string(EMAIL_PATTERN)})",
                )
            )
        if f.type == "id":
            out.append(
                (
                    f"is not an 18-character Id with key prefix {obj.keyPrefix}",
                    f"{col} IS NULL OR NOT starts_with({col}, '{obj.keyPrefix}') OR {col} IN (SELECT id FROM _bad_ids)",
                )
            )
        if f.is_reference:
            if f.name == "RecordTypeId":
                allowed = [rt.recordTypeId for rt in obj.recordTypeInfos if not rt.master]
                out.append(
                    (
                        "is not a record type of the object",
                        f"{col} IS NOT NULL AND {col} NOT IN {_sql_tuple(allowed)}",
                    )
                )
            else:
                prefixes = [t.keyPrefix for t in map(self.schema.get, f.referenceTo) if t and t.keyPrefix]
                out.append(
                    (
                        f"is not an Id of {'/'.join(f.referenceTo)}",
                        f"{col} IS NOT NULL AND substr({col}, 1, 3) NOT IN {_sql_tuple(prefixes)}",
                    )
                )
                # Existing implies well-formed: every Id a reference may match passed its own object's Id check.
                out.append(
                    (
                        "points at records that do not exist",
                        f"{col} IS NOT NULL AND substr({col}, 1, 3) IN {_sql_tuple(prefixes)} "
                        f"AND {col} NOT IN ({self._ids_of(f.referenceTo, prefixes)})",
                    )
                )
        return out

    def _count_failures(self, obj: SObject, conditions: list[tuple[str, str, str]]) -> None:
        if not conditions:
            return
        select = ", ".join(f"count_if({cond})" for _, _, cond in conditions)
        counts = self.con.execute(f"SELECT {select} FROM {quote(obj.name)}").fetchone()
        for (field, description, cond), count in zip(conditions, counts):
            if count:
                example = self.con.execute(
                    f"SELECT {quote(field)} FROM {quote(obj.name)} WHERE {cond} LIMIT 1"
                ).fetchone()[0]
                self.problems.append(f"{obj.name}.{field}: {count} row(s) {description} (e.g. {example!r})")

    def _check_unique(self, obj: SObject, f: Field) -> None:
        col = quote(f.name)
        row = self.con.execute(
            f"SELECT {col}, count(*) FROM {quote(obj.name)} WHERE {col} IS NOT NULL "
            f"GROUP BY {col} HAVING count(*) > 1 LIMIT 1"
        ).fetchone()
        if row:
            self.problems.append(
                f"{obj.name}.{f.name}: value {row[0]!r} appears {row[1]} times but must be unique"
            )


def _sql_string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _sql_list(values: list[str]) -> str:
    return "[" + ", ".join("'" + v.replace("'", "''") + "'" for v in values) + "]::VARCHAR[]"


def _sql_tuple(values: list[str]) -> str:
    if not values:
        return "(NULL)"
    return "(" + ", ".join("'" + v.replace("'", "''") + "'" for v in values) + ")"
