"""The link's parts without a broker: the configuration's new keys, the table's declaration
and contributions from the game's declared progressives, the hits found by the game itself, and
when progressive wagering closes (the meter's last word, its will, its verdict)."""

from __future__ import annotations

import dataclasses
import json
import time
from fractions import Fraction
from pathlib import Path

import pytest

from controller.config import parse_config
from controller.journal.outbox import OutboxEntry
from controller.journal.state import OpenRound
from controller.link.hits import claims_after, hits
from controller.link.outbound import LinkPlan, LinkPlanError, to_meter
from controller.link.publisher import wire_bytes
from controller.link.state import LinkState
from controller.rules.core.engine import Round
from controller.rules.core.events import Event
from controller.rules.core.submission import parse_submission
from controller.rules.games import GAMES
from controller.table import game_hooks
from wire import (
    Ack,
    Amount,
    Contribution,
    Hit,
    MeterStatus,
    Share,
    Verdict,
    Void,
    WireError,
    decode_table_message,
)

from .test_config import MINIMAL, problems_of

REPO = Path(__file__).resolve().parent.parent
LINK = '[progressive_link]\nhost = "127.0.0.1"\nsite = "PA"\nca_file = "/ca.pem"\n'


def submission(game: str):  # type: ignore[no-untyped-def]
    path = REPO / "examples" / game / "rules-submission.toml"
    return parse_submission(path.read_text("utf-8"), GAMES, str(path))


def link_section(extra: str = ""):  # type: ignore[no-untyped-def]
    config = parse_config(MINIMAL + LINK + extra, "t.toml", gpio_check=None)
    assert config.progressive_link is not None
    return config.progressive_link


def test_the_link_keys_and_their_checks() -> None:
    link = link_section()
    assert (link.timeout_seconds, link.link, link.topic_prefix, dict(link.progressives)) == (
        30,
        "floor",
        "progressive",
        {},
    )
    assert link_section('progressives = { progressive = "cs-floor" }\n').progressives == {
        "progressive": "cs-floor"
    }
    problems = problems_of(MINIMAL + LINK + "timeout_seconds = 0\n")
    assert problems[0].startswith("[progressive_link] timeout_seconds = 0:")
    problems = problems_of(MINIMAL + LINK + 'progressives = { progressive = "a/b" }\n')
    assert "progressive: the meter's progressive id" in problems[0]


def test_blackjacks_three_progressives_are_declared_and_contribute_apart() -> None:
    sub = submission("blackjack")
    plan = LinkPlan.of(game_hooks.progressives(sub), link_section())
    assert set(plan.parameters) == {"bad_beat", "hit_and_run", "straight_jack"}
    declared = plan.declaration().payload["progressives"]
    assert isinstance(declared, dict) and declared["bad_beat"]["rate_of_progression"] == "12%"
    rnd = Round.begin(sub.game, sub.rules)
    for e in (
        Event("wager", seat=1, wager="blackjack", amount=1000),
        Event("wager", seat=1, wager="bad_beat", amount=500),
        Event("wager", seat=2, wager="blackjack", amount=1000),
        Event("wager", seat=2, wager="bad_beat", amount=100),
        Event("wager", seat=2, wager="straight_jack", amount=200),
    ):
        rnd.apply(e)
    current = OpenRound("r1", 1, 0, {}, {}, rnd)
    out = {m.payload["progressive"]: m.payload for m in plan.contributions(current)}
    assert out == {
        "bad_beat": {"progressive": "bad_beat", "wagers": 2, "wagered": "6.00"},
        "straight_jack": {"progressive": "straight_jack", "wagers": 1, "wagered": "2.00"},
    }


def test_a_progressive_without_a_rate_cannot_be_declared() -> None:
    """A Fortune Asia Poker Rules Submission without ``progressive.rate_of_progression`` (optional:
    our text of § 659a.12(d) gives the meter a reset amount and no rate): the meter could not
    check it, so the link refuses to declare it; the example's (15%) is declared."""
    sub = submission("fortune-asia-poker")
    (p,) = game_hooks.progressives(sub)
    assert p.rate_of_progression == "15%"
    assert LinkPlan.of((p,), link_section()).parameters["progressive"].rate == 15
    without = dataclasses.replace(sub, rules=dataclasses.replace(sub.rules, progressive_rate=None))
    (p,) = game_hooks.progressives(without)
    assert p.rate_of_progression is None
    with pytest.raises(LinkPlanError, match="gives no rate_of_progression"):
        LinkPlan.of((p,), link_section())


