"""Computer players: legal choices from views only, the expert's book play, resampling, search and hints."""

from __future__ import annotations

import ast
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from canasta.bots import BOTS, Budget, SearchBot, make_bot
from canasta.bots.arena import run_arena
from canasta.bots.expert import ExpertBot
from canasta.bots.hints import hint
from canasta.cards import KIND, RED_THREE, full_deck, parse_card
from canasta.legal import materialize
from canasta.moves import Move
from canasta.position import from_position
from canasta.resample import Resampler, resample, unseen_cards
from canasta.rules import PRESETS
from canasta.state import GameState
from canasta.text.labels import card_label
from canasta.views import View

BOTS_DIR = Path(__file__).resolve().parents[2] / "src" / "canasta" / "bots"


def random_states(preset: str, seed: int, hands: int = 2, every: int = 1) -> list[GameState]:
    """Copies of the states met while random and expert players play ``hands`` hands."""
    rng = random.Random(seed)
    rules = PRESETS[preset]
    out = []
    for h in range(hands):
        state = GameState.deal(rules, dealer=h % rules.players, rng=rng,
                               sitting_out=2 * (h % 3) if rules.sit_out else None)
        bots = [make_bot("expert" if (seat + h) % 2 else "random", random.Random(seat)) for seat in range(4)]
        step = 0
        while not state.is_over:
            if step % every == 0:
                out.append(state.copy())
            seat = state.to_act
            moves = list(state.legal_moves())
            state.push(bots[seat % 4].choose(state.view(seat), moves))
            step += 1
    return out


# -- every bot plays legal moves ----------------------------------------------------------


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_bot_returns_one_of_the_listed_moves(preset: str) -> None:
    names = [name for name in sorted(BOTS) if name != "search"]
    bots = {name: make_bot(name, random.Random(7)) for name in names}
    searcher = make_bot("search:3", random.Random(7))
    for i, state in enumerate(random_states(preset, seed=len(preset), hands=2)):
        seat = state.to_act
        moves = list(state.legal_moves())
        view = state.view(seat)
        for bot in bots.values():
            assert bot.choose(view, moves) in moves
        if i % 25 == 0:
            assert searcher.choose(view, moves) in moves


@pytest.mark.parametrize("name", ["random", "basic", "expert", "search:2"])
def test_bots_finish_hands_of_every_preset(name: str) -> None:
    for preset in ("classic", "two-player", "six-player") if name.startswith("search") else sorted(PRESETS):
        rules = PRESETS[preset]
        rng = random.Random(3)
        state = GameState.deal(rules, dealer=0, rng=rng, sitting_out=0 if rules.sit_out else None)
        bots = [make_bot(name, random.Random(s)) for s in range(rules.players)]
        steps = 0
        while not state.is_over and steps < 3000:
            moves = list(state.legal_moves())
            move = bots[state.to_act].choose(state.view(state.to_act), moves)
            state.play(move)  # checked: the rules accept it
            steps += 1
            if name.startswith("search") and steps > 30:
                break
        assert state.is_over or name.startswith("search")


def test_make_bot_reads_a_search_budget() -> None:
    assert isinstance(make_bot("search:100ms", random.Random(1)), SearchBot)
    assert make_bot("search:100ms").budget == Budget(seconds=0.1)  # type: ignore[attr-defined]
    assert make_bot("search:1s").budget == Budget(seconds=1.0)  # type: ignore[attr-defined]
    assert make_bot("search:200").budget == Budget(seconds=None, rollouts=200)  # type: ignore[attr-defined]
    assert make_bot("search").budget == Budget()  # type: ignore[attr-defined]
    assert make_bot("search:200").name == "search:200"
    for bad in ("search:fast", "search:0", "expert:3", "grandmaster"):
        with pytest.raises(ValueError):
            make_bot(bad)


# -- bots see only the view ---------------------------------------------------------------


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            names.add(node.module or "")
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


@pytest.mark.parametrize("module", ["basic.py", "expert.py", "randombot.py", "tracking.py", "levels.py", "rating.py",
                                    "ladder.py", "__init__.py"])
def test_bot_modules_never_import_the_game_state(module: str) -> None:
    names = _imports(BOTS_DIR / module)
    assert "GameState" not in names and "state" not in names and "resample" not in names


