"""Scripted dealers for every house-banked game on the bench rig (``sim.bench_rig``).

Each dealer plays random but legal rounds through the real daemon, as the table's people and
devices would: wagers through the local API (the dealer's touchscreen), progressive chips on the
mock sensors where the game has the Progressive Payout Wager, the lock-out button, the cards as
stacks of the simulated shoe on its pseudo-terminal, the hole-card reader's answer (Blackjack),
the players' decisions through the API. Everything random comes from one ``random.Random``, so
``tablectl bench --seed N`` repeats a run. Each round prints what happened and each seat's
settlement (``describe_settlement``).

A refusal is a bug of the rig or of the daemon: a dealer raises :class:`BenchError` when a
hardware event it caused was refused, and an API refusal raises ``ApiError``; ``run_bench`` then
exits non-zero naming it. Each game's Rules Submission is its example (examples/<game>/), on the
rig's table.
docs/bench-rig.md describes each game's round.
"""

from __future__ import annotations

import random
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from controller.api_client import ApiClient
from controller.rules.core.cards import ACE, QUEEN, Card, deck_with_joker, parse_card, shoe, standard_deck
from controller.rules.core.events import parse_event
from controller.rules.core.submission import parse_submission
from controller.rules.games import GAMES
from controller.rules.games.asia_poker.game import (
    button_after_round,
    clockwise_from,
    setting_action,
    starting_position,
)
from controller.rules.games.asia_poker.house_way import set_hands
from controller.rules.games.three_dice_football import game as tdf
from controller.rules.rankings.blackjack import dealer_must_hit, hand_total, is_blackjack, is_ten_count
from sim.bench_command import BENCH_GAMES, POKER_ROOM
from sim.bench_rig import (
    CARIBBEAN_STUD,
    SEAT_PINS,
    BenchRig,
    ScriptedDealer,
    describe_settlement,
    example_submission,
    shuffled_deck,
)

# --- the Rules Submissions (§ 601a.2): the examples', on the rig's table -------------------------


def rules_submission(game: str, variant: str = "") -> str:
    """The rig's Rules Submission for ``game``: the game's example (examples/<game>/) on the rig's
    table (:func:`sim.bench_rig.example_submission`); ``ValueError`` if the rig does not deal it.
    ``variant``: the poker room's variant (its ``[rules] variant``; ``""``: the example's)."""
    if game not in _DEALERS:
        raise ValueError(f"the bench rig deals no game {game!r} (games: {', '.join(BENCH_GAMES)})")
    text = example_submission(game)
    if not variant:
        return text
    if game != POKER_ROOM:
        raise ValueError(f"--variant is the poker room's; {game} has none")
    return re.sub(r'^variant = "[^"]*"', f'variant = "{variant}"', text, count=1, flags=re.MULTILINE)


def needs_reader(game: str) -> bool:
    """Whether the table has the hole-card reader: what the game declares its Rules Submission
    needs (:meth:`~controller.rules.core.engine.Game.devices`; Blackjack, § 633a.7(h))."""
    submission = parse_submission(rules_submission(game), GAMES, f"the bench rig's {game}")
    return submission.game.devices(submission.rules).hole_card_reader


class BenchError(RuntimeError):
    """The daemon refused what the rig's table did, or did not get where a legal round goes."""


# --- what every dealer does --------------------------------------------------------------------


def _amount(rng: random.Random, choices: Sequence[int] = (10, 25, 50)) -> str:
    return f"{rng.choice(choices)}.00"


def _seats(rng: random.Random, seats: Sequence[int], least: int = 2, most: int = 4) -> list[int]:
    return sorted(rng.sample(list(seats), rng.randint(least, min(most, len(seats)))))


def _where(position: str | int) -> str:
    if position in ("dealer", "board"):
        return f"the {position}"
    return f"seat {position}"


