"""The one error hierarchy of zipai_rules.

Every error the library raises for bad input derives from :class:`ZipaiError`; each carries a
stable ``code`` string (for programs) and a message that names the offending card, action or
YAML path (for people).
"""

from __future__ import annotations

from typing import Any


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

    def __reduce__(self) -> tuple[type[ReplayError], tuple[str, int], dict[str, Any]]:
        return (type(self), (self.reason, self.step), dict(self.__dict__))


#: Every error ``code`` the package raises, each once, with its meaning. A test keeps this
#: equal to the codes written in the source and to the README's list (:func:`codes_markdown`).
ERROR_CODES: dict[str, str] = {
    # the class defaults
    "zipai_error": "an error of zipai_rules with no more specific code",
    "bad_card": "a card that cannot be read",
    "bad_meld": "cards that do not form the meld kind they are said to form",
    "bad_hand": "a hand or table situation that cannot occur (e.g. no hand given)",
    "bad_seat": "a seat number that is not a seat of the game",
    "bad_variant": "a variant that cannot be loaded",
    "illegal_action": "an action that is not legal in the current game state",
    "bad_record": "a game record that cannot be read",
    "replay_diverged": "a recorded action refused on replay",
    # cards and melds
    "unknown_card": "an unknown card token or value",
    "too_many_copies": "more copies of a card than the deck holds (or a 王 the deck lacks)",
    "malformed_meld": "a meld not written KIND=CARDS, of an unknown kind, or not a table meld",
    # hand analysis
    "bad_source": "an incoming card without a valid source, or a source without a card",
    "concealed_quad": "four of a kind in the concealed hand where the variant lays it "
                      "down as 提",
    "too_many_cards": "more cards than a player of the variant can hold",
    "impossible_count": "a card count that no game reaches",
    # the game
    "bad_deal": "a deal that does not fit the variant, or not the deal its seed shuffles",
    "bad_seed": "a seed or hand number that is not a non-negative integer in range",
    "bad_commitment": "a shuffle commitment that is malformed or does not match the seed",
    "nothing_to_undo": "undo at the start of a hand",
    # refusals (Game.check / Game.apply)
    "hand_over": "an action after the hand is over",
    "not_an_action": "a value given as an action that is not an Action",
    "not_your_turn": "an action by a seat that is not to act now",
    "outranked": "a claim of a lower tier than the one the seat is asked now",
    "not_your_seat": "an action for another seat than the one that sent it (by=)",
    "stale_decision": "an answer to a decision that is no longer the seat's current one",
    "already_answered": "a second answer of a seat to the same claim window",
    "no_window": "closing a claim window when none is open",
    "wrong_phase": "a discard while a card is on offer, or a pass while a discard is owed",
    "win_forced": "a pass of a 胡 the variant makes forced",
    "nothing_on_offer": "a claim when no card is on offer",
    "not_on_offer": "a claim of a card other than the one on offer",
    "not_held": "a discard of a card the seat does not hold",
    "card_locked": "a discard of a 坎 card or a 王 the variant keeps in the hand",
    "claim_not_allowed": "a claim kind the variant does not allow from this source or seat",
    "cannot_claim": "a 碰 or 跑 without the cards it needs",
    "nothing_to_discard": ("a 吃 or 碰 after which the seat would owe a discard and hold none "
                           "it may discard"),
    "chou": "a claim of a card that is 臭 for the seat",
    "not_beaten": "a win not worth more than one the seat declined "
                  "(win.declined_must_be_beaten)",
    "fang_pao": "a 吃 or 碰 by a seat whose discard another seat 跑'd onto a table 偎/碰 "
                "(放跑之后不能再进张)",
    "no_win": "a 胡 that is no win (the refusal's reason says why: incomplete, …)",
    "bad_plan": "a 吃 whose plan (the 吃 meld and its 比 melds) does not fit the hand",
    "unencodable_action": "an action or action code outside the stable integer encoding",
    "hand_not_over": "a hand that is not over, settled or recorded",
    "match_over": "a hand asked of a match that its variant's match.end has ended",
    # variants
    "yaml_syntax": "a variant file that is not valid YAML",
    "not_a_mapping": "a variant file whose top level is not a mapping",
    "schema": "a document that fails its JSON Schema or a structural guard",
    "semantic": "a variant that passes its schema but breaks a rule across fields",
    "extends_cycle": "an extends chain that loops or is too long",
    "unknown_parent": "an extends naming no known variant",
    "parent_outside": "an extends naming a file outside the folder of the file loaded",
    "reserved_name": "a variant taking a shipped preset's id or name with other rules",
    "unknown_variant": "a variant name that names no preset",
    "no_presets": "the shipped presets are missing from the installation",
    # outside documents
    "unreadable": "a file that cannot be read: missing, not a regular file, or not UTF-8",
    "too_large": "a document over the size or value-count limit",
    "too_deep": "a document nested over the depth limit",
    "bad_json": "text that is not valid JSON, or a number out of range",
    "duplicate_key": "a JSON object with a key given twice",
    # records and replay
    "bad_format": "a file that is not a zipai-log/1 game record",
    "bad_action": "a malformed action or event in JSON (a record, an observation), the "
                  "message naming the field",
    # the action notation (parse_action)
    "bad_action_text": "an action text that cannot be read: unknown word, bad card, wrong "
                       "shape, too long, or a short form without a game",
    "ambiguous_action": "an action text naming several legal actions (the message lists "
                        "them)",
    "no_such_action": "a short action text naming none of the seat's legal actions (the "
                      "message lists them)",
    "bad_observation": "a malformed observation or table view in JSON",
    "bad_header": "a record header that contradicts its variant (e.g. sitting_out)",
    "variant_changed": "a recorded variant whose rules or content hash changed",
    "record_incomplete": "a record that stops before the hand is over",
    "result_differs": "a record whose result or settlement differs from the replay",
    "digest_mismatch": "a record without a shuffle commitment, or of another commitment "
                       "digest than the one expected (expect_digest, --expect-digest)",
    "unwritable": "a record that cannot be written there",
    # options
    "bad_limit": "an input limit (Limits, --max-bytes, --max-nodes) that is not an int from 1 "
                 "to 2**40",
    "cannot_merge": "statistics or tallies that cannot be merged: of another variant, engine "
                    "version, bots or seat count, or holding a common game",
    "bad_option": "an option out of range or a combination of options that does not go",
    "worker_mismatch": "a cluster worker that runs another zipai_rules version, or builds "
                       "another content hash of the variant, than the client",
    "cluster_lost": "a cluster run whose scheduler or workers failed under it (the "
                    "finished games are in the run's manifest)",
    "bad_manifest": "a run manifest (zipai simulate's run.json) with a bad field, or one "
                    "that --resume cannot continue (another variant, engine or option)",
    "unknown_bot": "an unknown bot name, or more bots than players",
    # positions (engine/position.py)
    "bad_position": "a text that is not a position (engine/position.py), or a bad dealer",
    "position_too_long": "a position text longer than MAX_POSITION characters",
    "position_variant": "a position of another variant than the one it is read under",
    "bad_position_seats": "a position's seats: their number, a hand, meld or 臭 field",
    "bad_position_wall": "a position's wall",
    "bad_position_turn": "a position's phase, actor, options, prompts, turn or drawn card",
    "bad_position_pending": "a position's card on offer, its queue or its claim window",
    "bad_position_result": "a position's result or its decomposition",
    "bad_position_cards": "a position holding more copies of a card than the deck, or not "
                          "the deck's number of cards",
    "bad_argument": "an argument of the wrong type (e.g. a settle result that is not a Result)",
    "bad_policy": "a policy spec SOURCE:NAME of zipai arena that does not name a loadable "
                  "policy, or a policy that failed or answered an illegal code",
    "oracle_refuses": "a hand whose scoring the settlement oracle (zipai_rules.testing) does "
                      "not model",
    # the web table (zipai serve, zipai_rules.web)
    "bad_message": "a frame of the web table that is not a JSON object of a known shape, or "
                   "a second join",
    "bad_token": "a resume with a token that holds no seat of the table",
    "table_full": "a join when every player's seat of the table is taken",
    "not_started": "an answer before every player's seat of the table is taken",
    "missing_extra": "a feature whose optional extra is not installed (zipai serve: serve)",
    "not_a_store": "a record store path that is no zipai store: another SQLite application's "
                   "file, a file that is not SQLite, a directory, or one that cannot be opened",
    "store_version": "a record store written by a newer or unknown schema version",
    "store_failed": "a record store operation the database refused (locked, read-only, full, "
                    "corrupt)",
    "no_such_record": "a record id the record store does not hold",
}


