"""The poker table on the dealer's screen, in plain Python: what the daemon's ``round.table_view`` says.

The poker room is not house-banked: the screen shows the button, the blinds and whose turn it is,
the amount he has to call and the actions the procedure takes from him now (the daemon tries each on
the round's state: § 637a.19(g), (h)), each player's chips and what he has put in this betting round
and in the pots, the pots and side pots with who may win each, the board, the draw (whose turn, how
many cards he is owed). The keys send the player's action for the player whose turn it is, a bet or
raise "to" the amount keyed (at least the least, at most the most the daemon gives). At a table
whose shoe reads the cards every card is the shoe's; the screen never shows a player's cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Final

from .money import CENT, amount, dollars

#: The dealer's words for each action, as the regulation says them.
TITLES: Final = {
    "fold": "FOLD",
    "check": "CHECK",
    "call": "CALL",
    "bet": "BET",
    "raise": "RAISE",
    "all_in": "ALL IN",
    "stand_pat": "STAND PAT",
}
#: The banner outside a turn (the step of the round).
BANNERS: Final = {
    "button": "THE BUTTON",
    "seating": "PLAYERS JOIN",
    "dealing": "THE DEAL",
    "burning": "THE BURN",
    "board": "THE BOARD",
    "showdown": "SHOWDOWN",
    "over": "POTS AWARDED",
    "void": "ROUND VOID",
}
#: The draw's one decision the screen offers (his discards are the shoe's or the dealer's count).
STAND_PAT: Final = "stand_pat"
#: Where a step of the round is in §§ 637a.19-637a.21 (the screen's words beside it).
PHASES: Final = {
    "seating": "the players join, the Blind Bets (§ 637a.19(b)-(e))",
    "dealing": "the deal, the button last (§ 637a.19(f))",
    "betting": "a betting round (§ 637a.19(g), (h))",
    "burning": "the burn (§ 637a.19(h)-(j))",
    "drawing": "the draw (§ 637a.20(h))",
    "board": "the community cards (§ 637a.19(h)-(j))",
    "showdown": "the showdown (§ 637a.19(k))",
    "over": "the pots are awarded",
    "void": "the round is void",
}


@dataclass(frozen=True)
class PokerAction:
    """One key: the action, what it reads, and for a bet or raise the least and most it may be "to"."""

    action: str
    amount: Decimal | None = None
    least: Decimal | None = None
    most: Decimal | None = None

    @property
    def sized(self) -> bool:
        return self.least is not None

    def title(self, typed: Decimal = Decimal(0)) -> str:
        word = TITLES.get(self.action, self.action.upper())
        if self.sized:
            return f"{word} TO {_dollars(self.to(typed))}"
        return f"{word} {_dollars(self.amount)}" if self.amount else word

    def to(self, typed: Decimal) -> Decimal:
        """A bet or raise to ``typed``, held between the least and the most (none typed: the least)."""
        assert self.least is not None and self.most is not None
        return min(max(typed or self.least, self.least), self.most)


@dataclass(frozen=True)
class PokerSeat:
    seat: int
    stack: Decimal
    behind: Decimal
    this_round: Decimal
    in_pot: Decimal
    folded: bool
    all_in: bool
    holds: int


@dataclass(frozen=True)
class PokerPot:
    name: str
    amount: Decimal
    eligible: tuple[int, ...]

    @property
    def title(self) -> str:
        return self.name.replace("_", " ").capitalize()


@dataclass(frozen=True)
class ForcedBet:
    """A forced bet the procedure takes now (the Straddle Bet is ``optional``)."""

    seat: int
    wager: str
    amount: Decimal
    optional: bool = False

    @property
    def title(self) -> str:
        word = {"blind": "BLIND", "ante": "ANTE", "kill": "KILL BLIND", "straddle": "STRADDLE"}.get(
            self.wager, ""
        )
        return f"S{self.seat} {word or self.wager.upper()} {_dollars(self.amount)}"

    def event(self) -> dict[str, Any]:
        return {"type": "wager", "seat": self.seat, "wager": self.wager, "amount": f"{self.amount:.2f}"}


@dataclass(frozen=True)
class PokerView:
    """The table now, from the status's ``round.table_view``."""

    phase: str
    button: int | None
    blinds: tuple[int, ...]
    straddle: int | None
    kill: int | None
    betting_round: int | None
    turn: int | None
    to_call: Decimal
    actions: tuple[PokerAction, ...]
    seats: tuple[PokerSeat, ...]
    pots: tuple[PokerPot, ...]
    board: str
    draw: Mapping[str, Any] | None
    places: int = 0
    hand_size: int = 0
    title: str = ""
    forced: tuple[ForcedBet, ...] = ()
    #: At the showdown of a round dealt face down: who has still to show or muck, and who may muck.
    to_show: tuple[int, ...] = ()
    may_muck: tuple[int, ...] = ()
    #: The hands shown so far at that showdown, face up: ``(seat, "Ac 2d 3h 4s")``.
    shown: tuple[tuple[int, str], ...] = ()

    @property
    def seating(self) -> bool:
        """The players join and post the forced bets (§ 637a.19(b)-(e))."""
        return self.phase == "seating"

    @property
    def placing_button(self) -> bool:
        """The table's first round: the dealer places the button (§ 637a.19(c)(1)(i))."""
        return self.phase == "button"

    @property
    def joined(self) -> tuple[int, ...]:
        return tuple(s.seat for s in self.seats)

    @property
    def may_deal(self) -> bool:
        """Two players or more and every forced bet posted (the Straddle Bet is the player's choice)."""
        return self.seating and len(self.seats) >= 2 and all(f.optional for f in self.forced)

    @property
    def headline(self) -> str:
        """The line above the keys: whose turn and what he owes, or the step of the round."""
        if self.turn is not None:
            owes = f"{_dollars(self.to_call)} to call" if self.to_call else "nothing to call"
            return f"Seat {self.turn} to act · betting round {self.betting_round} · {owes}"
        if self.placing_button:
            return "The button: the first player to the dealer's right (§ 637a.19(c)(1)(i))"
        if self.seating and self.button is None:
            return "Players join, then a card each from the shoe: the high card takes the button"
        if self.seating:
            if len(self.seats) < 2 or not self.forced:
                return "Players join with their chips: the seat, the amount, JOIN"
            return "The forced bets, from the button's left (§ 637a.19(d))"
        if self.to_show:
            return "Showdown: " + ", ".join(f"S{s}" for s in self.to_show) + " to show or muck"
        if self.draw is not None:
            seat, owed = self.draw.get("seat"), self.draw.get("owed", 0)
            what = f"is owed {owed} card{'s' if owed != 1 else ''}" if owed else "stands pat or discards"
            return f"Draw {self.draw.get('draw')}: seat {seat} {what}"
        return PHASES.get(self.phase, self.phase)

    @property
    def banner(self) -> str:
        """The biggest words: whose turn, whose draw, or the step of the round."""
        if self.turn is not None:
            return f"SEAT {self.turn} TO ACT"
        if self.draw is not None:
            return f"DRAW {self.draw.get('draw')}: SEAT {self.draw.get('seat')}"
        return BANNERS.get(self.phase, self.phase.upper())

    def marks(self, seat: int) -> str:
        """The button and the forced bets beside a seat: D, SB/BB (the Blind Bets), STR, KILL."""
        out = []
        if seat == self.button:
            out.append("D")
        if seat in self.blinds:
            index = self.blinds.index(seat)
            out.append(
                "SB" if index == 0 and len(self.blinds) > 1 else "BB" if index == 1 else f"B{index + 1}"
            )
        if seat == self.straddle:
            out.append("STR")
        if seat == self.kill:
            out.append("KILL")
        return " ".join(out)

    @property
    def keys(self) -> tuple[PokerAction, ...]:
        """The keys the panel offers: the betting round's actions, or in the draw STAND PAT for the
        player whose turn it is to draw (§ 637a.20(h): "Each player may keep his original hand")."""
        if self.draw is not None and not self.draw.get("owed"):
            return (PokerAction(STAND_PAT),)
        return self.actions

    @property
    def pots_text(self) -> str:
        return " · ".join(f"{p.title} {_dollars(p.amount)}" for p in self.pots) or "no bets yet"


