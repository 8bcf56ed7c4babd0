"""The rules page written out from ``Rules`` (``canasta rules``; RULES.md "Presets" and "Options")."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from canasta import PRESETS, Rules, RulesError
from canasta.cli import main
from canasta.rules import OPTION_NAMES
from canasta.text.rulebook import rules_text

DOCS = Path(__file__).resolve().parents[2] / "docs" / "presets"
CLASSIC = Rules.from_preset("classic")

# preset -> what its page must say: players and sides, cards dealt, the deck, canastas to go out,
# the draw, the target (the RULES.md table; five-player from rummy-games.com's page for five).
PRESET_FACTS = {
    "classic": ("Four players in two sides of two", "deals 11 cards to each player",
                "Two decks of 52 cards and four jokers, 108 cards in all", "at least one canasta;",
                "draw one card from the top of the stock", "reaches 5,000 at the end of a hand"),
    "two-player": ("Two players, each playing alone", "deals 15 cards to each player",
                   "Two decks of 52 cards and four jokers, 108 cards in all", "at least two canastas;",
                   "draw two cards from the top of the stock", "reaches 5,000 at the end of a hand"),
    "two-player-draw-one": ("Two players, each playing alone", "deals 15 cards to each player",
                            "Two decks of 52 cards and four jokers, 108 cards in all", "at least two canastas;",
                            "draw one card from the top of the stock", "reaches 5,000 at the end of a hand"),
    "three-player": ("Three players, each playing alone", "deals 13 cards to each player",
                     "Two decks of 52 cards and four jokers, 108 cards in all", "at least two canastas;",
                     "draw one card from the top of the stock", "reaches 7,500 at the end of a hand"),
    "five-player": ("Five players in two sides: side 1 of three and side 2 of two",
                    "deals 11 cards to each player who plays the hand",
                    "Two decks of 52 cards and four jokers, 108 cards in all", "at least one canasta;",
                    "draw one card from the top of the stock", "reaches 5,000 at the end of a hand"),
    "six-player": ("Six players in three sides of two", "deals 13 cards to each player",
                   "Three decks of 52 cards and six jokers, 162 cards in all", "at least two canastas;",
                   "draw one card from the top of the stock", "reaches 7,500 at the end of a hand"),
    "six-player-two-teams": ("Six players in two sides of three", "deals 13 cards to each player",
                             "Three decks of 52 cards and six jokers, 162 cards in all", "at least two canastas;",
                             "draw one card from the top of the stock", "reaches 10,000 at the end of a hand"),
}
# preset -> cards left in the stock after the deal and the upcard (deck - seated players x hand - 1)
STOCK = {"classic": 63, "two-player": 77, "two-player-draw-one": 77, "three-player": 68, "five-player": 63,
         "six-player": 83, "six-player-two-teams": 83}

# A value other than classic's for every option.
OTHER_VALUE: dict[str, object] = {
    "target": 7500, "draw": 2, "hand_size": 13, "decks": 3, "canastas_to_go_out": 2,
    "black_three_upcard": "cover", "red_threes_at_deal": True, "black_three_freezes": True,
    "pile_always_frozen": True, "two_naturals_to_take": True, "no_pile_for_finished_canasta": True,
    "wild_card_melds": True, "wild_canasta_bonus": 3000, "unfinished_wild_meld_penalty": 1000,
    "wilds_at_most_naturals": True, "concealed_bonus": False, "ask_partner": False,
}


def flat(text: str) -> str:
    """The page with its line breaks undone, so that phrases can be found whatever the wrapping."""
    return " ".join(text.split())


def page(preset: str = "classic", **options: object) -> str:
    return flat(rules_text(Rules.from_preset(preset, **options)))


def body(text: str) -> str:
    """The rules themselves: the page less its title and its list of differences."""
    return text[text.index("## Players and sides"):text.index("## Differences from classic")]


def section(text: str, title: str) -> str:
    start = text.index(f"## {title}")
    end = text.find("## ", start + 3)
    return text[start:] if end < 0 else text[start:end]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def run_process(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "canasta.cli", *args], capture_output=True, text=True,
                          check=False, timeout=60)


# -- every preset ------------------------------------------------------------------------------------


def test_the_fact_table_covers_every_preset() -> None:
    assert set(PRESET_FACTS) == set(PRESETS), "add the new preset to PRESET_FACTS and STOCK"


@pytest.mark.parametrize("name", sorted(PRESET_FACTS))
def test_page_states_players_hand_deck_canastas_draw_and_target(name: str) -> None:
    text = page(name)
    for fact in PRESET_FACTS[name]:
        assert fact in text, f"{name}: {fact!r}"
    assert f"The other {STOCK[name]} cards are the stock" in text
    assert text.startswith(f"# Canasta: {name} ")


@pytest.mark.parametrize("name", sorted(PRESET_FACTS))
def test_page_has_every_section_in_order(name: str) -> None:
    text = rules_text(Rules.from_preset(name))
    titles = ["Players and sides", "The cards", "The deal", "Red threes", "Melds", "Canastas", "The first meld",
              "The turn", "Taking the pile", "The empty stock", "Going out", "Going out concealed", "Scoring",
              "The end of the match", "Differences from classic"]
    found = [text.index(f"\n## {title}\n") for title in titles]
    assert found == sorted(found)
    assert all(len(line) <= 79 for line in text.splitlines())
    assert text.endswith("\n") and not text.endswith("\n\n")


@pytest.mark.parametrize("name", ["classic", "six-player", "six-player-two-teams"])
def test_partners_are_the_next_seat_clockwise_on_the_side(name: str) -> None:
    rules = Rules.from_preset(name)
    text = section(page(name), "Players and sides")
    for seat in range(rules.players):
        partner = rules.partner_of(seat)
        assert partner is not None and partner % rules.sides == seat % rules.sides
        a, b = seat + 1, partner + 1  # people count seats from 1; NOTATION.md's 0-based seats stay in the records
        assert (f"seats {min(a, b)} and {max(a, b)} are partners" in text
                or f"so are seats {min(a, b)} and {max(a, b)}" in text
                or f"seat {a}'s partner is seat {b}" in text
                or f"seat {a}'s is seat {b}" in text), (name, seat)


def test_classic_seats_and_sides_follow_the_notation() -> None:
    """NOTATION.md's seat s plays for side s % sides; people count both from 1 (seat 0 is seat 1)."""
    text = page()
    assert "side 1 is seats 1 and 3 and side 2 is seats 2 and 4" in text
    assert "seats 1 and 3 are partners and so are seats 2 and 4" in text


