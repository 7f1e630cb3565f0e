"""The table's messages to the central meter, built from the game's declared progressives.

Each is an :class:`~controller.journal.outbox.Outbound` whose payload is the wire's
(:mod:`wire.messages`): it is committed to the outbox in the same journal transaction as the
record that causes it (docs/progressive-link.md, "Exactly once"), so the payload is checked by
the wire's own decoder before it is journaled.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from wire import Contribution, Declaration, Parameters, Payload, WireError, checked_json
from wire.fields import rate

from ..config import ProgressiveLinkSection
from ..journal.outbox import Outbound
from ..journal.state import OpenRound
from ..rules.core.hooks import Progressive


def to_meter(payload: Payload) -> Outbound:
    """A message to the meter for the outbox, its payload read back by the wire's own reader
    (:func:`wire.checked_json`): a value past the wire's bounds is a ``WireError`` (a
    ``ValueError``) here, and the journal commits nothing of the record that would carry it."""
    return Outbound(payload.kind, checked_json(payload))


class LinkPlanError(ValueError):
    """A progressive the table cannot declare to the meter: the wager and the missing field."""


@dataclass(frozen=True)
class LinkPlan:
    """The table's progressives as the link carries them: the game's wager name -> the meter's
    progressive id (``[progressive_link] progressives``, by default the wager's own name) and
    the Rules Submission's parameters."""

    meter_ids: Mapping[str, str]
    parameters: Mapping[str, Parameters]
    """Keyed by the meter's progressive id."""

    @classmethod
    def of(cls, progressives: tuple[Progressive, ...], link: ProgressiveLinkSection) -> LinkPlan:
        """The plan of the game's declared ``progressives``; :class:`LinkPlanError` if one has
        no reset amount or rate of progression (the meter could not check it). The daemon's
        :func:`controller.link.submission.link_problems` names a missing rate's option first."""
        ids: dict[str, str] = {}
        params: dict[str, Parameters] = {}
        for p in progressives:
            meter_id = link.progressives.get(p.name, p.name)
            reset = p.reset if p.reset is not None else p.initial
            initial = p.initial if p.initial is not None else reset
            if initial is None or reset is None or p.rate_of_progression is None:
                missing = "rate_of_progression" if p.rate_of_progression is None else "initial/reset"
                raise LinkPlanError(
                    f"progressive {p.name!r} ({p.title}, {p.section}): the Rules Submission gives no "
                    f"{missing}, which the meter checks ({p.section}); the link cannot declare it"
                )
            try:
                pct = rate(p.rate_of_progression, f"{p.name}.rate_of_progression")
            except WireError as exc:
                raise LinkPlanError(f"progressive {p.name!r}: {exc}") from None
            ids[p.name] = meter_id
            params[meter_id] = Parameters(initial, reset, pct, p.wager)
        return cls(ids, params)

    def declaration(self) -> Outbound:
        """The declaration of the table's progressives (sent when it loads its Rules Submission)."""
        return to_meter(Declaration(dict(self.parameters)))

    def contributions(self, current: OpenRound) -> list[Outbound]:
        """At the lock-out: for each progressive with accepted wagers, how many and the amount
        wagered (the meter adds its rate of progression, § 639a.12(d)(2))."""
        count: dict[str, int] = {}
        wagered: dict[str, int] = {}
        for event in current.wagers():
            meter_id = self.meter_ids.get(event.wager or "")
            if event.type != "wager" or meter_id is None or event.amount is None:
                continue
            count[meter_id] = count.get(meter_id, 0) + 1
            wagered[meter_id] = wagered.get(meter_id, 0) + event.amount
        return [
            to_meter(Contribution(meter_id, count[meter_id], wagered[meter_id])) for meter_id in sorted(count)
        ]
