"""A wager changed or removed before "no more bets", never after (§ 639a.7(c): "a wager may not be
made, increased, or withdrawn after the dealer has announced 'no more bets'"), through the real
daemon on the bench rig: the local API's ``wager_changed``, its journal record with the actor, the
round's events as they stand after it (the round record), and the rules core's refusals."""

from __future__ import annotations

from typing import Any

import pytest

from controller.api_client import ApiError, Credentials
from sim.bench_rig import RULES_SUBMISSION
from sim.screen_rig import FLOOR_PIN, FLOOR_USER, console_on_rig, enter_wager, until
from ui.table import Betting

FLOOR = Credentials(FLOOR_USER, FLOOR_PIN)


def wagers_of(status: Any, seat: int) -> dict[str, str]:
    return {w["wager"]: w["amount"] for w in status["round"]["wagers"] if w.get("seat") == seat}


@pytest.mark.asyncio
async def test_a_wager_is_changed_and_removed_before_no_more_bets_and_refused_after() -> None:
    async with console_on_rig() as (rig, console):
        client = console.connection.client
        assert client is not None
        await enter_wager(console, 3, "ante", 10)
        await enter_wager(console, 3, "bonus", 5)
        answer = await client.submit_event(
            {"type": "wager_changed", "seat": 3, "wager": "ante", "amount": "25.00"}
        )
        assert answer["changed"] is True
        assert wagers_of(await client.status(), 3) == {"ante": "25.00", "bonus": "5.00"}
        # The Bonus Wager stands only beside an Ante (the rules core's own refusal, § 639a.7(b)):
        # nothing changes.
        with pytest.raises(ApiError) as refused:
            await client.submit_event({"type": "wager_changed", "seat": 3, "wager": "ante", "amount": None})
        assert refused.value.code == "refused" and "bonus" in refused.value.message.lower()
        assert wagers_of(await client.status(), 3) == {"ante": "25.00", "bonus": "5.00"}
        for wager in ("bonus", "ante"):
            answer = await client.submit_event(
                {"type": "wager_changed", "seat": 3, "wager": wager, "amount": None}
            )
            assert answer["removed"] is True
        assert wagers_of(await client.status(), 3) == {}
        with pytest.raises(ApiError, match="seat 3 has no ante wager"):
            await client.submit_event({"type": "wager_changed", "seat": 3, "wager": "ante", "amount": "5.00"})
        with pytest.raises(ApiError, match="amount"):
            await client.submit_event(
                {"type": "wager_changed", "seat": 3, "wager": "ante", "amount": "-5.00"}
            )
        await enter_wager(console, 2, "ante", 10)
        await rig.press_lock_out()
        await until(lambda: console.banner == Betting.NO_MORE_BETS, "NO MORE BETS")
        with pytest.raises(ApiError, match="not changed or withdrawn after 'no more bets'"):
            await client.submit_event(
                {"type": "wager_changed", "seat": 2, "wager": "ante", "amount": "50.00"}
            )
        status = await client.status()
        assert wagers_of(status, 2) == {"ante": "10.00"}
        # The journal: each change its own record, with the dealer's station as the actor; the
        # round record holds the round's events as they stand (seat 3's wagers left out).
        round_id = status["round"]["id"]
        recalled = await client.recall_round(round_id, auth=FLOOR)
        changes = [r for r in recalled["records"] if r["kind"] == "wager_changed"]
        assert [(c["body"]["wager"], c["body"]["amount"]) for c in changes] == [
            ("ante", "25.00"),
            ("bonus", None),
            ("ante", None),
        ]
        assert all(c["source"] == "dealer-ui" and c["actor"] for c in changes)
        wagers = [e for e in recalled["record"]["events"] if e["type"] == "wager"]
        assert [(e["seat"], e["wager"], e["amount"]) for e in wagers] == [(2, "ante", "10.00")]


LIMITS = '\n[limits]\nante = { minimum = "5.00", maximum = "500.00" }\nbonus = { maximum = "100.00" }\n'


@pytest.mark.asyncio
async def test_the_tables_minimum_and_maximum_are_shown_and_enforced_from_the_rules_submission() -> None:
    async with console_on_rig() as (rig, console):
        await rig.stop_daemon()
        (rig.path / "rules-submission.toml").write_text(RULES_SUBMISSION + LIMITS, encoding="utf-8")
        for name in ("journal.sqlite", "journal.sqlite-wal", "journal.sqlite-shm"):
            (rig.path / name).unlink(missing_ok=True)
        await rig.start_daemon()
        await until(lambda: bool(console.table.limits) and console.online, "the limits")
        assert console.limits_text == "Ante $5.00-$500.00, Bonus up to $100.00"
        assert console.waits_for.endswith("· Ante $5.00-$500.00, Bonus up to $100.00")
        client = console.connection.client
        assert client is not None
        console.choose_seat(4)
        for dollars, words in (
            (2, "below the table minimum of $5.00"),
            (600, "above the table maximum of $500.00"),
        ):
            console.clear_amount()
            for digit in str(dollars):
                console.key("amount", digit)
            assert not await console.place_or_change()
            assert words in console.message and "limits.ante" in console.message, console.message
        assert console.table.seats == ()
        await enter_wager(console, 4, "ante", 500)
        with pytest.raises(ApiError, match=r"above the table maximum of \$500\.00"):
            await client.submit_event(
                {"type": "wager_changed", "seat": 4, "wager": "ante", "amount": "501.00"}
            )
        # The refusals are journaled with the reason (the round's records).
        recalled = await client.recall_round(console.table.round_id, auth=FLOOR)
        refused = [r["body"]["reason"] for r in recalled["records"] if r["kind"] == "refused"]
        assert any("below the table minimum" in r for r in refused), refused


def test_limits_in_the_rules_submission_are_checked_every_problem_at_once() -> None:
    from controller.rules.core.options import RulesError
    from controller.rules.core.submission import WagerLimits, parse_submission
    from controller.rules.games import GAMES

    ok = parse_submission(RULES_SUBMISSION + LIMITS, GAMES, "rules.toml")
    assert ok.limits == {"ante": WagerLimits(500, 50_000), "bonus": WagerLimits(None, 10_000)}
    bad = (
        '\n[limits]\nantee = { minimum = "5.00" }\nante = { minimum = "50.00", maximum = "5.00" }\n'
        'bonus = { minimun = "1.00" }\nprogressive = { maximum = "1.00" }\n'
    )
    with pytest.raises(RulesError) as problems:
        parse_submission(RULES_SUBMISSION + bad, GAMES, "rules.toml")
    text = "\n".join(problems.value.problems)
    assert "limits.antee: not a wager the dealer enters at this game; did you mean 'ante'?" in text
    assert "limits.ante: the minimum 50.00 is above the maximum 5.00" in text
    assert "limits.bonus.minimun: unknown key; did you mean 'minimum'?" in text
    assert "limits.progressive: not a wager the dealer enters" in text
