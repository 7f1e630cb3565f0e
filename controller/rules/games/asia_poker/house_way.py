"""The dealer's house way at Asia Poker: how the dealer's seven cards are set (§ 659a.11(c)).

"The certificate holder shall specify in its Rules Submission under § 601a.2
the manner in which the hands of the dealer shall be set" (§ 659a.11(c)); "If a
player requests assistance in the setting of his hands, the dealer shall inform
the player of the manner in which the certificate holder requires the hands of
the dealer to be set" (§ 659a.11(a)(1)); "If the dealer does not set his hands
in the manner in which the certificate holder requires ..., the hands shall be
reset in accordance with the certificate holder's Rules Submission"
(§ 659a.13(i)).

A house way here is a named rule in :data:`HOUSE_WAYS`; the Rules Submission
names one (``house_way = "standard"``). Each is a *preference order
over the legal settings*: of the 105 ways to split seven cards into a
four-card high hand, a two-card medium hand and a one-card low hand
(:func:`~.asia_poker.all_settings`), only those § 659a.11(b) allows (high
higher than medium, medium higher than low) are candidates, and the house way
takes the one it prefers. So a house way always yields a legally set hand, as
long as seven cards always have a legal setting, which they do (the tests check
every rank pattern of seven cards, with and without the joker; suits can only
raise a four-card hand, never lower one, so a setting legal for one choice of
suits is legal for all).

The house ways shipped (see ``docs/games/asia-poker.md``):

``standard`` (the default)
    1. If the seven cards hold a pair (two cards of a rank, the joker counting
       as an ace), the high hand is a pair or better.
    2. Then the best medium hand; with it, the best low hand; with those, the
       best high hand.

    A legal setting keeping a pair or better high always exists when the cards
    hold a pair (the highest pair and the two lowest other cards high, the next
    two highest medium, the one left low), so rule 1 never leaves nothing.
    What the rule does, in the usual words of a pai-gow-style house way, for
    seven cards holding no four-card straight or flush: no pair: the highest
    card stays in the high hand, the next two make the medium hand, the next
    one is the low hand; one pair (aces included): the pair stays in the high
    hand, the two highest other cards make the medium hand, the next one is the
    low hand; two pair: the higher pair in the high hand, the lower pair as the
    medium hand, the highest other card the low hand; three pair: the highest
    pair as the medium hand, the other two pairs as the high hand;
    three-of-a-kind: two or three of them stay high, whichever leaves the
    better medium and then low hand. These are consequences, not extra rules:
    where a four-card straight or flush lets the medium hand be a better pair
    (9-9 in the middle beside 5-6-7-8 in the high hand), the rule takes it.

``strongest-high``
    The best high hand the cards allow; with it, the best medium hand; with
    those, the best low hand.

"Best" is the order of § 659a.6(b), (c) (:mod:`~controller.rules.rankings.asia_poker`), under the Rules
Submission's choice of where ace-2-3-4 ranks (§ 659a.6(b)(3), (6)). Where two
settings rank the same in all three hands (the same ranks in other suits), the
house way keeps the higher cards in the higher hands, cards ordered by rank and
then suit (clubs, diamonds, hearts, spades; the joker above all): so the
setting does not depend on the order in which the seven cards arrive.

To plug in another house way, add a :class:`HouseWay` to ``_SHIPPED``: its
``preference`` (what it maximizes over the legal settings, the reference) and
its ``choose`` (a fast form giving the same setting, which :func:`set_hands`
checks is legal).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from types import MappingProxyType
from typing import Final

from ...core.cards import ACE, Card, CardError, check_cards, format_cards
from ...core.dispatch import did_you_mean
from ...rankings.asia_poker import (
    PAIR,
    Key,
    Setting,
    all_settings,
    high_key,
    low_key,
    medium_key,
    setting_is_valid,
)

SettingKeys = tuple[Key, Key, Key]
"""The order keys of a setting's high, medium and low hands (§ 659a.6(b), (c))."""

Preference = tuple[object, ...]
"""What a house way maximizes over the legal settings (compared as a tuple)."""

TieBreak = tuple[tuple[int, ...], tuple[int, ...], int]
"""The card indexes of the high and medium hands (highest first) and of the low hand."""


def _tie_break(high: Sequence[Card], medium: Sequence[Card], low: Sequence[Card]) -> TieBreak:
    return (
        tuple(sorted((c.index for c in high), reverse=True)),
        tuple(sorted((c.index for c in medium), reverse=True)),
        low[0].index,
    )


