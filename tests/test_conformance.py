"""Every registered game through the same checks (docs/new-game.md): a game added to
``controller.rules.games.GAMES`` is held to these without a line of its own here.

- its examples: a Rules Submission and at least three round records, each replaying to its
  ``.settlement.json``;
- at every step of every example: ``waiting_for`` is empty exactly when ``settle`` succeeds, each
  item says who acts (an :class:`Actor`), on what, citing a section; ``open_decisions`` only
  when nothing else is awaited; ``hand_dealt_to`` a hand index;
- a refused event changes nothing, and an accepted one leaves the state before it as it was;
- its progressives are those its Rules Submission offers, with the submission's amounts, and a
  round begins with their meters; its devices are those the submission uses;
- its vocabulary (what the dealer's screen offers) names only wagers, decisions and irregularities
  its rules know, each with the dealer's words and a section;
- its folder has the files of the layout, it answers every hook, an early settle is refused in one
  shape, and its events go through the ``EVENTS`` handler table of its ``play`` module.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.rules.core.engine import Game, IllegalEvent, Round
from controller.rules.core.events import Event
from controller.rules.core.hooks import Actor, Devices, Progressive, initial_meters
from controller.rules.core.options import rules_to_mapping
from controller.rules.core.record import Record, load_record
from controller.rules.core.submission import parse_submission
from controller.rules.games import GAMES

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
NAMES = sorted(GAMES)


def submission_rules(name: str) -> Any:
    path = EXAMPLES / name / "rules-submission.toml"
    return parse_submission(path.read_text("utf-8"), GAMES, str(path)).rules


def records(name: str) -> list[tuple[Path, Record]]:
    paths = sorted(p for p in (EXAMPLES / name).glob("*.json") if not p.name.endswith(".settlement.json"))
    return [(p, load_record(json.loads(p.read_text("utf-8")), GAMES, str(p))) for p in paths]


def steps(record: Record) -> Iterator[tuple[Round[Any, Any], Event | None]]:
    """The round before each event of the record (with that event), then the round at its end."""
    rnd = Round.begin(record.game, record.rules, record.meters)
    for event in record.events:
        yield rnd, event
        rnd.apply(event)
    yield rnd, None


def settles(game: Game[Any, Any], state: object) -> bool:
    try:
        game.settle(state)
    except IllegalEvent:
        return False
    return True


@pytest.mark.parametrize("name", NAMES)
def test_every_example_replays_to_its_settlement(name: str) -> None:
    found = records(name)
    assert len(found) >= 3, f"examples/{name}: at least three round records"
    for path, record in found:
        assert record.game is GAMES[name], path
        rnd = Round.begin(record.game, record.rules, record.meters)
        for event in record.events:
            rnd.apply(event)
        expected = json.loads(path.with_suffix(".settlement.json").read_text("utf-8"))
        assert rnd.settle().to_json() == expected, path


@pytest.mark.parametrize("name", NAMES)
def test_waiting_for_is_empty_exactly_when_the_round_settles(name: str) -> None:
    for path, record in records(name):
        saw_waiting = False
        for rnd, _event in steps(record):
            waiting = rnd.waiting_for()
            assert isinstance(waiting, tuple), path
            assert (not waiting) == settles(rnd.game, rnd.state), (path, len(rnd.events), waiting)
            saw_waiting = saw_waiting or bool(waiting)
            for item in waiting:
                assert isinstance(item.who, Actor) and item.what.strip(), (path, item)
                assert item.section.startswith("§"), (path, item)
                assert item.seat is None or item.seat >= 1, (path, item)
                assert str(item) == item.what and item.to_json()["who"] == str(item.who)
            if rnd.open_decisions():
                # Decisions left open are those of a round that could be settled (§ 659a.11(d)).
                assert not waiting, (path, waiting)
        assert saw_waiting, f"{path}: a round waits for something before it is complete"


@pytest.mark.parametrize("name", NAMES)
def test_a_new_round_waits_for_the_wagers_and_the_dealer(name: str) -> None:
    rnd = Round.begin(
        GAMES[name], submission_rules(name), initial_meters(GAMES[name].progressives(submission_rules(name)))
    )
    waiting = rnd.waiting_for()
    assert waiting, "a round with no wager cannot be settled"
    assert waiting[0].who in (Actor.DEALER, Actor.PLAYER), waiting


@pytest.mark.parametrize("name", NAMES)
def test_a_refused_event_changes_nothing_and_an_accepted_one_keeps_the_state_before(name: str) -> None:
    game = GAMES[name]
    # No table has 99 seats, and no text a spilled drink: every game refuses both, at every step.
    strangers = (
        Event("wager", seat=99, wager="ante", amount=100),
        Event("irregularity", kind="spilled_drink"),
    )
    for path, record in records(name):
        for rnd, event in steps(record):
            before, shown, count = rnd.state, repr(rnd.state), len(rnd.events)
            for stranger in strangers:
                with pytest.raises(IllegalEvent):
                    rnd.apply(stranger)
                assert rnd.state is before and repr(rnd.state) == shown and len(rnd.events) == count, path
            if event is not None:
                after = game.apply(before, event)
                assert repr(before) == shown and after is not before, (path, event)
            hands = [game.hand_dealt_to(rnd.state, seat) for seat in range(1, 8)]
            assert all(isinstance(h, int) and h >= 0 for h in hands), (path, hands)


def offered_groups(rules: object) -> dict[str, dict[str, object]]:
    """The option groups of a Rules Submission that are offered and carry a meter (a reset amount)."""
    groups: dict[str, dict[str, object]] = {}
    for key, value in rules_to_mapping(rules).items():
        group, _, option = key.rpartition(".")
        if group:
            groups.setdefault(group, {})[option] = value
    return {g: opts for g, opts in groups.items() if opts.get("offered") is True and "reset" in opts}


@pytest.mark.parametrize("name", NAMES)
def test_declared_progressives_are_those_the_rules_submission_offers(name: str) -> None:
    game = GAMES[name]
    rules = submission_rules(name)
    declared = game.progressives(rules)
    assert all(isinstance(p, Progressive) for p in declared)
    groups = offered_groups(rules)
    assert sorted(p.name for p in declared) == sorted(groups)
    mapping = rules_to_mapping(rules)
    for p in declared:
        assert p.section.startswith("§") and p.title
        assert mapping[f"{p.name}.reset"] == _money(p.reset)
        # The initial amount is the submission's, or the reset amount where the text gives none.
        assert mapping.get(f"{p.name}.initial", mapping[f"{p.name}.reset"]) == _money(p.initial)
        assert p.rate_of_progression == _none(mapping.get(f"{p.name}.rate_of_progression"))
        if p.sensor:
            assert p.wager is not None and mapping[f"{p.name}.wager"] == _money(p.wager)
    # A round begins with every declared meter, and the game takes them.
    meters = initial_meters(declared)
    rnd = Round.begin(game, rules, meters)
    assert set(meters) == {p.name for p in declared}
    assert settles(game, rnd.state) is False  # the meters alone settle nothing


def _money(cents: int | None) -> str:
    from controller.rules.core.money import format_money

    assert cents is not None
    return format_money(cents)


def _none(value: object) -> object:
    return None if value in (None, "", "none") else value


@pytest.mark.parametrize("name", NAMES)
def test_declared_devices_follow_the_rules_submission(name: str) -> None:
    game = GAMES[name]
    rules = submission_rules(name)
    devices = game.devices(rules)
    assert isinstance(devices, Devices)
    assert set(devices.names) <= {"shoe", "shuffler", "reader"}
    assert not devices.names or devices.section.startswith("§")
    mapping = rules_to_mapping(rules)
    if "dealing" in mapping:
        assert devices.shoe == (mapping["dealing"] == "automated shoe")
    if "shuffler" in mapping:
        assert devices.shuffler == (mapping["shuffler"] == "automated")


def refusal(start: Round[Any, Any], event: Event, name: str) -> str:
    """What the round ``start`` says to ``event`` with ``name`` written ``NAME`` ("" if it accepts it)."""
    rnd = Round(start.game, start.rules, start.state, list(start.events))
    try:
        rnd.apply(event)
    except IllegalEvent as exc:
        return str(exc).replace(name, "NAME")
    return ""


def decision_moments(name: str) -> list[tuple[Round[Any, Any], int]]:
    """Every moment of the game's examples where a player decides, with the seat."""
    return [
        # steps() goes on with the same round: the moment is copied as it is then.
        (Round(rnd.game, rnd.rules, rnd.state, list(rnd.events)), event.seat)
        for _, record in records(name)
        for rnd, event in steps(record)
        if event is not None and event.type == "decision" and event.seat is not None
    ]


