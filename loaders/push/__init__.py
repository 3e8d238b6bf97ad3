"""``crmarena-sf push``: a dataset into a real Salesforce org, idempotently and resumably.

The pieces, in the order a push uses them:

- :mod:`.client`: the only way to the org (an unmodified simple-salesforce client), errors as data;
- :mod:`.preflight`: what the org has and allows, read before anything is written, and the
  reasons to stop (each saying what to change);
- :mod:`.target`, :mod:`.rules`, :mod:`.ordering`, :mod:`.plan`: what will be created, which
  fields are written, in which order, by which API, at what cost (``--dry-run`` prints it);
- :mod:`.schema_deploy`: the custom objects and fields through the Metadata API, and the
  permission set that grants them;
- :mod:`.loader`, :mod:`.writers`, :mod:`.idmap`: upserts on the key field through sObject
  Collections or Bulk API 2.0, retries, the update pass, Knowledge publishing, and the local
  map of dataset Ids to org Ids;
- :mod:`.run`: :func:`~crmarena_sf.loaders.push.run.push` and :func:`~crmarena_sf.loaders.push.run.teardown`;
  :mod:`.report`: what was loaded, skipped and failed, and the API calls used.
"""

from crmarena_sf.loaders.push.errors import PushStopped
from crmarena_sf.loaders.push.run import PushOptions, PushRefused, push, teardown

__all__ = ["PushOptions", "PushRefused", "PushStopped", "push", "teardown"]
