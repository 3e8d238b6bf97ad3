"""CRMArena-Pro's 22 tasks on the B2B and B2C orgs (arXiv 2505.18878): the suites ``pro-b2b`` and ``pro-b2c``.

- :mod:`.suite`: the tasks in the official file's block order, their sizes, None shares,
  metrics, business skills and who asks them;
- :mod:`.personas`: the three persona pools (employees' work styles, consumers, business buyers);
- :mod:`.sales_facts`: the org's sales records a build searches, read in bulk;
- :mod:`.texts`: reading the orgs' texts (articles, call transcripts, BANT criteria, stage guide);
- :mod:`.build`: ``build_pro_tasks``, every instance with its gold answer computed twice;
- :mod:`.tables`: the per-skill table the CLI prints, B2B and B2C side by side.

The families themselves (generator and solver side by side) are in
:mod:`crmarena_sf.tasks.families.pro`.
"""