def poker_view(status: Mapping[str, Any]) -> PokerView | None:
    """The poker table of ``status`` (``None`` when the round has none: another game, no round); a
    malformed view is a ``ValueError`` naming the field."""
    round_ = status.get("round")
    data = round_.get("table_view") if isinstance(round_, Mapping) else None
    if not isinstance(data, Mapping) or not data:
        return None
    return PokerView(
        phase=_text(data, "phase"),
        button=_seat(data.get("button"), "button"),
        blinds=tuple(_number(s, "blinds") for s in _list(data, "blinds")),
        straddle=_seat(data.get("straddle"), "straddle"),
        kill=_seat(data.get("kill"), "kill"),
        betting_round=_seat(data.get("betting_round"), "betting_round"),
        turn=_seat(data.get("turn"), "turn"),
        to_call=_money(data.get("to_call") or "0.00", "to_call"),
        actions=tuple(_action(a) for a in _list(data, "actions")),
        seats=tuple(_player(s) for s in _list(data, "seats")),
        pots=tuple(
            PokerPot(_text(p, "name"), _money(p.get("amount"), "pots.amount"), tuple(p.get("eligible", ())))
            for p in _list(data, "pots")
        ),
        board=str(data.get("board") or ""),
        draw=data.get("draw") if isinstance(data.get("draw"), Mapping) else None,
        places=_number(data.get("places", 0), "places"),
        title=str(data.get("title") or ""),
        hand_size=_number(data.get("hand_size", 0), "hand_size"),
        forced=tuple(_forced(f) for f in _list(data, "forced")),
        to_show=tuple(
            _number(t.get("seat"), "to_show.seat") for t in _list(data, "to_show") if isinstance(t, Mapping)
        ),
        may_muck=tuple(
            _number(t.get("seat"), "to_show.seat")
            for t in _list(data, "to_show")
            if isinstance(t, Mapping) and t.get("may_muck") is True
        ),
        shown=tuple(
            (_number(h.get("seat"), "shown.seat"), _text(h, "cards"))
            for h in _list(data, "shown")
            if isinstance(h, Mapping)
        ),
    )


