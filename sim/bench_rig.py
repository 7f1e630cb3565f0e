"""The bench rig: the daemon with everything outside the Pi simulated, and a scripted dealer.

:class:`BenchRig` writes a temporary configuration (this user and group for the local API, a temp
journal, a temp socket), the game's Rules Submission (Caribbean Stud by default; the others come
from ``sim.bench_games``), starts the shoe and the shuffler (and, for Blackjack, the hole-card
reader) on real pseudo-terminals (``sim.devices``), gives the daemon gpiozero's ``MockFactory``
pins, and runs :class:`controller.daemon.Daemon` in this process. :class:`ScriptedDealer` then
deals Caribbean Stud rounds as a dealer would: antes through the local API (the touchscreen),
progressive chips on the sensors, the lock-out button, the cards through the shoe, the players'
decisions through the API, and prints what the daemon journaled and how each seat is settled. The
other games' scripted dealers are in ``sim.bench_games``.

No display, no root, no hardware: ``tablectl bench --game NAME --rounds 3``. Not part of the
product. docs/bench-rig.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import grp
import importlib.util
import os
import pwd
import random
import shutil
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from controller.api_client import ApiClient, ApiError, Credentials
from controller.auth import Role, make_user, save_users
from controller.config import load_config
from controller.daemon import Daemon, load_submission
from controller.rules.core.cards import Card, standard_deck
from controller.rules.core.hooks import Devices
from controller.rules.core.money import format_money
from controller.rules.core.submission import parse_submission
from controller.rules.games import GAMES
from sim.devices import HoleCardReaderSimulator, ShoeSimulator, ShufflerSimulator

#: The rig's pins (BCM numbers, as in examples/table-controller.toml): lock-out, light, seats.
LOCK_OUT_PIN: Final = 17
FLOORPERSON_PIN: Final = 27
SEAT_PINS: Final[Mapping[int, tuple[int, int, int]]] = {
    1: (5, 6, 13),
    2: (19, 26, 12),
    3: (16, 20, 21),
    4: (22, 23, 24),
    5: (25, 8, 7),
}
"""seat -> (sensor, wager_lamp, won_lamp)."""
NAMED_SEAT_PINS: Final[Mapping[int, tuple[int, tuple[tuple[int, int], ...]]]] = {
    1: (13, ((5, 6), (19, 26), (12, 16))),
    2: (20, ((21, 22), (23, 24), (25, 8))),
    3: (7, ((4, 18), (14, 15), (9, 10))),
}
"""A game with several progressives (Blackjack's three, § 633a.2(c), (d)): seat -> (won_lamp,
(sensor, wager_lamp) of each progressive in the game's order). Seven pins a seat: the Pi's GPIOs
carry three such seats (docs/gpio.md)."""

TABLE_ID: Final = "CS-BENCH"
"""The rig's table id, whatever game it deals (every bench Rules Submission names it)."""
CARIBBEAN_STUD: Final = "caribbean-stud"

EXAMPLES: Final = Path(__file__).resolve().parent / "bench-examples"
"""examples/<game>/rules-submission.toml: the one Rules Submission of each game (EXAMPLE VALUES).
``sim/bench-examples`` links to the repository's ``examples/`` in the source tree; an installed rig
carries the Rules Submissions as package data (sim/pyproject.toml)."""


def example_submission(game: str) -> str:
    """``game``'s example Rules Submission (``examples/<game>/``) on the rig's table: its
    ``table`` renamed :data:`TABLE_ID`, since the daemon checks that the config's table matches."""
    path = EXAMPLES / game / "rules-submission.toml"
    try:
        text = path.read_text("utf-8")
    except OSError as exc:
        raise ValueError(f"{path}: the example Rules Submission of {game!r}: {exc.strerror}") from None
    return "".join(
        f'table = "{TABLE_ID}"\n' if line.startswith("table = ") else line
        for line in text.splitlines(keepends=True)
    )


RULES_SUBMISSION: Final = example_submission(CARIBBEAN_STUD)
"""The rig's Caribbean Stud table: the example's Rules Submission (docs/games/caribbean-stud.md)."""

#: How long to wait for the daemon to act on a device or a pin.
WAIT_SECONDS: Final = 5.0
#: The bench's floorperson (users.json, written if the directory has none): confirms a void.
BENCH_FLOOR: Final = Credentials("bench-floor", "246810")
#: Longer than the pins' debounce window (20 ms): two edges of one pin this far apart are both taken.
EDGE_GAP: Final = 0.05


def device_pins(progressives: Sequence[str] = ()) -> dict[tuple[int, str], int]:
    """The rig's sensor pin of each wagering device, ``(seat, progressive)``: the seat's one
    (``""``) on :data:`SEAT_PINS`, or, for a game with several ``progressives``, one each on
    :data:`NAMED_SEAT_PINS`."""
    if len(progressives) <= 1:
        return {(seat, ""): pins[0] for seat, pins in SEAT_PINS.items()}
    return {
        (seat, name): sensor
        for seat, (_, devices) in NAMED_SEAT_PINS.items()
        for name, (sensor, _) in zip(progressives, devices, strict=False)
    }


def config_text(
    tmp: Path,
    shoe: str | None = None,
    shuffler: str | None = None,
    reader: str | None = None,
    progressives: Sequence[str] = (),
) -> str:
    """The daemon's configuration for a rig in ``tmp``; serial devices only where a port is given
    (``reader``: the hole-card reader, § 633a.7(h)). ``progressives``: the game's sensor-counted
    progressives; more than one, and each seat gets a device per progressive
    (``[gpio.seats.N.progressives.NAME]``, :data:`NAMED_SEAT_PINS`)."""
    user = pwd.getpwuid(os.getuid()).pw_name
    group = grp.getgrgid(os.getgid()).gr_name
    if len(progressives) > 1:
        seats = "\n".join(
            f"[gpio.seats.{seat}]\nwon_lamp = {won}\n"
            + "".join(
                f"progressives.{name} = {{ sensor = {s}, wager_lamp = {w} }}\n"
                for name, (s, w) in zip(progressives, devices, strict=False)
            )
            for seat, (won, devices) in NAMED_SEAT_PINS.items()
        )
    else:
        seats = "\n".join(
            f"[gpio.seats.{seat}]\nsensor = {s}\nwager_lamp = {w}\nwon_lamp = {n}\n"
            for seat, (s, w, n) in SEAT_PINS.items()
        )
    return f"""# The bench rig's daemon configuration (docs/config.md), written by sim/bench_rig.py.
[table]
id = "{TABLE_ID}"
rules_submission = "{tmp / "rules-submission.toml"}"

[journal]
path = "{tmp / "journal.sqlite"}"

[api]
socket = "{tmp / "run" / "api.sock"}"
group = "{group}"
dealer_user = "{user}"
users_file = "{tmp / "users.json"}"

[gpio]
lock_out = {LOCK_OUT_PIN}
floorperson_light = {FLOORPERSON_PIN}
debounce_ms = 20

{seats}""" + "".join(
        f'\n[{name}]\nport = "{port}"\nbaud = 115200\n'
        for name, port in (("shoe", shoe), ("shuffler", shuffler), ("reader", reader))
        if port is not None
    )


@dataclass
class BenchRig:
    """The daemon in this process with simulated devices and mock pins; ``async with``.

    ``directory``: where the configuration, journal and socket go (a new temporary directory,
    removed at the end, if ``None``). A given directory is kept, and a journal in it is recovered.
    ``game``: the game the table deals (its Rules Submission: ``sim.bench_games.rules_submission``);
    a Blackjack table also gets the hole-card reader on a pseudo-terminal (``reader``).
    """

    directory: Path | None = None
    factory: Any = field(default_factory=MockFactory)
    daemon: Daemon | None = None
    shoe: ShoeSimulator | None = None
    shuffler: ShufflerSimulator | None = None
    _owned: bool = False
    game: str = CARIBBEAN_STUD
    reader: HoleCardReaderSimulator | None = None
    devices: Devices | None = None
    table_id: str = TABLE_ID
    """The table's id (``[table] id`` and the Rules Submission's ``table``)."""
    extra_config: str = ""
    """More of the daemon's configuration (a ``[progressive_link]`` section)."""
    variant: str = ""
    """The poker room's variant (``--variant``; ``""``: its example's)."""
    progressives: tuple[str, ...] = ()
    """The game's sensor-counted progressives (from its Rules Submission, once entered)."""
    sensor_pins: dict[tuple[int, str], int] = field(default_factory=dict)
    """Each wagering device's sensor pin, ``(seat, progressive)`` (:func:`device_pins`)."""
    card_reader: bool = True
    """The table's shoe reads the cards it deals (the daemon's ``[shoe]``); ``False``: a poker table
    without a card reader (``--no-reader``), no shoe in the configuration: the dealer deals face down
    and the round counts, the board and the hands shown keyed (docs/games/poker-room.md)."""

    @property
    def path(self) -> Path:
        assert self.directory is not None
        return self.directory

    @property
    def config_path(self) -> Path:
        return self.path / "table-controller.toml"

    @property
    def socket(self) -> Path:
        return self.path / "run" / "api.sock"

    async def __aenter__(self) -> BenchRig:
        if self.directory is None:
            # Short: a Unix socket path is at most 107 bytes.
            self.directory = Path(tempfile.mkdtemp(prefix="bench-"))
            self._owned = True
        if self.card_reader:
            self.shoe = ShoeSimulator(self.path / "dev" / "shoe")
            await self.shoe.start()
        self.shuffler = ShufflerSimulator(self.path / "dev" / "shuffler")
        await self.shuffler.start()
        from sim.bench_games import rules_submission

        submission = rules_submission(self.game, self.variant)
        parsed = parse_submission(submission, GAMES, f"the bench rig's {self.game}")
        self.devices = parsed.game.devices(parsed.rules)
        self.progressives = tuple(p.name for p in parsed.game.progressives(parsed.rules) if p.sensor)
        self.sensor_pins = device_pins(self.progressives)
        if self.devices.hole_card_reader:
            self.reader = HoleCardReaderSimulator(self.path / "dev" / "reader")
            await self.reader.start()
        submission = submission.replace(f'table = "{TABLE_ID}"', f'table = "{self.table_id}"')
        (self.path / "rules-submission.toml").write_text(submission, encoding="utf-8")
        users = self.path / "users.json"
        if not users.exists():
            floor = BENCH_FLOOR
            save_users(users, {floor.user: make_user(floor.user, Role.FLOOR, floor.pin)})
        reader = self.reader.path if self.reader is not None else None
        shoe = self.shoe.path if self.shoe is not None else None
        text = config_text(self.path, shoe, self.shuffler.path, reader, self.progressives)
        text = text.replace(f'id = "{TABLE_ID}"', f'id = "{self.table_id}"') + self.extra_config
        self.config_path.write_text(text, "utf-8")
        await self.start_daemon()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop_daemon()
        for device in (self.shoe, self.shuffler, self.reader):
            if device is not None:
                await device.stop()
        self.factory.close()
        if self._owned and self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)

    async def start_daemon(self) -> Daemon:
        """Start the daemon (again: it recovers its state from the journal) and wait for the shoe."""
        config = load_config(self.config_path)
        self.daemon = Daemon(
            config, load_submission(config), config_path=self.config_path, pin_factory=self.factory
        )
        await self.daemon.start()
        # The devices the game declares it needs (Game.devices): every one online before play.
        names = self.devices.names if self.devices is not None else ("shoe",)
        await self.wait_for(
            lambda: self.daemon is not None and all(self.daemon.devices[n].state == "online" for n in names)
        )
        return self.daemon

    async def stop_daemon(self) -> None:
        if self.daemon is not None:
            await self.daemon.stop()
            self.daemon = None

    async def wait_for(self, condition: Callable[[], bool], timeout: float = WAIT_SECONDS) -> None:
        """Until ``condition()``; ``TimeoutError`` after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError("the daemon did not get there in time")
            await asyncio.sleep(0.01)

    async def settle(self) -> None:
        """Let the pins' and the drivers' events reach the daemon and be journaled."""
        await asyncio.sleep(EDGE_GAP)
        if self.daemon is not None:
            await self.daemon.drain()

    # --- the table's hands ---------------------------------------------------------------------

    async def _drive(self, pin: int, low: bool) -> None:
        mock = self.factory.pin(pin)
        # gpiozero calls its handlers in the thread that changes the pin: not the loop's.
        await asyncio.to_thread(mock.drive_low if low else mock.drive_high)
        await self.settle()

    async def press_lock_out(self) -> None:
        """The dealer presses and releases the lock-out button ("no more bets")."""
        await self._drive(LOCK_OUT_PIN, True)
        await self._drive(LOCK_OUT_PIN, False)

    def sensor_pin(self, seat: int, progressive: str = "") -> int:
        """The sensor of ``seat``'s device for ``progressive`` (``""``: the seat's one)."""
        pins = self.sensor_pins or device_pins()
        try:
            return pins[seat, progressive]
        except KeyError:
            have = ", ".join(f"seat {s} {n or 'progressive'}" for s, n in pins)
            raise ValueError(
                f"the rig has no wagering device at seat {seat} {progressive!r} ({have})"
            ) from None

    async def place_chip(self, seat: int, progressive: str = "") -> None:
        """A player puts a chip on the seat's progressive wagering device (the one counting
        ``progressive`` where the game offers several)."""
        await self._drive(self.sensor_pin(seat, progressive), True)

    async def lift_chip(self, seat: int, progressive: str = "") -> None:
        await self._drive(self.sensor_pin(seat, progressive), False)

    async def deal(self, position: str | int, cards: str) -> None:
        """The shoe reads ``cards`` and dispenses them for ``position``; wait until journaled."""
        assert self.shoe is not None and self.daemon is not None
        daemon = self.daemon
        before = daemon.state.last_seq
        await self.shoe.deal(position, cards)
        await self.wait_for(lambda: daemon.state.last_seq > before)
        await daemon.drain()

    async def read_hole_card(self, blackjack: bool) -> None:
        """The dealer slides the hole card into the reader; it answers ``BJ`` or ``NO``
        (§ 633a.7(h)); wait until journaled."""
        assert self.reader is not None and self.daemon is not None
        daemon = self.daemon
        before = daemon.state.last_seq
        await self.reader.read(blackjack)
        await self.wait_for(lambda: daemon.state.last_seq > before)
        await daemon.drain()

    async def jam(self, detail: str = "shoe stopped dispensing") -> None:
        """The shoe jams (§ 639a.13(f)); wait until journaled, then clear the fault."""
        assert self.shoe is not None and self.daemon is not None
        daemon = self.daemon
        before = daemon.state.last_seq
        await self.shoe.jam("jam", detail)
        await self.wait_for(lambda: daemon.state.last_seq > before)
        await daemon.drain()
        await self.shoe.clear()


# --- the scripted dealer ---------------------------------------------------------------------------


def _ranks(cards: str) -> list[str]:
    return [c[0] for c in cards.split()]


def plays(cards: str) -> bool:
    """A simple player: bet with a pair or better, or ace-king; otherwise fold."""
    ranks = _ranks(cards)
    return len(set(ranks)) < len(ranks) or ("A" in ranks and "K" in ranks)


@dataclass(frozen=True)
class SeatPlan:
    seat: int
    ante: str
    bonus: str | None = None
    progressive: bool = False


def plan_round(rng: random.Random) -> list[SeatPlan]:
    """Two to four players with antes; some add the Bonus, some a progressive chip."""
    seats = sorted(rng.sample(sorted(SEAT_PINS), rng.randint(2, 4)))
    return [
        SeatPlan(
            seat,
            f"{rng.choice((5, 10, 25))}.00",
            "5.00" if rng.random() < 0.4 else None,
            rng.random() < 0.5,
        )
        for seat in seats
    ]


def shuffled_deck(rng: random.Random, cards: Sequence[Card] | None = None) -> Iterator[str]:
    """``cards`` (one standard deck if ``None``) in an order drawn from ``rng``, as card texts."""
    deck = [str(c) for c in (standard_deck() if cards is None else cards)]
    rng.shuffle(deck)
    return iter(deck)


@dataclass
class ScriptedDealer:
    """Deals Caribbean Stud rounds on the rig through the local API, the pins and the shoe."""

    rig: BenchRig
    api: ApiClient
    rng: random.Random
    say: Callable[[str], object] = print
    #: Refusals this dealer caused on purpose (a chip placed after the lock-out): not bugs.
    provoked: int = 0

    async def play_rounds(self, rounds: int, link: bool = False) -> int:
        """The rig's run: the first round has a progressive chip placed after the lock-out (refused
        on purpose, § 639a.7(c)); with 3 rounds or more and no link, the last one a shoe jam
        (void); with the link, the meter after each round, then a royal flush paid from it.
        Returns the refusals provoked on purpose."""
        if link:
            await self.wait_for_meter()
        for n in range(rounds):
            jam = 2 if rounds >= 3 and n == rounds - 1 and not link else None
            await self.play_round(jam_after=jam, late_chip=n == 0)
            if link:
                await self.say_meter()
        if link:
            await self.play_hit_round()
        return self.provoked

    async def play_round(self, jam_after: int | None = None, late_chip: bool = False) -> dict[str, Any]:
        """One round; ``jam_after``: the shoe jams after that many hands; ``late_chip``: a player
        puts a progressive chip down after the lock-out. Returns the round's summary."""
        rig, api, say = self.rig, self.api, self.say
        status = await api.status()
        round_id = status["round"]["id"]
        say(f"--- round {round_id}")
        plan = plan_round(self.rng)
        for p in plan:
            await api.submit_event({"type": "wager", "seat": p.seat, "wager": "ante", "amount": p.ante})
            text = f"seat {p.seat}: ante {p.ante}"
            if p.bonus:
                await api.submit_event({"type": "wager", "seat": p.seat, "wager": "bonus", "amount": p.bonus})
                text += f", bonus {p.bonus}"
            if p.progressive:
                await rig.place_chip(p.seat)
                text += ", progressive chip sensed"
            say(text)
        await rig.press_lock_out()
        status = await api.status()
        accepted = [w for w in status["round"]["wagers"] if w["wager"] == "progressive"]
        say(
            "lock-out: no more bets; progressive wagers accepted at seats "
            + (", ".join(str(w["seat"]) for w in accepted) or "none")
        )
        late = next(s for s in SEAT_PINS if not any(p.seat == s and p.progressive for p in plan))
        if late_chip:
            await rig.place_chip(late)
            self.provoked += 1
            say(f"seat {late}: progressive chip placed after the lock-out: not recognized, refused")
        deck = shuffled_deck(self.rng)
        hands: dict[int | str, str] = {}
        order: list[int | str] = [p.seat for p in plan] + ["dealer"]
        for i, position in enumerate(order):
            if jam_after is not None and i == jam_after:
                await rig.jam()
                say("shoe: jammed (§ 639a.13(f))")
                waiting = (await api.status())["round"]["waiting_for"]
                if "a floorperson" in waiting:
                    # A void of a round with wagers takes effect on a floorperson's PIN (docs/authority.md).
                    say(f"waiting for {waiting}")
                    jam = {"type": "irregularity", "kind": "shoe_jam", "detail": "confirmed at the table"}
                    await api.submit_event(jam, BENCH_FLOOR)
                    say(f"floorperson {BENCH_FLOOR.user}: shoe jam confirmed")
                break
            cards = " ".join(next(deck) for _ in range(5))
            await rig.deal(position, cards)
            hands[position] = cards
            say(f"shoe read {cards} for {'the dealer' if position == 'dealer' else f'seat {position}'}")
        else:
            for p in plan:
                action = "bet" if plays(hands[p.seat]) else "fold"
                await api.submit_event({"type": "decision", "seat": p.seat, "action": action})
                say(f"seat {p.seat}: {action}")
        for p in plan:
            if p.progressive:
                await rig.lift_chip(p.seat)
        if late_chip:
            await rig.lift_chip(late)
        rounds = (await api.list_rounds(5))["rounds"]
        summary: dict[str, Any] = next(r for r in rounds if r["round"] == round_id)
        for line in describe_settlement(summary):
            say(line)
        if summary.get("status") != "settled":
            waiting = (await api.status())["round"]["waiting_for"]
            raise RuntimeError(f"round {round_id} did not settle: it waits for {waiting}")
        return summary

    # --- on the progressive link (table-bench --link) ---------------------------------------------

    async def wait_for_meter(self) -> None:
        """Until the daemon has the central meter's word (its amount on the API)."""
        daemon = self.rig.daemon
        assert daemon is not None
        await self.rig.wait_for(lambda: bool(daemon.snapshot()["link"].get("amounts")), timeout=20)
        await self.say_meter()

    async def say_meter(self) -> None:
        """The meter as the table's API shows it, once the meter has every contribution."""
        daemon = self.rig.daemon
        assert daemon is not None and daemon.link is not None
        publisher = daemon.link.publisher
        await daemon.link.refresh_queue()
        last = publisher.last_outbox_seq
        await self.rig.wait_for(lambda: publisher.state.applied_seq >= last, timeout=20)
        await asyncio.sleep(0.1)  # the amount follows the ack
        link = (await self.api.status())["link"]
        for name, amount in link["amounts"].items():
            self.say(f"central meter {name}: {amount} (on the table's API, from the meter)")

    async def play_hit_round(self) -> dict[str, Any]:
        """A royal flush at seat 1 with a Progressive Payout Wager: PENDING at the table until
        the meter's award, then paid at 100% of the meter as it stood (§ 639a.12(d)(4)), for a
        floorperson to validate and hand-pay, not from the table inventory (§ 639a.11(c)(5))."""
        rig, api, say = self.rig, self.api, self.say
        daemon = rig.daemon
        assert daemon is not None
        round_id = (await api.status())["round"]["id"]
        say(f"--- round {round_id}: a royal flush")
        await api.submit_event({"type": "wager", "seat": 1, "wager": "ante", "amount": "10.00"})
        await rig.place_chip(1)
        await rig.press_lock_out()
        await rig.deal(1, "As Ks Qs Js Ts")
        await rig.deal("dealer", "2c 7d 9h 4c 3d")
        await api.submit_event({"type": "decision", "seat": 1, "action": "bet"})
        say("seat 1: royal flush, bet; the table claims the progressive")
        current = (await api.status())["round"]
        if current["id"] == round_id and any(w["who"] == "meter" for w in current["waiting"]):
            say(f"table shows PENDING: the round waits for {current['waiting_for']}")
        await rig.wait_for(lambda: daemon.round_id != round_id, timeout=20)
        await rig.lift_chip(1)
        rounds = (await api.list_rounds(5))["rounds"]
        summary: dict[str, Any] = next(r for r in rounds if r["round"] == round_id)
        for line in describe_settlement(summary):
            say(line)
        for award in daemon.link.publisher.state.awards.values() if daemon.link is not None else ():
            say(
                f"the meter's award {award.award_seq}: paid {format_money(award.paid)}, "
                f"the meter from {format_money(award.meter_before)} to {format_money(award.meter_after)}"
            )
        for payout in (await api.status())["pending_payouts"]:
            say(
                f"waits for a floorperson: seat {payout['seat']} {payout['wager']} {payout['net']} "
                "(validate, then hand-pay: not from the table inventory)"
            )
        await self.say_meter()
        return summary


