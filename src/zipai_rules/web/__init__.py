"""``zipai serve``: a web table of 跑胡子 in the browser (docs/play.md, "A table in the browser").

:mod:`zipai_rules.web.table` is the host (:class:`~zipai_rules.web.table.WebTable`: seats,
tokens, claim windows with their deadline, what each seat is sent), independent of any web
library; :mod:`zipai_rules.web.app` serves it over WebSockets with Starlette (the optional
``serve`` extra, :func:`~zipai_rules.errors.install_hint`). Importing this package imports neither.
"""
