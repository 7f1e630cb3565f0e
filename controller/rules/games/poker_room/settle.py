"""The showdown of a poker room round (§§ 637a.19-637a.21): what it waits for, the pots and how
each is divided (high, low, the odd chip), the kill, and the settlement."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from ...core.cards import Card, format_cards
from ...core.engine import IllegalEvent
from ...core.hand import HandValue
from ...core.hooks import Actor, Step, Waiting
from ...core.money import Cents, format_money
from ...core.settlement import Outcome, Result, Settlement
from ...rankings import high
from ...rankings.badugi import BADACEY_BADUGI, BADEUCEY_BADUGI, BADUGI
from ...rankings.low import eight_or_better_code
from ...rankings.omaha import OMAHA_HIGH, OMAHA_LOW8
from .button import SeatingError, blind_seats, straddle_seat
from .draw import DRAW_SECTION
from .pots import ODD_CHIP, Pot, PotError, Share, build_pots, divide, odd_chip_seat, split_among
from .rules import ALL_SECTIONS, NAME, Part
from .state import KILL_FLAG, PokerRoomState, SeatState

# --- the showdown ---------------------------------------------------------------------------


def _groupings(
    part: Part, cards: Sequence[Card], board: Sequence[Card], value: HandValue
) -> list[tuple[Card, ...]]:
    """Every grouping of the player's cards that makes ``value`` (for the odd chip by suit)."""
    ranking = part.ranking
    if ranking is OMAHA_HIGH or ranking is OMAHA_LOW8:
        out: list[tuple[Card, ...]] = []
        for pair in combinations(cards, 2):
            for triple in combinations(board, 3):
                five = (*pair, *triple)
                if ranking is OMAHA_HIGH:
                    if high.code5(five) == value.key[0]:
                        out.append(five)
                elif eight_or_better_code(five) == -value.key[1]:
                    out.append(five)
        return out
    if ranking in (BADUGI, BADEUCEY_BADUGI, BADACEY_BADUGI):
        size, ranks = value.key[0], [-k for k in value.key[1:]]
        return [
            combo
            for combo in combinations(cards, size)
            if len({c.suit for c in combo}) == size
            and sorted((part.rank_of(c) for c in combo), reverse=True) == ranks
        ]
    return [tuple(cards)]


def _words(part: Part, value: HandValue) -> str:
    # "badugi, four-three-two-ace" says its part already; "high: flush, ..." and "2-7: ..." need it.
    text = value.words if value.category == part.name else f"{part.name}: {value.words}"
    return f"{text} ({format_cards(value.cards)})" if value.cards else text


@dataclass(frozen=True, slots=True)
class PotAward:
    """How one pot is divided: the shares, and the words and section for the dealer."""

    pot: Pot
    shares: tuple[Share, ...]
    section: str
    words: str


def _best(part: Part, seats: Sequence[int], values: Mapping[int, Mapping[str, HandValue]]) -> tuple[int, ...]:
    top = max(values[s][part.name] for s in seats)
    return tuple(s for s in seats if values[s][part.name] == top)


def _split(
    state: PokerRoomState,
    amount: Cents,
    part: Part,
    winners: Sequence[int],
    values: Mapping[int, Mapping[str, HandValue]],
) -> tuple[Share, ...]:
    rules = state.rules
    rule = str(getattr(rules, part.tie_rule))

    def odd_chip_to() -> int:
        tied = {
            s: _groupings(part, _seat(state, s).cards, state.board, values[s][part.name]) for s in winners
        }
        try:
            return odd_chip_seat(rule, tied, part.rank_of, state.button)
        except PotError as exc:
            raise IllegalEvent(str(exc)) from None

    return split_among(amount, part.name, winners, rules.odd_chip_unit, odd_chip_to)


def _seat(state: PokerRoomState, number: int) -> SeatState:
    found = state.seat(number)
    assert found is not None
    return found