@dataclass
class TableDealer(ABC):
    """What every game's dealer does on the rig: the API, the pins, the shoe, the checks."""

    rig: BenchRig
    api: ApiClient
    rng: random.Random
    say: Callable[[str], object] = print
    round_id: str = ""
    _refused: int = 0

    @abstractmethod
    async def play_round(self) -> dict[str, Any]:
        """One round from its first wager to its settlement; returns the round's summary."""

    async def play_rounds(self, rounds: int, link: bool = False) -> int:
        """``rounds`` rounds (no link: only Caribbean Stud's progressive is on the bench's meter);
        no refusal is provoked on purpose."""
        for _ in range(rounds):
            await self.play_round()
        return 0

    async def begin(self) -> str:
        self.round_id = str((await self.api.status())["round"]["id"])
        self._refused = self.rig.daemon.refusals.total if self.rig.daemon is not None else 0
        self.say(f"--- round {self.round_id}")
        return self.round_id

    def check(self) -> None:
        """:class:`BenchError` if the daemon refused anything since the round began."""
        refused = self.rig.daemon.refusals.since(self._refused) if self.rig.daemon is not None else []
        if refused:
            raise BenchError(f"round {self.round_id}: the daemon refused: {'; '.join(refused)}")

    async def event(self, **event: Any) -> None:
        """Through the local API, as the dealer's touchscreen sends it (``ApiError`` if refused)."""
        await self.api.submit_event(event)

    async def wager(self, seat: int, wager: str, amount: str) -> None:
        await self.event(type="wager", seat=seat, wager=wager, amount=amount)

    async def decide(self, seat: int, action: str, say: str = "", **more: Any) -> None:
        await self.event(type="decision", seat=seat, action=action, **more)
        self.say(f"seat {seat}: {say or action}")

    async def lock_out(self) -> None:
        """The dealer presses the lock-out button: "no more bets"."""
        await self.rig.press_lock_out()
        self.check()
        status = await self.api.status()
        if not status["round"]["no_more_bets"]:
            raise BenchError(f"round {self.round_id}: the lock-out button did not close the wagers")
        progressives = set(self.rig.progressives) or {"progressive"}
        accepted = [
            f"{w['seat']}" + ("" if w["wager"] == "progressive" else f" ({w['wager']})")
            for w in status["round"]["wagers"]
            if w["wager"] in progressives
        ]
        sensed = f"; progressive wagers accepted at seats {', '.join(accepted)}" if accepted else ""
        self.say("lock-out: no more bets" + sensed)

    async def deal(self, position: str | int, cards: str) -> None:
        """A stack from the shoe; :class:`BenchError` if the daemon refused it."""
        await self.rig.deal(position, cards)
        self.check()
        self.say(f"shoe read {cards} for {_where(position)}")

    async def is_open(self) -> bool:
        """Whether the round is still the table's open round (not yet settled)."""
        return bool((await self.api.status())["round"]["id"] == self.round_id)

    async def finish(self) -> dict[str, Any]:
        """The settled round's summary, printed; :class:`BenchError` if it is not settled."""
        self.check()
        if await self.is_open():
            waiting = (await self.api.status())["round"]["waiting_for"]
            raise BenchError(f"round {self.round_id} is not settled: it waits for {waiting}")
        rounds = (await self.api.list_rounds(5))["rounds"]
        summary: dict[str, Any] = next(r for r in rounds if r["round"] == self.round_id)
        for line in describe_settlement(summary):
            self.say(line)
        if summary.get("status") != "settled":
            raise BenchError(f"round {self.round_id} ended {summary.get('status')!r}, not settled")
        return summary


def _take(deck: Iterator[str], n: int) -> str:
    return " ".join(next(deck) for _ in range(n))


def _ranks(cards: str) -> list[int]:
    return sorted((parse_card(c).rank for c in cards.split()), reverse=True)


# --- Three Card Poker (ch. 649a) ---------------------------------------------------------------


def plays_three(cards: str) -> bool:
    """Play with a pair or better, a flush, a straight, or queen-high and better; else fold."""
    parsed = [parse_card(c) for c in cards.split()]
    ranks = _ranks(cards)
    suited = len({c.suit for c in parsed}) == 1
    run = (ranks[0] - ranks[2] == 2 and len(set(ranks)) == 3) or ranks == [ACE, 3, 2]
    return len(set(ranks)) < 3 or suited or run or ranks[0] >= QUEEN


