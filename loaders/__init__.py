"""Data for orgs: the seeded CRMArena generator, datasets, the CRMArena dump importer and loaders."""
