"""The pin map's wagering devices against the game's progressives: which device counts which
progressive, checked before the daemon opens a pin.

Every progressive the Rules Submission offers is counted by a wagering device at each betting
position (§ 639a.2(c)(1), § 633a.2(c), (d)(1)); a game that offers several (Blackjack's Bad
Beat, Hit and Run and Straight Jack) has one device per progressive per seat,
``[gpio.seats.N.progressives.NAME]``, and the seat's one ``sensor`` is the device of a game
that offers one (docs/gpio.md). A problem is a configuration error (exit 78), naming its key.
"""

from __future__ import annotations

from collections.abc import Iterable

from controller.rules.core.dispatch import did_you_mean
from hw.pin_map import SINGLE, PinMap, device_key

from ..rules.core.options import specs
from ..rules.core.submission import Submission
from .game_hooks import sensed_progressives

_RATE = ".rate_of_progression"


def progressive_names(submission: Submission) -> tuple[str, ...]:
    """Every progressive the game's Rules Submission schema names (``<name>.rate_of_progression``,
    docs/new-game.md), offered or not: a device may be installed for one not offered today."""
    return tuple(
        spec.key.removesuffix(_RATE) for _, spec in specs(type(submission.rules)) if spec.key.endswith(_RATE)
    )


def sensor_problems(pin_map: PinMap, submission: Submission, where: str = "gpio") -> list[str]:
    """One line per problem between the pin map's devices and the game's sensor-counted
    progressives, each naming its key; empty if every offered progressive has its device at
    every seat."""
    offered = sensed_progressives(submission)
    names = progressive_names(submission)
    title = submission.game.title
    out: list[str] = []
    for seat in pin_map.seats:
        named = {d.name for d in seat.progressives}
        for name in sorted(named - {p.name for p in offered}):
            if name in names:
                continue  # installed for a progressive this Rules Submission does not offer
            out.append(_unknown(f"{_progressives_key(seat.seat, where)}.{name}", name, title, names))
        if len(offered) > 1 and seat.sensor is not None:
            out.append(
                f"{device_key(seat.seat, SINGLE, 'sensor', where)}: {title} offers {len(offered)} "
                f"progressives ({', '.join(p.name for p in offered)}), each on its own device: give the seat "
                f"{_progressives_key(seat.seat, where)}.NAME = {{ sensor = .., wager_lamp = .. }} for each "
                "instead of its one sensor and wager_lamp"
            )
        for p in offered:
            if p.name in named or (len(offered) == 1 and seat.sensor is not None):
                continue
            out.append(
                f"{_progressives_key(seat.seat, where)}.{p.name}: missing; the {p.title} ({p.section}) is "
                "counted by a wagering device at each betting position: its sensor and wager_lamp"
            )
    return out


def devices_of(
    pin_map: PinMap, submission: Submission, wagers: Iterable[tuple[int, str]]
) -> list[tuple[int, str]]:
    """The devices, ``(seat, device name)``, that counted the journaled ``wagers`` ``(seat,
    wager)`` (a restart in the middle of a round): a seat's device named as the wager, else its
    one device for the game's one progressive. Wagers of no device are left out."""
    offered = [p.name for p in sensed_progressives(submission)]
    devices = {(s.seat, d.name) for s in pin_map.seats for d in s.devices}
    out: list[tuple[int, str]] = []
    for seat, wager in wagers:
        if (seat, wager) in devices:
            out.append((seat, wager))
        elif offered == [wager] and (seat, SINGLE) in devices:
            out.append((seat, SINGLE))
    return out


def _progressives_key(seat: int, where: str) -> str:
    return ".".join(p for p in (where, "seats", str(seat), "progressives") if p)


def _unknown(key: str, name: str, title: str, names: tuple[str, ...]) -> str:
    hint = did_you_mean(name, names)
    if hint:
        return f"{key}: {title} has no progressive {name!r}{hint}"
    known = ", ".join(names) if names else "none"
    return f"{key}: {title} has no progressive {name!r} (its progressives: {known})"
