"""Who a client certificate names on the link: its subject's Common Name (CN).

The shipped broker takes a client's MQTT username from its certificate's CN
(``use_identity_as_username``) and makes its client id that username, so a table's certificate
must name its table id, the meter's ``progressive-meter`` and a bridge's ``bridge-SITE``
(docs/progressive-link.md, "Security"). ``tablectl doctor``, ``table-controller --check`` and
``progressive-meter check-config`` read it here to say when a certificate names someone else
(and the daemon and the meter do not start with one).
Standard library only.
"""

from __future__ import annotations

import ssl
from pathlib import Path
from typing import Any, Final

#: The meter's name on the broker (its certificate's CN; the ACL's ``user progressive-meter``).
METER_IDENTITY: Final = "progressive-meter"


def certificate_name(path: Path) -> str:
    """The CN of the PEM certificate in ``path`` (the first, as Mosquitto takes it);
    ``ValueError`` naming the file if it is not a readable certificate or names no CN."""
    try:
        # The standard library's own PEM reader (the test helper of the ssl module).
        decoded: dict[str, Any] = ssl._ssl._test_decode_cert(str(path))  # type: ignore[attr-defined]
    except (OSError, ssl.SSLError) as exc:
        raise ValueError(f"{path}: not a readable PEM certificate ({exc})") from None
    for rdn in decoded.get("subject", ()):
        for key, value in rdn:
            if key == "commonName":
                return str(value)
    raise ValueError(f"{path}: the certificate names no CN (the broker takes the client's name from it)")
