"""Data for orgs: the seeded CRMArena generator, datasets, the CRMArena dump importer and loaders.

- :mod:`crmarena_sf.loaders.generate`: ``generate(out, profile=..., seed=..., scale=...)``, the synthetic org
  built around latent variables (the truth goes into the manifest, never into the org);
- :mod:`crmarena_sf.loaders.profiles`: row counts of ``full`` (the original org), ``dev-org`` and ``tiny``;
- :mod:`crmarena_sf.loaders.dataset`: the dataset format (one Parquet file per object plus ``manifest.json``),
  written atomically; :mod:`crmarena_sf.loaders.validate` checks one against the metadata;
- :mod:`crmarena_sf.loaders.load`: ``load_dataset(dir, org=None)`` into an emulator org;
- :mod:`crmarena_sf.loaders.crmarena_dump`: ``import_dump(db, out)`` for the authors' SQLite dump;
- :mod:`crmarena_sf.loaders.default_org`: ``crmarena_org()``, the cached default org (``full``, seed 0),
  and the cached CRMArena-Pro orgs (``crmarena_org(profile="b2b")``);
- :mod:`crmarena_sf.loaders.pro`: CRMArena-Pro's two orgs, the ``b2b`` and ``b2c`` generator and the
  importer of their official dumps.
"""
