"""``zipai serve``: a web table of 跑胡子 in the browser (docs/play.md, "A table in the browser").

:mod:`zipai_rules.web.table` is the host (:class:`~zipai_rules.web.table.WebTable`: seats,
tokens, claim windows with their deadline, what each seat is sent), independent of any web
library; :mod:`zipai_rules.web.store` keeps finished hands' records in SQLite (standard
library only); :mod:`zipai_rules.web.app` serves the table over WebSockets with Starlette and
:mod:`zipai_rules.web.records_routes` the record pages (the optional ``serve`` extra,
:func:`~zipai_rules.errors.install_hint`). Importing this package imports none of them.
"""