def describe_settlement(summary: Mapping[str, Any]) -> list[str]:
    settlement = summary.get("settlement") or {}
    lines = [
        f"settled ({summary.get('status')})"
        + (f": void, {settlement['void']}" if "void" in settlement else "")
    ]
    if "dealer" in settlement:
        lines.append(f"dealer: {settlement['dealer']}")
    for seat, wagers in settlement.get("seats", {}).items():
        parts = [f"{name} {w['result']} {w['net']}" for name, w in wagers.items()]
        lines.append(f"  seat {seat}: " + ", ".join(parts))
    return lines


async def run_bench(
    rounds: int,
    seed: int,
    say: Callable[[str], object] = print,
    directory: Path | None = None,
    game: str = CARIBBEAN_STUD,
    make_dealer: Callable[[BenchRig, ApiClient, random.Random, Callable[[str], object]], Any] | None = None,
    console: bool = False,
    link: bool = False,
    variant: str = "",
    card_reader: bool = True,
) -> int:
    """Play ``rounds`` rounds of ``game`` (the poker room's ``variant``) on a fresh rig; 0 if the
    daemon refused nothing the dealer did not mean it to refuse, else 1 with what was refused.

    ``make_dealer(rig, api, rng, say)``: a dealer of the game, an object with ``async
    play_round()`` (default: the game's own, ``sim.bench_games.game_dealer``, which plays its run).

    Caribbean Stud: the first round has a progressive chip placed after the lock-out (refused on
    purpose, § 639a.7(c)) and, with 3 rounds or more, the last one a shoe jam (void). Every other
    game: ``sim.bench_games``. ``link``: Mosquitto and the central meter beside the daemon
    (``sim.link_rig``); the meter's amount after each round, then a royal flush paid from it.

    ``console``: the dealer's touchscreen (``table-ui``) opens on the rig's socket beside the
    scripted dealer, who plays as usual; once the rounds are played the rig serves on until its
    window is closed (docs/bench-rig.md). ``card_reader``: ``False`` for a poker table without one
    (no shoe: the cards dealt face down and counted, the board and the hands shown keyed).
    """
    rng = random.Random(seed)
    if link:
        if game != CARIBBEAN_STUD:
            say("FAILED: --link plays Caribbean Stud (its progressive is on the bench's meter)")
            return 2
        from sim.link_rig import LinkRig

        with LinkRig.running(TABLE_ID) as link_rig:
            say(
                f"progressive link: Mosquitto on {link_rig.broker.port}, the meter's log {link_rig.meter_log}"
            )
            return await _run_rig(
                rounds, rng, seed, say, directory, game, make_dealer, link_rig.daemon_config, console
            )
    return await _run_rig(
        rounds, rng, seed, say, directory, game, make_dealer, "", console, variant, card_reader
    )