def test_only_search_and_the_duel_runners_touch_game_states() -> None:
    """Search resamples hidden cards; the arena (the one duplicate runner) deals the hands the bots play."""
    touching = {p.name for p in BOTS_DIR.glob("*.py") if "GameState" in _imports(p)}
    assert touching <= {"search.py", "belief.py", "arena.py"}  # belief weighs sampled states
    assert not (BOTS_DIR / "duplicate.py").exists()
    hints = BOTS_DIR / "hints.py"
    assert "GameState" not in _imports(hints)


def test_a_bot_choice_depends_on_the_view_alone() -> None:
    """Two states that look the same from the seat (hidden cards dealt anew) get the same choice."""
    for state in random_states("classic", seed=11, hands=2, every=3):
        seat = state.to_act
        view = state.view(seat)
        other = resample(view, random.Random(5))
        assert other.view(seat) == view
        moves = list(state.legal_moves())
        for name in ("basic", "expert"):
            a = make_bot(name, random.Random(9)).choose(view, moves)
            b = make_bot(name, random.Random(9)).choose(other.view(seat), list(other.legal_moves()))
            assert a == b


# -- the expert's book play ---------------------------------------------------------------

CANASTA_Q = ["QS", "QH", "QD", "QC", "QS", "QH", "QD"]
STOCK = ["9D", "4C", "4D", "5S", "6S", "7S", "8S", "TS", "JS", "QC"]


def position(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "rules": "classic", "dealer": 3, "turn": 0, "scores": [0, 0],
        "hands": [["KH", "KD", "KC", "9S", "9H"], ["4H", "5H", "6H"], ["AS", "AH", "AD", "JK", "JK", "2C", "2D",
                                                                      "KS", "TD", "TC", "8D"], ["8H", "8C"]],
        "stock": STOCK, "pile": ["5C", "6C", "7C"],
        "melds": [{"Q": CANASTA_Q}, {"J": ["JH", "JD", "JC"]}], "red_threes": [[], []],
    }
    base.update(fields)
    return base


def test_expert_asks_when_it_can_go_out_and_the_partner_holds_many_cards() -> None:
    state = from_position(position())
    state.play("draw")
    moves = list(state.legal_moves())
    assert Move.parse("ask") in moves
    assert str(ExpertBot(random.Random(1)).choose(state.view(0), moves)) == "ask"


def test_expert_goes_out_without_asking_when_the_partner_holds_few_cards() -> None:
    hands = position()["hands"]
    state = from_position(position(hands=[hands[0], hands[1], ["8D", "8S"], hands[3]]))
    state.play("draw")
    bot = ExpertBot(random.Random(1))
    while not state.is_over:
        state.play(bot.choose(state.view(0), list(state.legal_moves())))
        assert state.turn == 0
    assert state.result is not None and state.result.went_out == 0


def test_expert_says_no_with_a_costly_hand_when_the_side_is_behind() -> None:
    melds = [{"Q": CANASTA_Q}, {"A": ["AC"] * 2 + ["AS", "AH", "AD", "AS", "AH"], "J": ["JH", "JD", "JC", "JS"],
                                "7": ["7S", "7H", "7H", "7D", "7C", "2S", "JK"]}]
    hands = position()["hands"]
    costly = ["TH", "TD", "TC", "9C", "8D", "JK", "JK", "2C", "2D", "7D", "6D"]
    state = from_position(position(melds=melds, hands=[hands[0], ["4H", "5H", "6H", "4S", "5D", "6D", "8S"], costly,
                                                       ["8H", "8C", "9C", "TH", "4H"]]))
    state.play("draw")
    state.play("ask")
    moves = list(state.legal_moves())
    assert str(ExpertBot(random.Random(1)).choose(state.view(2), moves)) == "no"


def test_expert_says_yes_with_a_small_hand() -> None:
    hands = position()["hands"]
    state = from_position(position(hands=[hands[0], hands[1], ["4S", "5D", "6D", "7D", "8D", "9C"], hands[3]]))
    state.play("draw")
    state.play("ask")
    assert str(ExpertBot(random.Random(1)).choose(state.view(2), list(state.legal_moves()))) == "yes"


