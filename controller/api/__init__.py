"""The local API: JSON lines over a Unix socket, for the dealer's touchscreen and ``tablectl``.

One idea a module (docs/local-api.md):

- :mod:`.handler`: what the API and the daemon agree on (:class:`Caller`, :class:`ErrorCode`,
  :class:`CommandError`, the topics, :class:`ApiHandler`);
- :mod:`.commands`: each command's arguments and the roles allowed;
- :mod:`.wire`: the framing, one request a line and one response a line;
- :mod:`.connection`: one client's requests, who it is and what it may do, its notifications;
- :mod:`.server`: the socket, its mode and group, the clients, publishing.

This package's names (``__all__``) are the API's contract as docs/local-api.md names them
(``controller.api.ApiHandler``, ``controller.api.EVENT_ROLES``, ...); the rest is imported from
its module.
"""

from __future__ import annotations

from .commands import COMMANDS, EVENT_ROLES, EVENTS_NOT_FROM_API, Command
from .handler import (
    OPEN_TOPICS,
    PROTOCOL_VERSION,
    TOPIC_ROLES,
    TOPICS,
    ApiHandler,
    ApiStartError,
    Caller,
    CommandError,
    ErrorCode,
    Peer,
    Result,
)
from .server import ApiServer, api_server_from_config

__all__ = [
    "COMMANDS",
    "EVENTS_NOT_FROM_API",
    "EVENT_ROLES",
    "OPEN_TOPICS",
    "PROTOCOL_VERSION",
    "TOPICS",
    "TOPIC_ROLES",
    "ApiHandler",
    "ApiServer",
    "ApiStartError",
    "Caller",
    "Command",
    "CommandError",
    "ErrorCode",
    "Peer",
    "Result",
    "api_server_from_config",
]
