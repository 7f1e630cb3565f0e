"""The settlement of a Three Card Poker round (§ 649a.11(c), § 649a.12): the dealer's qualifying
hand, the Ante and Play against it, the Ante Bonus, Pair Plus and Six Card Bonus by their
paytables, each seat from the dealer's right."""

from __future__ import annotations

from collections.abc import Mapping

from ...core.cards import Card
from ...core.hand import HandValue, Ranking
from ...core.money import Award, Cents, Odds, format_money
from ...core.payout_limit import PayoutLimit
from ...core.settlement import PAYOUT_LIMITED, Outcome, Result, Settlement
from ...rankings.three_card import (
    HIGH_CARD,
    SUPER_ROYAL_NAME,
    THREE_CARD_POKER,
    THREE_CARD_POKER_MINI_ROYAL,
    six_card_bonus_eligible,
    six_card_bonus_value,
)
from .rules import (
    ANTE,
    ANTE_BONUS,
    DEALER,
    MINI_ROYAL_NAME,
    PAIR_PLUS,
    PLAY,
    SEC_ANTE_BONUS,
    SEC_ANTE_PLAY,
    SEC_FOLD,
    SEC_MINI_ROYAL_AB,
    SEC_MINI_ROYAL_PP,
    SEC_PAIR_PLUS,
    SEC_SIX_CARD,
    SEC_SUPER_ROYAL,
    SIX_CARD_BONUS,
    SUPER_ROYAL_PAYTABLE,
    ThreeCardPokerRules,
)
from .state import ThreeCardPokerState

# --- settlement ------------------------------------------------------------------------------


def qualifies(dealer: HandValue) -> bool:
    """The dealer's hand qualifies with a queen-high or better (§ 649a.11(c)(3))."""
    category, top = dealer.key[0], dealer.key[1]
    return category > HIGH_CARD or top >= 12


def _ranking(rules: ThreeCardPokerRules) -> Ranking:
    """With a mini-royal flush in a paytable, it outranks a straight flush (§ 649a.6(e))."""
    return THREE_CARD_POKER_MINI_ROYAL if rules.mini_royal_offered else THREE_CARD_POKER


def _award(
    table: Mapping[str, Award | None], mini_royal: Odds | None, hand: HandValue
) -> tuple[Odds | None, str]:
    """The odds ``hand`` wins in ``table`` (``None``: it loses) and the hand's category in that table.

    A mini-royal flush is one only where the paytable includes it (§ 649a.6(e), § 649a.12(g));
    elsewhere the ace-king-queen of one suit is the straight flush it is.
    """
    category = hand.category
    if category == MINI_ROYAL_NAME:
        if mini_royal is not None:
            return mini_royal, category
        category = "straight flush"
    award = table.get(category)
    return (award if isinstance(award, Odds) else None), category


def _win(
    seat: int,
    wager: str,
    stake: Cents,
    won: Cents,
    limit: Cents | None,
    hand: str,
    section: str,
    note: str,
) -> Outcome:
    held, was_limited = PayoutLimit(limit, "§ 601a.2").hold(won)
    if was_limited:
        return Outcome(
            seat,
            wager,
            stake,
            Result.WIN,
            held,
            hand,
            f"{section}; § 601a.2",
            f"{note}; held to the payout limit of {format_money(held)}",
            (PAYOUT_LIMITED,),
        )
    return Outcome(seat, wager, stake, Result.WIN, won, hand, section, note)


def _lose(seat: int, wager: str, stake: Cents, hand: str, section: str, note: str) -> Outcome:
    return Outcome(seat, wager, stake, Result.LOSE, -stake, hand, section, note)


def _push(seat: int, wager: str, stake: Cents, hand: str, section: str, note: str) -> Outcome:
    return Outcome(seat, wager, stake, Result.PUSH, 0, hand, section, note)


def settle_round(game: str, state: ThreeCardPokerState) -> Settlement:
    rules = state.rules
    ranking = _ranking(rules)
    dealer_cards = state.hands[DEALER]
    dealer = ranking.evaluate(dealer_cards)
    dealer_qualifies = qualifies(dealer)
    outcomes: list[Outcome] = []
    for seat in sorted(state.wagers, reverse=True):  # from the dealer's right (§ 649a.11(c))
        outcomes.extend(_settle_seat(state, seat, ranking, dealer, dealer_qualifies, dealer_cards))
    words = (
        f"{dealer.words}; {'qualifies' if dealer_qualifies else 'does not qualify'} (queen-high or better)"
    )
    return Settlement(game, tuple(outcomes), dict(state.meters), dealer=words)


