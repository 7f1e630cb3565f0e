"""A certificate's expiry, for ``tablectl link`` and ``tablectl doctor`` (standard library only)."""

from __future__ import annotations

import ssl
import time
from pathlib import Path
from typing import Any


def not_after(path: Path) -> float:
    """When the PEM certificate in ``path`` expires (seconds since the epoch); ``ValueError``
    naming the file if it cannot be read as one."""
    try:
        # The standard library's own PEM reader (the test helper of the ssl module).
        decoded: dict[str, Any] = ssl._ssl._test_decode_cert(str(path))  # type: ignore[attr-defined]
    except (OSError, ssl.SSLError) as exc:
        raise ValueError(f"{path}: not a readable PEM certificate ({exc})") from None
    return float(ssl.cert_time_to_seconds(str(decoded["notAfter"])))


def days_left(path: Path, now: float | None = None) -> float:
    """Days until the certificate in ``path`` expires (negative: expired)."""
    return (not_after(path) - (time.time() if now is None else now)) / 86400
