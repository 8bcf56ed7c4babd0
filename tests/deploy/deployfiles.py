"""Read the deployment's files as the tools do: the Containerfile's instructions, compose.yaml, the Caddyfile."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CONTAINERFILE = ROOT / "Containerfile"
COMPOSE = ROOT / "compose.yaml"
CADDYFILE = ROOT / "deploy" / "Caddyfile"


@dataclass
class Stage:
    """One ``FROM`` of the Containerfile and its instructions, in order: (keyword, arguments)."""

    base: str
    name: str | None
    instructions: list[tuple[str, str]] = field(default_factory=list)

    def all(self, keyword: str) -> list[str]:
        return [args for key, args in self.instructions if key == keyword]

    def last(self, keyword: str) -> str:
        found = self.all(keyword)
        assert found, f"the stage from {self.base} has no {keyword}"
        return found[-1]

    def env(self) -> dict[str, str]:
        """The ``ENV`` of this stage (the ``KEY=VALUE ...`` form), ``$PATH``-like references left as written."""
        values: dict[str, str] = {}
        for args in self.all("ENV"):
            for key, value in re.findall(r'(\w+)=("[^"]*"|\S+)', args):
                values[key] = value.strip('"')
        return values


def instructions(text: str) -> list[tuple[str, str]]:
    """The Containerfile's instructions: comments dropped, continued lines joined."""
    logical, parts = [], list[str]()
    for line in text.splitlines():
        if not parts and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if parts and line.lstrip().startswith("#"):
            continue  # a comment inside a continued instruction
        if line.endswith("\\"):
            parts.append(line[:-1])
            continue
        parts.append(line)
        logical.append(" ".join(p.strip() for p in parts))
        parts = []
    assert not parts, "the Containerfile ends inside a continued line"
    result = []
    for line in logical:
        keyword, _, args = line.partition(" ")
        result.append((keyword.upper(), args.strip()))
    return result


def stages(text: str | None = None) -> tuple[dict[str, str], list[Stage]]:
    """The global ``ARG`` defaults and the stages of the Containerfile."""
    args: dict[str, str] = {}
    found: list[Stage] = []
    for keyword, rest in instructions(CONTAINERFILE.read_text() if text is None else text):
        if keyword == "FROM":
            words = rest.split()
            found.append(Stage(words[0], words[2] if len(words) == 3 and words[1].upper() == "AS" else None))
        elif not found:
            assert keyword == "ARG", f"{keyword} before the first FROM"
            name, _, default = rest.partition("=")
            args[name] = default
        else:
            found[-1].instructions.append((keyword, rest))
    return args, found


def exec_form(args: str) -> list[str]:
    """A JSON array instruction (``ENTRYPOINT [...]``, ``CMD [...]``)."""
    value = json.loads(args)
    assert isinstance(value, list) and all(isinstance(v, str) for v in value), args
    return value


def compose() -> dict[str, Any]:
    import yaml

    data: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return data


def app_services(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The compose services that run the canasta image: the server processes."""
    return {name: s for name, s in data["services"].items() if "canasta" in str(s.get("image", ""))}


def caddy_upstreams(text: str) -> list[str]:
    """The addresses after ``reverse_proxy`` in the Caddyfile."""
    match = re.search(r"^\s*reverse_proxy\s+([^{\n]+?)\s*\{", text, re.MULTILINE)
    assert match, "the Caddyfile has no reverse_proxy with upstreams and a block"
    return match.group(1).split()


def caddy_setting(text: str, name: str) -> str:
    match = re.search(rf"^\s*{name}\s+(\S+)\s*$", text, re.MULTILINE)
    assert match, f"the Caddyfile has no {name}"
    return match.group(1)


def render_caddyfile(text: str, upstreams: list[str], http_port: int, https_port: int) -> str:
    """The Caddyfile for processes on this machine: these upstreams, unprivileged ports, no admin endpoint.

    Every change is checked to happen, so a Caddyfile of another shape fails here rather than test something else.
    """
    old = caddy_upstreams(text)
    rendered = re.sub(r"^(\s*reverse_proxy\s+)[^{\n]+?(\s*\{)", rf"\g<1>{' '.join(upstreams)}\g<2>", text, count=1,
                      flags=re.MULTILINE)
    assert caddy_upstreams(rendered) == upstreams and old != upstreams
    options = f"\n\tadmin off\n\thttp_port {http_port}\n\thttps_port {https_port}\n"
    rendered, count = re.subn(r"^\{\s*$", "{" + options, rendered, count=1, flags=re.MULTILINE)
    assert count == 1, "the Caddyfile has no global options block to add the test's ports to"
    return rendered