def test_six_player_three_sides_and_two_teams_seating() -> None:
    assert "side 1 is seats 1 and 4, side 2 is seats 2 and 5 and side 3 is seats 3 and 6" in page("six-player")
    assert "side 1 is seats 1, 3 and 5 and side 2 is seats 2, 4 and 6" in page("six-player-two-teams")


def test_five_player_names_who_sits_out_and_partners_for_the_hand() -> None:
    text = page("five-player")
    assert "seat 1 in the first hand, seat 3 in the second hand and seat 5 in the third hand" in text
    assert "so four players are dealt in" in text
    assert "the next seat clockwise on your side that plays the hand" in text
    assert "## Asking your partner" in text


@pytest.mark.parametrize("name", ["two-player", "two-player-draw-one", "three-player"])
def test_players_alone_have_no_partners_and_no_asking(name: str) -> None:
    text = page(name)
    assert "there are no partners" in text
    assert "## Asking your partner" not in text
    assert "may I go out" not in text
    assert "You decide alone when to go out." in text


def test_classic_first_meld_minimums_and_red_threes() -> None:
    text = page()
    assert "- below 0: 15 - 0 to 1,495: 50 - 1,500 to 2,995: 90 - 3,000 and more: 120 " in text
    assert "worth 100 each, except that all four are worth 800." in text


def test_six_player_two_teams_minimum_150_from_7500_and_red_threes_for_three_decks() -> None:
    text = page("six-player-two-teams")
    assert "- 3,000 to 7,495: 120 - 7,500 and more: 150 " in text
    assert "worth 100 each, except that five are worth 1,000 and all six are worth 1,200." in text
    assert "- `minimums` (first-meld minimums): 50 from 0, 90 from 1,500, 120 from 3,000, 150 from 7,500" in text


def test_six_player_three_sides_has_no_150_step() -> None:
    text = page("six-player")
    assert "3,000 and more: 120" in text
    assert "150" not in section(text, "The first meld")
    assert "the highest total wins; if that highest total is shared, another hand is played" in text


