"""CRMArena-Pro's two orgs, offline: a B2B org (an electronic-design software vendor) and a B2C
org (a car dealership), each with the 27 objects of CRMArena-Pro's dumps (arXiv 2505.18878).

- :mod:`.generate`: ``generate_pro(out, profile="b2b"|"b2c", seed=..., scale=...)``, the seeded
  generator around latent variables (:mod:`.latent`, recorded by :mod:`.truth`);
- :mod:`.profiles`: the official dumps' per-object row counts;
- :mod:`.domain`, :mod:`.domain_b2b`, :mod:`.domain_b2c`: what each org sells and to whom;
- one module per step: :mod:`.people`, :mod:`.catalog`, :mod:`.territories`, :mod:`.leads`,
  :mod:`.deals`, :mod:`.quotes`, :mod:`.activities`, :mod:`.transcripts` (with :mod:`.talk`),
  :mod:`.service`, :mod:`.messages`, :mod:`.knowledge`;
- :mod:`.dump`: ``import_pro_dump(db, out)``, the official SQLite dumps as datasets.
"""