def _award(state: PokerRoomState, pot: Pot, values: Mapping[int, Mapping[str, HandValue]]) -> PotAward:
    v, rules = state.variant, state.rules
    head = f"{pot.words} {format_money(pot.amount)}"
    if len(pot.eligible) == 1:
        seat = pot.eligible[0]
        if pot.returned:
            why = "a bet no other player called, returned"
        elif len(state.live) == 1:
            why = "the only player remaining in the round, without a showdown"
        else:
            why = "the only player in the round eligible for it"
        return PotAward(
            pot,
            (Share(seat, "pot", pot.amount),),
            v.at("(k)"),
            f"{head} to seat {seat} ({why})",
        )
    eligible = pot.eligible
    first = v.parts[0]
    second = v.parts[1] if len(v.parts) > 1 else None
    contenders = eligible
    if second is not None and second.qualifies is not None:
        contenders = tuple(s for s in eligible if second.qualifies(values[s][second.name]))
    if second is None or not contenders:
        winners = _best(first, eligible, values)
        shares = _split(state, pot.amount, first, winners, values)
        section = v.showdown
        extra = ""
        if second is not None:
            # § 637a.19(l)(1): "In the event that none of the hands of the remaining players satisfy this
            # requirement, the entire pot shall be awarded to the player with the highest ranking high hand."
            section = "§ 637a.19(l)(1)"
            extra = " (no qualifying low: the entire pot to the high hand)"
        return PotAward(pot, _label(shares, "pot"), section, f"{head}{extra} to {_share_words(shares)}")
    # Half to each part; "If a pot cannot be divided equally, the excess, which may not exceed $1, shall be
    # given to the player with the highest ranking high hand" (§ 637a.19(k)(2)(i); § 637a.20(l)(1)(ii),
    # (l)(2)(ii): "the player with the highest 2-7 / A-5 Lowball Poker hand").
    half, excess = divide(pot.amount, 2, rules.odd_chip_unit)
    first_shares = _split(state, half + excess, first, _best(first, eligible, values), values)
    if excess and len(first_shares) == 1:
        only = first_shares[0]
        first_shares = (replace(only, odd_chip=only.odd_chip + excess),)
    second_shares = _split(state, half, second, _best(second, contenders, values), values)
    shares = first_shares + second_shares
    words = f"{head}: {first.name} {format_money(half + excess)}"
    if excess:
        words += f" (half {format_money(half)} and the excess {format_money(excess)})"
    words += f" to {_share_words(first_shares)}; {second.name} {format_money(half)}"
    words += f" to {_share_words(second_shares)}"
    return PotAward(pot, shares, v.showdown, words)


def _label(shares: tuple[Share, ...], part: str) -> tuple[Share, ...]:
    return tuple(replace(s, part=part) for s in shares)


def _share_words(shares: Sequence[Share]) -> str:
    """``"seat 4"``, or for a tie ``"seats 2 and 5 tie: seat 2 8.00 (with the excess 1.00), seat 5 7.00"``."""
    if len(shares) == 1:
        return f"seat {shares[0].seat}"
    out = []
    for s in shares:
        text = f"seat {s.seat} {format_money(s.amount)}"
        if s.odd_chip:
            text += f" (with the excess {format_money(s.odd_chip)})"
        out.append(text)
    seats = [str(s.seat) for s in shares]
    return f"seats {', '.join(seats[:-1])} and {seats[-1]} tie: " + ", ".join(out)


def _showdown_waits_for(state: PokerRoomState, pots: Sequence[Pot]) -> Waiting | None:
    v = state.variant
    contested = sorted({s for p in pots if len(p.eligible) > 1 for s in p.eligible})
    if not contested:
        return None
    if not state.betting_over:
        what = (
            f"the round waits for the final betting round to be completed (no_more_bets) before the showdown "
            f"({v.at('(k)')})"
        )
        return Waiting(Actor.DEALER, what, v.at("(k)"), step=Step.BETS)
    for s in contested:
        held = len(_seat(state, s).cards)
        if held != v.hand_size:
            what = (
                f"the showdown waits for seat {s}'s hand: {held} of {v.hand_size} cards given ({v.showdown})"
            )
            return Waiting(Actor.SHOE, what, v.showdown, s, step=Step.CARDS)
    if len(state.board) != v.board:
        section = f"{v.at('(h)')}-(j)"
        what = (
            f"the showdown waits for the board: {len(state.board)} of {v.board} community cards given "
            f"({section})"
        )
        return Waiting(Actor.SHOE, what, section, step=Step.CARDS)
    return None


