"""Aligning text with Chinese characters in a terminal, where each takes two columns."""

from __future__ import annotations


def width(text: str) -> int:
    """Display width of ``text``: CJK characters count two columns, others one."""
    return sum(2 if ord(ch) > 0x2E80 else 1 for ch in text)


def pad(text: str, columns: int) -> str:
    """``text`` padded to ``columns`` display columns, always followed by at least one space."""
    return text + " " * max(columns - width(text), 1)