async def _run_rig(
    rounds: int,
    rng: random.Random,
    seed: int,
    say: Callable[[str], object],
    directory: Path | None,
    game: str,
    make_dealer: Callable[[BenchRig, ApiClient, random.Random, Callable[[str], object]], Any] | None,
    link_config: str,
    console: bool,
    variant: str = "",
    card_reader: bool = True,
) -> int:
    failure = ""
    rig_ = BenchRig(directory, game=game, extra_config=link_config, variant=variant, card_reader=card_reader)
    async with (
        rig_ as rig,
        _console(rig, say) if console else _nothing() as ui,
    ):
        named = f"{game} {variant}" if variant else game
        say(f"bench rig: {named}, {rig.path}, seed {seed}; shoe {rig.shoe.path if rig.shoe else '-'}")
        provoked = 0
        async with await ApiClient.connect(rig.socket) as api:
            try:
                if make_dealer is not None:
                    other = make_dealer(rig, api, rng, say)
                    for _ in range(rounds):
                        await other.play_round()
                else:
                    from sim.bench_games import game_dealer

                    # Each game's dealer plays its own run (Caribbean Stud's provokes refusals).
                    dealer = game_dealer(game, rig, api, rng, say)
                    provoked = await dealer.play_rounds(rounds, link=bool(link_config))
            except (ApiError, TimeoutError, RuntimeError) as exc:
                failure = f"{type(exc).__name__}: {exc}"
        if ui is not None and ui.returncode is None:
            say("console: the rounds are played; close the console's window to end the bench run")
            await ui.wait()
        # Let the daemon see the dealer's connection close before it stops serving.
        await asyncio.sleep(EDGE_GAP)
        refusals = rig.daemon.refusals if rig.daemon is not None else None
        total = refusals.total if refusals is not None else 0
        say(f"done: {rounds} round(s); {total} refusal(s) journaled")
        for reason in refusals.since(0) if refusals is not None else []:
            say(f"  refused: {reason}")
        if refusals is not None and refusals.dropped:
            say(f"  (and {refusals.dropped} older ones, in the journal)")
    if failure:
        say(f"FAILED: the round could not go on: {failure}")
        return 1
    if total > provoked:
        say(f"FAILED: the daemon refused {total - provoked} event(s) of legal rounds")
        return 1
    return 0