def seat_lines(view: PokerView, small: int = 0) -> list[tuple[str, str]]:
    """The seats' column at a poker table: one line a player (his marks and chips; below, in ``small``
    pixels, his bet this round, what he has in the pot and the cards he holds), then the pots and the
    board. ``(name, text)`` with Kivy markup."""
    out = []
    for s in view.seats:
        marks = view.marks(s.seat)
        state = "FOLDED" if s.folded else "ALL IN" if s.all_in else f"{s.holds} cards"
        turn = " ◀" if s.seat == view.turn else ""
        head = f"[b]Seat {s.seat}{turn}[/b]" + (f" {marks}" if marks else "") + f"  {_dollars(s.behind)}"
        body = f"bet {_dollars(s.this_round)} · pot {_dollars(s.in_pot)} · {state}"
        if small:
            body = f"[size={small}]{body}[/size]"
        out.append((f"poker:{s.seat}", f"{head}\n{body}"))
    out.append(("poker:pots", f"[b]Pots[/b]  {view.pots_text}"))
    if view.board:
        out.append(("poker:board", f"[b]Board[/b]  {view.board}"))
    return out


def action_event(view: PokerView, action: PokerAction, typed: Decimal) -> tuple[str, dict[str, Any]]:
    """The words and the event of ``action`` for the player whose turn it is; ``ValueError`` when
    it is nobody's turn."""
    seat = view.turn
    if action.action == STAND_PAT:
        seat = view.draw.get("seat") if view.draw is not None and not view.draw.get("owed") else None
    if not isinstance(seat, int):
        raise ValueError(f"{TITLES.get(action.action, action.action)}: it is nobody's turn to act")
    event: dict[str, Any] = {"type": "decision", "seat": seat, "action": action.action}
    if action.sized:
        event["amount"] = f"{action.to(typed).quantize(CENT)}"
    return f"seat {seat}: {action.title(typed).lower()}", event


# --- reading the status --------------------------------------------------------------------------


