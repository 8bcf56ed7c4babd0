"""The weighted search: what the table has shown weighs the sampled deals; budgets, options and processes."""

from __future__ import annotations

import random

import pytest

from canasta.bots import SearchBot, make_bot
from canasta.bots.belief import DISCARDED, FADE, PASS_MELDED, PASS_UNMELDED_SMALL, Belief
from canasta.bots.search import Budget, draw_deal, parse_search
from canasta.cards import KIND, KIND_CODES, parse_card
from canasta.errors import UnknownBotError
from canasta.resample import Resampler
from canasta.state import GameState
from tests.bots.test_bots import random_states


def passed_and_discarded() -> GameState:
    """Seat 0 draws over the upcard 8D (holding 8H 8H) and discards 7S; seat 1 draws over the 7S."""
    state = GameState.deal("classic", dealer=3, rng=random.Random(5))
    state.play("draw")
    state.play("discard 7S")
    state.play("draw")
    return state


def test_a_seat_that_passed_the_pile_or_discarded_a_kind_is_unlikely_to_hold_a_pair_of_it() -> None:
    state = passed_and_discarded()
    belief = Belief(state.view(2))
    eight, seven = KIND[parse_card("8D")], KIND[parse_card("7S")]
    faded = 1 - (1 - PASS_UNMELDED_SMALL) * FADE  # one more draw of that seat since
    found = sorted((seat, kind, round(factor, 9)) for seat, kind, factor in belief.evidence)
    assert found == sorted([(0, eight, round(faded, 9)), (0, seven, DISCARDED), (1, seven, round(faded, 9))])
    sevens = sum(state.hand_counts[1][c] for c in KIND_CODES[seven])
    assert belief.weight(state) == pytest.approx(faded * (faded if sevens >= 2 else 1.0))  # seat 0 holds 8H 8H


def test_a_seat_never_weighs_its_own_hand() -> None:
    state = passed_and_discarded()
    assert all(seat != 1 for seat, _, _ in Belief(state.view(1)).evidence)


def test_passing_a_big_pile_after_the_first_meld_is_strong_evidence() -> None:
    for state in random_states("classic", seed=3, hands=3, every=5):
        belief = Belief(state.view(state.to_act))
        if any(f <= 1 - (1 - PASS_MELDED) * FADE + 1e-9 for _, _, f in belief.evidence):  # its draw since
            return
    pytest.fail("no seat passed a big pile after its side's first meld in three hands")


def test_weighted_deals_hold_fewer_of_the_pairs_the_table_says_are_not_there() -> None:
    """Sampling-importance-resampling keeps the deals that fit the evidence more often."""
    state = next(s for s in random_states("classic", seed=4, hands=2, every=3)
                 if s.phase == "play" and len(Belief(s.view(s.to_act)).evidence) >= 4)
    view = state.view(state.to_act)
    belief, sampler = Belief(view), Resampler(view)
    rng = random.Random(1)
    uniform = sum(belief.weight(sampler.sample(rng)) for _ in range(300)) / 300
    weighted = sum(belief.weight(draw_deal(sampler, belief, rng)[1]) for _ in range(300)) / 300
    assert weighted > uniform
    weight, sample = draw_deal(sampler, belief, rng)
    assert 0 < weight <= 1 and sample.view(view.seat) == view


def test_search_names_take_options_after_the_budget() -> None:
    assert parse_search("search") == (Budget(), 1, True, 4, True)
    assert parse_search("search:200:uniform") == (Budget(None, 200), 1, False, 4, True)
    assert parse_search("search:1s:2p:c6") == (Budget(1.0), 2, True, 6, True)
    assert parse_search("search:2p") == (Budget(), 2, True, 4, True)
    assert parse_search("search:64:nomelds") == (Budget(None, 64), 1, True, 4, False)
    for bad in ("search:1s:fast", "search:1s:melds", "search:0p", "search:c1", "search:1s:200", "search:17p"):
        with pytest.raises(UnknownBotError):
            make_bot(bad, files=True)


def test_a_search_of_a_second_or_more_weighs_eight_candidates_unless_told() -> None:
    assert parse_search("search:1s")[3] == parse_search("search:1000ms:2p")[3] == 8
    assert parse_search("search:999ms")[3] == parse_search("search:1000")[3] == 4  # 1000 rollouts, not seconds
    assert parse_search("search:2s:c4")[3] == 4
    assert make_bot("search:1s").candidates == 8 and make_bot("search:300ms").candidates == 4


def test_a_search_across_processes_is_for_local_tools_only() -> None:
    with pytest.raises(UnknownBotError, match="local tools"):
        make_bot("search:20:2p")
    bot = make_bot("search:20:2p:uniform", files=True)
    assert isinstance(bot, SearchBot) and bot.workers == 2 and not bot.weighted


def test_a_search_by_rollouts_is_reproducible_across_processes() -> None:
    state = next(s for s in random_states("classic", seed=8, hands=1) if s.phase == "play"
                 and sum(1 for m in s.legal_moves() if m.action == "discard") > 3)
    view, moves = state.view(state.to_act), list(state.legal_moves())
    one = make_bot("search:24:2p", random.Random(3), files=True)
    two = make_bot("search:24:2p", random.Random(3), files=True)
    assert one.choose(view, moves) == two.choose(view, moves)
    assert isinstance(one, SearchBot) and isinstance(two, SearchBot)
    assert one.last == two.last and one.last and one.last[0][2] == 24 // len(one.last)


def test_a_search_with_melds_weighs_a_meld_against_holding_its_cards() -> None:
    plain, melds, wide = make_bot("search:8:nomelds"), make_bot("search:8"), make_bot("search:8:c8")
    assert isinstance(plain, SearchBot) and isinstance(melds, SearchBot) and melds.melds and not plain.melds
    assert isinstance(wide, SearchBot)
    seen = wider = 0
    for state in random_states("classic", seed=3, hands=2):
        if state.phase != "play":
            continue
        view, moves = state.view(state.to_act), list(state.legal_moves())
        best = melds.expert.ranked(view, moves)[0]
        if best[0].action != "meld" or best[1] >= 30_000:  # a meld on the way out is not held back
            continue
        assert plain.candidates_of(view, moves) == [best[0]]
        kept = melds.candidates_of(view, moves)
        assert kept[0] == best[0] and kept[1].action == "discard" and len(set(kept)) == len(kept)
        assert all(m.action == "meld" for m in kept[2:])
        more = wide.candidates_of(view, moves)  # eight candidates: more of the next best melds
        assert more[:len(kept)] == kept and all(m.action == "meld" for m in more[2:]) and len(more) <= 8
        wider += len(more) > len(kept)
        seen += 1
    assert seen >= 3 and wider >= 1