@pytest.mark.parametrize("name", NAMES)
def test_the_vocabulary_the_screen_draws_is_the_rules_own(name: str) -> None:
    """Each wager, decision and irregularity the game's vocabulary offers is one its rules know: at
    a moment of the examples the round answers it otherwise than a made-up name (accepts it, or
    refuses it for that moment)."""
    game, rules = GAMES[name], submission_rules(name)
    vocabulary = game.vocabulary(rules)
    new = [(Round.begin(game, rules, initial_meters(game.progressives(rules))), 1)]
    parts = (
        (vocabulary.wagers, new, lambda n, seat: Event("wager", seat=seat, wager=n, amount=500)),
        (
            vocabulary.decisions,
            decision_moments(name),
            lambda n, seat: Event("decision", seat=seat, action=n),
        ),
        (vocabulary.irregularities, new, lambda n, seat: Event("irregularity", kind=n)),
    )
    for terms, moments, make in parts:
        for term in terms:
            assert term.title and term.section.startswith("§"), (name, term)
            known = [
                refusal(rnd, make(term.name, seat), term.name) != refusal(rnd, make("zz", seat), "zz")
                for rnd, seat in moments
            ]
            assert any(known), (name, term.name, "answered as a made-up name at every moment")
    json.dumps(vocabulary.to_json())  # on the wire as it is


# --- the layout: one folder per game, the same file names in each (docs/new-game.md) ----------