def test_a_royal_flush_is_found_by_the_game_and_claimed_at_100_percent() -> None:
    sub = submission("caribbean-stud")
    rnd = Round.begin(sub.game, sub.rules)
    for e in (
        Event("wager", seat=1, wager="ante", amount=1000),
        Event("wager", seat=1, wager="progressive", amount=100),
        Event("wager", seat=2, wager="ante", amount=1000),
        Event("wager", seat=2, wager="progressive", amount=100),
        Event("no_more_bets"),
    ):
        rnd.apply(e)
    from controller.rules.core.cards import parse_cards

    rnd.apply(Event("cards", to="1", cards=tuple(parse_cards("As Ks Qs Js Ts"))))
    rnd.apply(Event("cards", to="2", cards=tuple(parse_cards("2c 2d 5h 9s Jd"))))
    rnd.apply(Event("cards", to="dealer", cards=tuple(parse_cards("3c 7d 9h 4c 8d"))))
    rnd.apply(Event("decision", seat=1, action="bet"))
    current = OpenRound("r1", 1, 0, {}, {}, rnd)
    (claim,) = claims_after(current, Event("decision", seat=2, action="fold"), {"progressive": "cs-floor"})
    assert claim.kind == "hit"
    assert claim.payload == {
        "progressive": "cs-floor",
        "seat": 1,
        "hand": claim.payload["hand"],
        "award": {"share": "100"},
        "hit_wall_ns": claim.payload["hit_wall_ns"],  # the table's own hit time, to the meter's history
        "cards": ["As", "Ks", "Qs", "Js", "Ts"],  # the seat's cards, for the meter to judge
    }
    assert abs(claim.payload["hit_wall_ns"] - time.time_ns()) < 60 * 10**9
    rnd.apply(Event("decision", seat=2, action="fold"))
    found = hits(rnd, rnd.state, ["progressive"])
    assert [(h.seat, h.share) for h in found] == [(1, Fraction(100))]


def test_the_outbox_entry_goes_on_the_wire_as_the_wire_decodes_it() -> None:
    entry = OutboxEntry(
        "t1",
        3,
        "0b5e2c1a-7f43-4e0e-8d7c-5a1f3e9b2c44",
        17,
        "e-17",
        "r-1",
        "contribution",
        {"progressive": "cs-floor", "wagers": 2, "wagered": "2.00"},
    )
    message = decode_table_message(wire_bytes(entry))
    assert (message.table, message.seq, message.round) == ("t1", 3, "r-1")
    # The wire's bounds are checked where a message is made, before the journal commits it
    # (the link sends the journal's bytes without reading them again).
    made = to_meter(Contribution("cs-floor", 2, 200))
    assert (made.kind, made.payload) == (
        "contribution",
        {"progressive": "cs-floor", "wagers": 2, "wagered": "2.00"},
    )
    for bad, field in [
        (Contribution("cs-floor", 0, 200), "payload.wagers"),
        (Contribution("cs-floor", 10**20, 200), "payload.wagers"),
        (Contribution("cs-floor", 2, 10**20), "payload.wagered"),
        (Contribution("cs floor", 2, 200), "payload.progressive"),
        (Hit("cs-floor", 100, "royal_flush", Share(Fraction(100))), "payload.seat"),
        (Void("cs-floor", 7, ""), "payload.reason"),
    ]:
        with pytest.raises(WireError) as refused:
            to_meter(bad)
        assert refused.value.field == field, bad
    assert json.loads(wire_bytes(entry))["schema"] == 1


def test_progressive_wagering_closes_without_the_meters_word_and_opens_again() -> None:
    state = LinkState(timeout=30, declared_seq=1)
    # Fails closed: from the start, until the meter has accepted this run's declaration.
    assert "meter not heard" in (state.unavailable() or "")
    state.heard(MeterStatus("online", 10, 1))
    assert "has not accepted the table's declaration (seq 1)" in (state.unavailable() or "")
    state.heard(Ack("t1", 0, Verdict(0, True)))  # an older declaration's, retained: not this one
    assert "has not accepted" in (state.unavailable() or "")
    state.heard(Ack("t1", 1, Verdict(1, True)))
    heard = state.last_word
    assert heard is not None and state.unavailable(now=heard + 29) is None
    assert "no word from the meter for 30 s" in (state.unavailable(now=heard + 30) or "")
    state.heard(Amount("cs-floor", 1_000_018, 7))
    state.heard(Amount("cs-floor", 1_000_000, 6))  # an older amount, retained: not shown
    assert state.amounts["cs-floor"].amount == 1_000_018
    state.heard(MeterStatus("offline", 10, 0))
    assert "offline" in (state.unavailable() or "")
    state.heard(MeterStatus("online", 10, 2))
    state.heard(Ack("t1", 1, Verdict(1, False, "payload.progressives.cs-floor.reset", "the reset differs")))
    assert "refused" in (state.unavailable() or "") and "the reset differs" in (state.unavailable() or "")


def test_progressive_wagering_closes_when_the_meter_stops_acknowledging_and_opens_again() -> None:
    """Heard (its heartbeats) but no ack for messages the broker took, for the timeout: closed;
    an ack of everything sent opens it again by itself."""
    state = LinkState(timeout=30, declared_seq=1)
    state.heard(MeterStatus("online", 10, 1))
    state.heard(Ack("t1", 1, Verdict(1, True)))
    assert state.unavailable() is None
    state.sent(5)
    since = state.unacked_since
    assert since is not None and state.unavailable(now=since + 29) is None
    state.heard(MeterStatus("online", 10, 2))  # a heartbeat is no ack
    state.last_word = since + 1  # heard after the send (not at the same tick)
    assert "stopped acknowledging" in (state.unavailable(now=since + 30) or "")
    state.heard(Ack("t1", 3, Verdict(1, True)))  # the ack moves, still behind: the clock again
    again = state.unacked_since
    assert again is not None and again > since
    state.heard(Ack("t1", 5, Verdict(1, True)))
    assert state.unacked_since is None and state.unavailable() is None
