"""The printable sheets (canasta.sheets): one page of the chosen paper, the expected headings and numbers
(read back with pypdf), every number taken from the rules, and a real rendering (pdftoppm) that draws."""

from __future__ import annotations

import argparse
import io
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from canasta.rules import PRESETS, Rules
from canasta.text.rulebook import minimum_rows

pytest.importorskip("fpdf", reason="the sheets need fpdf2: pip install 'canasta[sheets]'")
pypdf = pytest.importorskip("pypdf", reason="the sheet tests read PDFs back with pypdf: pip install pypdf")

from canasta.sheets import PAPERS, rule_sheet, score_sheet, write_sheets  # noqa: E402
from canasta.sheets.command import register  # noqa: E402
from canasta.sheets.content import companion, games, rule_sheet_sections  # noqa: E402
from canasta.sheets.rulesheet import rule_sheet_fit  # noqa: E402
from canasta.sheets.scoresheet import score_sheet_rows  # noqa: E402

RULE_HEADINGS = ("Players, deal and turn", "Card values", "Melds", "Canastas", "First meld minimum",
                 "Taking the discard pile", "Red and black threes", "Going out", "Scoring", "Options in force")
SCORE_HEADINGS = ("Canasta score sheet", "Bonuses", "Cards", "Hand", "Total", "Min", "Start", "Winner",
                  "First meld minimum", "Card values")


def read(data: bytes) -> tuple[int, tuple[float, float], str]:
    """Pages, the first page's size in points, and its text with whitespace squeezed."""
    reader = pypdf.PdfReader(io.BytesIO(data))
    box = reader.pages[0].mediabox
    text = " ".join(reader.pages[0].extract_text().split())
    return len(reader.pages), (round(float(box.width), 2), round(float(box.height), 2)), text


def numbers_of(rules: Rules) -> list[str]:
    """Numbers every rule sheet of ``rules`` must print, computed from the rules."""
    return [f"{rules.target:,}", f"{rules.deck_size}", f"{rules.hand_size} cards each",
            f"draw {rules.draw}, discard 1", *(f"{m:,}" for _, m in minimum_rows(rules)),
            f"{rules.red_three_points(1):,} each", f"{rules.red_three_points(rules.red_three_count):,}"]


@pytest.mark.parametrize("preset", ["classic", "two-player"])
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_rule_sheet_is_one_page_with_the_headings_and_numbers(preset: str, paper: str) -> None:
    rules = Rules.from_preset(preset)
    pages, size, text = read(rule_sheet(rules, paper))
    assert pages == 1
    assert size == PAPERS[paper]
    for heading in RULE_HEADINGS:
        assert heading in text
    for number in numbers_of(rules):
        assert number in text, number
    assert "0 – 1,495" in text and "3,000 and up" in text and "below 0" in text
    assert "Natural canasta 500" in text and "Mixed canasta 300" in text
    assert "Going out 100" in text and "Going out concealed 200" in text
    assert "= 1,315" in text  # seed 000's worked example, computed
    assert f"Printed by: canasta sheets --preset {preset}" in text


def test_classic_and_two_player_share_one_table() -> None:
    classic, two = Rules.from_preset("classic"), Rules.from_preset("two-player")
    assert companion(classic) == two and companion(two) == classic
    assert games(classic) == games(two) == [two, classic]
    _, _, text = read(rule_sheet(classic))
    assert "2 players 4 players" in text
    assert "15 cards each 11 cards each" in text and "draw 2, discard 1 draw 1, discard 1" in text
    assert "2 canastas 1 canasta (your side)" in text
    assert "draw 2 cards (2 players) or 1 card (4 players)" in text
    assert companion(Rules.from_preset("three-player")) is None
    assert companion(Rules.from_preset("classic", hand_size=13)) == Rules.from_preset("two-player", hand_size=13)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_fits_one_page_at_a_readable_size(preset: str) -> None:
    rules = Rules.from_preset(preset)
    data, fit = rule_sheet_fit(rules)
    pages, size, text = read(data)
    assert (pages, size) == (1, PAPERS["letter"])
    assert fit.size >= 8.0 and fit.fill > 0.8
    for number in numbers_of(rules):
        assert number in text, number
    sheet, rows = score_sheet_rows(rules)
    pages, size, text = read(sheet)
    assert (pages, size) == (1, PAPERS["letter"]) and rows >= 24
    assert all(f"{'Side' if rules.players > rules.sides else 'Player'} {i + 1}" in text for i in range(rules.sides))
    assert "Team" not in text  # one word for a partnership: side, as in the rules, the table and the scorekeeper