def _check_blinds(state: PokerRoomState) -> None:
    """With the button known: the Blind Bets and the Straddle Bet came from the right players."""
    v = state.variant
    if state.button is None or not state.seats:
        return
    players = [s.seat for s in state.seats]
    try:
        expected = blind_seats(state.button, players, len(state.blinds)) if state.blinds else ()
        straddler = straddle_seat(state.button, players, len(state.blinds)) if state.straddle else None
    except SeatingError as exc:
        raise IllegalEvent(f"{exc} ({v.at('(d)')})") from None
    for i, (posted, want) in enumerate(zip(state.blinds, expected, strict=True), start=1):
        if posted != want:
            who = "the player to the immediate left of the button" if i == 1 else "the next player clockwise"
            raise IllegalEvent(
                f"seat {posted} posted Blind Bet {i}, but {who} (the button is at seat {state.button}) is "
                f"seat {want} ({v.at('(d)')})"
            )
    if state.straddle is not None and state.straddle != straddler:
        raise IllegalEvent(
            f"seat {state.straddle} placed the Straddle Bet, but only the player to the left of the Blind "
            f"Bets, seat {straddler}, may ({v.at('(e)')})"
        )


def _values(state: PokerRoomState, seats: Iterable[int]) -> dict[int, dict[str, HandValue]]:
    v = state.variant
    out: dict[int, dict[str, HandValue]] = {}
    for s in seats:
        cards = _seat(state, s).cards
        if len(cards) != v.hand_size or len(state.board) != v.board:
            continue  # a hand not shown (a player who won without a showdown, § 637a.19(k))
        board = state.board if v.board else ()
        out[s] = {p.name: p.ranking.evaluate(cards, board) for p in v.parts}
    return out


def waiting_for(state: PokerRoomState) -> tuple[Waiting, ...]:
    """What the round waits for before its pots can be awarded; empty once they can be. A Blind
    Bet from the wrong player, or bets that build no pots, wait for the dealer to correct them."""
    if not state.seats:
        return (
            Waiting(
                Actor.DEALER,
                "the round has no players: it waits for their bets and cards",
                ALL_SECTIONS,
                step=Step.BETS,
            ),
        )
    if state.drawing is not None:
        what = (
            f"the round waits for seat {state.drawing.seat}'s {state.drawing.owed} new card"
            f"{'s' if state.drawing.owed != 1 else ''} ({DRAW_SECTION})"
        )
        return (Waiting(Actor.SHOE, what, DRAW_SECTION, state.drawing.seat, step=Step.CARDS),)
    try:
        _check_blinds(state)
        pots = build_pots({s.seat: s.total for s in state.seats}, state.live)
    except (IllegalEvent, PotError) as exc:
        return (Waiting(Actor.DEALER, str(exc), ALL_SECTIONS, step=Step.BETS),)
    showdown = _showdown_waits_for(state, pots)
    return () if showdown is None else (showdown,)


def pot_awards(state: PokerRoomState) -> tuple[PotAward, ...]:
    """Each pot of a complete round and how it is divided; :class:`IllegalEvent` says what is missing.

    The settlement is made from these; the dealer's screen can show them pot by pot.
    """
    waiting = waiting_for(state)
    if waiting:
        raise IllegalEvent(waiting[0].what)
    pots = build_pots({s.seat: s.total for s in state.seats}, state.live)
    values = _values(state, state.live)
    return tuple(_award(state, pot, values) for pot in pots)