def _ordered(seven: Sequence[Card]) -> tuple[Card, ...]:
    """The cards highest first by index (rank, then suit c < d < h < s; the joker first)."""
    return tuple(sorted(seven, key=lambda c: c.index, reverse=True))


def holds_pair(seven: Sequence[Card]) -> bool:
    """Whether the cards hold two of a rank, the joker counting as an ace (§ 659a.6(a))."""
    ranks = [c.rank or ACE for c in seven]
    return len(set(ranks)) < len(ranks)


# --- the preferences: what each house way maximizes ----------------------------------------------


def _standard_preference(seven: Sequence[Card], keys: SettingKeys) -> Preference:
    kh, km, kl = keys
    keeps_pair = kh[0] >= PAIR if holds_pair(seven) else True
    return (keeps_pair, km, kl, kh)


def _strongest_high_preference(seven: Sequence[Card], keys: SettingKeys) -> Preference:
    kh, km, kl = keys
    return (kh, km, kl)


# --- the fast forms -----------------------------------------------------------------------------------


def _standard(seven: Sequence[Card], a234_low: bool) -> Setting:
    """The ``standard`` house way, without trying all 105 settings.

    The 21 medium hands are tried from the best down; the first group of equally
    ranked medium hands that leaves a legal low and high hand (with the high hand
    a pair or better, where the cards hold a pair) is the one; within it the best
    low hand, then the best high hand, then the tie rule.
    """
    least = PAIR if holds_pair(seven) else 0
    cards = _ordered(seven)
    mediums = sorted(
        ((medium_key((cards[i], cards[j])), i, j) for i, j in combinations(range(7), 2)),
        key=lambda m: m[0],
        reverse=True,
    )
    at = 0
    while at < len(mediums):
        km = mediums[at][0]
        best: tuple[Key, Key, TieBreak] | None = None
        chosen: Setting | None = None
        while at < len(mediums) and mediums[at][0] == km:
            _, i, j = mediums[at]
            at += 1
            medium = (cards[i], cards[j])
            rest = [c for k, c in enumerate(cards) if k not in (i, j)]
            for n, low_card in enumerate(rest):
                kl = low_key((low_card,))
                if not km > kl:
                    continue
                high = tuple(c for k, c in enumerate(rest) if k != n)
                kh = high_key(high, a234_low=a234_low)
                if not (kh > km and kh[0] >= least):
                    continue
                rank = (kl, kh, _tie_break(high, medium, (low_card,)))
                if best is None or rank > best:
                    best, chosen = rank, (high, medium, (low_card,))
        if chosen is not None:
            return chosen
    raise CardError(f"no legal setting of {format_cards(seven)} (§ 659a.11(b))")


def _strongest_high(seven: Sequence[Card], a234_low: bool) -> Setting:
    """The ``strongest-high`` house way, without trying all 105 settings.

    The 35 high hands are tried from the best down, each with the three ways to
    split the other three cards into a medium and a low hand.
    """
    cards = _ordered(seven)
    highs = sorted(
        (
            (high_key(tuple(cards[k] for k in four), a234_low=a234_low), four)
            for four in combinations(range(7), 4)
        ),
        key=lambda h: h[0],
        reverse=True,
    )
    at = 0
    while at < len(highs):
        kh = highs[at][0]
        best: tuple[Key, Key, TieBreak] | None = None
        chosen: Setting | None = None
        while at < len(highs) and highs[at][0] == kh:
            _, four = highs[at]
            at += 1
            high = tuple(cards[k] for k in four)
            rest = [c for k, c in enumerate(cards) if k not in four]
            for n, low_card in enumerate(rest):
                medium = tuple(c for k, c in enumerate(rest) if k != n)
                km, kl = medium_key(medium), low_key((low_card,))
                if not kh > km > kl:
                    continue
                rank = (km, kl, _tie_break(high, medium, (low_card,)))
                if best is None or rank > best:
                    best, chosen = rank, (high, medium, (low_card,))
        if chosen is not None:
            return chosen
    raise CardError(f"no legal setting of {format_cards(seven)} (§ 659a.11(b))")


@dataclass(frozen=True, slots=True)
class HouseWay:
    """A named manner of setting the dealer's hands (§ 659a.11(c)).

    ``preference`` says what the house way maximizes over the legal settings
    (given the seven cards and a setting's keys); ``choose`` is its fast form,
    which must give the same setting as :func:`best_legal_setting`.
    """

    name: str
    summary: str
    preference: Callable[[Sequence[Card], SettingKeys], Preference]
    choose: Callable[[Sequence[Card], bool], Setting]


