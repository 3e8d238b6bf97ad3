"""How requests reach the REST API and are dispatched: the router, its messages and the transports.

:mod:`.router` answers a :class:`~.messages.Request` with a :class:`~.messages.Response` for one
org; :mod:`.resource` is what a resource handler receives and how it declares its URLs; the
transports only convert to and from those messages: :mod:`.adapter` (in-process, for
``requests``), :mod:`.server` (HTTPS, with :mod:`.tls`); :mod:`.content_encoding`,
:mod:`.json_body`, :mod:`.xml_body`, :mod:`.soap_envelope` and :mod:`.params` read what a
request carries; :mod:`.transport_errors` are the HTTP layer's own refusals.
"""
