"""A betting round of the poker room (§ 637a.19(g), (h), § 637a.20(g), (h), § 637a.21(g), (h)).

(g): "each player, starting with the player to the left of the player or players who were
required to place a Blind Bet or the player who placed a Straddle Bet ... and continuing around
the table in a clockwise manner, may fold, call or raise the bet. The option to raise also
applies to a player who made a Blind Bet or Straddle Bet. After the last player has responded to
the most recent bet, the betting round shall be considered complete."

(h): "The first player to the left of the button who has not folded shall commence the next
betting round and may bet or check. Each subsequent player may, in clockwise rotation, fold, call,
raise or, if preceding players have not made a bet, make an opening bet or check."

A :class:`Betting` is one betting round: what each player has put in during it, the most recent
bet (``high``), the smallest raise now allowed, how many bets and raises were made (for the
Rules Submission's cap), and who has still to respond, in turn. The round is complete when
nobody has. The limits (no-limit, pot-limit, fixed) are the Rules Submission's (§ 601a.2); the text
names none.

Our readings where the text is silent (docs/games/poker-room.md): a raise is at least the last
bet or raise (no-limit, pot-limit) or exactly the fixed bet; a player all in for less may call,
bet or raise short; a short all-in raise does not reopen the raise to the players who had
already responded to the bet before it (they may call or fold).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from ...core.money import Cents


@dataclass(frozen=True, slots=True)
class Betting:
    """One betting round: ``street`` 0 is the first."""

    street: int
    high: Cents
    """The most any player has put in during this betting round (the bet to call)."""
    min_raise: Cents
    """The smallest raise (beyond ``high``) a player may make now, all in excepted."""
    raises: int
    """Bets and raises so far (the Blind Bet counts as the bet of the first round)."""
    pending: tuple[int, ...]
    """The players who have still to respond to the most recent bet, in turn: ``pending[0]`` acts."""
    no_raise: frozenset[int] = frozenset()
    """Players a short all-in raise did not reopen the raise to."""
    put: tuple[tuple[int, Cents], ...] = ()
    """What each player has put in during this betting round."""

    @property
    def turn(self) -> int | None:
        return self.pending[0] if self.pending else None

    def put_by(self, seat: int) -> Cents:
        return next((a for s, a in self.put if s == seat), 0)

    def to_call(self, seat: int) -> Cents:
        return self.high - self.put_by(seat)

    def with_put(self, seat: int, to: Cents) -> Betting:
        others = tuple((s, a) for s, a in self.put if s != seat)
        return replace(self, put=tuple(sorted((*others, (seat, to)))))

    def responded(self, seat: int, still: Iterable[int]) -> Betting:
        """``seat`` has responded: the others of ``pending`` who may still act are left."""
        keep = set(still)
        return replace(self, pending=tuple(s for s in self.pending[1:] if s in keep and s != seat))

    def reopened(self, seat: int, to: Cents, order: tuple[int, ...], full: bool) -> Betting:
        """``seat`` bet or raised to ``to``: every other player who may act responds again, in turn
        after him. A full raise sets the next minimum; a short all-in leaves the raise closed to the
        players who had already responded at the bet before."""
        after = order[order.index(seat) + 1 :] + order[: order.index(seat)]
        waiting_before = set(self.pending[1:])
        pending = tuple(s for s in after if s != seat)
        if full:
            return replace(
                self,
                high=to,
                min_raise=to - self.high,
                raises=self.raises + 1,
                pending=pending,
                no_raise=frozenset(),
            )
        closed = self.no_raise | {s for s in pending if s not in waiting_before}
        return replace(self, high=to, pending=pending, no_raise=frozenset(closed))


def rotate(order: tuple[int, ...], first: int) -> tuple[int, ...]:
    """``order`` from ``first`` round to the player before him."""
    i = order.index(first)
    return order[i:] + order[:i]
