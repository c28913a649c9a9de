"""zipai serve's web side: the record store (:mod:`zipai_rules.web.store`, standard library
only) and the Starlette routes over it (:mod:`zipai_rules.web.records_routes`, the ``serve``
extra). Importing this package imports neither."""
