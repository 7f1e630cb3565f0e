"""The poker table as the dealer's screen draws it (``poker_room/view.py``): whose turn, what he has to
call, the actions the procedure takes from him with the least and the most a bet or raise may be, each
player's chips and bets, the pots, the draw. Every figure is worked out in the comments."""

from __future__ import annotations

from controller.rules.games.poker_room.game import GAME
from controller.rules.games.poker_room.view import table_view

from .rounds import cards, decide, wager
from .test_poker_procedure import acts, deal, dealt_in_order, rules, seated


def test_the_first_betting_round_offers_what_the_pot_limit_takes() -> None:
    """Omaha High, pot-limit, button 4, blinds 1.00 (seat 1) and 2.00 (seat 2), seats 1-4 with 100.00,
    50.00, 100.00, 5.00. Seat 3 acts first: 2.00 to call; a raise to at least 4.00 (the Blind Bet 2.00
    again), at most 7.00 (the pot 3.00 after his call of 2.00, plus the call: 2.00 + 3.00 + 2.00)."""
    rnd = seated(
        "omaha-high",
        4,
        {1: "100.00", 2: "50.00", 3: "100.00", 4: "5.00"},
        blinds=[(1, "1.00"), (2, "2.00")],
        betting={"limit": "pot-limit"},
    )
    rnd.apply(deal(5))
    view = table_view(rnd.state)
    assert (view["button"], view["blinds"], view["turn"], view["to_call"]) == (4, [1, 2], 3, "2.00")
    # All in for 100.00 is above the pot limit: not offered.
    assert view["actions"] == [
        {"action": "fold"},
        {"action": "call", "amount": "2.00"},
        {"action": "raise", "least": "4.00", "most": "7.00"},
    ]
    seats = {s["seat"]: s for s in view["seats"]}
    assert seats[2]["this_round"] == "2.00" and seats[2]["behind"] == "48.00" and seats[3]["holds"] == 5
    assert view["pots"] == [{"name": "main_pot", "amount": "3.00", "eligible": [1, 2, 3, 4]}]
    # Seat 3 calls; seat 4 has 5.00 in chips: a raise to 4.00 up to his 5.00 (the pot limit, 2.00 + 5.00
    # + 2.00 = 9.00, is more than he has), or all in for 5.00.
    acts(rnd, (3, "call"))
    view = table_view(rnd.state)
    assert view["turn"] == 4 and view["actions"][2:] == [
        {"action": "raise", "least": "4.00", "most": "5.00"},
        {"action": "all_in", "amount": "5.00"},
    ]
    # He goes all in (a raise of 3.00): the main pot 10.00 (1 + 2 + 2 + 5) that all four may win, a side
    # pot to come for the others; seat 1 owes 4.00, may raise to 8.00 (5.00 + the raise 3.00), at most
    # 19.00 (5.00 + the pot 10.00 + his call 4.00).
    acts(rnd, (4, "all_in"))
    view = table_view(rnd.state)
    assert view["pots"] == [{"name": "main_pot", "amount": "10.00", "eligible": [1, 2, 3, 4]}]
    assert view["turn"] == 1 and view["to_call"] == "4.00"
    assert view["actions"][2] == {"action": "raise", "least": "8.00", "most": "19.00"}
    acts(rnd, (1, "call"), (2, "call"), (3, "call"))
    # All called 5.00: the main pot 20.00; no side pot until one of seats 1-3 bets more.
    main = {"name": "main_pot", "amount": "20.00", "eligible": [1, 2, 3, 4]}
    assert table_view(rnd.state)["pots"] == [main]


def test_the_draw_shows_whose_turn_and_how_many_he_is_owed() -> None:
    """Badugi, button 3: after the first betting round and the burn, seat 1 draws first; he discards two:
    owed 2."""
    rnd = seated("badugi", 3, {1: "20.00", 2: "20.00", 3: "20.00"}, blinds=[(1, "1.00"), (2, "2.00")])
    rnd.apply(deal(4))
    acts(rnd, (3, "call"), (1, "call"), (2, "check"))
    assert table_view(rnd.state)["turn"] is None
    rnd.apply(deal(1, "burn"))
    assert table_view(rnd.state)["draw"] == {"draw": 1, "seat": 1, "owed": 0, "drawn": []}
    rnd.apply(deal(2, "dealer"))
    assert table_view(rnd.state)["draw"] == {"draw": 1, "seat": 1, "owed": 2, "drawn": []}
    rnd.apply(deal(2, "1"))
    rnd.apply(decide(2, "stand_pat"))
    assert table_view(rnd.state)["draw"] == {"draw": 1, "seat": 3, "owed": 0, "drawn": [1, 2]}