def _list(data: Mapping[str, Any], key: str) -> Sequence[Any]:
    value = data.get(key, ())
    if not isinstance(value, list | tuple):
        raise ValueError(f"status round.table_view.{key}: a list, not {value!r}")
    return value


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise ValueError(f"status round.table_view.{key}: text, not {value!r}")
    return value


def _number(value: object, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"status round.table_view.{key}: a number, not {value!r}")
    return value


def _seat(value: object, key: str) -> int | None:
    return None if value is None else _number(value, key)


def _money(value: object, key: str) -> Decimal:
    return amount(value, f"status round.table_view.{key}")


def _optional_money(data: Mapping[str, Any], key: str) -> Decimal | None:
    return None if data.get(key) is None else _money(data.get(key), f"actions.{key}")


def _action(data: object) -> PokerAction:
    if not isinstance(data, Mapping):
        raise ValueError(f"status round.table_view.actions: an action, not {data!r}")
    return PokerAction(
        _text(data, "action"),
        _optional_money(data, "amount"),
        _optional_money(data, "least"),
        _optional_money(data, "most"),
    )


def _forced(data: object) -> ForcedBet:
    if not isinstance(data, Mapping):
        raise ValueError(f"status round.table_view.forced: a forced bet, not {data!r}")
    return ForcedBet(
        _number(data.get("seat"), "forced.seat"),
        _text(data, "wager"),
        _money(data.get("amount"), "forced.amount"),
        data.get("optional") is True,
    )


def counted_steps(view: PokerView) -> tuple[tuple[str, str, dict[str, Any]], ...]:
    """At a table without a card reader, the steps the dealer counts (§ 637a.19(f)-(h), § 637a.20(h)):
    the burn, and in the draw the player's discards (1 to his hand's size) or his new cards, as many as
    he discarded. ``(name, title, event)`` for each key."""
    if view.phase == "burning":
        return (("burn", "BURN 1", {"type": "deal", "to": "burn", "value": 1}),)
    if view.draw is None:
        return ()
    seat, owed = view.draw.get("seat"), view.draw.get("owed") or 0
    if owed:
        return (
            (f"deal:{owed}", f"DEAL {owed} TO S{seat}", {"type": "deal", "to": str(seat), "value": owed}),
        )
    return tuple(
        (f"discard:{n}", f"DISCARD {n}", {"type": "deal", "to": "dealer", "value": n})
        for n in range(1, view.hand_size + 1)
    )


def muck_steps(view: PokerView) -> tuple[tuple[str, str, dict[str, Any]], ...]:
    """At the showdown of a round dealt face down, a MUCK key for each player who may muck (a mucked
    hand is never asked for; the last player may not, § 637a.19(k)); his hand shown is keyed with its
    cards (the API's ``cards`` to his seat)."""
    return tuple(
        (f"muck:{seat}", f"MUCK S{seat}", {"type": "decision", "seat": seat, "action": "fold"})
        for seat in view.may_muck
    )


def join_event(seat: int, chips: Decimal) -> tuple[str, dict[str, Any]]:
    """A player joining the round with his chips (``decision participate``, § 637a.19(b)); ``ValueError``
    without a seat or chips."""
    if not seat:
        raise ValueError("join: choose the seat first")
    if chips <= 0:
        raise ValueError(f"seat {seat} joins with his chips: key the amount first")
    event = {"type": "decision", "seat": seat, "action": "participate", "amount": f"{chips:.2f}"}
    return f"seat {seat}: joins with {_dollars(chips)}", event


def _player(data: object) -> PokerSeat:
    if not isinstance(data, Mapping):
        raise ValueError(f"status round.table_view.seats: a seat, not {data!r}")
    return PokerSeat(
        _number(data.get("seat"), "seats.seat"),
        _money(data.get("stack"), "seats.stack"),
        _money(data.get("behind"), "seats.behind"),
        _money(data.get("this_round"), "seats.this_round"),
        _money(data.get("in_pot"), "seats.in_pot"),
        data.get("folded") is True,
        data.get("all_in") is True,
        _number(data.get("holds", 0), "seats.holds") if data.get("holds") else 0,
    )


def _dollars(value: Decimal | None) -> str:
    return dollars(value or Decimal(0))
