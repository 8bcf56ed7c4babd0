"""The layers of ``src/canasta``, read from the source with ``ast`` alone (nothing is imported).

From bottom to top: the engine -> ``bots`` -> ``play`` -> the front ends (``tui``, ``web``,
``sheets``, ``rl``, ``scorekeeper``) -> the command line (``cli`` and each front end's
``command`` module, which registers its subcommands).  A module imports only its own layer or
lower ones, counting imports inside functions; front ends do not import each other (except the
pairs in ``FRONT_END_EDGES``); no import circle, not even through an import inside a function;
the engine and the bots use the standard library only.  Inside the engine, ``ENGINE_LAYERS``
orders its own modules the same way; inside the browser front end, ``WEB_PARTS`` orders its core,
the room, the tournaments and the application.  docs/architecture.md draws the picture.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

ENGINE, BOTS, PLAY, FRONT, CLI = range(5)
LAYER_NAMES = ("engine", "bots", "play", "front end", "command line")
FRONT_ENDS = ("tui", "web", "sheets", "rl", "scorekeeper")
FRONT_END_EDGES = {("web", "sheets"), ("web", "scorekeeper")}
"""The browser serves the printable sheets and the scorekeeper: the only front ends another imports."""
THIRD_PARTY_ALLOWED = {("canasta.bots.arena", "ray")}
"""The optional Ray backend of the arena and of reviews, imported only when asked for and refused in one line
without it."""


ENGINE_LAYERS: dict[str, int] = {
    **dict.fromkeys(["errors", "cards", "rules", "moves", "goingout", "jsonfile", "buildinfo", "text",
                     "text.clean", "text.options"], 0),
    **dict.fromkeys(["judge", "legal", "scoring", "views", "text.labels", "text.rulebook"], 1),
    "state": 2,
    **dict.fromkeys(["position", "outcome", "selection", "resample", "match"], 3),
    **dict.fromkeys(["", "testing", "testing.bench", "testing.scenario", "testing.soak"], 4),
}
"""The engine's own layers, bottom to top: 0 the vocabulary (cards, rules, moves, errors); 1 the rules of play
as functions of a state they are given (``judge``, ``legal``, ``scoring``, ``views``: they name
``GameState`` for types only); 2 ``state``, the phase machine that calls them; 3 what is built on a state
(positions, outcomes, selections, resampling, matches); 4 the package's face and its testing tools.  A
module imports (at run time) only its own engine layer or lower ones."""
ENGINE_LAYER_NAMES = ("vocabulary", "rules of play", "state", "built on the state", "package and tools")

WEB_PARTS = ("core", "room", "tournaments", "app")
"""The browser front end's own parts, bottom to top: its core (tables, storage, protocol, the served table), the
room (``web.room``: accounts, sessions, ratings, the lobby), the duplicate tournaments (``web.tournaments``,
whose organisers are the room's accounts), and the application that puts them together (``app``, and
``server``, which runs it).  A module imports only its own part or lower ones, counting imports inside
functions, with the two limits below."""
WEB_APP = {"canasta.web.app", "canasta.web.server"}
TOURNAMENT_BOARDS = "canasta.web.tournaments.boards"
"""The duplicate deal (hand i is board i), which the core's served table plays for a tournament's table: the one
module of the tournaments the core may import, since it imports nothing of the web itself."""
ROOM_FACE = {"canasta.web.room.accounts", "canasta.web.room.sessions", "canasta.web.room.routes.signed_in",
             "canasta.web.room.seating.refresh_one"}
"""What the tournaments may take of the room: its accounts and who is signed in (an organiser is an account), and
the refresh of a table's names once an account takes an open seat; never its lobby, ratings or history."""


def web_part(module: str) -> str | None:
    """The part of the browser front end a module (or a name in it) is in; None outside that front end."""
    if layer(module) != (FRONT, "web"):
        return None
    if module in WEB_APP or any(module.startswith(m + ".") for m in WEB_APP):
        return "app"
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[2] in ("room", "tournaments") else "core"