@dataclass
class ThreeCardPokerDealer(TableDealer):
    """Antes, Pair Plus and Six Card Bonus Wagers; three cards a hand; play or fold (ch. 649a)."""

    async def play_round(self) -> dict[str, Any]:
        rng = self.rng
        await self.begin()
        wagered: list[int] = []
        antes: list[int] = []
        for seat in _seats(rng, range(1, 8)):
            placed: list[str] = []
            if rng.random() < 0.85:
                await self.wager(seat, "ante", amount := _amount(rng))
                antes.append(seat)
                placed.append(f"ante {amount}")
            if not placed or rng.random() < 0.5:
                await self.wager(seat, "pair_plus", amount := _amount(rng, (5, 10)))
                placed.append(f"pair plus {amount}")
            if rng.random() < 0.3:
                await self.wager(seat, "six_card_bonus", "5.00")
                placed.append("six card bonus 5.00")
            wagered.append(seat)
            self.say(f"seat {seat}: {', '.join(placed)}")
        await self.lock_out()
        deck = shuffled_deck(rng, standard_deck())
        hands: dict[int, str] = {}
        for seat in wagered:
            hands[seat] = _take(deck, 3)
            await self.deal(seat, hands[seat])
        await self.deal("dealer", _take(deck, 3))
        for seat in antes:
            await self.decide(seat, "play" if plays_three(hands[seat]) else "fold")
        return await self.finish()


# --- Texas Hold 'Em Bonus Poker (ch. 647a) -----------------------------------------------------


def takes_the_flop(cards: str, rng: random.Random) -> bool:
    """A Flop Wager with a pair, an ace, two cards ten or higher; otherwise now and then."""
    ranks = _ranks(cards)
    return ranks[0] == ranks[1] or ranks[0] == ACE or ranks[1] >= 10 or rng.random() < 0.3


@dataclass
class HoldemBonusDealer(TableDealer):
    """Antes and Bonus Wagers; two cards each; Flop, Turn and River decisions between the board's
    three, one and one cards from the shoe (§ 647a.11)."""

    async def play_round(self) -> dict[str, Any]:
        rng = self.rng
        await self.begin()
        seats = _seats(rng, range(1, 7))
        for seat in seats:
            await self.wager(seat, "ante", ante := _amount(rng, (5, 10, 25)))
            text = f"seat {seat}: ante {ante}"
            if rng.random() < 0.4:
                await self.wager(seat, "bonus", "5.00")
                text += ", bonus 5.00"
            self.say(text)
        await self.lock_out()
        deck = shuffled_deck(rng, standard_deck())
        hands = {seat: _take(deck, 2) for seat in seats}
        for seat in seats:
            await self.deal(seat, hands[seat])
        await self.deal("dealer", _take(deck, 2))
        still_in: list[int] = []
        for seat in seats:  # from the dealer's left (§ 647a.11(b))
            if takes_the_flop(hands[seat], rng):
                await self.decide(seat, "bet", "bet: the Flop Wager, twice the Ante")
                still_in.append(seat)
            else:
                await self.decide(seat, "fold")
        # Every player folded: the round is settled without the board (the Bonus needs two cards).
        for street, cards in (("flop", 3), ("turn", 1), ("river", 1)):
            if not await self.is_open():
                break
            if street != "flop":
                for seat in still_in:
                    bet = rng.random() < 0.4
                    await self.decide(seat, "bet" if bet else "check", f"{street} wager" if bet else "check")
            await self.deal("board", _take(deck, cards))
        return await self.finish()


# --- Blackjack (ch. 633a) ------------------------------------------------------------------------


@dataclass
class _Hand:
    cards: list[Card]
    split_aces: bool = False
    doubled: bool = False
    surrendered: bool = False
    stood: bool = False
    even_money: bool = False
    natural: bool = False

    @property
    def total(self) -> int:
        return hand_total(self.cards)[0]

    @property
    def done(self) -> bool:
        """No more decisions: stood, bust, 21, doubled, surrendered, a split ace with its card,
        a Blackjack (§ 633a.10, § 633a.11)."""
        if len(self.cards) < 2:
            return False
        return (
            self.stood
            or self.total >= 21
            or self.doubled
            or self.surrendered
            or self.split_aces
            or self.natural
            or self.even_money
        )

    @property
    def live(self) -> bool:
        """Still against the dealer's hand: the dealer draws for it (not bust, surrendered, paid)."""
        return not (self.total > 21 or self.surrendered or self.natural or self.even_money)


