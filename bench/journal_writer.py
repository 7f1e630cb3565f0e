"""A scripted table writing its journal: the child process of the kill -9 test.

Run: ``python -m bench.journal_writer JOURNAL --rounds N [--table T] [--pause-ms MS]``.

It deals the example rounds of ``examples/*/`` one after another (round ``k`` is example
``k`` modulo their number, with the round id ``r00000k``): the round's begin, each of its
events from the device that would report it, one late wager after "no more bets" that the
rules refuse (where the game refuses it), then the settlement. "No more bets" and the
settlement each commit a message to the outbox. Each append is printed as
``SEQ KIND ROUND`` on stdout *after* it is durable, so whatever the test read before killing
the process must be in the journal.

Started again on the same journal, it recovers the state and goes on exactly where the
journal stands, which is what the daemon does after a power cut.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from controller.journal import Journal, Outbound, Refused, read_boot_id
from controller.journal.records import REFUSED, ROUND_EVENT, BeginRound, ConfigLoaded, SettleRound, Started
from controller.journal.state import TableState
from controller.rules.core.engine import Game, IllegalEvent, Round
from controller.rules.core.events import Event
from controller.rules.core.money import Cents
from controller.rules.core.record import load_record
from controller.rules.games import GAMES

EXAMPLES: Final = Path(__file__).resolve().parents[1] / "examples"
DEALER: Final = "dealer-0042"
SOURCE_OF: Final = {
    "wager": "gpio",
    "no_more_bets": "gpio",
    "cards": "shoe",
    "meter": "link",
    "hole_card_reader": "hole-card-reader",
}
"""The device that reports each event; the rest the dealer enters on the touchscreen."""


@dataclass(frozen=True)
class Step:
    event: Event
    source: str
    actor: str | None
    refused: bool


@dataclass(frozen=True)
class ScriptRound:
    round_id: str
    example: Path
    game: Game[Any, Any]
    rules: object
    meters: dict[str, Cents]
    steps: tuple[Step, ...]
    settlement: dict[str, Any]
    """The example's ``.settlement.json``: what the round must settle to."""

    @property
    def accepted(self) -> list[Event]:
        return [s.event for s in self.steps if not s.refused]


def examples() -> list[Path]:
    return sorted(p for p in EXAMPLES.glob("*/*.json") if not p.name.endswith(".settlement.json"))


def script_round(k: int, paths: Sequence[Path]) -> ScriptRound:
    path = paths[k % len(paths)]
    record = load_record(json.loads(path.read_text()), GAMES, str(path))
    steps: list[Step] = []
    rnd: Round[Any, Any] = Round.begin(record.game, record.rules, record.meters)
    late_done = False
    for event in record.events:
        source = SOURCE_OF.get(event.type, "dealer-ui")
        steps.append(Step(event, source, DEALER if source == "dealer-ui" else None, False))
        rnd.apply(event)
        if event.type == "no_more_bets" and not late_done:
            late_done = True
            first = next((e for e in rnd.events if e.type == "wager"), None)
            if first is not None:
                late = Event("wager", seat=first.seat, wager=first.wager, amount=500)
                try:
                    rnd.game.apply(rnd.state, late)
                except IllegalEvent:
                    # § 639a.7(c) and the like: no wager after "no more bets".
                    steps.append(Step(late, "gpio", None, True))
    settlement = json.loads(path.with_name(path.name.removesuffix(".json") + ".settlement.json").read_text())
    return ScriptRound(
        f"r{k:06d}", path, record.game, record.rules, dict(record.meters), tuple(steps), settlement
    )


def where_we_are(state: TableState, done_in_round: int) -> tuple[int, int]:
    """(round number, steps of it already journaled); -1 steps: the round is not begun."""
    if state.current is not None:
        return int(state.current.round_id[1:]), done_in_round
    if state.recent:
        return int(state.recent[-1].round_id[1:]) + 1, -1
    return 0, -1


async def run(path: Path, table: str, rounds: int, pause: float) -> None:
    paths = examples()
    journal = await Journal.open(path, table)
    try:
        done_in_round = 0
        if journal.state.current is not None:
            recalled = await journal.recall(journal.state.current.round_id)
            done_in_round = sum(1 for r in recalled.records if r.kind in (ROUND_EVENT, REFUSED))
        k, done = where_we_are(journal.state, done_in_round)
        await journal.append(Started("journal-writer", read_boot_id()), source="daemon")
        await journal.append(ConfigLoaded(str(path), "0" * 64), source="daemon")
        print("ready", flush=True)
        while k < rounds:
            sr = script_round(k, paths)
            if done < 0:
                a = await journal.append(
                    BeginRound(sr.game.name, sr.rules, sr.meters, round_id=sr.round_id),
                    source="dealer-ui",
                    actor=DEALER,
                )
                print(a.record.seq, a.record.kind, a.record.round_id, flush=True)
                done = 0
            for step in sr.steps[done:]:
                outbox = (
                    [Outbound("wagers_locked", {"round": sr.round_id})]
                    if step.event.type == "no_more_bets"
                    else []
                )
                try:
                    a = await journal.append(step.event, source=step.source, actor=step.actor, outbox=outbox)
                except Refused as exc:
                    print(exc.record.seq, exc.record.kind, exc.record.round_id, flush=True)
                else:
                    print(a.record.seq, a.record.kind, a.record.round_id, flush=True)
                if pause:
                    await asyncio.sleep(pause)
            a = await journal.append(
                SettleRound(),
                source="dealer-ui",
                actor=DEALER,
                outbox=[Outbound("round_settled", {"round": sr.round_id})],
            )
            print(a.record.seq, a.record.kind, a.record.round_id, flush=True)
            k, done = k + 1, -1
        print("done", flush=True)
    finally:
        await journal.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="journal_writer", description=__doc__.splitlines()[0])
    parser.add_argument("journal", type=Path)
    parser.add_argument("--table", default="SIM-1")
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--pause-ms", type=float, default=0.0, help="pause between events")
    args = parser.parse_args(argv)
    asyncio.run(run(args.journal, args.table, args.rounds, args.pause_ms / 1000))
    return 0


if __name__ == "__main__":
    sys.exit(main())
