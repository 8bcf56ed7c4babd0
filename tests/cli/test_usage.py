"""The command line as a new user meets it: --version, help everywhere, the options listed, and
bad input of every kind answered in one line with exit status 2, never a traceback."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tomllib
from importlib.metadata import version as installed_version
from pathlib import Path

import pytest

import canasta
from canasta.buildinfo import build
from canasta.cli import build_parser, main
from canasta.rules import OPTION_NAMES, PRESETS, Rules
from canasta.text.options import OPTIONS, default_text, options_help
from canasta.tui.session import Session

ROOT = Path(__file__).resolve().parents[2]
COMMAND_NAMES = ("play", "replay", "serve", "admin", "scenario", "legal", "bench", "soak", "rules", "arena", "ladder",
                 "bots", "review", "tournament", "sheets", "score")


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def run_process(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "canasta.cli", *args], capture_output=True, text=True,
                          check=False, timeout=60, cwd=cwd, stdin=subprocess.DEVNULL)


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


# -- version and help ------------------------------------------------------------------------------


def test_version_is_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["--version"], capsys)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert (code, err) == (0, "")
    assert out == f"canasta {installed_version('canasta')}, {build()}\n"
    assert installed_version("canasta") == canasta.__version__ == project


def test_bare_canasta_prints_the_help_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    """As pip, cargo and docker do: help on standard output, exit status 0."""
    code, out, err = run([], capsys)
    assert (code, err) == (0, "")
    assert out.startswith("usage: canasta")
    for name in COMMAND_NAMES:
        assert re.search(rf"\n    {name}\s", out), name  # a long name puts its help on the next line
    assert "canasta rules --options" in out


def test_every_subcommand_is_listed() -> None:
    assert tuple(subcommands()) == COMMAND_NAMES


@pytest.mark.parametrize("name", COMMAND_NAMES)
def test_every_subcommand_and_argument_is_described(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    one_line = {a.dest: a.help for a in action._choices_actions}
    assert one_line.get(name), f"{name} has no one-line help"
    sub = subcommands()[name]
    assert sub.description and len(sub.description) > len(one_line[name] or ""), f"{name} has no description"
    for arg in sub._actions:
        if isinstance(arg, argparse._HelpAction):
            continue
        assert arg.help and arg.help != argparse.SUPPRESS, f"canasta {name} {arg.option_strings or arg.dest}"
    code, out, err = run([name, "--help"], capsys)
    assert (code, err) == (0, "") and out.startswith(f"usage: canasta {name}")


def test_set_help_points_to_the_list_of_options() -> None:
    for name, sub in subcommands().items():
        for arg in sub._actions:
            if "--set" in arg.option_strings:
                assert "canasta rules --options" in (arg.help or ""), name


# -- the options -----------------------------------------------------------------------------------


def test_every_option_is_described_once() -> None:
    assert tuple(OPTIONS) == OPTION_NAMES


def test_rules_options_lists_meaning_values_and_default(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["rules", "--options"], capsys)
    assert (code, err) == (0, "") and out == options_help()
    flat = " ".join(out.split())
    for name in OPTION_NAMES:
        assert f"\n{name}: {OPTIONS[name].meaning}\n" in out, name
        assert " ".join(f"default: {default_text(name)}".split()) in flat, name
        assert " ".join(f"values: {OPTIONS[name].values}".split()) in flat, name
    assert "default: 5,000; 7,500 in three-player and six-player; 10,000 in six-player-two-teams" in flat
    assert "default: 2; 3 in six-player and six-player-two-teams" in flat  # decks


def test_option_defaults_come_from_the_presets() -> None:
    for name in OPTION_NAMES:
        text = default_text(name)
        for preset in PRESETS.values():
            value = getattr(preset, name)
            shown = str(value).lower() if isinstance(value, bool) else f"{value:,}" if isinstance(value, int) \
                else str(value)
            assert shown in text, (name, preset.preset)


# -- bad input: one line, exit status 2, never a traceback -----------------------------------------------


BAD = [
    # play and replay
    ["play", "--resume", "{missing}"], ["play", "--resume", "{folder}"], ["play", "--resume", "{bad}"],
    ["play", "--resume", "{binary}"], ["play", "--resume", "{empty}"], ["play", "--resume", "{nodir}/x.json"],
    ["play", "--seed", "x"], ["play", "--bot-delay", "-1"], ["play", "--preset", "nope"],
    ["play", "--plain", "--seats", "you,wizard,basic,basic"], ["play", "--plain", "--seats", "you,basic"],
    ["play", "--set", "decks=9"], ["play", "--target", "0"], ["play", "--resume", "{empty}", "--seed", "3"],
    ["replay", "{missing}"], ["replay", "{folder}"], ["replay", "{bad}"], ["replay", "{binary}"],
    ["replay", "{empty}"], ["replay"], ["replay", "{missing}", "--seat", "x"],
    # serve: each fails before the server starts
    ["serve", "--port", "x"], ["serve", "--bot-delay", "-1"], ["serve", "--follow", "-1"],
    ["serve", "--db", "{file}/x.sqlite3"], ["serve", "--db", "{folder}"], ["serve", "--db", "{nodir}/x.sqlite3"],
    # the engine's commands
    ["scenario", "{missing}"], ["scenario", "{folder}"], ["scenario", "{bad}"], ["scenario", "{binary}"],
    ["scenario", "{empty}"], ["scenario"], ["legal", "{missing}"], ["legal", "{folder}"], ["legal", "{bad}"],
    ["legal", "{binary}"], ["legal", "{empty}"],
    ["bench", "--hands", "x"], ["bench", "--hands", "0"], ["bench", "--seed", "x"], ["bench", "--set", "nope=1"],
    ["bench", "--preset", "nope"], ["bench", "--copies", "-1"], ["bench", "--nope"],
    ["soak", "--decisions", "0"], ["soak", "--decisions", "x"], ["soak", "--set", "draw=3"],
    ["rules", "nope"], ["rules", "--set", "decks=9"], ["rules", "--set", "x"], ["rules", "--options", "--set", "x=1"],
    ["arena", "wizard", "basic", "--seed", "1"], ["arena", "basic", "basic", "--seed", "1", "--deals", "0"],
    ["arena", "basic", "basic"], ["arena", "policy:{missing}", "basic", "--seed", "1", "--deals", "1"],
    ["arena", "basic", "basic", "--seed", "1", "--workers", "0"],
    ["arena", "basic", "basic", "--seed", "1", "--backend", "nope"],
    ["arena", "basic", "basic", "--seed", "1", "--preset", "nope", "--deals", "1"],
    ["arena", "basic", "basic", "--seed", "1", "--deals", "1", "--matches", "1"],
    # the ladder and the bots: each refused before any deal is played
    ["ladder"], ["ladder", "--seed", "x"], ["ladder", "--seed", "1", "--bots", "random,wizard"],
    ["ladder", "--seed", "1", "--bots", "random"], ["ladder", "--seed", "1", "--bots", "basic,basic"],
    ["ladder", "--seed", "1", "--deals", "0"], ["ladder", "--seed", "1", "--deals", "1"],
    ["ladder", "--seed", "1", "--slow-deals", "0"], ["ladder", "--seed", "1", "--workers", "0"],
    ["ladder", "--seed", "1", "--backend", "nope"], ["ladder", "--seed", "1", "--preset", "nope"],
    ["ladder", "--seed", "1", "--set", "x=1"], ["ladder", "--seed", "1", "--set", "decks"],
    ["ladder", "--seed", "1", "--bots", "random,expert", "--anchor", "basic"],
    ["ladder", "--seed", "1", "--slow-vs", "wizard"], ["ladder", "--seed", "1", "--slow-presets", "nope"],
    ["ladder", "--seed", "1", "--json", "--markdown"], ["ladder", "--seed", "1", "--preset", "classic",
                                                        "--all-presets"],
    ["ladder", "--seed", "1", "--deals", "2", "--matches", "2"], ["ladder", "--seed", "1", "--address", "x:1"],
    ["ladder", "--seed", "1", "--bots", "expert:risk_weight=lots,basic"], ["bots", "--nope"], ["bots", "extra"],
    # sheets and score
    ["sheets", "--out", "{file}/x"], ["sheets", "--out", "{file}"], ["sheets", "--paper", "b5", "--out", "{folder}"],
    ["sheets", "--sides", "4", "--out", "{folder}"], ["sheets", "--set", "x=1", "--out", "{folder}"], ["sheets"],
    ["score", "--file", "{nodir}/x.json"], ["score", "--file", "{file}/x.json"], ["score", "--file", "{folder}"],
    ["score", "--file", "{bad}"], ["score", "--file", "{binary}"], ["score", "--file", "{empty}"],
    ["score", "--sides", "4"], ["score", "--target", "x"], ["score", "--file", "{new}", "--names", "A"],
    ["score", "--file", "{new}", "--target", "-5"], ["score", "--file", "{new}", "--set", "decks=0"],
    # tournaments
    ["tournament"], ["tournament", "run", "--tables", "1", "--boards", "1", "--seed", "1"],
    ["tournament", "run", "--tables", "2", "--boards", "1", "--seed", "1", "--seats", "basic,wizard,basic,basic"],
    ["tournament", "run", "--tables", "2", "--boards", "3", "--rounds", "2", "--seed", "1"],
    ["tournament", "score", "{missing}"], ["tournament", "score", "{folder}"], ["tournament", "score", "{bad}"],
    ["tournament", "score", "{binary}"], ["tournament", "score", "{empty}"], ["tournament", "score", "{record}"],
    # the command itself
    ["dance"], ["--nope"],
]
BAD += [  # every subcommand's other arguments (issue 15, point 6, checked again)
    ["play", "--seats", ""], ["play", "--plain", "--seats", ",,,,"], ["play", "--bot-delay", "x"],
    ["play", "--continue"], ["play", "--continue", "--seed", "3"], ["play", "--continue", "--resume", "{record}"],
    ["play", "--resume", "{record}", "--seats", "you,basic,basic,basic"],
    ["replay", "{record}", "--seat", "0"], ["replay", "{record}", "--seat", "5"],
    ["replay", "{record}", "--seat", "-1"],
    ["replay", "{position}"],
    ["serve", "--max-search", "0"], ["serve", "--max-search", "x"], ["serve", "--expire-days", "-1"],
    ["serve", "--expire-days", "x"], ["serve", "--port", "-1"], ["serve", "--port", "99999"],
    ["serve", "--host", "nope.invalid"], ["serve", "--trusted", "nope"], ["serve", "--host", "192.0.2.1"],
    ["scenario", "{bad}", "--pretty"], ["scenario", "{record}"], ["legal"], ["legal", "{record}"],
    ["bench", "--copies", "x"], ["bench", "--hands", "-3"],
    ["soak", "--preset", "nope"], ["soak", "--seed", "x"], ["soak", "--decisions", "-1"],
    ["rules", "classic", "--set", "nope"], ["rules", "--set", "target=0"], ["rules", "--set", "draw=x"],
    ["arena", "basic", "basic", "--seed", "1", "--deals", "1", "--set", "x=1"],
    ["arena", "basic", "basic", "--seed", "1", "--deals", "1", "--address", "nope:1"],
    ["arena", "basic", "basic", "--seed", "1", "--deals", "1", "--backend", "ray", "--address", "127.0.0.1:1"],
    ["arena", "basic", "basic", "--seed", "1", "--deals", "-1"],
    ["arena", "basic", "basic", "--seed", "1", "--deals", "1", "--workers", "x"],
    ["arena", "basic", "basic", "--seed", "x", "--deals", "1"],
    ["sheets", "--preset", "nope", "--out", "{folder}"], ["sheets", "--sides", "x", "--out", "{folder}"],
    ["score", "--file", "{new}", "--preset", "nope"], ["score", "--file", "{new}", "--names", "A,B,C,D"],
    ["score", "--file", "{new}", "--names", ","], ["score", "--file", "{new}", "--sides", "2", "--names", "A,B,C"],
    ["score", "--file", "{record}"], ["score", "--file", "{position}"],
]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    """Paths of every kind a user may give by mistake."""
    (tmp_path / "folder").mkdir()
    (tmp_path / "bad.json").write_text('{"hands": ')
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00\x81")
    (tmp_path / "empty.json").write_text("{}")
    (tmp_path / "file").write_text("not a folder")
    (tmp_path / "record.json").write_text(json.dumps(Session.new(Rules(), ["basic"] * 4, seed=3).to_record()))
    (tmp_path / "position.json").write_text(json.dumps({"rules": "classic", "dealer": 0, "turn": 1,
                                                        "hands": [["4C"], ["5C"], ["6C"], ["7C"]]}))
    return {"record": str(tmp_path / "record.json"), "position": str(tmp_path / "position.json"),
            "missing": str(tmp_path / "missing.json"), "folder": str(tmp_path / "folder"),
            "bad": str(tmp_path / "bad.json"), "binary": str(tmp_path / "binary.json"),
            "empty": str(tmp_path / "empty.json"), "file": str(tmp_path / "file"),
            "nodir": str(tmp_path / "no" / "such" / "folder"), "new": str(tmp_path / "new.json")}


def assert_one_line(code: int, out: str, err: str) -> None:
    assert code == 2, (code, out, err)
    assert out == ""
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert err.startswith("canasta"), err


@pytest.mark.parametrize("args", BAD, ids=[" ".join(a) or "(none)" for a in BAD])
def test_bad_input_is_one_line_and_exit_2(args: list[str], files: dict[str, str], tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("builtins.input", lambda prompt="": "q")
    code, out, err = run([a.format(**files) for a in args], capsys)
    assert_one_line(code, out, err)
    assert not (tmp_path / "no").exists() and not (tmp_path / "new.json").exists()


def test_a_saved_match_that_does_not_load_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from canasta.tui.saves import autosave_path

    autosave_path().parent.mkdir(parents=True, exist_ok=True)
    autosave_path().write_text('{"hands": ')
    assert_one_line(*run(["play", "--plain", "--continue"], capsys))


@pytest.mark.parametrize("args", [
    ["score", "--file", "/nonexistent/x.json"], ["scenario", "{folder}"], ["sheets", "--out", "{file}/x"],
    ["bench", "--hands", "0"], ["rules", "--set", "decks=0"], ["play", "--resume", "{binary}"], ["dance"],
])
def test_bad_input_in_a_process_is_one_line_and_exit_2(args: list[str], files: dict[str, str],
                                                       tmp_path: Path) -> None:
    done = run_process(*(a.format(**files) for a in args), cwd=tmp_path)
    assert_one_line(done.returncode, done.stdout, done.stderr)


def test_canasta_alone_in_a_process_prints_help_and_version() -> None:
    done = run_process()
    assert done.returncode == 0 and done.stdout.startswith("usage: canasta") and done.stderr == ""
    done = run_process("--version")
    assert (done.returncode, done.stdout) == (0, f"canasta {canasta.__version__}, {build()}\n")


# -- progress only on a terminal ---------------------------------------------------------------------


def test_no_progress_bar_unless_standard_error_is_a_terminal(capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(["arena", "basic", "random", "--deals", "2", "--seed", "1"], capsys)
    assert code == 0 and out.startswith("basic (A) vs random (B)") and err == ""
    code, out, err = run(["soak", "--decisions", "300", "--seed", "2"], capsys)
    assert code == 0 and err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, out, err = run(["arena", "basic", "random", "--deals", "2", "--seed", "1"], capsys)
    assert code == 0 and "2/2 deals" in err
    code, out, err = run(["arena", "basic", "random", "--deals", "2", "--seed", "1", "--quiet"], capsys)
    assert code == 0 and err == ""


def test_serve_on_a_port_in_use_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = run(["serve", "--port", str(port), "--db", ":memory:"], capsys)
    assert_one_line(code, out, err)
    assert f"port {port}: address already in use" in err


def test_python_dash_m_canasta_is_the_command() -> None:
    done = subprocess.run([sys.executable, "-m", "canasta", "--version"], capture_output=True, text=True,
                          check=False, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 0 and done.stdout.startswith("canasta "), done


# -- issue 27 point 4: the rules name no file, the bots fit 80 columns, one word for a partnership ---------


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_rules_name_no_document_an_installed_copy_lacks(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    """An installed package holds no RULES.md, NOTATION.md or docs/: the page names commands, never files."""
    for extra in ([], ["--set", "wild_card_melds=true", "--set", "draw=2"]):
        code, out, err = run(["rules", preset, *extra], capsys)
        assert (code, err) == (0, "")
        assert not re.findall(r"[\w./-]+\.(?:md|txt|json|py|html)\b|\bdocs/", out), preset
        assert "canasta rules --options" in " ".join(out.split())  # where every option is, instead
    code, out, _ = run(["rules", "--options"], capsys)
    assert code == 0 and not re.findall(r"[\w./-]+\.md\b", out)


@pytest.mark.parametrize("columns", ["200", "80", "60"])
def test_bots_fits_80_columns(columns: str, capsys: pytest.CaptureFixture[str],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    from canasta.bots.levels import BOT_TEXT, LEVELS

    monkeypatch.setenv("COLUMNS", columns)  # what shutil.get_terminal_size reads first
    code, out, err = run(["bots"], capsys)
    assert (code, err) == (0, "")
    assert max(len(line) for line in out.splitlines()) <= min(80, int(columns)), out
    flat = " ".join(out.split())  # wrapped between words, nothing lost
    for text in [*BOT_TEXT.values(), *(level.strength for level in LEVELS)]:
        assert " ".join(text.split()) in flat, text
    done = run_process("bots")  # its output a pipe: 80 columns
    assert done.returncode == 0 and max(len(line) for line in done.stdout.splitlines()) <= 80


def test_one_word_for_a_partnership_side_in_the_sheets_the_scorekeeper_and_the_terminal() -> None:
    """The rules and the engine say "side" (``canasta rules``: "Players and sides"); so does every string
    of the printable sheets, the scorekeeper and the terminal (only the preset six-player-two-teams keeps
    its name)."""
    import ast

    from canasta.text.rulebook import rules_text

    src = ROOT / "src" / "canasta"
    said: list[str] = []
    for part in ("sheets", "scorekeeper", "tui", "cli", "text", "play"):
        for path in sorted((src / part).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    text = node.value.replace("six-player-two-teams", "")
                    said += [f"{path.name}: {text!r}" for _ in re.findall(r"\b(?:team|partnership)s?\b", text, re.I)]
    assert said == []
    assert "## Players and sides" in rules_text(Rules())