def _cards_text(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


@dataclass
class BlackjackDealer(TableDealer):
    """Blackjack Wagers and some Three Card Poker Wagers; one card a stack in dealing order; the
    hole-card reader when the up card is an ace or a 10-count card (§ 633a.7(h)); insurance, even
    money, surrender, splits, doubles, hits through the API; the dealer draws to 17."""

    shoe_cards: Iterator[str] = field(default_factory=lambda: iter(()))

    def _next(self) -> Card:
        return parse_card(next(self.shoe_cards))

    async def _card(self, position: str | int, hand: _Hand | None = None) -> Card:
        c = self._next()
        await self.deal(position, str(c))
        if hand is not None:
            hand.cards.append(c)
        return c

    async def play_round(self) -> dict[str, Any]:
        rng = self.rng
        await self.begin()
        self.shoe_cards = shuffled_deck(rng, shoe(6))
        seats = _seats(rng, range(1, 8))
        chips: list[tuple[int, str]] = []
        for seat in seats:
            await self.wager(seat, "blackjack", amount := _amount(rng))
            text = f"seat {seat}: blackjack {amount}"
            if rng.random() < 0.3:
                await self.wager(seat, "three_card_poker", "5.00")
                text += ", three card poker 5.00"
            for progressive in self.rig.progressives:
                # Bad Beat, Hit and Run, Straight Jack: a chip on the seat's device for each
                # (§ 633a.2(c), (d)(1)), where the seat has one.
                if (seat, progressive) in self.rig.sensor_pins and rng.random() < 0.4:
                    await self.rig.place_chip(seat, progressive)
                    chips.append((seat, progressive))
                    text += f", {progressive} chip sensed"
            self.say(text)
        await self.lock_out()
        try:
            return await self._deal_round(seats, rng)
        finally:
            for seat, progressive in chips:
                await self.rig.lift_chip(seat, progressive)

    async def _deal_round(self, seats: list[int], rng: random.Random) -> dict[str, Any]:
        hands: dict[int, list[_Hand]] = {seat: [_Hand([])] for seat in seats}
        for seat in seats:
            await self._card(seat, hands[seat][0])
        up = await self._card("dealer")
        for seat in seats:
            await self._card(seat, hands[seat][0])
            hands[seat][0].natural = is_blackjack(hands[seat][0].cards)
        hole = self._next()  # dealt face down; the shoe gives it when it is turned over
        if up.rank == ACE:
            await self._insurance(hands)
        if up.rank == ACE or is_ten_count(up):
            blackjack = is_blackjack([up, hole])
            await self.rig.read_hole_card(blackjack)
            self.check()
            self.say(f"hole-card reader: {'Blackjack' if blackjack else 'no Blackjack'} (§ 633a.7(h))")
            if blackjack:
                await self.deal("dealer", str(hole))
                return await self.finish()
        for seat in seats:  # from the dealer's left, hand by hand (§ 633a.11)
            await self._play_seat(seat, hands[seat], up)
        dealer = [up, hole]
        await self.deal("dealer", str(hole))
        # The dealer draws for a live hand, and for a Hit and Run Progressive Wager whatever the
        # players' hands (it wins on the dealer's five or more cards, § 633a.6(e)(10)).
        if any(h.live for hs in hands.values() for h in hs) or await self._waits_for_dealer_card():
            while dealer_must_hit(dealer, False):
                dealer.append(await self._card("dealer"))
        self.say(f"dealer: {_cards_text(dealer)}, {hand_total(dealer)[0]}")
        return await self.finish()

    async def _waits_for_dealer_card(self) -> bool:
        status = (await self.api.status())["round"]
        waiting = str(status["waiting_for"])
        return status["id"] == self.round_id and waiting.startswith("the dealer's next card")

    async def _insurance(self, hands: Mapping[int, list[_Hand]]) -> None:
        """Up card an ace: even money for a Blackjack, insurance for some others (§ 633a.8)."""
        for seat, (hand,) in hands.items():
            if hand.natural:
                if self.rng.random() < 0.5:
                    hand.even_money = True
                    await self.decide(seat, "even_money", "even money on a Blackjack")
            elif self.rng.random() < 0.3:
                await self.decide(seat, "insurance", "insurance, half the wager")

    async def _play_seat(self, seat: int, hands: list[_Hand], up: Card) -> None:
        i = 0
        while i < len(hands):
            hand = hands[i]
            if len(hand.cards) < 2:
                # The second card of a hand formed by splitting: the shoe deals to the seat, the
                # card goes to the hand in play (§ 633a.11).
                await self._card(seat, hand)
            while not hand.done:
                await self._decide(seat, hands, i, up)
            i += 1

    async def _decide(self, seat: int, hands: list[_Hand], i: int, up: Card) -> None:
        rng, hand = self.rng, hands[i]
        more: dict[str, Any] = {"hand": i} if len(hands) > 1 else {}
        total, soft = hand_total(hand.cards)
        two = len(hand.cards) == 2
        against = min(up.rank, 10) if up.rank != ACE else 11
        # Late surrender: hand 0's first decision, on its two initial cards (§ 633a.9).
        first = i == 0 and len(hands) == 1 and two
        if first and not soft and total in (15, 16) and against >= 10 and rng.random() < 0.5:
            hand.surrendered = True
            await self.decide(seat, "surrender", "surrender, half the wager back", **more)
            return
        pair = len(hands) == 1 and two and hand.cards[0].rank == hand.cards[1].rank
        if pair and (hand.cards[0].rank in (ACE, 8) or rng.random() < 0.4):
            # One split a seat: the first hand takes its second card now (§ 633a.11).
            await self.decide(seat, "split", f"split {_cards_text(hand.cards)}", **more)
            aces = hand.cards[0].rank == ACE
            hands.append(_Hand([hand.cards.pop()], split_aces=aces))
            hand.split_aces = aces
            await self._card(seat, hand)
            return
        if two and not soft and total in (10, 11) and rng.random() < 0.8:
            hand.doubled = True
            await self.decide(seat, "double_down", f"double down on {total}", **more)
            await self._card(seat, hand)
            return
        if total < 17 or (soft and total < 18):
            await self.decide(seat, "hit", f"hit on {'soft ' if soft else ''}{total}", **more)
            await self._card(seat, hand)
            return
        hand.stood = True
        await self.decide(seat, "stand", f"stand on {total}", **more)


# --- Asia Poker and Fortune Asia Poker (ch. 659a) ----------------------------------------------


@dataclass
class AsiaPokerDealer(TableDealer):
    """The main wager and the optional wagers; the starting position; seven-card stacks clockwise
    from it; every player sets the house way (``asia_house_way.set_hands``); some players without
    an optional wager surrender (§ 659a.11(d)); the dealer settles the round (``settle_round``)."""

    main: str = "asia_poker"

    async def place_wagers(self) -> dict[int, list[str]]:
        """Seat -> the optional wagers placed (the Bonus Wager, § 659a.7(e))."""
        placed: dict[int, list[str]] = {}
        for seat in _seats(self.rng, range(1, 7)):
            await self.wager(seat, self.main, amount := _amount(self.rng))
            placed[seat] = []
            text = f"seat {seat}: {self.main} {amount}"
            if self.rng.random() < 0.4:
                await self.wager(seat, "bonus", "5.00")
                placed[seat].append("bonus")
                text += ", bonus 5.00"
            self.say(text)
        return placed

    async def start_position(self) -> str:
        """The shaker's three dice (§ 659a.5(g)(1)): a ``dice`` event through the API."""
        dice = [self.rng.randint(1, 6) for _ in range(3)]
        await self.event(type="dice", dice=dice)
        start = starting_position("shaker", sum(dice))
        self.say(f"shaker: {dice}, the count of {sum(dice)} starts at {_where(start)}")
        return start

    async def after_round(self, placed: Mapping[int, list[str]]) -> None:
        """What the table does once the round is settled."""

    async def play_round(self) -> dict[str, Any]:
        rng = self.rng
        await self.begin()
        placed = await self.place_wagers()
        await self.lock_out()
        start = await self.start_position()
        deck = shuffled_deck(rng, deck_with_joker())
        sevens: dict[str, str] = {}
        for position in clockwise_from(start):  # § 659a.8(c); empty positions are not reported
            if position == "dealer" or int(position) in placed:
                sevens[position] = _take(deck, 7)
                await self.deal(position, sevens[position])
        for seat in sorted(placed, reverse=True):  # counterclockwise, from the dealer's right
            if rng.random() < 0.2:
                await self.decide(seat, "help", "help me set (the house way)")
            setting = set_hands([parse_card(c) for c in sevens[str(seat)].split()], "standard")
            action = setting_action(setting)
            await self.decide(seat, action, action.replace("set ", "sets ", 1))
        may = [s for s, optional in placed.items() if not optional]
        for seat in may:
            if rng.random() < 0.25:
                await self.decide(seat, "surrender", "surrenders: the wager is collected (§ 659a.11(d))")
        if await self.is_open():
            waiting = str((await self.api.status())["round"]["waiting_for"])
            if not waiting.startswith("the dealer to settle the round"):
                raise BenchError(f"round {self.round_id} waits for {waiting}, not for the dealer to settle")
            await self.api.call("settle_round")
            self.say("dealer: settles the round (no one else surrenders)")
        summary = await self.finish()
        await self.after_round(placed)
        return summary


@dataclass
class FortuneAsiaPokerDealer(AsiaPokerDealer):
    """Asia Poker's round with the Fortune Bonus and Insurance Wagers through the API, the
    Progressive Payout Wager as a chip on the mock sensor (§ 659a.11(h)), and the button as the
    starting position, one position clockwise after each round (§ 659a.5(g)(3))."""

    main: str = "fortune_asia_poker"
    button: int = 1

    async def place_wagers(self) -> dict[int, list[str]]:
        placed: dict[int, list[str]] = {}
        for seat in _seats(self.rng, sorted(SEAT_PINS)):  # the seats with a wagering device
            await self.wager(seat, self.main, amount := _amount(self.rng))
            placed[seat] = []
            text = f"seat {seat}: {self.main} {amount}"
            for wager, chance in (("fortune_bonus", 0.3), ("insurance", 0.2)):
                if self.rng.random() < chance:
                    await self.wager(seat, wager, "5.00")
                    placed[seat].append(wager)
                    text += f", {wager} 5.00"
            if self.rng.random() < 0.4:
                await self.rig.place_chip(seat)
                placed[seat].append("progressive")
                text += ", progressive chip sensed"
            self.say(text)
        return placed

    async def start_position(self) -> str:
        await self.event(type="position", value=self.button)
        start = starting_position("button", self.button)
        self.say(f"button: count {self.button}, the deal starts at {_where(start)}")
        return start

    async def after_round(self, placed: Mapping[int, list[str]]) -> None:
        for seat, optional in placed.items():
            if "progressive" in optional:
                await self.rig.lift_chip(seat)
        self.button = button_after_round(self.button)


# --- Three Dice Football (ch. 661a) ------------------------------------------------------------


@dataclass
class ThreeDiceFootballDealer(TableDealer):
    """One game a round: the dice offered until a player accepts (or the scorer retains them),
    full game wagers before the first throw, single play wagers before each down, the lock-out
    button before the first throw, the stickperson's ``dice`` (and now and then a no roll) through
    the API, the extra point roll when an Extra Point Wager is up (§ 661a.6)."""

    state: Any = None
    rules: Any = None
    dice_next: tuple[str, int] | None = None

    def _apply(self, spec: Mapping[str, Any]) -> None:
        """Follow the game as the touchscreen does (the ch. 661a engine), to know the down."""
        self.state = tdf.GAME.apply(self.state, parse_event(dict(spec)))

    async def _send(self, **spec: Any) -> None:
        await self.event(**spec)
        self._apply(spec)

    async def _quarterback(self) -> int:
        seats = self.rules.seats
        if self.dice_next is not None and self.dice_next[0] == "retain":
            qb = self.dice_next[1]
            await self._send(type="decision", seat=qb, action="retain_dice")
            self.say(f"seat {qb}: retains the dice (§ 661a.7(a))")
            return qb
        seat = self.dice_next[1] if self.dice_next is not None else self.rng.randint(1, seats)
        while self.rng.random() < 0.3:
            await self._send(type="decision", seat=seat, action="reject_dice")
            self.say(f"seat {seat}: declines the dice")
            seat = seat % seats + 1
        await self._send(type="decision", seat=seat, action="accept_dice")
        self.say(f"seat {seat}: accepts the dice, the Quarterback (§ 661a.4(c))")
        return seat

    async def _single_play(self) -> None:
        for seat in _seats(self.rng, range(1, self.rules.seats + 1), 0, 2):
            wager = self.rng.choice(tdf.SINGLE_PLAY_WAGERS)
            await self._send(type="wager", seat=seat, wager=wager, amount=_amount(self.rng, (1, 2, 5)))
            self.say(f"seat {seat}: {wager} 1 play")

    async def play_round(self) -> dict[str, Any]:
        rng = self.rng
        await self.begin()
        if self.rules is None:
            self.rules = parse_submission(rules_submission("three-dice-football"), GAMES, "bench").rules
        self.state = tdf.GAME.start(self.rules, {})
        qb = await self._quarterback()
        players = sorted({qb, *_seats(rng, range(1, self.rules.seats + 1), 1, 3)})
        for seat in players:
            for wager in rng.sample(tdf.FULL_GAME_WAGERS, rng.randint(1, 3)):
                await self._send(type="wager", seat=seat, wager=wager, amount=_amount(rng, (5, 10, 25)))
                self.say(f"seat {seat}: {wager}")
        pressed = False
        while self.state.phase != "over":
            if self.state.phase == "play":
                self.say(self.state.field.announcement())
                if not pressed:  # the button locks the table's pins until the game is settled
                    await self.lock_out()
                    self._apply({"type": "no_more_bets"})
                    pressed = True
                else:
                    await self._single_play()
                    if rng.random() < 0.5:
                        await self._send(type="no_more_bets")
                        self.say("no more bets")
            if rng.random() < 0.1:
                await self._send(type="irregularity", kind="no_roll", detail="a die left the layout")
                self.say("stickperson: no roll (§ 661a.5(c))")
                continue
            dice = [rng.randint(1, 6) for _ in range(3)]
            extra = self.state.phase == "extra_point"
            await self._send(type="dice", dice=dice)
            self.say(f"{'extra point roll' if extra else 'throw'}: green {dice[0]} {dice[1]}, red {dice[2]}")
        self.dice_next = tdf.dice_next(self.state)
        return await self.finish()


class Dealer(Protocol):
    """What the rig asks of a game's scripted dealer."""

    async def play_round(self) -> dict[str, Any]: ...

    async def play_rounds(self, rounds: int, link: bool = False) -> int: ...


_DEALERS: Final[
    Mapping[str, Callable[[BenchRig, ApiClient, random.Random, Callable[[str], object]], Dealer]]
] = {
    CARIBBEAN_STUD: ScriptedDealer,
    "three-card-poker": ThreeCardPokerDealer,
    "holdem-bonus": HoldemBonusDealer,
    "blackjack": BlackjackDealer,
    "asia-poker": AsiaPokerDealer,
    "fortune-asia-poker": FortuneAsiaPokerDealer,
    "three-dice-football": ThreeDiceFootballDealer,
    POKER_ROOM: lambda rig, api, rng, say: _poker_room_dealer(rig, api, rng, say),
}


def _poker_room_dealer(
    rig: BenchRig, api: ApiClient, rng: random.Random, say: Callable[[str], object]
) -> Dealer:
    # Its own module (sim.bench_poker), which builds on this one's TableDealer.
    from sim.bench_poker import PokerRoomDealer

    return PokerRoomDealer(rig, api, rng, say)


def game_dealer(
    game: str, rig: BenchRig, api: ApiClient, rng: random.Random, say: Callable[[str], object] = print
) -> Dealer:
    """The scripted dealer of ``game`` (Caribbean Stud's: ``sim.bench_rig.ScriptedDealer``)."""
    if game not in _DEALERS:
        raise ValueError(f"the bench rig has no scripted dealer for {game!r} (games: {', '.join(_DEALERS)})")
    return _DEALERS[game](rig, api, rng, say)


def dealt_games() -> tuple[str, ...]:
    """Every game the rig deals: each has its scripted dealer."""
    return tuple(_DEALERS)