def brief(value: object, limit: int = 160) -> str:
    """``value`` as text (``repr`` for non-text) cut to ``limit`` characters, for messages
    that quote outside input."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def type_phrase(value: object) -> str:
    """``a list``, ``an int``: the type of ``value`` with its article, for messages that
    quote an untrusted value by its type only (its ``repr`` may be huge, deep or refused)."""
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def codes_markdown() -> str:
    """The README's list of error codes: one ``* `code`: meaning`` line per code."""
    return "\n".join(f"* `{code}`: {meaning}" for code, meaning in ERROR_CODES.items())


#: the optional extras of pyproject.toml and what each brings
EXTRAS = {"testing": "hypothesis", "rl": "pettingzoo, gymnasium and numpy",
          "dask": "dask.distributed", "table": "pyarrow",
          "serve": "starlette, uvicorn and websockets", "test": "the test and lint tools"}


def install_hint(extra: str) -> str:
    """How to install the optional ``extra`` (a key of :data:`EXTRAS`), in words that work:
    zipai_rules is not on the package index, so the hint installs from a checkout of the
    repository or from a wheel built there (README "Testing code built on zipai_rules")."""
    return (f"install the [{extra}] extra ({EXTRAS[extra]}) from a checkout of zipai_rules: "
            f'python3 -m pip install ".[{extra}]" in its top folder, or '
            f'python3 -m pip install "dist/zipai_rules-<version>-py3-none-any.whl[{extra}]" '
            f"for a wheel built there (zipai_rules is not on the package index)")