def test_options_change_the_paper() -> None:
    rules = Rules.from_preset(
        "five-player", target=7500, draw=2, wild_card_melds=True, unfinished_wild_meld_penalty=1000,
        pile_always_frozen=True, black_three_upcard="cover", red_threes_at_deal=True, concealed_bonus=False,
        ask_partner=False, wilds_at_most_naturals=True, black_three_freezes=True)
    data, fit = rule_sheet_fit(rules)
    pages, _, text = read(data)
    assert pages == 1 and fit.size >= 8.0
    for phrase in ("7,500", "draw 2, discard 1", "Wild cards only 2,000", "Unfinished wild meld -1,000",
                   "always frozen", "right after the deal", "never more wild than natural", "nobody asks",
                   "Concealed or not, going out scores 100", "it also freezes the pile",
                   "black three upcard is covered", "--set target=7500"):
        assert phrase in text, phrase
    assert "Going out concealed 200" not in text and "Going out 100" in text
    _, _, score_text = read(score_sheet(rules))
    assert "game to 7,500" in score_text and "Canasta of wild cards 2,000" in score_text
    assert "Going out concealed" not in score_text and "Going out 100" in score_text


def test_six_player_two_teams_minimums_and_red_threes() -> None:
    rules = Rules.from_preset("six-player-two-teams")
    _, _, text = read(rule_sheet(rules))
    assert "7,500 and up 150" in text and "3,000 – 7,495 120" in text
    assert "100 each; five 1,000; all six 1,200" in text
    _, _, score_text = read(score_sheet(rules))
    assert "7,500 and up 150" in score_text and "game to 10,000" in score_text


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_score_sheet_two_and_three_sides(paper: str) -> None:
    rules = Rules.from_preset("classic")
    for sides in (2, 3):
        data, rows = score_sheet_rows(rules, paper, sides)
        pages, size, text = read(data)
        assert (pages, size) == (1, PAPERS[paper])
        for heading in SCORE_HEADINGS:
            assert heading in text, heading
        assert f"{sides} sides" in text and f"Side {sides}" in text and f"Side {sides + 1}" not in text
        assert re.search(rf"\b{rows}\b", text) and rows >= 24
        assert text.count("Bonuses") >= sides
        assert "0 50" in text  # the start row: total 0, first meld minimum rules.minimum(0)
        assert "1,100 + 215 = 1,315" in text
    with pytest.raises(ValueError, match="2 or 3 sides"):
        score_sheet(rules, paper, 4)


def test_sections_come_from_the_rules() -> None:
    titles = [s.title for s in rule_sheet_sections(Rules())]
    assert titles == list(RULE_HEADINGS)
    with pytest.raises(ValueError, match="paper must be"):
        rule_sheet(Rules(), "legal")


def test_same_rules_same_bytes() -> None:
    assert rule_sheet(Rules()) == rule_sheet(Rules())


# -- rendering -----------------------------------------------------------------------------------


def pixels(image: Any) -> list[int]:
    """Grey levels of an image (Pillow 13 renamed getdata)."""
    return list(getattr(image, "get_flattened_data", image.getdata)())


def pdftoppm() -> str:
    tool = shutil.which("pdftoppm")
    if tool is None:
        pytest.skip("rendering the sheets needs pdftoppm: run scripts/ensure-debian-package.sh pdftoppm poppler-utils")
    return tool


