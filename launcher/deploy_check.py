"""``make deploy-check``: build the images, run the default stack in real
containers, play a match through it, check its edge, tear it all down.

No image registry is reachable from this machine, so the base images the
files name are made here:

- ``python:3.11-slim-bookworm``: a bookworm root made by ``mmdebstrap
  --variant=minbase`` (Python 3.11, venv, pip, CA certificates), imported,
  with ``python`` linked to ``python3`` and this machine's CA bundle (pip
  reaches its index through it from the build); deploy/check/base.Dockerfile.
- ``valkey/valkey:8``: Debian's redis-server on that base, started as the
  official image starts it (``--protected-mode no``); deploy/check/redis.Dockerfile.

Then deploy/Dockerfile builds both targets unchanged, with Docker's classic
builder: BuildKit would fetch the ``# syntax=`` frontend from a registry.
The classic builder reads no ``Dockerfile.dockerignore``, so the build
context is what git tracks (and untracked files it does not ignore): the
same files the ignore file lets through, never ``var/`` or ``.venv``.

The stack is the compose file's default profile (Valkey, the API, two AI
workers, a webhook worker), run by Debian's docker-compose 1.29 from a copy
of the file without its top-level ``name:`` key, which that version refuses
(the project name is given by ``-p`` instead); nothing else is changed.

Checked through it: ``/readyz`` ready with both workers alive, a whole
Anno 1452 match against the AI played through the client library, the
security headers of a page and of an API answer, and ``/metrics`` answering
on its internal port (the container's address) and 404 on the public one.
Everything made is removed at the end, the images kept for the next run
(``--clean`` removes them too).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import yaml

from launcher import deploy_stack

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "var" / "deploy-check"
CHECK_FILES = ROOT / "deploy" / "check"
BASE_IMAGE = "python:3.11-slim-bookworm"
REDIS_IMAGE = "valkey/valkey:8"
APP_IMAGES = {"api": "tabula-api:latest", "worker": "tabula-worker:latest"}
ROOT_IMAGE = "tabula-check/bookworm-root:latest"
PROJECT = "tabula"
CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
CLASSIC = {"DOCKER_BUILDKIT": "0", "COMPOSE_DOCKER_CLI_BUILD": "0"}


def step(text: str, started: float) -> None:
    print(f"[deploy-check] {time.monotonic() - started:6.1f} s  {text}", flush=True)


def run(*argv: str, stdin: bytes | None = None, quiet: bool = True) -> str:
    """Run a command; its output, or ``SystemExit`` with it when it fails."""
    env = {**os.environ, **CLASSIC}
    done = subprocess.run(argv, input=stdin, capture_output=True, env=env, check=False)
    if done.returncode != 0:
        sys.stderr.write(done.stdout.decode(errors="replace") + done.stderr.decode(errors="replace"))
        raise SystemExit(f"[deploy-check] failed ({done.returncode}): {' '.join(argv)}")
    return done.stdout.decode(errors="replace") if quiet else ""


@contextlib.contextmanager
def docker_daemon() -> Iterator[None]:
    """A Docker daemon: the running one, else ``dockerd`` started for the run."""
    if subprocess.run(["docker", "info"], capture_output=True, check=False).returncode == 0:
        yield
        return
    if shutil.which("dockerd") is None:
        raise SystemExit(
            "[deploy-check] no Docker daemon: install Debian's docker.io (apt-get install docker.io)"
        )
    WORK.mkdir(parents=True, exist_ok=True)
    with (WORK / "dockerd.log").open("ab") as log:
        daemon = subprocess.Popen(["dockerd"], stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + 60
        while subprocess.run(["docker", "info"], capture_output=True, check=False).returncode != 0:
            if daemon.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"[deploy-check] dockerd did not start: see {WORK / 'dockerd.log'}")
            time.sleep(0.5)
        yield
    finally:
        daemon.terminate()
        daemon.wait(30)


def has_image(name: str) -> bool:
    return (
        subprocess.run(["docker", "image", "inspect", name], capture_output=True, check=False).returncode == 0
    )


def base_image() -> None:
    """``python:3.11-slim-bookworm`` from a bookworm root made here."""
    if has_image(BASE_IMAGE):
        return
    root = WORK / "bookworm-root.tar"
    if not root.exists():
        if shutil.which("mmdebstrap") is None:
            raise SystemExit(
                "[deploy-check] no image registry here: install mmdebstrap to make the base image"
            )
        packages = "python3,python3-venv,python3-pip,ca-certificates"
        run("mmdebstrap", "--variant=minbase", f"--include={packages}", "bookworm", str(root))
    run("docker", "import", str(root), ROOT_IMAGE)
    with tempfile.TemporaryDirectory() as context:
        shutil.copy(CHECK_FILES / "base.Dockerfile", Path(context) / "Dockerfile")
        shutil.copy(CA_BUNDLE, Path(context) / "ca-certificates.crt")
        run("docker", "build", "-q", "-t", BASE_IMAGE, context)


def redis_image() -> None:
    if not has_image(REDIS_IMAGE):
        run(
            "docker",
            "build",
            "-q",
            "-t",
            REDIS_IMAGE,
            "-f",
            str(CHECK_FILES / "redis.Dockerfile"),
            str(CHECK_FILES),
        )


def build_context() -> bytes:
    """A tar of the files git tracks or would track (the build context)."""
    listed = run("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    names = [name for name in listed.split("\0") if name and (ROOT / name).is_file()]
    with tempfile.TemporaryFile() as archive:
        subprocess.run(
            ["tar", "-cf", "-", "--null", "-T", "-"],
            input="\0".join(names).encode(),
            stdout=archive,
            cwd=ROOT,
            check=True,
        )
        archive.seek(0)
        return archive.read()


def app_images() -> None:
    context = build_context()
    for target, tag in APP_IMAGES.items():
        run(
            "docker",
            "build",
            "-q",
            "-f",
            "deploy/Dockerfile",
            "--target",
            target,
            "-t",
            tag,
            "-",
            stdin=context,
        )


def compose_file() -> Path:
    """The compose file without ``name:`` (Debian's docker-compose 1.29 refuses it)."""
    spec = yaml.safe_load((ROOT / "deploy" / "docker-compose.yml").read_text())
    spec.pop("name", None)
    path = WORK / "docker-compose.yml"
    path.write_text(yaml.safe_dump(spec, sort_keys=False))
    return path


@contextlib.contextmanager
def default_stack() -> Iterator[None]:
    compose = ["docker-compose", "-f", str(compose_file()), "-p", PROJECT]
    run(*compose, "up", "-d", "--no-build")
    try:
        yield
    finally:
        run(*compose, "down", "-v", "--remove-orphans")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clean", action="store_true", help="remove the images made, at the end")
    args = parser.parse_args(argv)
    started = time.monotonic()
    WORK.mkdir(parents=True, exist_ok=True)
    deploy_stack.check_port_free(deploy_stack.PUBLIC_PORT)
    with docker_daemon():
        step("Docker daemon ready", started)
        base_image()
        redis_image()
        step(f"base images {BASE_IMAGE}, {REDIS_IMAGE}", started)
        app_images()
        step(f"built {', '.join(APP_IMAGES.values())} from deploy/Dockerfile", started)
        with default_stack():
            step("compose default profile up", started)
            for line in deploy_stack.check(PROJECT):
                step(line, started)
        step("stack down, volumes removed", started)
        if args.clean:
            run("docker", "image", "rm", *APP_IMAGES.values(), REDIS_IMAGE, BASE_IMAGE, ROOT_IMAGE)
    print(f"[deploy-check] passed in {time.monotonic() - started:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