def play_position(hand: list[str], pile: list[str], theirs: dict[str, list[str]], top: str = "9D") -> GameState:
    state = from_position(position(
        hands=[hand, ["4H", "5H", "6H", "8C", "8S"], ["AS", "AH", "8D", "7D", "6D"], ["8H", "9C", "TC"]],
        stock=[top, *STOCK[1:]], pile=pile, melds=[{"Q": ["QS", "QH", "QD"]}, theirs]))
    state.play("draw")
    return state


def test_expert_does_not_feed_the_next_player_a_card_for_their_meld() -> None:
    state = play_position(["KS", "7H", "TH", "TD", "4S"], ["5C", "6C", "7C", "5D", "9S"],
                          {"K": ["KH", "KD", "KC"]})
    move = ExpertBot(random.Random(1)).choose(state.view(0), list(state.legal_moves()))
    assert move.action == "discard" and move.card != parse_card("KS")


def test_expert_discards_a_black_three_as_a_stop_card() -> None:
    state = play_position(["KS", "7H", "TH", "TD", "3C"], ["5C", "6C", "7C", "5D", "9S"],
                          {"K": ["KH", "KD", "KC"]})
    assert str(ExpertBot(random.Random(1)).choose(state.view(0), list(state.legal_moves()))) == "discard 3C"


def test_expert_freezes_a_big_pile_when_every_other_discard_feeds_the_next_player() -> None:
    pile = ["5C", "6C", "7C", "5D", "9S", "TC", "8D", "7S", "6S", "5S", "4D"]
    state = play_position(["KS", "JS", "AD", "2C"], pile,
                          {"K": ["KH", "KD", "KC"], "J": ["JH", "JD", "JC"], "A": ["AH", "AC", "AC"]}, top="AS")
    move = ExpertBot(random.Random(1)).choose(state.view(0), list(state.legal_moves()))
    assert str(move) == "discard 2C"
    _, why = hint(state.view(0), list(state.legal_moves()))
    assert "freeze" in why


def test_expert_never_discards_a_wild_card_with_a_small_pile() -> None:
    state = play_position(["KS", "JS", "AD", "2C"], ["5C", "6C"],
                          {"K": ["KH", "KD", "KC"], "J": ["JH", "JD", "JC"], "A": ["AH", "AC", "AC"]})
    assert str(ExpertBot(random.Random(1)).choose(state.view(0), list(state.legal_moves()))) != "discard 2C"


def test_expert_takes_a_big_pile_and_the_hint_says_so() -> None:
    pile = ["5C", "6C", "7C", "5D", "9S", "TC", "8D", "7S", "6S", "5S", "4D", "9H"]
    state = from_position(position(hands=[["9C", "9D", "KS", "4S"], ["4H", "5H", "6H"], ["8D", "8S"],
                                          ["8H", "8C"]], pile=pile))
    moves = list(state.legal_moves())
    move, why = hint(state.view(0), moves)
    assert move.action == "pile" and why.startswith("Take the pile: 12 cards")


def test_expert_beats_basic_on_duplicate_deals() -> None:
    result = run_arena("expert", "basic", PRESETS["classic"], seed=2, deals=40)
    assert result["hands"] == 80
    assert result["point_diff_mean"] > 60 and result["point_diff_ci95"][0] > 0, result


# -- resampling ---------------------------------------------------------------------------


def _kinds(cards: list[int]) -> Counter[int]:
    return Counter(cards)


@pytest.mark.parametrize("preset", ["classic", "two-player", "five-player", "six-player"])
def test_resample_keeps_the_view_and_deals_exactly_the_unseen_cards(preset: str) -> None:
    rng = random.Random(1)
    deck = Counter(full_deck(PRESETS[preset].decks))
    for state in random_states(preset, seed=21, hands=2, every=2):
        seat = state.to_act
        view = state.view(seat)
        sample = resample(view, rng)
        assert sample.view(seat) == view  # the seat cannot tell the sample from the real state
        assert [str(m) for m in sample.legal_moves()] == [str(m) for m in state.legal_moves()]
        assert sample.card_count() == state.card_count() == PRESETS[preset].deck_size
        seen = list(view.hand) + list(view.pile) + [c for r in view.red_threes for c in r]
        seen += [c for side in view.melds for cards in side.values() for c in cards]
        seen += [c for k in view.known for c in k]
        unseen = unseen_cards(view)
        assert _kinds(seen) + _kinds(unseen) == deck  # the unseen cards are the complement
        hidden = list(sample.stock)
        for other in range(sample.players):
            if other != seat:
                held = Counter(sample.hand(other))
                assert not Counter(view.known[other]) - held  # known cards stay where they are
                hidden += list((held - Counter(view.known[other])).elements())
                if any(s == other for s, _ in view.history) or other == view.turn:
                    assert not any(KIND[c] == RED_THREE for c in held)
        assert _kinds(hidden) == _kinds(unseen)