def _settle_seat(
    state: ThreeCardPokerState,
    seat: int,
    ranking: Ranking,
    dealer: HandValue,
    dealer_qualifies: bool,
    dealer_cards: tuple[Card, ...],
) -> list[Outcome]:
    rules, wagers, limit = state.rules, state.wagers[seat], state.rules.payout_limit
    cards = state.hands[str(seat)]
    player = ranking.evaluate(cards)
    folded = state.decisions.get(seat) == "fold"
    out: list[Outcome] = []
    if ANTE in wagers:
        ante = wagers[ANTE]
        if folded:
            out.append(_lose(seat, ANTE, ante, player.words, SEC_FOLD, "folded: the Ante Wager is forfeited"))
        else:
            play = wagers[PLAY]
            out.extend(_ante_and_play(seat, ante, play, player, dealer, dealer_qualifies, limit))
            odds_, category = _award(rules.ante_bonus_odds, rules.mini_royal_ante_bonus, player)
            if odds_ is not None:
                section = SEC_MINI_ROYAL_AB if category == MINI_ROYAL_NAME else SEC_ANTE_BONUS
                out.append(
                    _win(
                        seat,
                        ANTE_BONUS,
                        ante,
                        odds_.net(ante),
                        limit,
                        player.words,
                        section,
                        f"Ante Bonus on a {category} at {odds_}, whatever the dealer's hand",
                    )
                )
    if PAIR_PLUS in wagers:
        stake = wagers[PAIR_PLUS]
        if folded:
            out.append(
                _lose(
                    seat, PAIR_PLUS, stake, player.words, SEC_FOLD, "folded: the Pair Plus Wager is forfeited"
                )
            )
        else:
            odds_, category = _award(rules.pair_plus_odds, rules.mini_royal_pair_plus, player)
            if odds_ is None:
                out.append(_lose(seat, PAIR_PLUS, stake, player.words, SEC_PAIR_PLUS, "less than a pair"))
            else:
                section = SEC_MINI_ROYAL_PP if category == MINI_ROYAL_NAME else SEC_PAIR_PLUS
                note = f"{category} at {odds_}, whatever the dealer's hand"
                out.append(_win(seat, PAIR_PLUS, stake, odds_.net(stake), limit, player.words, section, note))
    if SIX_CARD_BONUS in wagers:
        out.append(_six_card_bonus(state, seat, cards, dealer_cards, folded))
    return out


def _ante_and_play(
    seat: int,
    ante: Cents,
    play: Cents,
    player: HandValue,
    dealer: HandValue,
    dealer_qualifies: bool,
    limit: Cents | None,
) -> list[Outcome]:
    """§ 649a.11(c)(3): the Ante and Play Wagers against the dealer; winners paid 1 to 1 (§ 649a.12(a))."""
    hand, sec = player.words, SEC_ANTE_PLAY
    if not dealer_qualifies:
        note = "the dealer does not qualify: the Ante Wager is paid and the Play Wager returned"
        return [
            _win(seat, ANTE, ante, ante, limit, hand, sec, note),
            _push(seat, PLAY, play, hand, sec, note),
        ]
    if player > dealer:
        note = "beats the dealer's qualifying hand"
        return [
            _win(seat, ANTE, ante, ante, limit, hand, sec, note),
            _win(seat, PLAY, play, play, limit, hand, sec, note),
        ]
    if player == dealer:
        note = "ties the dealer's hand: both wagers returned"
        return [_push(seat, ANTE, ante, hand, sec, note), _push(seat, PLAY, play, hand, sec, note)]
    note = "loses to the dealer's qualifying hand"
    return [_lose(seat, ANTE, ante, hand, sec, note), _lose(seat, PLAY, play, hand, sec, note)]


def _six_card_bonus(
    state: ThreeCardPokerState,
    seat: int,
    cards: tuple[Card, ...],
    dealer_cards: tuple[Card, ...],
    folded: bool,
) -> Outcome:

    rules = state.rules
    stake = state.wagers[seat][SIX_CARD_BONUS]
    super_royal = rules.six_card_bonus_paytable == SUPER_ROYAL_PAYTABLE
    value = six_card_bonus_value(cards, dealer_cards, super_royal=super_royal)
    if folded:
        return _lose(
            seat, SIX_CARD_BONUS, stake, value.words, SEC_FOLD, "folded: the Six Card Bonus is forfeited"
        )
    table = rules.six_card_bonus_odds
    assert table is not None  # check_six_card_bonus: offered means the paytable is given
    award = table.get(value.category) if six_card_bonus_eligible(value) else None
    if not isinstance(award, Odds):
        return _lose(seat, SIX_CARD_BONUS, stake, value.words, SEC_SIX_CARD, "less than three-of-a-kind")
    section = SEC_SUPER_ROYAL if value.category == SUPER_ROYAL_NAME else SEC_SIX_CARD
    letter = rules.six_card_bonus_paytable
    note = f"{value.category} of the player's and the dealer's six cards, paytable {letter}, at {award}"
    return _win(seat, SIX_CARD_BONUS, stake, award.net(stake), rules.payout_limit, value.words, section, note)
