"""Where ``tabula login`` keeps tokens: one per server URL in
``$XDG_CONFIG_HOME/tabula/credentials.json`` (``~/.config/tabula/...``
without it), the directory 0700 and the file 0600, readable by the user
only. ``{"servers": {"<url>": {"token", "name", "kind"}}}``."""

import json
import os
from pathlib import Path
from typing import Any


def credentials_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "tabula" / "credentials.json"


def _key(url: str) -> str:
    return url.rstrip("/")


def load_all() -> dict[str, dict[str, Any]]:
    """Server URL -> its stored entry (empty when there is no file)."""
    try:
        data = json.loads(credentials_path().read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except ValueError as error:
        raise ValueError(f"{credentials_path()} is not valid JSON: {error}") from error
    servers = data.get("servers") if isinstance(data, dict) else None
    return dict(servers) if isinstance(servers, dict) else {}


def stored_token(url: str) -> str | None:
    entry = load_all().get(_key(url)) or {}
    token = entry.get("token")
    return token if isinstance(token, str) and token else None


def _write(servers: dict[str, dict[str, Any]]) -> Path:
    """Replace the file atomically, created 0600 in a 0700 directory."""
    path = credentials_path()
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(path.parent, 0o700)
    temporary = path.with_name(path.name + f".{os.getpid()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        json.dump({"servers": servers}, file, indent=1, sort_keys=True)
    os.chmod(temporary, 0o600)  # whatever the umask was
    os.replace(temporary, path)
    return path


def store(url: str, token: str, **info: Any) -> Path:
    """Keep ``token`` (and ``info``: name, kind) for ``url``; the file's path."""
    servers = load_all()
    servers[_key(url)] = {"token": token, **info}
    return _write(servers)


def forget(url: str) -> bool:
    """Remove ``url``'s token; whether there was one."""
    servers = load_all()
    if servers.pop(_key(url), None) is None:
        return False
    _write(servers)
    return True
