"""Load a dataset into an emulator org: one ``INSERT ... SELECT FROM read_parquet`` per object.

The fast path skips per-record validation (the dataset was validated when written, see
:mod:`crmarena_sf.loaders.validate`) but still refuses a dataset that does not fit the org: an object
or column the schema lacks, a value DuckDB cannot convert to the column's type, an Id the
org already holds. Everything happens in one transaction, so a refused dataset leaves the
org as it was. Afterwards the org's Id counters are recomputed, large tables get their indexes (:mod:`crmarena_sf.emulator.store.indexes`), and every change listener
is called once per object with kind ``"load"`` and no Ids, meaning "rebuild what you keep
for this object" (the SOSL index does).

Loading into an org file also builds the file's search index: readers open org files
read-only and cannot store one there, so an org file without it would make every reading
process build its own before its first search.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
from crmarena_sf.emulator.store.ddl import column_type, quote
from crmarena_sf.emulator.store.events import LOAD
from crmarena_sf.emulator.store.files import store_for_size, uncompress_small_tables
from crmarena_sf.emulator.store.indexes import ensure_indexes
from crmarena_sf.emulator.store.org import Org
from crmarena_sf.emulator.store.profile_permissions import assign_profile_permission_sets
from crmarena_sf.emulator.store.seed import STANDARD_PRICEBOOK_ID
from crmarena_sf.loaders.dataset import Dataset, DatasetError
from crmarena_sf.loaders.fill import fill_expression
from crmarena_sf.metadata import PROFILES
from crmarena_sf.metadata.model import SObject

from crmarena_sf.progress import progress_bar, progress_factory

LOAD_KIND = LOAD
"""The ``kind`` listeners receive after a bulk load (with an empty Id list)."""


def load_dataset(dataset_dir: str | Path, org: Org | None = None, *, progress: bool = False) -> Org:
    """Load the dataset at ``dataset_dir`` into ``org`` (default: a fresh in-memory org, :func:`new_org_for`).

    ``org`` must be a new org (nothing but what :mod:`crmarena_sf.emulator.store.seed` puts there). An
    org file (``org.path``) gets its search index built too.
    Raises :class:`DatasetError` when the dataset does not fit the org; the org is then unchanged.
    """
    dataset = Dataset(dataset_dir)
    target = org if org is not None else new_org_for(dataset)
    try:
        counts = _record_counts(dataset) if target.path is not None else None
        if counts is not None:  # small tables of an org file are read faster uncompressed
            store_for_size(target.con, counts)
        _load(dataset, target, progress)
        if counts is not None:
            uncompress_small_tables(target, counts)
        ensure_indexes(target)
        if target.path is not None:
            from crmarena_sf.emulator.sosl import ensure_index

            ensure_index(target, progress_factory("indexing for search", enabled=progress))
    except BaseException:
        if org is None:
            target.close()
        raise
    return target


def _record_counts(dataset: Dataset) -> dict[str, int] | None:
    """Records per object, as the dataset's manifest says (None when it does not say)."""
    counts = dataset.manifest.get("counts")
    if not isinstance(counts, dict) or not all(isinstance(n, int) for n in counts.values()):
        return None
    return counts


def new_org_for(dataset: Dataset | str | Path, path: str | Path | None = None) -> Org:
    """A new org of the schema the dataset was made for (its manifest's ``schema`` profile), with
    the custom-object key prefixes an imported org used (a real org hands them out per org)."""
    dataset = dataset if isinstance(dataset, Dataset) else Dataset(dataset)
    if dataset.schema_profile not in PROFILES:
        raise DatasetError(f"{dataset.path}: unknown schema {dataset.schema_profile!r} in its manifest")
    org = Org.new(profile=dataset.schema_profile, path=path)
    if dataset.key_prefixes:
        from crmarena_sf.emulator.store.schema_extension import extend_org
        from crmarena_sf.metadata.crmarena_pro import with_key_prefixes

        try:
            extend_org(org, *with_key_prefixes(org.schema, dataset.key_prefixes))
        except ValueError as exc:
            org.close()
            raise DatasetError(f"{dataset.path}: {exc}") from None
    return org


def _load(dataset: Dataset, org: Org, progress: bool) -> None:
    plan = [(org.schema.get(name), name) for name in dataset.objects]
    missing = [name for obj, name in plan if obj is None]
    if missing:
        raise DatasetError(f"{dataset.path}: objects not in this org's schema: {', '.join(missing)}")
    with progress_bar(len(plan), "loading", enabled=progress) as bar, org.transaction():
        for obj, name in plan:
            bar.set_postfix_str(name)
            _insert(org, dataset, obj, name)
            bar.update(1)
        for obj, _ in plan:
            org.notify(obj.name, [], LOAD_KIND)
    org.refresh_counters()
    # Every user of a real org holds its profile's permission set (Object Reference, PermissionSetAssignment).
    assign_profile_permission_sets(org)


def _insert(org: Org, dataset: Dataset, obj: SObject, name: str) -> None:
    source = dataset.parquet_sql(name)
    try:
        columns = [r[0] for r in org.con.execute(f"DESCRIBE SELECT * FROM {source}").fetchall()]
    except duckdb.Error as exc:
        raise DatasetError(
            f"{dataset.files[name]} is not a readable Parquet file: {_first_line(exc)}"
        ) from None
    stored = {f.name for f in obj.stored_fields}
    unknown = [c for c in columns if c not in stored]
    if unknown:
        raise DatasetError(
            f"{dataset.files[name]}: columns that are not fields of {obj.name}: {', '.join(unknown)}"
        )
    present = set(columns)
    selects = []
    for f in obj.stored_fields:
        if f.name in present:
            expr = quote(f.name)
        else:
            expr = fill_expression(obj, f, present) or "NULL"
        selects.append(f"CAST({expr} AS {column_type(f)}) AS {quote(f.name)}")
    org.before_write(obj.name)
    if obj.name == "Pricebook2" and "IsStandard" in present:
        _replace_standard_price_book(org, source)
    try:
        org.con.execute(f"INSERT INTO {quote(obj.name)} BY NAME SELECT {', '.join(selects)} FROM {source}")
    except duckdb.Error as exc:
        raise DatasetError(f"{dataset.files[name]} does not fit {obj.name}: {_first_line(exc)}") from None
    clash = org.con.execute(
        f'SELECT "Id" FROM {quote(obj.name)} GROUP BY "Id" HAVING count(*) > 1 LIMIT 1'
    ).fetchone()
    if clash:
        raise DatasetError(
            f"{dataset.files[name]}: record {clash[0]} is already in the org (a dataset holds new records only)"
        )


def _replace_standard_price_book(org: Org, source: str) -> None:
    """A dataset bringing its own standard price book (an imported org) replaces the new org's."""
    has_own = org.con.execute(f'SELECT count(*) FROM {source} WHERE "IsStandard"').fetchone()[0]
    if has_own:
        org.con.execute('DELETE FROM "Pricebook2" WHERE "Id" = ?', [STANDARD_PRICEBOOK_ID])


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0]