def test_classic_has_no_differences_and_each_preset_lists_its_own() -> None:
    assert "## Differences from classic None: this is the classic game." in page()
    text = page("six-player-two-teams")
    differences = section(text, "Differences from classic")
    for name in ("players", "hand_size", "decks", "canastas_to_go_out", "target", "minimums"):
        assert f"`{name}`" in differences
    for name in ("sides", "draw", "concealed_bonus", "ask_partner"):
        assert f"`{name}`" not in differences
    assert "`target` (points that win the match): 10,000 instead of 5,000, set by the preset" in differences


# -- options change the page -------------------------------------------------------------------------


def test_other_values_cover_every_option() -> None:
    assert set(OTHER_VALUE) == set(OPTION_NAMES)


@pytest.mark.parametrize("name", sorted(OPTION_NAMES))
def test_every_option_changes_the_rules_and_is_listed_as_a_difference(name: str) -> None:
    # Built with dataclasses.replace, so this holds whatever the engine plays yet.
    base = dataclasses.replace(CLASSIC, wild_card_melds=name.startswith(("wild_canasta", "unfinished_wild")))
    changed = dataclasses.replace(base, **{name: OTHER_VALUE[name]})
    before, after = rules_text(base), rules_text(changed)
    assert body(before) != body(after), name
    assert f"`{name}`" in section(after, "Differences from classic")
    assert f"`{name}`" not in section(before, "Differences from classic")


def test_draw_two_says_two_cards() -> None:
    text = page(draw=2)
    assert "first draw two cards from the top of the stock" in text
    assert "Each of the two cards you draw is treated this way." in text
    assert "draw one card" not in text
    assert "# Canasta: classic, with draw=2 " in text
    assert "`canasta rules classic --set draw=2`" in text
    assert "`draw` (cards drawn from the stock each turn): 2 instead of 1, set with --set" in text


def test_pile_always_frozen_is_stated_and_drops_the_unfrozen_ways() -> None:
    text = page(pile_always_frozen=True)
    assert "At this table the pile is always frozen, for everyone." in text
    assert "When the pile is not frozen" not in text
    assert "nobody is ever forced to take it" in text
    assert "one natural card and one wild card" in page()


def test_concealed_bonus_false_scores_100_either_way() -> None:
    text = page(concealed_bonus=False)
    assert "going out scores 100 whichever way you do it" in text
    assert "- going out: 100, concealed or not" in text
    assert "going out concealed: 200" not in text
    assert "- going out concealed: 200" in page()


def test_ask_partner_false_has_no_asking_section() -> None:
    assert "## Asking your partner" in page()
    assert '"Partner, may I go out?"' in page()
    text = page(ask_partner=False)
    assert "## Asking your partner" not in text
    assert "may I go out" not in text
    assert "At this table nobody asks a partner before going out." in text


def test_black_three_options() -> None:
    assert "it stays on top as the first discard" in page()
    cover = page(black_three_upcard="cover")
    assert "While the upcard is a wild card, a red three or a black three" in cover
    assert "once a black three upcard has been covered" in cover
    freezes = page(black_three_freezes=True)
    assert "while it holds a wild card, a red three or a black three" in freezes
    assert "it also freezes the pile" in freezes


def test_taking_options() -> None:
    assert "you still need two natural cards of the top card's rank" in page(two_naturals_to_take=True)
    finished = page(no_pile_for_finished_canasta=True)
    assert "just to add its top card to a finished canasta of your side" in finished
    assert "unless that meld is a finished canasta" in finished


def test_red_threes_at_deal() -> None:
    assert "Right after the deal, before the first turn" in page(red_threes_at_deal=True)
    assert "stays in your hand until your first turn" in page()


def test_wilds_at_most_naturals() -> None:
    text = page(wilds_at_most_naturals=True)
    assert "never more wild cards than natural ones" in text
    assert "5-5-2-2-JK is a meld" in page()


def test_numbers_set_on_top_of_a_preset() -> None:
    text = page("two-player", hand_size=13, target=6000, canastas_to_go_out=3, decks=3)
    assert "deals 13 cards to each player" in text
    assert "reaches 6,000 at the end of a hand" in text
    assert "at least three canastas;" in text
    assert "162 cards in all" in text
    assert f"The other {162 - 26 - 1} cards are the stock" in text
    sets = "--set target=6000 --set hand_size=13 --set decks=3 --set canastas_to_go_out=3"
    assert f"`canasta rules two-player {sets}`" in text


