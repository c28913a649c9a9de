"""The one error hierarchy of zipai_rules.

Every error the library raises for bad input derives from :class:`ZipaiError`; each carries a
stable ``code`` string (for programs) and a message that names the offending card, action or
YAML path (for people).
"""

from __future__ import annotations


class ZipaiError(Exception):
    """Base of every error raised by zipai_rules for bad input or an illegal request."""

    code = "zipai_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class CardError(ZipaiError, ValueError):
    """A card token that cannot be read, or more copies of a card than the deck holds."""

    code = "bad_card"


class MeldError(ZipaiError, ValueError):
    """Cards that do not form the meld kind they are said to form."""

    code = "bad_meld"


class HandError(ZipaiError, ValueError):
    """A hand or table situation that cannot occur under the variant's rules."""

    code = "bad_hand"


class SeatError(ZipaiError, ValueError):
    """A seat number that is not a seat of the game: not an ``int`` (``True`` and ``1.0`` are
    not seats), negative, or not below the number of players."""

    code = "bad_seat"


class VariantError(ZipaiError, ValueError):
    """A variant file that fails its schema or a semantic check.

    ``problems`` lists every ``(path, message)`` pair found, ``path`` being a YAML path such as
    ``claims.priority[1]``.
    """

    code = "bad_variant"

    def __init__(self, message: str, problems: list[tuple[str, str]] | None = None,
                 *, code: str | None = None) -> None:
        super().__init__(message, code=code)
        self.problems = list(problems or [])


class IllegalActionError(ZipaiError):
    """An action that is not legal in the current game state. The state is left unchanged."""

    code = "illegal_action"


class RecordError(ZipaiError, ValueError):
    """A game record file that cannot be read: not JSON, or not a ``zipai-log/1`` record.

    ``path`` names the offending place in the JSON document (``actions[3].card``, ``<root>``).
    """

    code = "bad_record"

    def __init__(self, message: str, path: str = "<root>", *, code: str | None = None) -> None:
        super().__init__(message, code=code)
        self.path = path


class ReplayError(ZipaiError):
    """A game record that does not replay to what it claims.

    ``step`` is the 1-based number of the action concerned: 0 for the record's header (the
    variant or the deal), ``len(actions) + 1`` when the record stops before the hand is over.
    Codes: ``variant_changed``, ``unknown_variant``, ``bad_deal``, ``bad_header`` (e.g.
    ``sitting_out`` where nobody sits out), ``reserved_name`` (a recorded variant that takes a
    shipped preset's id or name with other rules), ``replay_diverged`` (an action refused),
    ``record_incomplete``, ``result_differs``.
    """

    code = "replay_diverged"

    def __init__(self, message: str, step: int, *, code: str | None = None) -> None:
        super().__init__(f"step {step}: {message}", code=code)
        self.step = step
        self.reason = message

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (type(self), (self.reason, self.step), dict(self.__dict__))