def test_a_round_record_of_the_showdown_has_no_table_view() -> None:
    """A record that gives the bets as totals has no table; a round before anything waits for the
    button (the dealer's, § 637a.19(c)(1)(i)), or for the players to draw for it ((c)(1)(ii))."""
    fresh = GAME.start(rules("badugi"), {})
    assert table_view(fresh)["phase"] == "button"
    drawn = GAME.start(rules("badugi", **{"button.start": "high_card"}), {})
    assert table_view(drawn)["phase"] == "seating" and table_view(drawn)["button"] is None
    record = GAME.apply(fresh, wager(1, "blind", "1.00"))
    assert table_view(record) == {}


def test_the_showdown_of_a_round_dealt_face_down_says_who_shows_or_mucks() -> None:
    """Badugi without a reader, seats 1-3 to the showdown: each has to show or muck (§ 637a.19(k)); once
    seat 1 has shown and seat 3 mucked, seat 2 still may muck (seat 1 is in); the screen's MUCK keys."""
    from ui.poker import muck_steps, poker_view

    rnd = seated("badugi", 3, {1: "20.00", 2: "20.00", 3: "20.00"}, blinds=[(1, "1.00"), (2, "2.00")])
    rnd.apply(deal(4))
    acts(rnd, (3, "call"), (1, "call"), (2, "check"))
    for _ in range(3):
        rnd.apply(deal(1, "burn"))
        for seat in (1, 2, 3):
            rnd.apply(decide(seat, "stand_pat"))
        acts(rnd, (1, "check"), (2, "check"), (3, "check"))
    assert table_view(rnd.state)["to_show"] == [{"seat": s, "may_muck": True} for s in (1, 2, 3)]
    rnd.apply(cards(1, "Ac 2d 3h 4s"))
    rnd.apply(decide(3, "fold"))
    view = table_view(rnd.state)
    assert view["to_show"] == [{"seat": 2, "may_muck": True}]
    shown = poker_view({"round": {"table_view": view}})
    assert shown is not None and shown.headline == "Showdown: S2 to show or muck"
    assert muck_steps(shown) == (("muck:2", "MUCK S2", {"type": "decision", "seat": 2, "action": "fold"}),)


def test_the_hands_shown_so_far_are_in_the_view_for_the_keypad() -> None:
    """Badugi without a reader: once seat 1 has shown at the showdown (§ 637a.19(k)) his cards are face
    up, and the view gives them (the screen's card keypad refuses them for another hand before
    sending); before the showdown nothing is shown."""
    rnd = seated("badugi", 3, {1: "20.00", 2: "20.00", 3: "20.00"}, blinds=[(1, "1.00"), (2, "2.00")])
    rnd.apply(deal(4))
    acts(rnd, (3, "call"), (1, "call"), (2, "check"))
    assert table_view(rnd.state)["shown"] == []
    for _ in range(3):
        rnd.apply(deal(1, "burn"))
        for seat in (1, 2, 3):
            rnd.apply(decide(seat, "stand_pat"))
        acts(rnd, (1, "check"), (2, "check"), (3, "check"))
    rnd.apply(cards(1, "Ac 2d 3h 4s"))
    assert table_view(rnd.state)["shown"] == [{"seat": 1, "cards": "Ac 2d 3h 4s"}]


def test_at_a_table_with_a_reader_the_player_drawing_chooses_among_his_cards_read() -> None:
    """Triple Draw 2-7 read card by card: in his turn to draw the view gives the hand of the player
    drawing (the shoe read it), for the dealer to touch his discards ("Each player may keep his original
    hand or discard as many cards as he chooses", § 637a.20(h)); once he has discarded, or at a table
    without a reader, no hand."""
    rnd = seated(
        "triple-draw-2-7", 3, {1: "20.00", 2: "20.00", 3: "20.00"}, blinds=[(1, "1.00"), (2, "2.00")]
    )
    dealt_in_order(rnd, {1: "7c 5d 4h Kd Kc", 2: "8c 8d 8h 8s Tc", 3: "9c 9d 9h 9s Jc"})
    acts(rnd, (3, "call"), (1, "call"), (2, "check"))
    rnd.apply(cards("burn", "Qs"))
    draw = table_view(rnd.state)["draw"]
    assert draw == {"draw": 1, "seat": 1, "owed": 0, "drawn": [], "hand": "7c 5d 4h Kd Kc"}
    rnd.apply(cards("dealer", "Kd Kc"))
    assert "hand" not in table_view(rnd.state)["draw"]
