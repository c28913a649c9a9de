"""Shuffle seeds: checking them, drawing secret ones, deriving a match's hand seeds, and the
optional shuffle commitment.

* A seed is a non-negative ``int`` of at most :data:`MAX_SEED_BITS` bits; ``True``, ``7.0``,
  ``-7`` and ``"7"`` are refused (:class:`~zipai_rules.errors.HandError`, code ``bad_seed``).
  The same seed always shuffles the same deal (``random.Random(seed)``).
* Unseeded games and matches draw :data:`FRESH_SEED_BITS` bits from :mod:`secrets`, so no seat
  can search the seed space from the cards it sees.
* Hand ``n`` of a match seeded ``S`` is shuffled with ``hand_seed(S, n)``: SHA-256 of a
  domain tag, ``S`` and ``n`` in decimal; knowing one hand's seed tells nothing about the
  match seed or the other hands.
* A commitment (:func:`commit_seed`) is a SHA-256 digest of the seed and a random nonce. A
  host publishes ``digest`` before the deal and reveals seed and nonce after the hand (the game
  record carries them); anyone can then check :func:`verify_commitment` and that the seed
  shuffles the recorded deal (``zipai replay`` does both).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

import attrs

from ..errors import HandError

__all__ = ["FRESH_SEED_BITS", "MAX_SEED_BITS", "ShuffleCommitment", "check_seed",
           "commit_seed", "fresh_seed", "hand_seed", "verify_commitment"]

#: Largest accepted seed size in bits (a SHA-512 digest fits twice).
MAX_SEED_BITS = 1024
#: Bits drawn from :mod:`secrets` for an unseeded game or match.
FRESH_SEED_BITS = 128

_COMMIT_TAG = b"zipai-shuffle-commitment/1\0"
_HAND_TAG = b"zipai-hand-seed/1\0"


def check_seed(seed: object, what: str = "seed") -> int:
    """``seed`` as an ``int`` if it is a valid seed, else :class:`HandError` (``bad_seed``)
    naming the value: a bool, float, string or negative number is not a seed."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise HandError(f"{what} {_show(seed)} is not an integer (type {type(seed).__name__})",
                        code="bad_seed")
    if seed < 0:
        raise HandError(f"{what} {seed} is negative", code="bad_seed")
    if seed.bit_length() > MAX_SEED_BITS:
        raise HandError(f"{what} has {seed.bit_length()} bits, more than {MAX_SEED_BITS}",
                        code="bad_seed")
    return int(seed)


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def fresh_seed() -> int:
    """A secret seed of :data:`FRESH_SEED_BITS` random bits from :mod:`secrets`."""
    return secrets.randbits(FRESH_SEED_BITS)


def hand_seed(match_seed: int, number: int) -> int:
    """The 256-bit shuffle seed of hand ``number`` (1-based) of a match seeded
    ``match_seed``: SHA-256 of a domain tag and both numbers in decimal, NUL-separated (an
    unambiguous encoding). One-way: a hand's seed does not give away the match seed or any
    other hand's seed. Raises :class:`HandError` (``bad_seed``) for bad arguments."""
    seed = check_seed(match_seed, "match seed")
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise HandError(f"hand number {_show(number)} is not a positive integer",
                        code="bad_seed")
    digest = hashlib.sha256(_HAND_TAG + str(seed).encode("ascii") + b"\0"
                            + str(number).encode("ascii")).digest()
    return int.from_bytes(digest, "big")


@attrs.frozen(slots=True)
class ShuffleCommitment:
    """A commitment to a shuffle seed: ``digest`` (64 hex digits, publish it before the deal)
    and ``nonce`` (32 hex digits, keep it secret with the seed until the hand is over)."""

    digest: str
    nonce: str

    def to_json(self) -> dict[str, str]:
        return {"digest": self.digest, "nonce": self.nonce}


def _digest(seed: int, nonce: str) -> str:
    return hashlib.sha256(_COMMIT_TAG + nonce.encode("ascii") + b"\0"
                          + str(seed).encode("ascii")).hexdigest()


def _check_hex(value: object, what: str, size: int) -> str:
    if (not isinstance(value, str) or len(value) != size
            or any(c not in "0123456789abcdef" for c in value)):
        raise HandError(f"{what} {_show(value)} is not {size} lowercase hex digits",
                        code="bad_commitment")
    return value


def commit_seed(seed: int, nonce: str | None = None) -> ShuffleCommitment:
    """Commit to ``seed``: SHA-256 of a domain tag, ``nonce`` (32 hex digits; drawn from
    :mod:`secrets` when omitted) and the seed. The nonce makes the digest hiding even for a
    small seed. Raises :class:`HandError` for a bad seed (``bad_seed``) or nonce
    (``bad_commitment``)."""
    seed = check_seed(seed)
    nonce = secrets.token_hex(16) if nonce is None else _check_hex(nonce, "nonce", 32)
    return ShuffleCommitment(_digest(seed, nonce), nonce)


def verify_commitment(digest: str, seed: int, nonce: str) -> bool:
    """``True`` if ``digest`` (published before the deal) commits to ``seed`` with ``nonce``
    (both revealed afterwards). Raises :class:`HandError` for malformed values."""
    digest = _check_hex(digest, "commitment digest", 64)
    nonce = _check_hex(nonce, "nonce", 32)
    return hmac.compare_digest(digest, _digest(check_seed(seed), nonce))
