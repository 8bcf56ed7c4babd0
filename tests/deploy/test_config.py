"""The Containerfile, compose.yaml and deploy/Caddyfile agree with each other and with ``canasta serve``.

Nothing here needs a container engine: the image's entry point runs under ``sh`` with a stand-in ``canasta``
that hands its arguments to the real parser, so a renamed option, a port that differs between files or an
environment variable nobody sets fails here.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from canasta.cli import build_parser

from .deployfiles import (
    CADDYFILE,
    ROOT,
    Stage,
    app_services,
    caddy_setting,
    caddy_upstreams,
    compose,
    exec_form,
    stages,
)

pytest.importorskip("fastapi", reason="the deployment tests need the web extra: pip install 'canasta[web]'")


def final() -> Stage:
    return stages()[1][-1]


def serve_arguments(env: dict[str, str], extra: list[str], tmp_path: Path) -> Any:
    """What ``canasta serve`` receives from the image's entry point with this environment, parsed by the real
    parser (a stand-in ``canasta`` on the PATH prints its arguments)."""
    stand_in = tmp_path / "bin" / "canasta"
    stand_in.parent.mkdir(exist_ok=True)
    stand_in.write_text(f"#!{sys.executable}\nimport json, sys\nprint(json.dumps(sys.argv[1:]))\n")
    stand_in.chmod(stand_in.stat().st_mode | stat.S_IXUSR)
    entrypoint = exec_form(final().last("ENTRYPOINT"))
    cmd = exec_form(final().last("CMD"))
    run = subprocess.run([*entrypoint, *cmd, *extra], env={**env, "PATH": f"{stand_in.parent}:/usr/bin:/bin"},
                         capture_output=True, text=True, timeout=30, check=False)
    assert run.returncode == 0, run.stderr
    argv = json.loads(run.stdout)
    assert argv[0] == "serve", argv
    return build_parser().parse_args(argv)


def test_the_base_is_the_official_python_image_and_can_be_replaced() -> None:
    args, found = stages()
    assert args["BASE"].startswith("docker.io/library/python:3.1")
    assert [s.base for s in found] == ["${BASE}", "${BASE}"], "both stages must come from BASE (the same python3)"
    assert found[0].name and f"--from={found[0].name}" in final().last("COPY")


def test_the_image_holds_the_compiled_build() -> None:
    build = " ".join(stages()[1][0].all("RUN"))
    assert "CANASTA_COMPILE=1" in build and "pip wheel" in build
    assert "grep -q 'compiled (mypyc)'" in build, "the build must fail when mypyc did not compile the engine"


def test_the_server_runs_as_a_user_without_privileges() -> None:
    stage = final()
    user = stage.last("USER")
    assert user not in ("root", "0") and not user.startswith("0:")
    assert any(f" {user}" in run and "useradd" in run for run in stage.all("RUN")), "USER is never created"
    keys = [key for key, _ in stage.instructions]
    assert keys.index("USER") > max(i for i, key in enumerate(keys) if key in ("RUN", "COPY"))


def test_the_entry_point_serves_the_exposed_port_with_the_images_settings(tmp_path: Path) -> None:
    env = final().env()
    args = serve_arguments({k: v for k, v in env.items() if k != "PATH"}, ["--follow", "2"], tmp_path)
    assert (args.host, args.port) == ("0.0.0.0", int(env["CANASTA_PORT"]))
    assert final().last("EXPOSE") == env["CANASTA_PORT"]
    assert (args.db, args.log_format, args.drain_seconds) == ("/data/canasta.sqlite3", "json", 10)
    assert args.follow == 2, "arguments after the image go to canasta serve"
    assert final().last("VOLUME") == str(Path(args.db).parent), "the SQLite file must be in the volume"


def test_every_setting_the_entry_point_reads_has_a_default_in_the_image() -> None:
    script = exec_form(final().last("ENTRYPOINT"))[2]
    used = set(re.findall(r"\$\{?(\w+)", script)) - {"@"}
    assert used and used <= set(final().env()), used - set(final().env())


def test_the_health_check_asks_healthz_on_the_served_port(tmp_path: Path) -> None:
    check = final().last("HEALTHCHECK")
    options, _, command = check.partition("CMD ")
    assert "--interval=" in options and "--timeout=" in options
    argv = exec_form(command)
    assert argv[0] == "python3" and "/healthz" in argv[-1] and "CANASTA_PORT" in argv[-1]
    from canasta.web.app import create_app

    paths = {getattr(route, "path", None) for route in create_app(str(tmp_path / "canasta.sqlite3")).routes}
    assert {"/healthz", "/readyz"} <= paths


def test_the_build_context_holds_what_the_image_copies_and_no_secrets() -> None:
    ignore = (ROOT / ".containerignore").read_text()
    assert (ROOT / ".dockerignore").read_text() == ignore, "docker reads .dockerignore, podman .containerignore"
    patterns = [line.strip() for line in ignore.splitlines() if line.strip() and not line.startswith("#")]
    assert patterns[0] == "*", "everything is left out, then what the build needs is let in"
    allowed = {p[1:] for p in patterns if p.startswith("!")}
    copied = {word for copy in stages()[1][0].all("COPY") for word in copy.split()[:-1]}
    assert copied <= allowed, copied - allowed
    assert not allowed & {".env", ".venv", ".git", "build"}


@pytest.fixture(scope="module")
def services() -> dict[str, Any]:
    pytest.importorskip("yaml", reason="reading compose.yaml needs PyYAML")
    data = compose()
    return data


def test_compose_runs_postgres_several_servers_and_a_proxy(services: dict[str, Any]) -> None:
    apps = app_services(services)
    assert len(apps) >= 2, "several server processes"
    assert set(services["services"]) == {"db", "proxy", *apps}
    assert "postgres" in services["services"]["db"]["image"] and "caddy" in services["services"]["proxy"]["image"]
    built = [s for s in apps.values() if "build" in s]
    assert len(built) == 1 and built[0]["build"]["dockerfile"] == "Containerfile", "one build, one image"
    assert len({s["image"] for s in apps.values()}) == 1
    assert all(s.get("pull_policy") == "never" for s in apps.values() if "build" not in s)


def test_the_data_lives_in_named_volumes(services: dict[str, Any]) -> None:
    named = set(services["volumes"])
    mounts = {name: [v.split(":")[:2] for v in s.get("volumes", [])] for name, s in services["services"].items()}
    assert ["pgdata", "/var/lib/postgresql/data"] in mounts["db"]
    assert ["caddy-data", "/data"] in mounts["proxy"], "Caddy's certificates and keys"
    assert ["./deploy/Caddyfile", "/etc/caddy/Caddyfile"] in mounts["proxy"]
    used = {source for volumes in mounts.values() for source, _ in volumes if not source.startswith(".")}
    assert used == named


def test_the_servers_settings_reach_canasta_serve(services: dict[str, Any], tmp_path: Path) -> None:
    image_env = final().env()
    password = "pw"
    for name, service in app_services(services).items():
        env = {k: str(v).replace("${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD in .env}", password)
               for k, v in service["environment"].items()}
        unknown = set(env) - set(image_env) - {"FORWARDED_ALLOW_IPS"}  # the one uvicorn reads itself
        assert not unknown, f"{name} sets what the image never reads: {unknown}"
        args = serve_arguments({**{k: v for k, v in image_env.items() if k != "PATH"}, **env}, [], tmp_path)
        url = urlsplit(args.db)
        db = services["services"]["db"]["environment"]
        assert (url.scheme, url.hostname, url.username, url.password) == ("postgresql", "db", db["POSTGRES_USER"],
                                                                          password)
        assert url.path == "/" + db["POSTGRES_DB"]
        assert args.port == int(image_env["CANASTA_PORT"])
        grace = float(service["stop_grace_period"].rstrip("s"))
        assert grace >= args.drain_seconds + 10, "docs/deploy.md: the grace period is --drain-seconds + 10 s"
        assert service["depends_on"]["db"]["condition"] == "service_healthy"


def test_caddy_sends_to_every_server_on_its_port_and_checks_readyz(services: dict[str, Any]) -> None:
    text = CADDYFILE.read_text()
    port = final().env()["CANASTA_PORT"]
    assert sorted(caddy_upstreams(text)) == sorted(f"{name}:{port}" for name in app_services(services))
    assert caddy_setting(text, "health_uri") == "/readyz"
    assert caddy_setting(text, "lb_policy") == "uri_hash", "a table's websockets go to one process (docs/deploy.md)"
    proxy = services["services"]["proxy"]
    assert "443:443" in proxy["ports"] and "80:80" in proxy["ports"], "TLS, and HTTP for ACME and the redirect"
    assert "{$CANASTA_SITE:localhost}" in text and "CANASTA_SITE" in proxy["environment"]


def test_caddy_accepts_the_caddyfile(tmp_path: Path) -> None:
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.skip("caddy is not installed (apt-get install caddy)")
    run = subprocess.run([caddy, "adapt", "--config", str(CADDYFILE), "--adapter", "caddyfile"], cwd=tmp_path,
                         env={**os.environ, "HOME": str(tmp_path)}, capture_output=True, text=True, timeout=30,
                         check=False)
    assert run.returncode == 0, run.stderr
    config = json.loads(run.stdout)
    assert config["apps"]["pki"]["certificate_authorities"]["local"]["install_trust"] is False
