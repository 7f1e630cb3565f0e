"""The table's chain key: the secret the journal's chain is keyed with (HMAC-SHA256), never in the journal.

A hash chain anyone can recompute proves nothing against whoever holds the file: change a meter,
recompute every hash with the product's own function, rewrite the head marker, and it verifies.
So each record's hash is HMAC-SHA256 under a per-table secret (:mod:`.chain`), and so is the head
marker's check (:mod:`.marker`): without the key neither can be made again (docs/journal.md,
"The chain key").

:class:`ChainKey` is what the journal asks of a key: a fresh keyed hash to feed a record's bytes
(``hasher``), and its name for the messages. :class:`FileChainKey` keeps the secret in a file of
its own beside the journal (``<table>.chain-key`` under the state directory), mode 0400, owned by
the daemon's user, made once at install (``tablectl journal key``) or at the daemon's first start;
it is never replaced. A Pi with a TPM or a secure element keeps the secret inside the chip
instead: a backend implements :class:`ChainKey` with the chip's HMAC sequence (TPM 2.0:
``TPM2_HMAC_Start``, ``TPM2_SequenceUpdate``, ``TPM2_SequenceComplete`` on a keyed-hash object
whose sensitive part never leaves the chip), so not even root can read the key, only use it while
the chip is there. Only the file backend is implemented (docs/journal.md says what each protects).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import stat
from pathlib import Path
from typing import Final, Protocol

from .errors import JournalError

KEY_BYTES: Final = 32
"""The secret: 256 random bits (``secrets.token_bytes``)."""

_SAFE = re.compile(r"[^A-Za-z0-9_.-]")


class Hasher(Protocol):
    """A keyed hash being fed: ``hmac.HMAC`` has these, and so would a TPM's HMAC sequence."""

    def update(self, data: bytes, /) -> None: ...

    def digest(self) -> bytes: ...


class ChainKey(Protocol):
    """What the journal asks of the table's chain key."""

    @property
    def name(self) -> str:
        """Where the key is, for the messages (never the secret)."""

    def hasher(self) -> Hasher:
        """A fresh HMAC-SHA256 under the key."""


def mac_hex(key: ChainKey, data: bytes) -> str:
    """HMAC-SHA256 (hex) of ``data`` under ``key``."""
    h = key.hasher()
    h.update(data)
    return h.digest().hex()


class FileChainKey:
    """The key kept in a file (mode 0400, the daemon's user): ``{"table", "key"}`` as JSON."""

    def __init__(self, path: Path, table_id: str, secret: bytes) -> None:
        self.path = path
        self.table_id = table_id
        self._base = hmac.new(secret, digestmod=hashlib.sha256)

    @property
    def name(self) -> str:
        return f"file {self.path}"

    def hasher(self) -> Hasher:
        return self._base.copy()

    def __repr__(self) -> str:  # never the secret
        return f"FileChainKey({str(self.path)!r}, {self.table_id!r})"


def key_path(journal: Path, table_id: str) -> Path:
    """The table's key file: in the journal's directory (the state directory), one per table, so
    the archives a RAM clear leaves beside the journal verify with it too."""
    return journal.parent / f"{_SAFE.sub('_', table_id)}.chain-key"


def load_key(path: Path, table_id: str) -> FileChainKey:
    """The key at ``path``; :class:`JournalError` naming what is wrong (missing, readable by others,
    another table's, damaged)."""
    try:
        info = os.stat(path)
        raw = path.read_bytes()
    except FileNotFoundError:
        raise JournalError(
            f"{path}: the table's chain key is missing: the journal's chain is keyed with it and cannot be "
            "verified without it (keep the journal; restore the key from the install's backup, or call "
            "the technician: docs/journal.md, 'The chain key')"
        ) from None
    except OSError as exc:
        raise JournalError(f"{path}: the table's chain key cannot be read: {exc.strerror}") from None
    if info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise JournalError(
            f"{path}: the table's chain key is open to others (mode {stat.S_IMODE(info.st_mode):04o}); it "
            "must be readable by the daemon's user only: chmod 0400 it"
        )
    try:
        obj = json.loads(raw.decode("ascii"))
        table, secret = obj["table"], bytes.fromhex(obj["key"])
    except (UnicodeDecodeError, ValueError, KeyError, TypeError):
        raise JournalError(
            f"{path}: the table's chain key is damaged (not the JSON tablectl wrote)"
        ) from None
    if table != table_id or len(secret) != KEY_BYTES:
        raise JournalError(
            f"{path}: the chain key is table {table!r}'s, not {table_id!r}'s"
            if table != table_id
            else f"{path}: the chain key is {len(secret)} bytes, not {KEY_BYTES}"
        )
    return FileChainKey(path, table_id, secret)


def make_key(path: Path, table_id: str, owner: tuple[int, int] | None = None) -> FileChainKey:
    """Make the table's key at ``path`` (never replacing one), mode 0400; ``owner`` (uid, gid) when
    made by root for the daemon's user. :class:`JournalError` if a key is there already."""
    secret = secrets.token_bytes(KEY_BYTES)
    text = json.dumps({"table": table_id, "key": secret.hex()}).encode("ascii")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o400)
    except FileExistsError:
        raise JournalError(
            f"{path}: the table's chain key exists already; it is never replaced (the journal's "
            "chain is keyed with it)"
        ) from None
    try:
        os.write(fd, text)
        os.fsync(fd)
        if owner is not None:
            os.fchown(fd, *owner)
    finally:
        os.close(fd)
    _sync_directory(path.parent)
    return FileChainKey(path, table_id, secret)


def _sync_directory(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