GAMES_DIR = Path(__file__).resolve().parents[1] / "controller" / "rules" / "games"
LAYOUT = ("__init__", "game", "rules", "state", "play", "settle")


def folder_of(game: Game[Any, Any]) -> str:
    """The game's folder under controller/rules/games/ (its package)."""
    module = type(game).__module__
    assert module.startswith("controller.rules.games."), module
    return module.split(".")[3]


@pytest.mark.parametrize("name", NAMES)
def test_every_game_has_the_files_of_the_layout(name: str) -> None:
    import importlib

    game = GAMES[name]
    folder = folder_of(game)
    have = {p.stem for p in (GAMES_DIR / folder).glob("*.py")}
    missing = set(LAYOUT) - have
    assert not missing, f"controller/rules/games/{folder}/ lacks {sorted(missing)} (docs/new-game.md)"
    package = importlib.import_module(f"controller.rules.games.{folder}")
    assert package.GAME is game, f"controller.rules.games.{folder}.GAME is the registered game"


def game_modules(folder: str) -> Iterator[Any]:
    """Every module of a game's folder, imported."""
    import importlib

    for path in sorted((GAMES_DIR / folder).glob("*.py")):
        stem = "" if path.stem == "__init__" else f".{path.stem}"
        yield importlib.import_module(f"controller.rules.games.{folder}{stem}")


def handler_tables(game: Game[Any, Any]) -> list[Any]:
    """The ``EVENTS`` of the ``play`` module of each game the game's class is built on (Fortune
    Asia Poker takes its events through Asia Poker's)."""
    import importlib

    tables = []
    for cls in type(game).__mro__:
        if cls.__module__.startswith("controller.rules.games."):
            play = importlib.import_module(f"controller.rules.games.{cls.__module__.split('.')[3]}.play")
            tables.append(getattr(play, "EVENTS", None))
    return tables


@pytest.mark.parametrize("name", NAMES)
def test_every_game_takes_its_events_through_one_handler_table(name: str) -> None:
    """One dispatch idiom (issue 22 point 3): each game's events go through the handler table of
    its ``play`` module (:class:`~controller.rules.core.dispatch.Handlers`, each type registered
    once), never a dict of functions of its own; every event of its examples has a handler there."""
    import inspect
    from collections.abc import Mapping

    from controller.rules.core.dispatch import Handlers

    game = GAMES[name]
    tables = [t for t in handler_tables(game) if isinstance(t, Handlers)]
    assert tables, f"{name}: its play module has no EVENTS handler table (controller/rules/core/dispatch.py)"
    table = tables[0]
    for path, record in records(name):
        for event in record.events:
            assert event.type in table, f"{path}: {event.type} has no handler in {table.owner}'s EVENTS"
    for module in game_modules(folder_of(game)):
        for attr, value in vars(module).items():
            if isinstance(value, Mapping) and value and all(inspect.isfunction(v) for v in value.values()):
                raise AssertionError(
                    f"{module.__name__}.{attr} is a dict of handlers: register them in the game's EVENTS"
                )


HOOKS = (
    "start",
    "apply",
    "settle",
    "waiting_for",
    "open_decisions",
    "hand_dealt_to",
    "progressives",
    "devices",
    "house_way",
    "vocabulary",
    "screen",
    "faults",
    "decks",
)


@pytest.mark.parametrize("name", NAMES)
def test_every_game_answers_every_hook(name: str) -> None:
    from controller.rules.core.engine import GameBase
    from controller.rules.core.hooks import Faults, Screen, Vocabulary

    game = GAMES[name]
    assert isinstance(game, GameBase), f"{name}: a game derives from GameBase (its defaults)"
    for hook in HOOKS:
        assert callable(getattr(game, hook, None)), f"{name} has no {hook} hook"
    rules = submission_rules(name)
    screen, vocabulary = game.screen(rules), game.vocabulary(rules)
    assert isinstance(screen, Screen) and isinstance(vocabulary, Vocabulary)
    assert isinstance(game.faults(rules), Faults)
    # A game the dealer's screen deals (it offers wagers) says how the screen lays it out.
    if vocabulary.wagers:
        assert type(game).screen is not GameBase.screen, f"{name}: declare its screen (seats, ...)"
        assert screen.seats > 0
    assert set(screen.start) <= {"dice", "position"}


@pytest.mark.parametrize("name", NAMES)
def test_an_early_settle_is_refused_in_one_shape(name: str) -> None:
    from controller.rules.core.engine import RoundIncomplete
    from controller.rules.core.hooks import Step

    for path, record in records(name):
        for rnd, _event in steps(record):
            waiting = rnd.waiting_for()
            if not waiting:
                continue
            assert all(isinstance(w.step, Step) for w in waiting), path
            with pytest.raises(IllegalEvent) as refused:
                rnd.settle()
            if all(w.step is Step.METER for w in waiting):
                continue  # the meter is asked for when the share is paid (§ 639a.12(d)(4))
            assert isinstance(refused.value, RoundIncomplete), f"{path}: {refused.value}"
            assert refused.value.waiting == waiting, path
            assert str(refused.value).startswith("the round is not complete: it waits for "), path