@pytest.mark.parametrize("preset", ["classic", "two-player"])
def test_sheets_render_to_png(preset: str, tmp_path: Path) -> None:
    from PIL import Image

    tool = pdftoppm()
    rules = Rules.from_preset(preset)
    for name, data in (("rules", rule_sheet(rules)), ("scoresheet", score_sheet(rules))):
        pdf = tmp_path / f"{name}.pdf"
        pdf.write_bytes(data)
        subprocess.run([tool, "-png", "-r", "50", "-singlefile", str(pdf), str(tmp_path / name)], check=True,
                       timeout=60)
        image = Image.open(tmp_path / f"{name}.png").convert("L")
        assert image.size == (425, 550)  # 8.5 x 11 inches at 50 dpi
        width, height = image.size
        dark = sum(1 for v in pixels(image) if v < 128)
        assert dark > 0.03 * width * height, f"{name} draws almost nothing"
        edge = 10  # 0.2 inch: the margins stay blank, so nothing runs off the page
        for box in ((0, 0, width, edge), (0, height - edge, width, height), (0, 0, edge, height),
                    (width - edge, 0, width, height)):
            assert min(pixels(image.crop(box))) > 200, f"{name} draws into the margin at {box}"


# -- the command ---------------------------------------------------------------------------------


def sheets_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="canasta")
    register(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(["sheets", *argv])


def test_sheets_command_writes_both(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = sheets_args("--preset", "two-player", "--paper", "a4", "--out", str(tmp_path / "s"))
    assert args.func(args) == 0
    assert sorted(p.name for p in (tmp_path / "s").iterdir()) == ["rules.pdf", "scoresheet.pdf"]
    for name in ("rules.pdf", "scoresheet.pdf"):
        pages, size, _ = read((tmp_path / "s" / name).read_bytes())
        assert (pages, size) == (1, PAPERS["a4"])
    assert "one page each" in capsys.readouterr().out


def test_sheets_command_refuses_bad_options(tmp_path: Path) -> None:
    from canasta.cli.args import UsageError
    from canasta.errors import RulesError

    args = sheets_args("--set", "colour=blue", "--out", str(tmp_path))
    with pytest.raises(RulesError, match="unknown rules option 'colour'"):
        args.func(args)
    args = sheets_args("--set", "target", "--out", str(tmp_path))
    with pytest.raises(UsageError, match="--set takes OPTION=VALUE"):
        args.func(args)
    blocker = tmp_path / "file"
    blocker.write_text("")
    args = sheets_args("--out", str(blocker / "x"))
    with pytest.raises(UsageError, match="cannot write to"):
        args.func(args)


def test_write_sheets(tmp_path: Path) -> None:
    paths = write_sheets(Rules.from_preset("three-player"), tmp_path, "letter")
    assert [p.name for p in paths] == ["rules.pdf", "scoresheet.pdf"]
    _, _, text = read(paths[1].read_bytes())
    assert "Player 3" in text and "game to 7,500" in text


# -- fonts, type sizes, options in words, the command in the footer ------------------------------------


def fonts_and_sizes(data: bytes) -> tuple[list[tuple[str, bool]], list[float]]:
    """Each font of the page (name, embedded) and every type size its text is set in."""
    from pypdf.generic import ContentStream

    reader = pypdf.PdfReader(io.BytesIO(data))
    page = reader.pages[0]
    fonts = []
    for font in page["/Resources"]["/Font"].values():
        font = font.get_object()
        descriptor = (font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font) \
            .get("/FontDescriptor")
        embedded = descriptor is not None and any(k in descriptor.get_object() for k in
                                                  ("/FontFile", "/FontFile2", "/FontFile3"))
        fonts.append((str(font["/BaseFont"]), embedded))
    operations = ContentStream(page.get_contents(), reader).operations
    assert not any(op in (b"Tm", b"Tz", b"cm") for _, op in operations), "text is scaled: measure it another way"
    return fonts, [float(operands[1]) for operands, op in operations if op == b"Tf"]


SHEETS = [("rules", preset, paper, None) for preset in sorted(PRESETS) for paper in PAPERS] + \
         [("score", preset, paper, sides) for preset in sorted(PRESETS) for paper in PAPERS for sides in (2, 3)]


@pytest.mark.parametrize(("kind", "preset", "paper", "sides"), SHEETS)
def test_fonts_are_embedded_and_no_type_is_under_6_pt(kind: str, preset: str, paper: str, sides: int | None) -> None:
    rules = Rules.from_preset(preset)
    data = rule_sheet(rules, paper) if kind == "rules" else score_sheet(rules, paper, sides)
    fonts, sizes = fonts_and_sizes(data)
    assert fonts and all(embedded for _, embedded in fonts), fonts
    assert all("DejaVuSansCanasta" in name for name, _ in fonts), fonts  # no Helvetica left to substitute
    assert min(sizes) >= 6.0, sorted(set(sizes))


def test_a_crowded_rule_sheet_keeps_its_small_print_at_6_pt_or_more() -> None:
    rules = Rules.from_preset("five-player", target=7500, draw=2, wild_card_melds=True,
                              unfinished_wild_meld_penalty=1000, black_three_upcard="cover", red_threes_at_deal=True,
                              no_pile_for_finished_canasta=True, two_naturals_to_take=True, black_three_freezes=True)
    _, sizes = fonts_and_sizes(rule_sheet(rules, "a4", 3))
    assert min(sizes) >= 6.0


def test_the_fonts_ship_with_the_package_and_their_licence() -> None:
    from canasta.sheets.layout import FONT_DIR, FONT_FILES

    sizes = [(FONT_DIR / name).stat().st_size for name in FONT_FILES.values()]
    assert all(10_000 < size < 200_000 for size in sizes), sizes  # a Latin subset, not the whole 700 KB fonts
    licence = (FONT_DIR / "LICENSE").read_text()
    assert "Bitstream Vera" in licence and "DejaVu changes are in public domain" in licence
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    assert '"sheets/fonts/*"' in pyproject


def test_options_in_force_are_words_a_table_reads() -> None:
    _, _, text = read(rule_sheet(Rules.from_preset("classic")))
    options = text[text.index("Options in force"):]
    for phrase in ("A black three upcard: stays on the pile", "Ask partner before going out: yes",
                   "Pile always frozen: no", "Points to win the match: 5,000", "200 for going out concealed: yes"):
        assert phrase in options, phrase
    assert "_" not in text  # no program identifiers such as no_pile_for_finished_canasta
    assert "Canasta of wild cards" not in options  # changes nothing without wild_card_melds
    _, _, text = read(rule_sheet(Rules.from_preset("classic", black_three_upcard="cover", wild_card_melds=True)))
    options = text[text.index("Options in force"):]
    assert "A black three upcard: is covered" in options and "Melds of wild cards only: yes" in options
    assert "Canasta of wild cards: 2,000" in options and "Bold: changed from the preset." in options


def test_footers_name_every_setting_used(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = sheets_args("--preset", "classic", "--set", "target=7500", "--set", "wild_card_melds=true",
                       "--sides", "3", "--paper", "a4", "--out", str(tmp_path))
    assert args.func(args) == 0
    command = "canasta sheets --preset classic --set target=7500 --set wild_card_melds=true --sides 3 --paper a4"
    for name in ("rules.pdf", "scoresheet.pdf"):
        _, _, text = read((tmp_path / name).read_bytes())
        assert command in text, name
    _, _, text = read(score_sheet(Rules.from_preset("six-player")))
    assert "Printed by canasta sheets --preset six-player," in text  # the defaults are not repeated


def test_one_deck_names_its_two_red_threes() -> None:
    rules = Rules.from_preset("classic", decks=1)
    _, _, text = read(rule_sheet(rules))
    assert "100 each; both 400" in text and "1 deck and 2 jokers, 54 cards" in text
    assert "all 2" not in text and "1 decks" not in text
    _, _, text = read(score_sheet(rules))
    assert "100 each; both 400" in text


def test_score_sheet_explains_its_columns_above_the_grid() -> None:
    _, _, text = read(score_sheet(Rules.from_preset("six-player")))
    assert "Bonuses: canastas, red threes, going out · Cards: melded minus left in hand" in text
    assert "Min: the first-meld minimum that total sets for the next hand." in text
