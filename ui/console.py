"""The dealer's console: everything the screen shows and every command it sends, in plain Python.

:class:`Console` joins the :class:`~ui.table.TableModel` (what the daemon says), the
:class:`~ui.connection.Connection` (online or "controller offline"), what the dealer is keying
in (seat, wager amount, dice, cards, an Asia Poker setting), and the floorperson's
:class:`~ui.pin_pad.PinPad`. Its commands build the local API's events and send them; what the
daemon answers (its refusal with the section, word for word) is the console's ``message``. The
Kivy widgets only draw these properties and call these methods.

The screen asks; it never tells the table what only a device, a floorperson or the meter can
know: no progressive wager is entered here (the sensors), no card unless a device is out of order
(§ 639a.13(g)), no void without a floorperson's PIN.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any

from controller.api_client import ApiConnectionError, ApiError, Credentials

from .card_keys import PokerCards
from .connection import Connection, LinkState
from .entry import AmountKeys, CardKeys, DiceKeys, SettingKeys
from .games import Choice, GameScreen, screen_for
from .hand_pay import Claim, HandPayEntry, claims_to_settle
from .house_way import HouseWayView
from .money import dollars
from .observable import Observable
from .pin_pad import PinPad, Purpose
from .poker import PokerAction, PokerView, action_event, poker_view
from .poker_floor import dead_hand, dismissal, dispute_event, ruling_event
from .table import Betting, Hand, TableModel
from .words import dealer_words


class Console(Observable):
    def __init__(self, socket: Path) -> None:
        super().__init__()
        self.table = TableModel()
        self.connection = Connection(socket, self.table)
        self.pin = PinPad()
        self.amount = AmountKeys()
        self.dice = DiceKeys()
        self.cards = CardKeys()
        self.setting = SettingKeys()
        #: A floorperson's hand pay of a claim the meter refused or did not award in time.
        self.hand_pay = HandPayEntry()
        #: The seat, hand and cards the setting keys were last loaded for (not loaded again until
        #: one of them changes: a seat whose hands were just set keeps no keys).
        self._setting_for: tuple[int, int, tuple[str, ...]] = (0, 0, ())
        self.seat = 0
        #: The seat chosen on the poker table's panel (a player joining).
        self.poker_seat = 0
        #: The poker table's card keys: the board and the hands shown, the discards (ui/card_keys.py).
        self.poker_cards = PokerCards()
        #: The dealer is saying what is disputed at the showdown (the words offered as keys).
        self.poker_dispute = False
        self.hand = 0
        self.wager = ""
        self.card_to = ""
        self.message = ""
        self.message_ok = True
        self.page = "table"
        self.closed_round = ""
        #: The part of the settlement read at length (:meth:`show_settled`), for the round it was
        #: opened in: a new settlement opens on the seats' blocks.
        self._settled_shown: tuple[str, str] = ("", "")
        self.tab = ""
        self._round_id = ""
        self.setting_hand = "high"
        self._tab_waits: tuple[str, str] = ("", "")
        self._tasks: set[asyncio.Task[None]] = set()
        self._screen_for: tuple[str, Mapping[str, Any], Mapping[str, Any], str] = ("", {}, {}, "")
        self._screen: GameScreen | None = None
        #: What the pad was last opened for (the floorpersons' names asked for each opening).
        self._pin_for: Purpose | None = None
        for part in (self.table, self.connection, self.pin):
            part.subscribe(self._follow)

    def _follow(self) -> None:
        if self.pin.purpose is not self._pin_for:
            # The pad just opened (or for another purpose): the floorpersons' names to offer.
            self._pin_for = self.pin.purpose
            if self._pin_for is not None and self._loop_running():
                self.spawn(self.offer_floorpersons())
        if self.table.round_id != self._round_id:
            # A new round: the panels follow it again, not the last round's choice; the main
            # wager is selected again and the amount cleared (the last round's bonus does not stay).
            self._round_id, self.tab = self.table.round_id, ""
            self.wager, self.amount.cents = "", 0
            self.poker_dispute = False
        screen = self.screen
        if not self.wager and screen is not None and screen.wagers:
            self.wager = screen.wagers[0].name
        preselect = self.table.waiting_seat
        if preselect is not None and self.table.round is not None and not self.table.open_for_bets:
            self.seat, self.hand = preselect
        # The chosen seat's seven cards as the daemon has them now: the seat may have been chosen
        # (or preselected by the daemon) before its cards' event reached the screen.
        self._load_setting()
        self.changed()

    def _load_setting(self) -> None:
        screen = self.screen
        chosen = (self.seat, self.hand, self.seat_cards)
        if screen is not None and screen.sets_hands and chosen != self._setting_for:
            self._setting_for = chosen
            self.setting.load(chosen[2])

    # -- what is shown -----------------------------------------------------------------------------

    @property
    def online(self) -> bool:
        return self.connection.state is LinkState.CONNECTED

    @property
    def screen(self) -> GameScreen | None:
        """The game's screen: the screen's layout and the daemon's words (``vocabulary``); made
        again only when the daemon's snapshot changes."""
        table = self.table
        made = (table.game, table.vocabulary, table.screen_hints, table.title)
        if self._screen_for != made:
            self._screen_for = made
            try:
                self._screen = screen_for(*made[:3], made[3]) if made[0] else None
            except (KeyError, ValueError):
                self._screen = None
        return self._screen

    @property
    def title(self) -> str:
        if not self.table.connected_once:
            return "the dealer's screen: not connected to the controller yet"
        screen = self.screen
        poker = self.poker
        name = (
            screen.title
            if screen
            else poker.title
            if poker is not None and poker.title
            else str(self.table.status.get("title") or self.table.game or "table")
        )
        table = self.table.status.get("table", "")
        return f"{name}  ·  table {table}  ·  round {self.round_on_screen or '-'}"

    @property
    def round_on_screen(self) -> str:
        """The round the screen shows: the settled one until the dealer closes it (the daemon has
        opened the next at once), else the daemon's round in play."""
        view = self.table.settlement
        return view.round_id if view is not None and self.settlement_open else self.table.round_id

    @property
    def banner_state(self) -> str:
        """What the banner says (:class:`~ui.table.Betting`): BETS OPEN only for the round whose
        bets are open, once the settled round is closed; PAYING (JACKPOT PENDING - HOLD while a
        payout waits for a floorperson) until then."""
        if self.settlement_open:
            return Betting.HOLD if self.table.pending_payouts else Betting.PAYING
        if self.table.jackpot_hands:
            return Betting.HOLD  # a jackpot hand dealt: nothing mucked until the floor comes
        poker = self.poker
        if poker is not None:  # a poker table has no "bets open": whose turn, or the step of the round
            return poker.banner
        return self.table.betting

    @property
    def hands_shown(self) -> tuple[Hand, ...]:
        """The cards on screen: the settled round's while it is being paid, this round's after
        (the last round's are cleared at its close)."""
        return self.table.hands_on_screen if self.settlement_open else self.table.hands

    @property
    def banner(self) -> str:
        """The biggest words on the screen: offline, else OPEN / NO MORE BETS."""
        return self.connection.banner or self.banner_state

    @property
    def seats_offered(self) -> tuple[int, ...]:
        screen = self.screen
        return tuple(range(1, screen.seats + 1)) if screen else ()

    @property
    def poker(self) -> PokerView | None:
        """The poker table the daemon shows (``round.table_view``), or ``None`` at another game."""
        try:
            return poker_view(self.table.status)
        except ValueError:
            return None

    @property
    def settlement_open(self) -> bool:
        """The last round's settlement is on screen and not closed by the dealer yet."""
        view = self.table.settlement
        return view is not None and (self.closed_round != view.round_id or not view.can_close)

    @property
    def may_take_wagers(self) -> bool:
        """While the table is open; at Three Dice Football also between throws, where single play
        wagers are made before each down (§ 661a.3(d)) and the daemon's rules say when not."""
        if not self.online or self.settlement_open or self.table.round is None:
            return False
        screen = self.screen
        return self.table.open_for_bets or (screen is not None and screen.dice_game)

    @property
    def may_key_cards(self) -> bool:
        """§ 639a.13(g): by hand only while a device is out of order."""
        # § 639a.13(g): the daemon's status says when cards may be keyed by hand (a device offline
        # or faulted, or declared out of order by a floorperson); the screen only follows it.
        return self.online and self.table.keying_by_hand is not None and self.table.round is not None

    @property
    def may_settle(self) -> bool:
        return self.online and self.table.may_settle

    def house_way_for(self, place: str) -> HouseWayView | None:
        """The daemon's house way for ``place`` (``"dealer"`` or a seat's number), if it gives one
        now: the dealer's once every player has set (§ 659a.11(c)), a seat's after its "help"
        (§ 659a.11(a)(1))."""
        return next((h for h in self.table.house_way if h.to == place), None)

    @property
    def house_way_text(self) -> str:
        """What the screen shows beside the hand-setting keys: the chosen seat's house way, then
        the dealer's ("" if the daemon gives neither)."""
        shown = [self.house_way_for(str(self.seat)), self.house_way_for("dealer")]
        return "\n".join(h.text for h in shown if h is not None)

    @property
    def decisions_offered(self) -> tuple[Choice, ...]:
        """The decision keys shown: those the daemon says the rules take now where it lists them
        (Blackjack: no Insurance with a 9 up, § 633a.8), else the game's every decision."""
        screen = self.screen
        if screen is None:
            return ()
        open_now = self.table.open_decisions
        return tuple(d for d in screen.decisions if open_now is None or d.name in open_now)

    def total_of(self, to: str, hand: int = 0) -> str:
        """The daemon's total of a hand (``"soft 17"``), ``""`` at a game whose hands are ranked."""
        return self.table.totals.get((to, hand), "")

    @property
    def dealer_cards(self) -> tuple[str, ...]:
        """The dealer's cards as the shoe dealt them (the up card while the players decide)."""
        return next((h.cards for h in self.table.hands if h.to == "dealer"), ())

    @property
    def seat_cards(self) -> tuple[str, ...]:
        for hand in self.table.hands:
            if hand.to == str(self.seat) and hand.hand == self.hand:
                return hand.cards
        return ()

    @property
    def tabs(self) -> tuple[str, ...]:
        """The panels the dealer may open now, in the order of the round."""
        screen = self.screen
        if self.pin.open:
            return ("pin",)
        if not self.online:
            return ()
        if self.poker is not None or (screen is None and self.settlement_open):
            # The poker room (ui/poker.py): its table, then the settlement of its pots.
            return ("settlement",) if self.settlement_open else ("poker",)
        if screen is None:
            return ()
        if self.settlement_open:
            return ("settlement",)
        out = []
        if self.may_take_wagers:
            out.append("wagers")
        if self.table.round is not None:
            out.extend(t for t in screen.start if t not in out)
        if screen.dice_game:
            out.append("dice")
        if screen.sets_hands:
            out.append("setting")
        out.append("decisions")
        if self.may_key_cards:
            out.append("cards")
        if self.claims:
            out.append("claim")
        if self.table.round is not None:
            out.append("irregularity")
        return tuple(out)

    @property
    def claims(self) -> tuple[Claim, ...]:
        """The round's progressive claims the central meter REFUSED or did not award in time
        (TIMED OUT): each waits for a floorperson's hand pay (or a void of the round)."""
        return claims_to_settle(self.table.status.get("link") or {})

    @property
    def panel(self) -> str:
        """The panel on screen: the dealer's choice if it is still offered, else what the round
        waits for."""
        tabs = self.tabs
        if not tabs:
            return "offline" if not self.online else ""
        if self.tab in tabs and self._tab_waits == self._moment:
            return self.tab
        if len(tabs) == 1:
            return tabs[0]
        step = self.table.waiting_step
        screen = self.screen
        assert screen is not None
        if screen.dice_game:
            # Three Dice Football: the Quarterback's decision on the dice, the throw, else wagers.
            return "decisions" if step == "decision" else "dice" if step == "dice" else "wagers"
        if "wagers" in tabs and self.table.open_for_bets:
            return "wagers"
        if "claim" in tabs:
            return "claim"
        if screen.start and step in ("starting_position", "dice"):
            # § 659a.5(g)(1): the shaker's dice; (2), (3): a number 1-7 (random number generator, button).
            return "dice" if step == "dice" and "dice" in screen.start else screen.start[-1]
        if screen.sets_hands and step == "setting_hands":
            return "setting"
        if "cards" in tabs:
            return "cards"
        return "decisions"

    @property
    def _moment(self) -> tuple[str, str]:
        """Where the round is: what it waits for, and the lock-out."""
        return self.table.waiting_for, self.table.betting

    def open_tab(self, tab: str) -> None:
        if tab not in self.tabs:
            raise ValueError(f"the panel {tab!r} is not offered now (panels: {', '.join(self.tabs)})")
        # The dealer's choice holds until the round moves on (the daemon waits for something else).
        self.tab, self._tab_waits = tab, self._moment
        self.changed()

    @property
    def waits_for(self) -> str:
        """What the dealer does next: while the settled round is on the table, its payouts (the next
        round's words wait for its close); else the daemon's words (its status's ``waiting_for``)."""
        if self.settlement_open:
            waiting = self.table.pending_payouts
            if waiting:
                return f"Next: DO NOT MUCK seat {waiting[0].get('seat', '?')}: CALL THE FLOOR (PIN)"
            return "Next: pay and collect, then CLOSE THE ROUND"
        if self.table.open_for_bets and self.table.waiting_step == "bets" and "wagers" in self.tabs:
            # The key the dealer presses, not the rule's words ("the dealer's 'no more bets'").
            text = "Next: place the wagers, then press NO MORE BETS"
        else:
            text = dealer_words(self.table.waiting_for, self.titles)
        limits = self.limits_text
        if limits and self.table.open_for_bets:
            text = f"{text} · {limits}" if text else limits
        dealt = self.table.jackpot_hands
        if dealt:
            # The moment the cards make a jackpot hand, before the meter's award comes.
            hands = "; ".join(f"seat {j.get('seat')} {j.get('hand')}" for j in dealt)
            return f"JACKPOT {hands}: DO NOT MUCK, CALL THE FLOOR" + (f". Then: {text}" if text else "")
        if not text:
            return "" if self.table.round is None else "ready to settle"
        return text[0].upper() + text[1:]

    @property
    def titles(self) -> dict[str, str]:
        """The game's own names in the dealer's words, from its vocabulary (``accept_dice`` ->
        "Accept the dice"): the daemon's words are shown in them."""
        screen = self.screen
        if screen is None:
            return {}
        return {c.name: c.title for c in (*screen.wagers, *screen.decisions, *screen.irregularities)}

    @property
    def limits_text(self) -> str:
        """The table's limits as posted, in the wagers' titles: ``"Ante $5.00-$500.00"`` (the
        daemon's ``limits``, from the Rules Submission); ``""`` at a table that files none."""
        screen = self.screen
        titles = {w.name: w.title for w in screen.wagers} if screen is not None else {}
        shown = []
        for name, (low, high) in self.table.limits.items():
            span = (
                f"{dollars(low)}-{dollars(high)}"
                if low is not None and high is not None
                else f"from {dollars(low)}"
                if low is not None
                else f"up to {dollars(high)}"
                if high is not None
                else ""
            )
            if span:
                shown.append(f"{titles.get(name, name)} {span}")
        return ", ".join(shown)

    def jackpots_at(self, seat: int) -> tuple[str, ...]:
        """The jackpot hands dealt to ``seat`` as the seat's line names them: ``"JACKPOT royal
        flush"`` (the daemon's ``round.jackpot_hands``), while the round is in play."""
        if self.settlement_open:
            return ()
        return tuple(f"JACKPOT {j.get('hand')}" for j in self.table.jackpot_hands if j.get("seat") == seat)

    # -- what the dealer keys in -------------------------------------------------------------------

    def choose_seat(self, seat: int, hand: int = 0) -> None:
        if seat not in self.seats_offered:
            raise ValueError(f"seat {seat} is not a seat of this table ({self.seats_offered})")
        self.seat, self.hand = seat, hand
        self._setting_for = (0, 0, ())  # chosen again: its keys afresh
        self._load_setting()
        self.changed()

    def choose_wager(self, wager: str) -> None:
        screen = self.screen
        if screen is None or wager not in {c.name for c in screen.wagers}:
            raise ValueError(f"{wager!r} is not a wager the dealer enters at this game")
        self.wager = wager
        self.changed()

    def key(self, part: str, key: str) -> None:
        """A key of one keypad: ``amount`` digits, ``chip`` dollars, ``dice`` faces, ``cards``
        ranks and suits, ``setting`` card:hand, ``meter`` the hand pay's verified meter (cents),
        ``reason`` its reason, ``words`` the reason typed (``words_done`` back to the claim),
        ``claim`` which claim; ``back`` on any keypad."""
        keypads = {"amount": self.amount, "dice": self.dice, "cards": self.cards, "meter": self.hand_pay}
        target: Any = keypads.get(part)
        if part == "reason":
            self.hand_pay.choose_reason(key)
        elif part == "words":
            self.hand_pay.type(key)
        elif part == "words_done":
            self.hand_pay.done_typing()
        elif part == "claim":
            self.hand_pay.choose(self.claims, key)
        elif part == "chip":
            self.amount.chip(int(key))
        elif part == "setting":
            card, _, hand = key.partition(":")
            self.setting.place(card, hand or self.setting_hand)
        elif part == "setting_hand":
            if key not in ("high", "medium", "low"):
                raise ValueError(f"the hands are high, medium and low, not {key!r}")
            self.setting_hand = key
        elif target is None:
            raise ValueError(f"no keypad {part!r}")
        elif key == "back":
            target.back()
        elif part == "dice":
            target.press(int(key))
        else:
            target.press(key)
        self.changed()

    def clear_amount(self) -> None:
        self.amount.cents = 0
        self.changed()

    def close_settlement(self) -> None:
        view = self.table.settlement
        if view is None:
            return
        if not view.can_close:
            self._say(False, f"round {view.round_id}: a floorperson must verify the payouts first")
            return
        self.closed_round = view.round_id
        self.changed()

    @property
    def settled_detail(self) -> str:
        """What the settlement shows at length: ``""`` every seat's block, a seat's number (its
        wagers) or ``"dealer"`` (the dealer's hand, the poker room's pots)."""
        view = self.table.settlement
        round_id, which = self._settled_shown
        return which if view is not None and round_id == view.round_id else ""

    def show_settled(self, which: str) -> None:
        """Open one seat's wagers (``"3"``), the dealer's hand (``"dealer"``), or every seat's block
        again (``""``)."""
        view = self.table.settlement
        if view is None:
            raise ValueError("no settlement on the screen")
        offered = ("", "dealer", *(str(seat.seat) for seat in view.seats))
        if which not in offered:
            raise ValueError(f"round {view.round_id} has no seat {which!r} settled")
        self._settled_shown = (view.round_id, which)
        self.changed()

    def show(self, page: str) -> None:
        if page not in ("table", "technician"):
            raise ValueError(f"the screen has the pages table and technician, not {page!r}")
        self.page = page
        self.changed()

    # -- commands ----------------------------------------------------------------------------------

    def spawn(self, work: Awaitable[None]) -> asyncio.Task[None]:
        """Run a command in the screen's loop (a widget's tap); the task is kept until done."""

        async def wrapped() -> None:
            await work

        task = asyncio.get_running_loop().create_task(wrapped())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    @staticmethod
    def _loop_running() -> bool:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return False
        return True

    def _say(self, ok: bool, text: str) -> None:
        self.message, self.message_ok = text, ok
        self.changed()

    async def _send(self, what: str, event: Mapping[str, Any], auth: Credentials | None = None) -> bool:
        client = self.connection.client
        if client is None:
            self._say(False, f"{what}: not sent, the controller is offline")
            return False
        try:
            await client.submit_event(event, auth)
        except ApiError as exc:
            self._say(False, f"{what}: {exc.code}: {exc.message}")
            return False
        except ApiConnectionError as exc:
            self._say(False, f"{what}: not sent: {exc}")
            return False
        self._say(True, f"{what}: done")
        return True

    async def place_wager(self) -> bool:
        if not self.may_take_wagers:
            self._say(False, f"wagers are taken while the table is open ({self.table.betting})")
            return False
        if not self.seat or not self.wager or not self.amount.cents:
            self._say(False, "choose the seat, the wager and the amount")
            return False
        amount = self.amount.text
        event = {"type": "wager", "seat": self.seat, "wager": self.wager, "amount": amount}
        # The amount and the wager stay: the next seat often bets the same (C clears them).
        return await self._send(f"seat {self.seat} {self.wager} {amount}", event)

    @property
    def placed(self) -> Decimal | None:
        """The chosen seat's chosen wager as the daemon has it (its amount), ``None`` if not made:
        the PLACE key then changes it (CHANGE TO), and REMOVE removes it."""
        seat = next((s for s in self.table.seats if s.seat == self.seat), None)
        made = [w.amount for w in seat.wagers if w.wager == self.wager] if seat is not None else []
        return made[-1] if made else None

    async def place_or_change(self) -> bool:
        """The PLACE key: a new wager, or the one the seat has changed to the amount typed."""
        return await (self.change_wager() if self.placed is not None else self.place_wager())

    async def change_wager(self) -> bool:
        """The chosen seat's chosen wager changed to the amount typed, before "no more bets"
        (§ 639a.7(c)); the daemon journals it with the actor, or refuses with the reason."""
        if not self.seat or not self.wager or not self.amount.cents:
            self._say(False, "choose the seat, the wager and the new amount")
            return False
        amount = self.amount.text
        event = {"type": "wager_changed", "seat": self.seat, "wager": self.wager, "amount": amount}
        return await self._send(f"seat {self.seat} {self.wager} changed to {amount}", event)

    async def remove_wager(self) -> bool:
        """The chosen seat's chosen wager removed, before "no more bets" (§ 639a.7(c))."""
        if not self.seat or not self.wager:
            self._say(False, "choose the seat and the wager to remove")
            return False
        event = {"type": "wager_changed", "seat": self.seat, "wager": self.wager, "amount": None}
        return await self._send(f"seat {self.seat} {self.wager} removed", event)

    async def no_more_bets(self) -> bool:
        return await self._send("no more bets", {"type": "no_more_bets"})

    async def decide(self, action: str) -> bool:
        if not self.seat:
            self._say(False, f"{action}: choose the seat first")
            return False
        event: dict[str, Any] = {"type": "decision", "seat": self.seat, "action": action}
        if self.hand:
            event["hand"] = self.hand
        where = f"seat {self.seat}" + (f" hand {self.hand + 1}" if self.hand else "")
        return await self._send(f"{where}: {action}", event)

    async def poker_send(self, words: str, event: Mapping[str, Any]) -> bool:
        """A poker table's step as the dealer keys it (a player joining, a forced bet, the deal)."""
        ok = await self._send(words, event)
        if ok:
            self.amount.cents = 0
        return ok

    async def poker_act(self, action: PokerAction) -> bool:
        """The action of the player whose turn it is at a poker table; a bet or raise to the amount
        keyed (the least when none is), within the least and most the daemon gives."""
        view = self.poker
        if view is None:
            self._say(False, f"{action.action}: no poker round on the table")
            return False
        try:
            words, event = action_event(view, action, Decimal(self.amount.cents) / 100)
        except ValueError as exc:
            self._say(False, str(exc))
            return False
        ok = await self._send(words, event)
        if ok:
            self.amount.cents = 0
        return ok

    def ask_dispute(self, asking: bool = True) -> None:
        """DISPUTE at the showdown: the panel asks what is disputed (or, ``False``, no longer)."""
        self.poker_dispute = asking
        self.changed()

    async def report_dispute(self, name: str) -> bool:
        """The dealer reports the disputed pot in the words chosen; the round then waits for a
        floorperson (docs/games/poker-room.md, "Irregularities")."""
        try:
            words, event = dispute_event(name)
        except ValueError as exc:
            self._say(False, str(exc))
            return False
        ok = await self._send(words, event)
        if ok:
            self.poker_dispute = False
        return ok

    def rule_dead_hand(self, seat: int) -> None:
        """The floorperson rules ``seat``'s hand dead: his PIN signs the ruling's words."""
        view = self.poker
        try:
            if view is None:
                raise ValueError("no poker round on the table")
            if not seat:
                raise ValueError("choose the seat of the hand ruled dead first")
            purpose = dead_hand(view, seat)
        except ValueError as exc:
            self._say(False, f"disputed pot: {exc}")
            return
        self.poker_seat = 0
        self.pin.start(purpose)

    def dismiss_dispute(self) -> None:
        """The floorperson dismisses the dispute with his PIN: the showdown goes on as it was."""
        self.pin.start(dismissal())

    async def set_hands(self) -> bool:
        try:
            action = self.setting.action()
        except ValueError as exc:
            self._say(False, str(exc))
            return False
        ok = await self.decide(action)
        if ok:
            self.setting.load(())
        return ok

    async def throw(self) -> bool:
        """The dice as thrown: Three Dice Football's throw, or Asia Poker's shaker."""
        try:
            event = self.dice.event()
        except ValueError as exc:
            self._say(False, str(exc))
            return False
        ok = await self._send("dice " + " ".join(map(str, self.dice.dice)), event)
        if ok:
            self.dice.dice = []
        return ok

    async def start_position(self, value: int) -> bool:
        """The position the count starts at: the random number generator's or the button's
        (§ 659a.5(g)(2), (3))."""
        return await self._send(f"starting position {value}", {"type": "position", "value": value})

    async def key_in_cards(self) -> bool:
        if not self.may_key_cards:
            self._say(False, "cards are keyed in only while a device is out of order (§ 639a.13(g))")
            return False
        if not self.card_to or not self.cards.cards:
            self._say(False, "choose where the cards go and key them in")
            return False
        event: dict[str, Any] = {"type": "cards", "to": self.card_to, "cards": " ".join(self.cards.cards)}
        ok = await self._send(f"cards to {self.card_to}", event)
        if ok:
            self.cards.cards = []
        return ok

    async def settle(self) -> bool:
        client = self.connection.client
        if client is None:
            self._say(False, "settle: not sent, the controller is offline")
            return False
        try:
            result = await client.settle_round()
        except (ApiError, ApiConnectionError) as exc:
            self._say(False, f"settle: {exc}")
            return False
        self._say(True, f"round {result.get('round')} settled")
        return True

    async def report_irregularity(self, choice: Choice) -> bool:
        """A dice game's irregularity is the dealer's to enter; a card game's voids the round and
        needs a floorperson's PIN first (design: "a void round: a floorperson")."""
        screen = self.screen
        if screen is not None and screen.dice_game:
            return await self._send(choice.title, {"type": "irregularity", "kind": choice.name})
        title = f"{choice.title} ({choice.section}): void the round"
        self.pin.start(Purpose("void", title, detail=choice.name))
        return False

    def confirm_reported(self) -> None:
        """The floorperson confirms the irregularity the round waits on, with a PIN (docs/authority.md)."""
        kind = self.table.floor_to_confirm
        if not kind:
            self._say(False, "no reported irregularity waits for a floorperson")
            return
        self.pin.start(Purpose("void", f"{kind}: confirm the irregularity reported", detail=kind))

    def dismiss_reported(self) -> None:
        """The floorperson dismisses it with a PIN: it did not happen, the round goes on as it was."""
        kind = self.table.floor_to_confirm
        if not kind:
            self._say(False, "no reported irregularity waits for a floorperson")
            return
        self.pin.start(Purpose("dismiss", f"{kind}: dismiss, it did not happen", detail=kind))

    def declare_out_of_order(self, device: str = "shoe") -> None:
        """§ 639a.13(g): a floorperson signs the device out of order before cards are keyed by hand."""
        self.pin.start(
            Purpose("out_of_order", f"{device}: declare out of order (§ 639a.13(g))", detail=device)
        )

    def ask_verification(self, seat: int, wager: str, round_id: str) -> None:
        self.pin.start(
            Purpose("verify", f"verify round {round_id} seat {seat} {wager}", seat, wager, round_id)
        )

    def ask_hand_pay(self) -> None:
        """The hand pay keyed in (the claim, the verified meter, the reason): the floorperson
        signs it with the PIN (``claim_hand_pay``, docs/progressive-link.md)."""
        claims = self.claims
        problem = self.hand_pay.problem(claims)
        claim = self.hand_pay.chosen(claims)
        if problem or claim is None:
            self._say(False, problem or "no claim waits for a floorperson")
            return
        entry = self.hand_pay
        title = f"hand pay seat {claim.seat} {claim.wager} {entry.shown} (claim {claim.status})"
        self.pin.start(
            Purpose("hand_pay", title, claim.seat, claim.wager, detail=entry.reason_text, amount=entry.meter)
        )

    async def offer_floorpersons(self) -> None:
        """The floorpersons' names from the daemon, as keys on the open pad (names only, the
        ``floorpersons`` command); without them (offline, refused) the name is typed."""
        client = self.connection.client
        if client is None or not self.pin.open:
            return
        try:
            names = await client.floorpersons()
        except (ApiError, ApiConnectionError):
            return
        self.pin.offer(tuple(names))

    async def pick_floorperson(self, name: str) -> bool:
        """A floorperson's name key: signs at once if the PIN is typed, else the PIN comes next."""
        if self.pin.pick(name):
            return await self.sign()
        return False

    async def sign(self) -> bool:
        """The floorperson's PIN is in: send what it signs."""
        purpose = self.pin.purpose
        client = self.connection.client
        if purpose is None:
            return False
        credentials = self.pin.take()
        if credentials is None:
            return False
        if client is None:
            self.pin.done("not sent: the controller is offline", False)
            return False
        try:
            if purpose.kind == "verify":
                await client.verify_payout(purpose.seat, purpose.wager, purpose.round_id, auth=credentials)
            else:
                await client.submit_event(_signed_event(purpose), credentials)
        except ApiError as exc:
            self.pin.done(f"{exc.code}: {exc.message}", False)
            return False
        except ApiConnectionError as exc:
            self.pin.done(f"not sent: {exc}", False)
            return False
        self.pin.done(f"{purpose.title}: done", True)
        if purpose.kind == "hand_pay":
            self.hand_pay.clear()
        self._say(True, f"{purpose.title}: done")
        return True


def _signed_event(purpose: Purpose) -> dict[str, Any]:
    """The event a floorperson's PIN signs for ``purpose`` (docs/local-api.md, docs/authority.md)."""
    if purpose.kind == "hand_pay":
        return {
            "type": "claim_hand_pay",
            "seat": purpose.seat,
            "wager": purpose.wager,
            "meter": purpose.amount,
            "reason": purpose.detail,
        }
    if purpose.kind == "dead_hand":
        return ruling_event(purpose)
    if purpose.kind == "dismiss":
        return {"type": "irregularity_dismissed", "reason": f"{purpose.detail}: dismissed by the floorperson"}
    if purpose.kind == "out_of_order":
        return {
            "type": "device_out_of_order",
            "device": purpose.detail,
            "reason": "declared at the dealer's screen",
        }
    return {"type": "irregularity", "kind": purpose.detail, "detail": "confirmed by floorperson"}
