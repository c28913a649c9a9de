"""``zipai simulate --dask ADDRESS``: a bounded check that ``ADDRESS`` is a dask scheduler
before ``dask.distributed`` connects to it.

dask's ``Client(address, timeout=…)`` bounds the TCP connect, but not the handshake after it:
a server that accepts and never answers holds it until the server gives up (minutes), and
one that answers something else has its first 8 bytes read as a frame size (``HTTP/1.1``
asks for 3 EiB: numpy's ``_ArrayMemoryError``; a smaller wrong size would be allocated and
waited for). A dask scheduler speaks first: on each new connection it writes its handshake
(``distributed.comm.core``: the comm's ``handshake_info``, a small msgpack mapping with the
keys ``compression``, ``python`` and ``pickle-protocol``) in the TCP comm's framing: an
8-byte size, then that many bytes (a frame count, the frame sizes, the frames), in native
byte order as dask writes them. :func:`probe_scheduler` reads that much, at most
:data:`HANDSHAKE_BYTES`, within :data:`HANDSHAKE_SECONDS` in all, and refuses with
:class:`~zipai_rules.errors.ZipaiError` (``bad_option``) anything else; only then does dask
connect (with the same timeout).
"""

from __future__ import annotations

import socket
import struct
import time

from ..errors import ZipaiError, brief

__all__ = ["HANDSHAKE_BYTES", "HANDSHAKE_SECONDS", "probe_scheduler"]

#: the whole check (connect and handshake) ends within this many seconds
HANDSHAKE_SECONDS = 10.0
#: the largest handshake read (a scheduler's is some 100 bytes)
HANDSHAKE_BYTES = 64 * 1024
#: a key of every dask handshake (``Comm.handshake_info``)
_SIGNATURE = b"pickle-protocol"


def _refuse(address: str, why: str) -> ZipaiError:
    return ZipaiError(f"--dask {address}: not a dask scheduler: {why}", code="bad_option")


def _read(sock: socket.socket, size: int, deadline: float, address: str) -> bytes:
    """Exactly ``size`` bytes from ``sock`` before ``deadline`` (``time.monotonic``)."""
    data = bytearray()
    while len(data) < size:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        sock.settimeout(left)
        chunk = sock.recv(min(size - len(data), 65536))
        if not chunk:
            got = f" after {brief(bytes(data), 40)}" if data else ""
            raise _refuse(address, f"it closed the connection without a handshake{got}")
        data += chunk
    return bytes(data)


def _frames_ok(block: bytes) -> bool:
    """Whether ``block`` is the TCP comm's frames: a count, the sizes, then frames (all of
    them, or the first of them, ``unpack_frames(partial=True)``)."""
    if len(block) < 8:
        return False
    count = int(struct.unpack_from("=Q", block)[0])
    if not 1 <= count <= 64 or len(block) < 8 * (count + 1):
        return False
    sizes = struct.unpack_from(f"={count}Q", block, 8)
    return len(block) <= 8 * (count + 1) + sum(int(n) for n in sizes)


def probe_scheduler(address: str, host: str, port: int, seconds: float | None = None) -> None:
    """Check that a dask scheduler listens at ``host``:``port`` (``address`` as the user
    wrote it, for messages): connect, then read the handshake it sends first, all within
    ``seconds`` (default :data:`HANDSHAKE_SECONDS`), at most :data:`HANDSHAKE_BYTES` read.
    Nothing is written to the server.

    Raises :class:`~zipai_rules.errors.ZipaiError` (``bad_option``): cannot reach it (refused,
    no route, timeout of the connect), or not a dask scheduler (no answer within the time,
    closed at once, an answer that is not a dask handshake, e.g. ``HTTP/1.1 400``)."""
    seconds = HANDSHAKE_SECONDS if seconds is None else seconds
    deadline = time.monotonic() + seconds
    try:
        sock = socket.create_connection((host, port), timeout=seconds)
    except OSError as exc:
        raise ZipaiError(f"--dask {address}: cannot reach the scheduler: {exc}",
                         code="bad_option") from None
    try:
        with sock:
            head = _read(sock, 8, deadline, address)
            (size,) = struct.unpack("=Q", head)
            if not 16 <= size <= HANDSHAKE_BYTES:
                raise _refuse(address, f"it answered {brief(head, 40)}, not a dask handshake")
            block = _read(sock, size, deadline, address)
    except TimeoutError:
        raise _refuse(address, f"no handshake within {seconds:g} s") from None
    except OSError as exc:  # reset by the peer, …
        raise _refuse(address, f"the connection failed: {exc}") from None
    if not _frames_ok(block) or _SIGNATURE not in block:
        raise _refuse(address, f"it answered {brief(head + block[:32], 60)}, not a dask "
                               "handshake")
