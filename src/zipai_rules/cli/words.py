"""The words of ``zipai play``: :class:`~zipai_rules.wording.Words`, shared with the HTML
replay (``zipai view``), which may not import the command line."""

from __future__ import annotations

from ..wording import Words

__all__ = ["Words"]