def test_wild_card_melds_are_described_when_set() -> None:
    rules = dataclasses.replace(CLASSIC, wild_card_melds=True, unfinished_wild_meld_penalty=1000)
    text = flat(rules_text(rules))
    assert "one meld of wild cards only: three or more 2s and jokers" in text
    assert "it may not put wild cards into its other melds" in text
    assert "counts as a canasta for going out" in text
    assert "canasta of wild cards: 2,000" in text
    assert "short of seven when the hand ends: minus 1,000" in text
    assert "Wild cards never form a meld of their own" not in text
    assert "Wild cards never form a meld of their own" in page()


# -- the command line --------------------------------------------------------------------------------


def test_cli_prints_the_page_of_classic_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["rules"], capsys)
    assert (code, err) == (0, "")
    assert out == rules_text(CLASSIC)


def test_cli_applies_preset_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules", "two-player", "--set", "draw=1", "--set", "target=6,000"], capsys)
    assert code == 0
    assert out == rules_text(Rules.from_preset("two-player", draw=1, target=6000))


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["rules", "five-and-a-half"], "unknown preset 'five-and-a-half'"),
        (["rules", "--set", "colour=blue"], "unknown rules option 'colour'"),
        (["rules", "classic", "--set", "draw=3"], "option draw must be 1 or 2"),
        (["rules", "classic", "--set", "draw"], "--set takes OPTION=VALUE"),
    ],
)
def test_cli_bad_rules_exit_2_with_one_line(args: list[str], words: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(args, capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("canasta: ") and words in err


@pytest.mark.parametrize("args", [["five-and-a-half"], ["classic", "--set", "colour=blue"]])
def test_cli_process_bad_preset_or_option_no_traceback(args: list[str]) -> None:
    done = run_process("rules", *args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1
    assert "Traceback" not in done.stderr


def test_wild_card_melds_in_six_player_two_teams(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["rules", "six-player-two-teams", "--set", "wild_card_melds=true"]
    try:
        rules = Rules.from_preset("six-player-two-teams", wild_card_melds=True)
    except RulesError:  # not played by the engine yet: refused in one line
        code, out, err = run(args, capsys)
        assert (code, out) == (2, "")
        assert err.count("\n") == 1 and "wild_card_melds" in err
        return
    code, out, err = run(args, capsys)
    assert (code, err) == (0, "")
    assert out == rules_text(rules)
    text = flat(out)
    assert "one meld of wild cards only" in text
    assert f"canasta of wild cards: {rules.wild_canasta_bonus:,}" in text
    assert "- 7,500 and more: 150" in text


# -- docs/presets ------------------------------------------------------------------------------------


def test_docs_have_one_page_per_preset() -> None:
    assert {p.stem for p in DOCS.glob("*.md")} == set(PRESETS)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_docs_page_starts_with_the_generated_rules_then_sources(name: str) -> None:
    text = (DOCS / f"{name}.md").read_text(encoding="utf-8")
    generated = rules_text(Rules.from_preset(name))
    assert text.startswith(generated), (
        f"docs/presets/{name}.md is out of date: replace everything before its '## Sources' with "
        f"the output of `canasta rules {name}`"
    )
    rest = text[len(generated):]
    assert rest.startswith("\n## Sources\n")
    for key in ("000", "RULES.md"):
        assert key in rest


# -- red threes with other numbers of decks ----------------------------------------------------------


def test_one_deck_says_both_red_threes_and_what_they_are_worth() -> None:
    text = flat(rules_text(Rules.from_preset("classic", decks=1)))
    assert ("worth 100 each, except that both together, the only two of the one deck, are worth 400" in text)
    assert "all two" not in text
    assert "the two red threes (3H, 3D)" in text
    assert Rules.from_preset("classic", decks=1).red_three_points(2) == 400


@pytest.mark.parametrize("name", ["six-player", "six-player-two-teams"])
def test_three_deck_presets_list_the_red_three_change_among_their_differences(name: str) -> None:
    differences = section(page(name), "Differences from classic")
    assert (f"red threes (six with three decks): 100 each; five 1,000; all six 1,200 instead of 100 each; all "
            f"four 800, set by the preset {name}") in differences
    assert "red threes" not in section(page("three-player"), "Differences from classic")
    assert "set with --set (`decks`)" in flat(rules_text(Rules.from_preset("classic", decks=1)))