def settle_round(state: PokerRoomState) -> Settlement:
    v = state.variant
    awards = pot_awards(state)
    contributions = {s.seat: s.total for s in state.seats}
    values = _values(state, state.live)
    received: dict[tuple[int, str], list[Share]] = {}
    for award in awards:
        total = sum(sh.amount for sh in award.shares)
        if total != award.pot.amount:  # pragma: no cover - divide() guarantees it
            raise AssertionError(f"{award.pot.name}: {total} shared of {award.pot.amount}")
        for sh in award.shares:
            received.setdefault((sh.seat, award.pot.name), []).append(sh)
    kill_seat, kill_words = _kill(state, awards)
    outcomes: list[Outcome] = []
    for seat in sorted(contributions, reverse=True):
        player = _seat(state, seat)
        if player.folded:
            hand = "folded"
        elif seat in values:
            hand = "; ".join(_words(p, values[seat][p.name]) for p in v.parts)
        else:
            hand = ""
        for award in awards:
            stake = award.pot.contribution(seat)
            shares = received.get((seat, award.pot.name), [])
            got = sum(sh.amount for sh in shares)
            if stake == 0 and got == 0:
                continue
            net = got - stake
            result = Result.WIN if net > 0 else Result.PUSH if net == 0 else Result.LOSE
            flags: list[str] = []
            if any(sh.odd_chip for sh in shares):
                flags.append(ODD_CHIP)
            if kill_seat == seat and got:
                flags.append(KILL_FLAG)
            pot_words = f"the {award.pot.words} {format_money(award.pot.amount)}"
            if player.folded:
                note = f"receives nothing of {pot_words}"
            elif shares:
                parts = ", ".join(
                    f"{sh.part} {format_money(sh.amount)}"
                    + (f" with the excess {format_money(sh.odd_chip)}" if sh.odd_chip else "")
                    for sh in shares
                )
                note = f"receives {format_money(got)} of {pot_words} ({parts})"
            else:
                note = f"receives nothing of {pot_words}: a better hand won it"
            outcomes.append(
                Outcome(
                    seat,
                    award.pot.name,
                    stake,
                    result,
                    net,
                    hand=hand,
                    section=award.section if not player.folded else v.at("(g)"),
                    note=note,
                    flags=tuple(flags),
                )
            )
    lines = [f"{v.title} ({v.section})"]
    lines.extend(a.words for a in awards)
    lines.extend(state.notes)
    if kill_words:
        lines.append(kill_words)
    return Settlement(NAME, tuple(outcomes), {}, dealer=". ".join(lines))


def _kill(state: PokerRoomState, awards: Sequence[PotAward]) -> tuple[int | None, str]:
    """The Kill or Half-kill option (§ 637a.19(b), (l)(3), § 637a.20(b), § 637a.21(b)): which player won the
    whole of a qualifying pot, and the words for the dealer. The text names the option and the minimum
    value of a qualifying pot; what a kill changes in the next round is left to the Rules Submission."""
    rules = state.rules
    if rules.kill == "none":
        return None, ""
    won = [a for a in awards if not a.pot.returned]
    total = sum(a.pot.amount for a in won)
    name = "Kill" if rules.kill == "kill" else "Half-kill"
    posted = f" (seat {state.kill_seat} posted the kill this round)" if state.kill_seat is not None else ""
    if total < rules.kill_qualifying_pot:
        return None, (
            f"{name} option{posted}: the pot of {format_money(total)} is below the qualifying pot of "
            f"{format_money(rules.kill_qualifying_pot)}"
        )
    winners = {sh.seat for a in won for sh in a.shares}
    if len(winners) != 1:
        return None, (
            f"{name} option{posted}: the pot of {format_money(total)} reaches the qualifying pot of "
            f"{format_money(rules.kill_qualifying_pot)} but was divided among seats "
            f"{', '.join(map(str, sorted(winners)))}: no single winner of a qualifying pot (§ 637a.19(l)(3))"
        )
    seat = winners.pop()
    return seat, (
        f"{name} option{posted}: seat {seat} won the whole pot of {format_money(total)}, at least the "
        f"qualifying pot of {format_money(rules.kill_qualifying_pot)}; the {name.lower()} applies to the "
        "next round as the Rules Submission describes (§ 637a.19(l)(3); what it changes is not defined in "
        "§§ 637a.19-637a.21)"
    )


def kill_winner(state: PokerRoomState) -> int | None:
    """The player who won the whole of a qualifying pot under the Kill or Half-kill option: he kills
    the next round (§ 637a.19(l)(3)); ``None`` when nobody did or the round is not complete."""
    if state.rules.kill == "none":
        return None
    try:
        awards = pot_awards(state)
    except IllegalEvent:
        return None
    return _kill(state, awards)[0]
