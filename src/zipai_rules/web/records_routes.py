"""The record pages of ``zipai serve`` over a :class:`~zipai_rules.web.store.RecordStore`
(Starlette, the ``serve`` extra): ``GET /records`` lists the stored hands newest first
(``?offset=N`` pages on), ``GET /records/{id}`` is a hand's replay page
(:func:`~zipai_rules.replay_html.record_page`, with its Content-Security-Policy also as a
header) and ``GET /records/{id}.json`` its record. An unknown id answers 404, junk 400."""

from __future__ import annotations

import html
import json

from ..errors import ZipaiError, install_hint

try:
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, Response
    from starlette.routing import Route
except ModuleNotFoundError as exc:  # tested in a subprocess without it
    if (exc.name or "").split(".")[0] != "starlette":
        raise
    raise ModuleNotFoundError(
        "zipai_rules.web.records_routes needs starlette, which zipai_rules does not "
        "install: " + install_hint("serve"), name="starlette") from exc

from ..replay_html import record_page, replay_csp
from .store import RecordStore

__all__ = ["PAGE", "record_routes"]

#: records per list page
PAGE = 50
_MAX_ID = 2**63 - 1
_LIST_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'"


def _error(status: int, text: str) -> HTMLResponse:
    body = (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{status}</title>"
            f"</head><body><p>{html.escape(text)}</p><p><a href=\"/records\">all records</a>"
            "</p></body></html>\n")
    return HTMLResponse(body, status_code=status, headers={"Content-Security-Policy": _LIST_CSP})


def _record_id(request: Request) -> int | None:
    value = request.path_params.get("id")
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= _MAX_ID:
        return None
    return value


def record_routes(store: RecordStore) -> list[Route]:
    """The routes of the record pages over ``store``, for ``Starlette(routes=…)``."""

    def listing(request: Request) -> Response:
        raw = request.query_params.get("offset", "0")
        if not (raw.isascii() and raw.isdigit()) or len(raw) > 18:
            return _error(400, "offset: not a whole number")
        offset = int(raw)
        try:
            rows = store.list(PAGE, offset)
            total = store.count()
        except ZipaiError as exc:
            return _error(500, f"the record store failed ({exc.code})")
        items = "".join(
            f'<li><a href="/records/{r.id}">#{r.id}</a> {html.escape(r.variant)} '
            f"{html.escape(r.finished_at)}: {html.escape(r.result)} "
            f'(<a href="/records/{r.id}.json">json</a>)</li>\n' for r in rows)
        nav = ""
        if offset + PAGE < total:
            nav = f'<p><a id="next" href="/records?offset={offset + PAGE}">older</a></p>\n'
        body = ("<!DOCTYPE html>\n<html lang=\"zh\"><head><meta charset=\"utf-8\">"
                f"<title>zipai records</title></head><body>\n<h1>Records ({total})</h1>\n"
                f"<ul>\n{items}</ul>\n{nav}</body></html>\n")
        return HTMLResponse(body, headers={"Content-Security-Policy": _LIST_CSP})

    def _get(request: Request) -> dict[str, object] | Response:
        record_id = _record_id(request)
        if record_id is None:
            return _error(404, "no such record")
        try:
            return store.get(record_id)
        except ZipaiError as exc:
            if exc.code == "no_such_record":
                return _error(404, f"no record {record_id}")
            return _error(500, f"the record store failed ({exc.code})")

    def page(request: Request) -> Response:
        record = _get(request)
        if isinstance(record, Response):
            return record
        try:
            text = record_page(record, back="/records")
        except ZipaiError as exc:
            return _error(500, f"the record does not replay ({exc.code})")
        return HTMLResponse(text, headers={"Content-Security-Policy": replay_csp()})

    def as_json(request: Request) -> Response:
        record = _get(request)
        if isinstance(record, Response):
            return record
        return Response(json.dumps(record, ensure_ascii=False, sort_keys=True),
                        media_type="application/json")

    return [Route("/records", listing, methods=["GET"]),
            Route("/records/{id:int}.json", as_json, methods=["GET"]),
            Route("/records/{id:int}", page, methods=["GET"])]
