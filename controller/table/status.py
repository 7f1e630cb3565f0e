"""The table's state as the local API shows it (``status``, the ``state`` topic): one function.

From the journaled state, the configuration, and each part's own status (the devices, the GPIO);
nothing here changes anything (docs/local-api.md, "status").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hw.gpio import ProgressiveTableGameSystem
from hw.serial_device import SerialDevice

from .. import __version__
from ..config import Config
from ..journal.state import AwaitingFloor, OpenRound, TableState
from ..rules.core.hooks import Actor, Screen, Step, Vocabulary, Waiting, in_words
from ..rules.core.money import format_money
from ..rules.core.submission import WagerLimits
from . import authority, game_hooks
from .lamps import progressive_unavailable


def link_status(config: Config) -> dict[str, Any]:
    """The progressive link to the central meter as configured (docs/config.md)."""
    link = config.progressive_link
    if link is None:
        return {"configured": False}
    return {"configured": True, "enabled": link.enabled, "host": link.host, "port": link.port}


def table_status(
    config: Config,
    game: str,
    state: TableState,
    devices: Mapping[str, SerialDevice],
    gpio: ProgressiveTableGameSystem | None,
    link: Mapping[str, Any] | None = None,
    vocabulary: Vocabulary | None = None,
    screen: Screen | None = None,
    title: str = "",
    limits: Mapping[str, WagerLimits] | None = None,
) -> dict[str, Any]:
    """The table's state for the API: round, lock-out, wagers, devices, GPIO, last rounds; the
    game's ``vocabulary`` (the wagers, decisions and irregularities the dealer's screen offers,
    each with the dealer's words and its section), its ``title`` and its ``screen`` hints (the
    seats, whether hands are set, how the starting position is given, whether throws are
    entered): the game's hooks, so the screen keeps no copy of any game; the table's ``limits``
    (each entered wager's minimum and maximum, the Rules Submission's ``[limits]``)."""
    current = state.current
    out: dict[str, Any] = {
        "table": config.table.id,
        "game": game,
        "title": title or game,
        "vocabulary": (vocabulary or Vocabulary()).to_json(),
        "screen": (screen or Screen()).to_json(),
        # The table's minimum and maximum of each wager the dealer enters (the Rules Submission).
        "limits": {name: w.to_json() for name, w in (limits or {}).items()},
        "version": __version__,
        "seq": state.last_seq,
        "locked_out": state.locked_out,
        "round": None,
    }
    if current is not None:
        waiting = game_hooks.waiting_to_settle(current)
        out["round"] = {
            "id": current.round_id,
            "no_more_bets": current.no_more_bets,
            "wagers": [e.to_json() for e in current.wagers()],
            "events": len(current.events),
            # The events the table began the round with itself (the poker room's button and kill,
            # carried from the last round): the dealer has done nothing in the round before them.
            "carried": _carried(state, current),
            # The cards dealt so far, as their events were journaled: a screen (re)connecting
            # mid-round shows them. A peer with no role is shown them withheld (api/face_down.py).
            "cards": [e.to_json() for e in current.events if e.type == "cards"],
            # The table as the game's screen draws it (the poker room's button, turn, actions, pots).
            "table_view": dict(current.round.game.table_view(current.round.state)),
            "meters": {k: format_money(v) for k, v in current.meters.items()},
            # The words and the data from one answer of the game's, so they never disagree.
            "waiting_for": _waiting_for(state, waiting),
            "waiting": _waiting(state, waiting),
            # § 659a.11(a)(1), (c): the house way's settings, beside the dealer's hand-setting keys.
            "house_way": [h.to_json() for h in game_hooks.house_way(current)],
            # Each hand's total as the game counts it (Blackjack's soft and hard, § 633a.1).
            "totals": [t.to_json() for t in current.round.totals()],
            # A hand dealt that a meter pays: DO NOT MUCK, CALL THE FLOOR before the meter's award.
            "jackpot_hands": [h.to_json() for h in current.round.jackpot_hands()],
        }
    out["last_rounds"] = [s.to_json() for s in reversed(state.recent)][:3]
    out["pending_payouts"] = [p.to_json() for p in state.pending_payouts()]
    # The link as the meter's topics have it (amounts only from there), else as configured.
    out["link"] = dict(link) if link is not None else link_status(config)
    # N.J.A.C. 13:69E-1.39B: why the sensors recognize no progressive wager now (every seat's
    # wager lamp blinking slowly), or null.
    out["progressive_unavailable"] = progressive_unavailable(state)
    out["devices"] = {
        name: {"state": device.state, "online": device.state == "online"} for name, device in devices.items()
    }
    out["gpio"] = None if gpio is None else gpio.status().to_json()
    out["out_of_order"] = dict(state.out_of_order)
    # § 639a.13(g): why cards may be keyed by hand now, or null while the shoe deals them.
    out["keying_by_hand"] = authority.shoe_out_of_order(state, "shoe" in config.serial_devices())
    if out["keying_by_hand"] is None and state.stack_to_key is not None:
        position, count = state.stack_to_key
        out["keying_by_hand"] = f"the incomplete stack of {count} cards to {position} only"
    return out


def _waiting_for(state: TableState, items: tuple[Waiting, ...]) -> str:
    waiting = state.awaiting_floor
    if waiting is not None:
        # The round waits for a floorperson's PIN (docs/authority.md).
        return _floor_words(waiting)
    return in_words(items)


def _floor_words(waiting: AwaitingFloor) -> str:
    return (
        f"a floorperson to confirm or dismiss the {waiting.event.get('kind')} reported by "
        f"{waiting.reporter}: {waiting.why}"
    )


def _waiting(state: TableState, items: tuple[Waiting, ...]) -> list[dict[str, object]]:
    """``waiting_for`` as data: the game's items (once the round is complete while a player may
    still decide: the dealer's, with ``"command": "settle_round"``), or, while a reported
    irregularity waits for a floorperson's PIN, that alone: who, which irregularity, reported by
    whom (docs/authority.md)."""
    waiting = state.awaiting_floor
    if waiting is None:
        return [w.to_json() for w in items]
    item = Waiting(Actor.FLOORPERSON, _floor_words(waiting), step=Step.FLOORPERSON).to_json()
    return [{**item, "irregularity": str(waiting.event.get("kind")), "reporter": waiting.reporter}]


def _carried(state: TableState, current: OpenRound) -> int:
    carried = state.next_round
    return len(carried) if current.events[: len(carried)] == tuple(carried) else 0
