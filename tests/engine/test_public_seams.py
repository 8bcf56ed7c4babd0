"""No module reaches into another's private names (architecture review, C1).

Walks ``src/canasta`` with :mod:`ast`, imports nothing, and fails on:

- ``x._name`` (one leading underscore, not a dunder) unless ``x`` is ``self`` or ``cls``, or
  the access sits inside the class that defines ``_name`` (a class may touch its own
  private members on another instance of itself, as in ``copy``: privacy is per class,
  never across modules or classes);
- ``from m import _name``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import canasta

SRC = Path(canasta.__file__).parent


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _own_privates(cls: ast.ClassDef) -> set[str]:
    """The private names a class defines: its methods, its slots, and what its methods assign on self/cls."""
    names: set[str] = set()
    for node in cls.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _is_private(node.name):
            names.add(node.name)
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and target.id == "__slots__" and node.value is not None:
                    for elt in getattr(node.value, "elts", []):
                        if isinstance(elt, ast.Constant) and isinstance(elt.value, str) and _is_private(elt.value):
                            names.add(elt.value)
                elif isinstance(target, ast.Name) and _is_private(target.id):
                    names.add(target.id)
    for sub in ast.walk(cls):
        if (isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store) and _is_private(sub.attr)
                and isinstance(sub.value, ast.Name) and sub.value.id in ("self", "cls")):
            names.add(sub.attr)
    return names


class _Finder(ast.NodeVisitor):
    def __init__(self, path: Path, root: Path) -> None:
        self.path = path
        self.root = root
        self.classes: list[set[str]] = []
        self.hits: list[str] = []

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.classes.append(_own_privates(node))
        self.generic_visit(node)
        self.classes.pop()

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if _is_private(node.attr):
            owner = node.value
            mine = isinstance(owner, ast.Name) and owner.id in ("self", "cls")
            in_class = bool(self.classes) and node.attr in self.classes[-1]
            if not (mine or in_class):
                self.hits.append(f"{self.where(node)}: {ast.unparse(node)}")
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            if _is_private(alias.name):
                self.hits.append(f"{self.where(node)}: from {'.' * node.level}{node.module or ''} import {alias.name}")

    def where(self, node: ast.AST) -> str:
        return f"{self.path.relative_to(self.root.parent)}:{getattr(node, 'lineno', '?')}"


def private_reaches(root: Path = SRC) -> list[str]:
    """Every place under ``root`` that uses a private name it does not own."""
    hits: list[str] = []
    for path in sorted(root.rglob("*.py")):
        finder = _Finder(path, root)
        finder.visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        hits += finder.hits
    return hits


def test_no_module_reaches_into_private_names() -> None:
    hits = private_reaches()
    assert not hits, "private names used outside their owner:\n" + "\n".join(hits)


def test_the_check_catches_what_it_should(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(
        "from .b import _helper\n"
        "def f(state):\n    state._give(0, 1)\n"
        "class C:\n    __slots__ = ('_x',)\n"
        "    def copy(self):\n        new = C()\n        new._x = self._x\n        return new\n"
        "    def peek(self, other):\n        return other._y\n"
    )
    hits = private_reaches(tmp_path)
    assert [h.split(": ", 1)[1] for h in hits] == ["from .b import _helper", "state._give", "other._y"]
