"""Text for a terminal: aligning Chinese characters (two columns each), and escaping the
control characters (ANSI escapes, carriage returns) that outside names may carry."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TextIO


def width(text: str) -> int:
    """Display width of ``text``: CJK characters count two columns, others one."""
    return sum(2 if ord(ch) > 0x2E80 else 1 for ch in text)


def pad(text: str, columns: int) -> str:
    """``text`` padded to ``columns`` display columns, always followed by at least one space."""
    return text + " " * max(columns - width(text), 1)


def columns(rows: Sequence[Sequence[str]], indent: str = "", gap: int = 2) -> list[str]:
    """``rows`` of cells as text lines after ``indent``, each column padded (:func:`pad`) to
    its widest cell plus ``gap`` columns, so that long words (``特殊顺子[二七十]``) keep the
    columns aligned; the last cell is not padded, and trailing spaces are dropped."""
    if not rows:
        return []
    widths = [max(width(r[k]) for r in rows if k < len(r)) for k in range(max(map(len, rows)))]
    return [(indent + "".join(pad(cell, widths[k] + gap) if k < len(r) - 1 else cell
                              for k, cell in enumerate(r))).rstrip() for r in rows]


def escape(text: str) -> str:
    """``text`` with every non-printable character but the newline written as a ``\\uXXXX``
    escape (a pair of them beyond U+FFFF), so names from variant files or records cannot drive
    the terminal; inside JSON output the escape is still valid JSON for the same text."""
    if all(ch == "\n" or ch.isprintable() for ch in text):
        return text
    return "".join(ch if ch == "\n" or ch.isprintable() else _u(ch) for ch in text)


def _u(ch: str) -> str:
    code = ord(ch)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


class EscapingStream:
    """A text stream wrapper whose ``write`` passes through :func:`escape`."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(escape(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