STANDARD: Final = HouseWay(
    name="standard",
    summary="a pair or better stays high where the cards hold a pair; then the best medium hand, "
    "the best low hand, the best high hand",
    preference=_standard_preference,
    choose=_standard,
)

STRONGEST_HIGH: Final = HouseWay(
    name="strongest-high",
    summary="the best high hand, then the best medium hand, then the best low hand",
    preference=_strongest_high_preference,
    choose=_strongest_high,
)

_SHIPPED: Final = (STANDARD, STRONGEST_HIGH)

HOUSE_WAYS: Final[Mapping[str, HouseWay]] = MappingProxyType({hw.name: hw for hw in _SHIPPED})
"""Every house way a Rules Submission may name, by name."""

DEFAULT_HOUSE_WAY: Final = STANDARD.name


def house_way(name: str) -> HouseWay:
    """The house way called ``name``; a :class:`ValueError` with a "did you mean" otherwise."""
    found = HOUSE_WAYS.get(name)
    if found is None:
        hint = did_you_mean(name, list(HOUSE_WAYS), 0.5)
        raise ValueError(f"no house way {name!r}{hint} (house ways: {', '.join(HOUSE_WAYS)})")
    return found


def setting_keys(setting: Setting, *, a234_low: bool = False) -> SettingKeys:
    """The order keys of the high, medium and low hands of ``setting``."""
    high, medium, low = setting
    return high_key(high, a234_low=a234_low), medium_key(medium), low_key(low)


def set_hands(
    seven: Sequence[Card], way: str | HouseWay = DEFAULT_HOUSE_WAY, *, a234_low: bool = False
) -> Setting:
    """The dealer's setting of ``seven`` cards by the house way (§ 659a.11(c)); also "help me set".

    The seven cards must come from one deck with one joker (§ 659a.3(a)). The
    result is always legal under § 659a.11(b); this is checked here, so a
    plugged-in house way that broke the rule would fail loudly, not silently.
    """
    if len(seven) != 7:
        raise CardError(f"the house way sets seven cards (§ 659a.11(c)), not {len(seven)}")
    check_cards(seven, decks=1, allow_joker=True)
    hw = way if isinstance(way, HouseWay) else house_way(way)
    high, medium, low = hw.choose(seven, a234_low)
    if sorted(c.index for c in (*high, *medium, *low)) != sorted(c.index for c in seven):
        raise CardError(f"house way {hw.name!r} did not set the cards it was given: {format_cards(seven)}")
    if not setting_is_valid(high, medium, low, a234_low=a234_low):
        raise CardError(f"house way {hw.name!r} set {format_cards(seven)} against § 659a.11(b)")
    return high, medium, low


def best_legal_setting(
    seven: Sequence[Card], way: str | HouseWay = DEFAULT_HOUSE_WAY, *, a234_low: bool = False
) -> Setting:
    """The legal setting the house way prefers, found by trying all 105 settings.

    The reference for the house ways' fast forms (and the peer of the
    benchmark); ties are broken as the fast forms break them.
    """
    hw = way if isinstance(way, HouseWay) else house_way(way)
    best: tuple[Preference, TieBreak] | None = None
    chosen: Setting | None = None
    for high, medium, low in all_settings(_ordered(seven)):
        keys = setting_keys((high, medium, low), a234_low=a234_low)
        if not keys[0] > keys[1] > keys[2]:
            continue
        rank = (hw.preference(seven, keys), _tie_break(high, medium, low))
        if best is None or rank > best:
            best, chosen = rank, (high, medium, low)
    if chosen is None:
        raise CardError(f"no legal setting of {format_cards(seven)} (§ 659a.11(b))")
    return chosen


def describe_setting(setting: Setting) -> str:
    """``"high As Ks Qs Js, medium 7c 7d, low 2h"``."""
    high, medium, low = setting
    return f"high {format_cards(high)}, medium {format_cards(medium)}, low {format_cards(low)}"


__all__ = [
    "DEFAULT_HOUSE_WAY",
    "HOUSE_WAYS",
    "STANDARD",
    "STRONGEST_HIGH",
    "HouseWay",
    "Preference",
    "SettingKeys",
    "best_legal_setting",
    "describe_setting",
    "holds_pair",
    "house_way",
    "set_hands",
    "setting_keys",
]