async def timed_lock_out(pin: Any, notes: AsyncIterator[Any], timeout: float = WAIT_SECONDS) -> float:
    """Press the lock-out button on ``pin`` and return the milliseconds until a subscriber of the
    ``event`` topic (``notes``) receives the journaled ``no_more_bets``; then wait for the next
    ``round_begin`` and release the button past the debounce window, ready for the next press.
    The lock-out figure of ``bench/bench_daemon.py`` and ``bench/bench_api_flood.py``."""
    start = time.perf_counter()
    await asyncio.to_thread(pin.drive_low)
    async with asyncio.timeout(timeout):
        async for note in notes:
            if note.data.get("body", {}).get("type") == "no_more_bets":
                break
    elapsed = (time.perf_counter() - start) * 1000
    async with asyncio.timeout(timeout):
        async for note in notes:
            if note.data.get("kind") == "round_begin":
                break
    await asyncio.to_thread(pin.drive_high)
    await asyncio.sleep(EDGE_GAP)  # past the debounce window, so the next press is taken
    return elapsed


@contextlib.asynccontextmanager
async def _console(rig: BenchRig, say: Callable[[str], object]) -> AsyncIterator[asyncio.subprocess.Process]:
    """``table-ui`` on the rig's socket, in a process of its own (as on the table); ended with the rig."""
    table_ui = Path(sys.executable).with_name("table-ui")
    proc = await asyncio.create_subprocess_exec(str(table_ui), "--socket", str(rig.socket))
    say(f"console: table-ui started on {rig.socket} (pid {proc.pid})")
    try:
        yield proc
    finally:
        if proc.returncode is None:
            proc.terminate()
            try:
                await asyncio.wait_for(proc.wait(), WAIT_SECONDS)
            except TimeoutError:
                proc.kill()
                await proc.wait()


@contextlib.asynccontextmanager
async def _nothing() -> AsyncIterator[None]:
    yield None


def display_present() -> bool:
    """Whether a console can open here: a display, and the screen's Kivy installed."""
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) and (
        importlib.util.find_spec("kivy") is not None
    )


def run(
    rounds: int,
    seed: int | None = None,
    directory: Path | None = None,
    game: str = CARIBBEAN_STUD,
    console: bool = False,
    link: bool = False,
    variant: str = "",
    card_reader: bool = True,
) -> int:
    """Blocking entry point for ``table-bench``; ``directory`` keeps the rig's files there."""
    chosen = seed if seed is not None else random.SystemRandom().randrange(2**32)
    if directory is not None:
        directory.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(
            run_bench(
                rounds,
                chosen,
                directory=directory,
                game=game,
                console=console,
                link=link,
                variant=variant,
                card_reader=card_reader,
            )
        )
    return 130