def engine_layer(module: str) -> int:
    """The engine layer of an engine module (``canasta.X``)."""
    return ENGINE_LAYERS[module.removeprefix("canasta").removeprefix(".")]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer(module: str) -> tuple[int, str | None]:
    """The module's layer and, for a front end, which one."""
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else ""
    if top == "cli" or module == "canasta.__main__" or (top in FRONT_ENDS and parts[-1] == "command"):
        return CLI, None
    if top in FRONT_ENDS:
        return FRONT, top
    if top == "play":
        return PLAY, None
    if top == "bots":
        return BOTS, None
    return ENGINE, None


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    path: Path
    line: int
    runtime: bool  # False inside ``if TYPE_CHECKING:``
    taken: bool = True  # False for ``m`` of ``from m import a``: the statement takes ``m.a``


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> list[str]:
    if node.level == 0:
        base = node.module or ""
    else:
        parts = module.split(".") if is_package else module.split(".")[:-1]
        parts = parts[: len(parts) - (node.level - 1)]
        base = ".".join(parts + ([node.module] if node.module else []))
    # ``from . import x`` may name a module: count both the package and the submodule.
    return [base] + [f"{base}.{alias.name}" for alias in node.names]


def _targets(module: str, is_package: bool, node: ast.AST) -> list[tuple[str, bool]]:
    """What an import statement names, each with whether the statement takes it (not the ``m`` of
    ``from m import a``); nothing for another statement."""
    if isinstance(node, ast.Import):
        return [(alias.name, True) for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        base, *names = _resolve(module, is_package, node)
        return [(base, False), *[(name, True) for name in names]]
    return []


def _type_checking_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def collect() -> tuple[set[str], list[Edge]]:
    modules: set[str] = set()
    edges: list[Edge] = []
    for path in sorted((SRC / "canasta").rglob("*.py")):
        module = module_name(path)
        modules.add(module)
        tree = ast.parse(path.read_text(), str(path))
        guarded = _type_checking_lines(tree)
        for node in ast.walk(tree):
            for target, taken in _targets(module, path.name == "__init__.py", node):
                edges.append(Edge(module, target, path, node.lineno, node.lineno not in guarded, taken))
    return modules, edges


MODULES, EDGES = collect()
INTERNAL = [e for e in EDGES if e.target in MODULES and e.target != e.source]


def where(edge: Edge) -> str:
    return f"{edge.path.relative_to(SRC.parent)}:{edge.line}: {edge.source} -> {edge.target}"


def test_the_tree_is_read() -> None:
    assert {"canasta.state", "canasta.bots", "canasta.web.app", "canasta.cli", "canasta.cli.args"} <= MODULES
    assert len(INTERNAL) > 200


def test_every_module_imports_only_its_own_layer_or_lower_ones() -> None:
    wrong = []
    for edge in INTERNAL:
        (src, _), (dst, _) = layer(edge.source), layer(edge.target)
        if dst > src:
            wrong.append(f"{where(edge)}: imports upward ({LAYER_NAMES[src]} -> {LAYER_NAMES[dst]})")
    assert not wrong, "\n".join(wrong)


def test_every_engine_module_has_an_engine_layer_and_imports_only_its_own_or_lower_ones() -> None:
    engine = sorted(m for m in MODULES if layer(m)[0] == ENGINE)
    unplaced = [m for m in engine if m.removeprefix("canasta").removeprefix(".") not in ENGINE_LAYERS]
    assert not unplaced, f"place these engine modules in ENGINE_LAYERS: {unplaced}"
    wrong = []
    for edge in INTERNAL:
        if edge.runtime and layer(edge.source)[0] == ENGINE and layer(edge.target)[0] == ENGINE:
            src, dst = engine_layer(edge.source), engine_layer(edge.target)
            if dst > src and "canasta" not in (edge.source, edge.target):  # ``from . import x``: x counts
                wrong.append(f"{where(edge)}: imports upward ({ENGINE_LAYER_NAMES[src]} -> {ENGINE_LAYER_NAMES[dst]})")
    assert not wrong, "\n".join(wrong)


def test_front_ends_do_not_import_each_other() -> None:
    wrong = []
    for edge in INTERNAL:
        (src, a), (dst, b) = layer(edge.source), layer(edge.target)
        if src == dst == FRONT and a != b and (a, b) not in FRONT_END_EDGES:
            wrong.append(f"{where(edge)}: front end {a} imports front end {b}")
    assert not wrong, "\n".join(wrong)


def test_nothing_below_the_front_ends_imports_the_browser_front_end() -> None:
    wrong = [where(e) for e in EDGES if layer(e.source)[0] < FRONT and e.target.startswith("canasta.web")]
    assert not wrong, "\n".join(wrong)


def test_every_web_module_imports_only_its_own_part_or_lower_ones() -> None:
    """The core imports neither the room nor the tournaments (but their boards), the room nothing of the
    tournaments, and none of them the application."""
    wrong = []
    for edge in INTERNAL:
        src, dst = web_part(edge.source), web_part(edge.target)
        if src is None or dst is None or WEB_PARTS.index(dst) <= WEB_PARTS.index(src):
            continue
        if src == "core" and edge.target == TOURNAMENT_BOARDS:
            continue
        wrong.append(f"{where(edge)}: imports upward (web {src} -> web {dst})")
    assert not wrong, "\n".join(wrong)


def test_the_tournaments_boards_import_nothing_of_the_web() -> None:
    """The core may play the tournaments' boards because they stand on the engine, the bots and ``play`` alone."""
    wrong = [where(e) for e in EDGES if e.source == TOURNAMENT_BOARDS and e.target.startswith("canasta.web")]
    assert not wrong, "\n".join(wrong)


def test_the_tournaments_take_only_accounts_and_sessions_from_the_room() -> None:
    wrong = []
    for edge in EDGES:
        if (web_part(edge.source) == "tournaments" and web_part(edge.target) == "room" and edge.taken
                and not any(edge.target == face or edge.target.startswith(face + ".") for face in ROOM_FACE)):
            wrong.append(f"{where(edge)}: the tournaments take {edge.target} (the room's face: {sorted(ROOM_FACE)})")
    assert not wrong, "\n".join(wrong)


def test_the_argument_helpers_are_a_leaf() -> None:
    """Subcommands import ``cli.args``; it imports nothing back from the command line or a front end."""
    wrong = [where(e) for e in INTERNAL if e.source == "canasta.cli.args" and layer(e.target)[0] != ENGINE]
    assert not wrong, "\n".join(wrong)
    users = {e.source for e in INTERNAL if e.target == "canasta.cli"} - {"canasta.cli.__main__", "canasta.__main__"}
    assert not users, f"only ``python -m canasta.cli`` imports canasta.cli itself: {sorted(users)}"


def test_there_is_no_import_circle_not_even_through_imports_inside_functions() -> None:
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for edge in INTERNAL:
        if edge.runtime and not edge.target.startswith(edge.source + "."):  # a package importing its own parts
            graph[edge.source].add(edge.target)
    for module in list(graph):  # importing a.b.c runs a/__init__ and a/b/__init__ first
        graph[module] = {p for t in graph[module] for p in _with_parents(t)} - {module} - set(_parents(module))
    circle = _find_circle(graph)
    assert circle is None, "import circle: " + " -> ".join(circle or [])


def _parents(module: str) -> list[str]:
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _with_parents(module: str) -> list[str]:
    return [p for p in [*_parents(module), module] if p in MODULES and p != "canasta"]


def _find_circle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        stack.pop()
        state[node] = 2
        return None

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in sorted(graph):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


@pytest.mark.parametrize("low", [ENGINE, BOTS])
def test_the_engine_and_the_bots_use_the_standard_library_only(low: int) -> None:
    wrong = []
    for edge in EDGES:
        top = edge.target.split(".")[0]
        if (layer(edge.source)[0] == low and top not in ("", "canasta") and top not in sys.stdlib_module_names
                and (edge.source, top) not in THIRD_PARTY_ALLOWED):
            wrong.append(f"{where(edge)}: {top} is not in the standard library")
    assert not wrong, "\n".join(wrong)


def test_the_layer_rules_catch_what_they_are_meant_to() -> None:
    """The checks themselves can fail: an upward import, a front end pair and a circle are each found."""
    assert layer("canasta.state")[0] < layer("canasta.bots.expert")[0] < layer("canasta.play.table")[0]
    assert layer("canasta.web.app") == (FRONT, "web") and layer("canasta.web.command") == (CLI, None)
    assert _find_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _find_circle({"a": {"b"}, "b": set()}) is None
    assert engine_layer("canasta.cards") < engine_layer("canasta.judge") < engine_layer("canasta.state") \
        < engine_layer("canasta.match") < engine_layer("canasta.testing.soak")
    parts = [web_part(m) for m in ("canasta.web.storage", "canasta.web.room.lobby", "canasta.web.tournaments.store",
                                   "canasta.web.app", "canasta.web.command", "canasta.bots")]
    assert parts == ["core", "room", "tournaments", "app", None, None], parts
    assert {"canasta.web.room.accounts", "canasta.web.room.routes", TOURNAMENT_BOARDS} <= MODULES
    # ``from ..room.routes import signed_in`` takes the name, not the module it comes from.
    statement = ast.parse("from ..room.routes import signed_in").body[0]
    assert _targets("canasta.web.tournaments.routes", False, statement) == [
        ("canasta.web.room.routes", False), ("canasta.web.room.routes.signed_in", True)]