def test_resample_while_the_partner_answers_gives_the_asker_a_hand_that_can_go_out() -> None:
    asked = 0
    for seed in range(40):
        state = GameState.deal("classic", dealer=seed % 4, rng=random.Random(seed))
        bots = [make_bot("basic", random.Random(i)) for i in range(4)]
        while not state.is_over:
            if state.phase == "answer":
                view = state.view(state.to_act)
                sampler = Resampler(view)
                for k in range(5):
                    sample = sampler.sample(random.Random(k))
                    assert sample.view(state.to_act) == view
                    sample.play("yes")
                    assert len(sample.legal_moves()) > 0  # the asker can go out, as it said
                asked += 1
            state.play(bots[state.to_act].choose(state.view(state.to_act), list(state.legal_moves())))
        if asked >= 6:
            break
    assert asked >= 6


def test_resamples_differ_and_play_on_to_the_end() -> None:
    state = random_states("classic", seed=5, hands=1)[30]
    view = state.view(state.to_act)
    sampler = Resampler(view)
    rng = random.Random(3)
    samples = [sampler.sample(rng) for _ in range(5)]
    assert len({tuple(s.stock) for s in samples}) > 1
    for s in samples:
        bots = [make_bot("basic", random.Random(i)) for i in range(4)]
        while not s.is_over:
            moves = list(s.legal_moves())
            s.play(bots[s.to_act].choose(s.view(s.to_act), moves))
        assert s.result is not None


def test_resample_refuses_a_finished_hand() -> None:
    state = random_states("classic", seed=5, hands=1)[-1]
    state.push(materialize(state, state.legal_moves().specs[0]))
    while not state.is_over:
        state.push(materialize(state, state.legal_moves().specs[0]))
    with pytest.raises(ValueError):
        resample(state.view(0), random.Random(1))


# -- search -------------------------------------------------------------------------------


def test_search_with_twenty_rollouts_answers_with_a_legal_move() -> None:
    states = [s for s in random_states("classic", seed=8, hands=1) if s.phase == "play"]
    bot = make_bot("search:20", random.Random(1))
    assert isinstance(bot, SearchBot)
    searched = 0
    for state in states[:40]:
        moves = list(state.legal_moves())
        move = bot.choose(state.view(state.to_act), moves)
        assert move in moves
        if bot.last:
            searched += 1
            assert sum(rounds for _, _, rounds in bot.last) <= 20 + len(bot.last)
        if searched >= 3:
            break
    assert searched >= 1


def test_search_by_time_answers_with_a_legal_move() -> None:
    state = next(s for s in random_states("classic", seed=8, hands=1) if s.phase == "play"
                 and sum(1 for m in s.legal_moves() if m.action == "discard") > 2)
    bot = make_bot("search:150ms", random.Random(1))
    assert bot.choose(state.view(state.to_act), list(state.legal_moves())) in state.legal_moves()


# -- hints --------------------------------------------------------------------------------


@pytest.mark.parametrize("bot", ["expert", "basic", "search:4"])
def test_hint_gives_a_listed_move_and_a_sentence(bot: str) -> None:
    states = random_states("classic", seed=13, hands=1, every=4)
    for state in states[:: 3 if bot.startswith("search") else 1]:
        view: View = state.view(state.to_act)
        moves = list(state.legal_moves())
        move, why = hint(view, moves, bot=bot)
        assert move in moves
        assert isinstance(why, str) and len(why) > 10 and why.endswith(".") and why[0].isupper()


def test_hint_names_the_discard_and_why() -> None:
    state = play_position(["KS", "7H", "TH", "TD", "4S"], ["5C", "6C", "7C", "5D", "9S"],
                          {"K": ["KH", "KD", "KC"]})
    move, why = hint(state.view(0), list(state.legal_moves()))
    assert move.card is not None and why.startswith(f"Discard {card_label(move.card)}:")
