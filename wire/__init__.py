"""The progressive link's wire format: topics, messages, schema version (docs/progressive-link.md).

Standard library only; imported by the central meter (``meter``) and the table
(``controller``), it imports neither.
"""

from .errors import WireError
from .fields import format_money
from .messages import (
    SCHEMA_VERSION,
    Ack,
    Amount,
    Award,
    AwardTerms,
    Contribution,
    Declaration,
    Envelope,
    Fixed,
    Hit,
    LastAward,
    MeterMessage,
    MeterStatus,
    Parameters,
    Payload,
    Pending,
    Refusal,
    Share,
    TableMessage,
    TableStatus,
    Verdict,
    decode_envelope,
    decode_meter_message,
    decode_table_message,
    decode_table_status,
    encode,
)
from .topics import DEFAULT_ROOT, TopicRef, Topics
from .witness import ChainHead

__all__ = [
    "DEFAULT_ROOT",
    "SCHEMA_VERSION",
    "Ack",
    "Amount",
    "Award",
    "AwardTerms",
    "ChainHead",
    "Contribution",
    "Declaration",
    "Envelope",
    "Fixed",
    "Hit",
    "LastAward",
    "MeterMessage",
    "MeterStatus",
    "Parameters",
    "Payload",
    "Pending",
    "Refusal",
    "Share",
    "TableMessage",
    "TableStatus",
    "TopicRef",
    "Topics",
    "Verdict",
    "WireError",
    "decode_envelope",
    "decode_meter_message",
    "decode_table_message",
    "decode_table_status",
    "encode",
    "format_money",
]
