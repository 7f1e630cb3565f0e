"""The bench rig's poker room dealer: rounds of one variant (``--variant``) dealt from the shoe, or
face down at a table without a card reader (``--no-reader``).

A poker table on the rig has the rig's shoe (a card reader, ``sim.devices.ShoeSimulator`` on its
pseudo-terminal): every card is a stack the shoe reads, one card to each player in turn from the
button's left, the button last (§ 637a.19(f)), the burn before each draw and each part of the board
(§ 637a.19(h)-(j), § 637a.20(h)-(j), § 637a.21(h)-(j)), the board (Omaha), each player's new cards
(the draws). The dealer's touchscreen (the local API) enters the rest: the button at the table's
first round (the Rules Submission's ``button.start``: "the first player to the right of the
dealer", the highest seat, or the draw for it, a card from the shoe to each player,
§ 637a.19(c)(1)), the players joining with their chips, the Blind Bets, now and then the Straddle
Bet, the kill blind of a killed round, every action in turn, each player's discards. From the
second round the table carries the button (and the kill) itself (§ 637a.19(c)(2), (l)(3)).

A table without a card reader (``BenchRig(card_reader=False)``, ``--no-reader``) has no shoe: the
dealer holds each player's cards face down himself (from the rig's shuffled deck), and sends the
deal, the burns and the draws as counts (``deal`` events), the board and the draw for the button as
cards keyed, and at the showdown each hand shown (``cards`` to his seat) or, now and then, mucked
(§ 637a.19(k): a mucked hand is never asked for).

The players are the same seats all the run, each with the chips he won or lost; one who runs low
buys in again. The dealer follows the round with the rules core itself (as the touchscreen follows
the game it deals), so it only ever sends what the procedure takes now: a refusal is a bug of the
rig or the daemon, and fails the run. Actions are drawn from the run's ``random.Random``: most
players call or check, some fold, bet, raise or go all in (side pots), so the bench also meets
split pots and odd chips where the cards make them. docs/bench-rig.md.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from controller.rules.core.cards import ACE, parse_card
from controller.rules.core.engine import IllegalEvent, Round
from controller.rules.core.events import Event, parse_event
from controller.rules.core.money import Cents, format_money, parse_money
from controller.rules.core.submission import parse_submission
from controller.rules.games import GAMES
from controller.rules.games.poker_room.button import HIGH_CARD, blind_seats, deal_order, straddle_seat
from controller.rules.games.poker_room.rules import VARIANTS
from controller.rules.games.poker_room.state import BETTING, BOARD, BURNING, DRAWING, SHOWDOWN
from sim.bench_games import BenchError, TableDealer, _take
from sim.bench_rig import shuffled_deck

#: What a player brings to the table (drawn for each), and buys in again with when he has less than a
#: Blind Bet left: short stacks go all in, and make side pots.
BUY_INS: Final = (1500, 3000, 6000, 10000)
#: How often a player goes all in when he may.
ALL_IN: Final = 0.08
#: How often a player still to show at the showdown mucks instead, where he may.
MUCKS: Final = 0.2
#: Discards a player makes at most in one draw (so one deck of 52 serves four players' three draws).
MOST_DISCARDS: Final = 2


@dataclass
class PokerRoomDealer(TableDealer):
    """Rounds of the submission's variant: the players, the blinds, the deal, the betting in turn, the
    burns, the draws or the board, all from the shoe and the touchscreen; the pots as settled."""

    seats: list[int] = field(default_factory=list)
    stacks: dict[int, Cents] = field(default_factory=dict)
    carried: tuple[Event, ...] = ()
    rnd: Round[Any, Any] | None = None
    #: At a table without a card reader, the cards each player holds face down (the rig's own
    #: shuffled deck: the daemon counts them, and sees them only when the hand is shown).
    hands: dict[int, list[str]] = field(default_factory=dict)

    @property
    def reader(self) -> bool:
        """The rig's shoe reads the cards (``BenchRig.card_reader``); else the dealer deals face down."""
        return self.rig.card_reader

    # --- following the round ---------------------------------------------------------------------

    def _submission(self) -> Any:
        text = (self.rig.path / "rules-submission.toml").read_text("utf-8")
        return parse_submission(text, GAMES, "the bench rig's poker room")

    @property
    def state(self) -> Any:
        assert self.rnd is not None
        return self.rnd.state

    def legal(self, spec: Mapping[str, Any]) -> bool:
        """Whether the procedure takes ``spec`` now (the rules core, nothing sent)."""
        assert self.rnd is not None
        try:
            self.rnd.game.apply(self.rnd.state, parse_event(dict(spec)))
        except IllegalEvent:
            return False
        return True

    def _follow(self, spec: Mapping[str, Any]) -> None:
        assert self.rnd is not None
        try:
            self.rnd.apply(parse_event(dict(spec)))
        except IllegalEvent as exc:
            raise BenchError(f"round {self.round_id}: the rig's own dealer went wrong: {exc}") from None

    async def send(self, **spec: Any) -> None:
        """Through the touchscreen (the local API), followed."""
        self._follow(spec)
        await self.event(**spec)

    async def stack(self, position: str | int, cards: str) -> None:
        """A stack of the shoe, followed; :class:`BenchError` if the daemon refused it. Without a card
        reader the dealer keys the cards face up (the draw for the button, the board) on the screen."""
        if not self.reader:
            await self.send(type="cards", to=str(position), cards=cards)
            return
        self._follow({"type": "cards", "to": str(position), "cards": cards})
        await self.rig.deal(position, cards)
        self.check()

    async def counted(self, to: str | None, value: int) -> None:
        """Cards dealt face down, counted (a table without a card reader, § 637a.19(f))."""
        spec: dict[str, Any] = {"type": "deal", "value": value}
        if to is not None:
            spec["to"] = to
        await self.send(**spec)

    # --- the round -------------------------------------------------------------------------------

    async def play_round(self) -> dict[str, Any]:
        rng = self.rng
        await self.begin()
        daemon = self.rig.daemon
        assert daemon is not None
        if self.reader:
            await self.rig.wait_for(lambda: daemon.devices["shoe"].state == "online")
        submission = self._submission()
        rules = submission.rules
        variant = VARIANTS[rules.variant]
        if not self.seats:
            self.seats = list(range(1, rng.randint(3, min(4, variant.players)) + 1))
            self.stacks = {seat: rng.choice(BUY_INS) for seat in self.seats}
        self.rnd = Round.begin(submission.game, rules)
        for event in self.carried:
            self.rnd.apply(event)
        self.say(f"{variant.title}: seats {', '.join(map(str, self.seats))}")
        if self.state.button is not None:
            self.say(f"the table carries the button to seat {self.state.button} ({variant.at('(c)')}(2))")
        elif rules.button_start != HIGH_CARD:
            button = max(self.seats)  # "the first player to the right of the dealer", (c)(1)(i)
            await self.send(type="position", value=button)
            self.say(f"dealer: the button to seat {button}, the first player to his right")
        await self._join(rules)
        if self.state.button is None:
            await self._draw_for_the_button(rng)
        await self._forced_bets(rules)
        deck = shuffled_deck(rng)
        await self._deal(deck, variant.hand_size)
        while self.rnd.waiting_for():
            phase = self.state.phase
            if phase == BETTING:
                await self._act(rng)
            elif phase == BURNING and not self.reader:
                next(deck)
                await self.counted("burn", 1)
            elif phase == BURNING:
                await self.stack("burn", next(deck))
            elif phase == BOARD:
                cards = _take(deck, 3 if not self.state.board else 1)
                await self.stack("board", cards)
                self.say(f"{'shoe' if self.reader else 'dealer, keyed'}: burn, then {cards} to the board")
            elif phase == DRAWING:
                await self._draw(deck, rng)
            elif phase == SHOWDOWN:
                await self._show(rng)
            else:
                waiting = self.rnd.waiting_for()
                raise BenchError(f"round {self.round_id}: the rig does not deal {phase}: {waiting}")
        summary = await self.finish()
        for seat, pots in summary["settlement"]["seats"].items():
            self.stacks[int(seat)] += sum(_net(p["net"]) for p in pots.values())
        self.carried = tuple(self.rnd.game.next_round(self.rnd.state))
        return summary

    async def _join(self, rules: Any) -> None:
        low = rules.blind_bets[-1]
        for seat in self.seats:
            if self.stacks[seat] < low:
                self.stacks[seat] = self.rng.choice(BUY_INS)
                self.say(f"seat {seat}: buys in again for {format_money(self.stacks[seat])}")
            await self.send(
                type="decision", seat=seat, action="participate", amount=format_money(self.stacks[seat])
            )
        self.say("players: " + ", ".join(f"seat {s} {format_money(self.stacks[s])}" for s in self.seats))

    async def _draw_for_the_button(self, rng: random.Random) -> None:
        """A card from the shoe to each player: the highest takes the button (§ 637a.19(c)(1)(ii))."""
        deck = shuffled_deck(rng)
        for seat in self.seats:
            await self.stack(seat, next(deck))
        drawn = ", ".join(f"seat {s} {c}" for s, c in self.state.button_draw)
        self.say(f"the draw for the button: {drawn}: the button to seat {self.state.button}")

    async def _forced_bets(self, rules: Any) -> None:
        state = self.state
        players = state.players
        for seat, amount in zip(
            blind_seats(state.button, players, len(rules.blind_bets)), rules.blind_bets, strict=True
        ):
            await self._forced(seat, "blind", amount)
        if state.killer in players:
            await self._forced(state.killer, "kill", rules.kill_blind)
        elif rules.straddle_offered and self.rng.random() < 0.2:
            await self._forced(
                straddle_seat(state.button, players, len(rules.blind_bets)), "straddle", rules.straddle_bet
            )

    async def _forced(self, seat: int, wager: str, due: Cents) -> None:
        amount = format_money(min(due, self.state.seat(seat).behind))
        await self.send(type="wager", seat=seat, wager=wager, amount=amount)
        self.say(f"seat {seat}: {wager} {amount}")

    async def _deal(self, deck: Iterator[str], size: int) -> None:
        """The hands, a card a stack from the button's left, the button last each time (§ 637a.19(f))."""
        order = deal_order(self.state.button, self.state.players)
        if not self.reader:
            self.hands = {seat: [] for seat in order}
            for _ in range(size):
                for seat in order:
                    self.hands[seat].append(next(deck))
            await self.counted(None, size)
            held = "; ".join(f"seat {s} {' '.join(self.hands[s])}" for s in order)
            self.say(f"dealt {size} each face down, counted, seat {order[0]} first, the button last: {held}")
            return
        for _ in range(size):
            for seat in order:
                await self.stack(seat, next(deck))
        hands = "; ".join(f"seat {s} {' '.join(map(str, self.state.seat(s).cards))}" for s in order)
        self.say(f"shoe dealt, seat {order[0]} first, the button last: {hands}")

    async def _act(self, rng: random.Random) -> None:
        betting = self.state.betting
        seat = betting.turn
        owe = betting.to_call(seat)
        r = rng.random()
        if owe == 0:
            prefs = ["check"] if r < 0.7 else ["bet", "check"]
        elif r < 0.15:
            prefs = ["fold"]
        elif r < 0.9:
            prefs = ["call"]
        else:
            prefs = ["raise", "call"]
        if rng.random() < ALL_IN:
            prefs.insert(0, "all_in")
        for action in [*prefs, "check", "call", "fold"]:
            spec: dict[str, Any] = {"type": "decision", "seat": seat, "action": action}
            if action in ("bet", "raise"):
                spec["action"] = "raise" if betting.high else "bet"
                spec["amount"] = format_money(betting.high + betting.min_raise)
            if self.legal(spec):
                await self.send(**spec)
                amount = f" to {spec['amount']}" if "amount" in spec else ""
                self.say(f"seat {seat}: {spec['action']}{amount}")
                return
        raise BenchError(f"round {self.round_id}: no action of seat {seat} is legal ({betting})")

    async def _draw(self, deck: Iterator[str], rng: random.Random) -> None:
        """The player drawing stands pat or discards his highest cards (at most two) and is dealt as
        many from the shoe, one player at a time (§ 637a.20(h))."""
        state = self.state
        seat = next(s for s in deal_order(state.button, state.live) if s not in state.drawn)
        held = [str(c) for c in state.seat(seat).cards] if self.reader else list(self.hands[seat])
        ace_low = state.variant.name not in ("triple-draw-2-7", "badeucey")
        high = sorted(held, key=lambda c: _rank(c, ace_low), reverse=True)
        worst = [c for c in high if _rank(c, ace_low) >= 10][: rng.randint(0, MOST_DISCARDS)]
        if not worst:
            await self.send(type="decision", seat=seat, action="stand_pat")
            self.say(f"seat {seat}: stands pat")
            return
        new = _take(deck, len(worst))
        if not self.reader:
            await self.counted("dealer", len(worst))
            await self.counted(str(seat), len(worst))
            self.hands[seat] = [c for c in held if c not in worst] + new.split()
            self.say(f"seat {seat}: discards {len(worst)} ({' '.join(worst)}), dealt {new} face down")
            return
        await self.send(type="cards", to="dealer", cards=" ".join(worst))
        await self.stack(seat, new)
        self.say(f"seat {seat}: discards {' '.join(worst)}, the shoe deals him {new}")

    async def _show(self, rng: random.Random) -> None:
        """At the showdown of a round dealt face down (§ 637a.19(k)), the next player still to show
        shows his hand (the dealer keys it) or, now and then, mucks it where he may."""
        state = self.state
        seat = next(s.seat for s in state.seats if not s.folded and not s.cards)
        muck = {"type": "decision", "seat": seat, "action": "fold"}
        if rng.random() < MUCKS and self.legal(muck):
            await self.send(**muck)
            self.say(f"seat {seat}: mucks his hand (never shown)")
            return
        hand = " ".join(self.hands[seat])
        await self.send(type="cards", to=str(seat), cards=hand)
        self.say(f"seat {seat}: shows {hand}")


def _rank(card: str, ace_low: bool) -> int:
    rank = parse_card(card).rank
    return 1 if ace_low and rank == ACE else rank


def _net(text: str) -> Cents:
    return -parse_money(text[1:], "net") if text.startswith("-") else parse_money(text.lstrip("+"), "net")
