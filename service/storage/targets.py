"""Where each role's Redis is: ``REDIS_URL`` and ``RQ_REDIS_URL`` parsed into
``Target`` values, and the combinations of settings that cannot work.

``REDIS_MODE`` says what ``REDIS_URL`` (matches, tokens, events, lobby, rate
limits, the live streams' pub/sub) points at:

- ``standalone``: any redis-py URL (``redis://``, ``rediss://``, ``unix://``);
- ``sentinel``: ``redis+sentinel://[:password@]host:port[,host:port...]/<service>[/<db>]``,
  the sentinels and the name of the primary they watch (the form flask-limiter
  and limits use); ``?sentinel_password=`` when the sentinels want one;
- ``cluster``: ``redis://host:port`` or ``redis+cluster://host:port[,host:port...]``,
  one or more nodes of a Redis Cluster (Redis >= 7: the streams use sharded
  pub/sub).

``RQ_REDIS_URL`` (the AI queue, worker heartbeats) takes its kind from its
scheme alone, standalone or ``redis+sentinel://``, never a cluster: RQ's keys
have no hash tags and its transactions cross slots (stack-notes §2), so that
is refused at start-up (``ConfigError``, ``refuse_cluster_queue``).
"""

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import SplitResult, parse_qs, unquote, urlsplit

MODES = ("standalone", "sentinel", "cluster")
SENTINEL_SCHEMES = ("redis+sentinel", "rediss+sentinel")
CLUSTER_SCHEMES = ("redis+cluster", "rediss+cluster")
DEFAULT_SENTINEL_PORT = 26379


class ConfigError(ValueError):
    """A Redis setting that cannot work; the message says what to change."""


@dataclass(frozen=True)
class Target:
    """Where one role's Redis is: parsed from its URL and mode."""

    mode: str
    url: str
    hosts: tuple = ()  # sentinels, or cluster start-up nodes: ((host, port), ...)
    service: str | None = None  # sentinel: the monitored primary's name
    db: int = 0
    username: str | None = None
    password: str | None = None
    tls: bool = False
    sentinel_password: str | None = None
    extra: dict = field(default_factory=dict)

    @property
    def is_cluster(self) -> bool:
        return self.mode == "cluster"


def _hosts(netloc: str, default_port: int) -> tuple[tuple[str, int], ...]:
    hosts = []
    for part in netloc.split(","):
        host, _, port = part.strip().rpartition(":")
        if not host:  # "host" without a port
            host, port = port, ""
        hosts.append((host.strip("[]"), int(port) if port else default_port))
    return tuple(hosts)


def _split_userinfo(netloc: str) -> tuple[str | None, str | None, str]:
    userinfo, _, hosts = netloc.rpartition("@")
    username = password = None
    if userinfo:
        user, _, secret = userinfo.partition(":")
        username, password = (unquote(user) or None), (unquote(secret) or None)
    return username, password, hosts


def parse_target(url: str, mode: str = "standalone") -> Target:
    """The ``Target`` of ``url`` in ``mode``; ``ConfigError`` when they disagree."""
    if mode not in MODES:
        raise ConfigError(f"REDIS_MODE={mode!r}: expected one of {', '.join(MODES)}")
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme in SENTINEL_SCHEMES:
        if mode != "sentinel":
            raise ConfigError(f"{safe_url(url)} is a Sentinel URL: set REDIS_MODE=sentinel")
        return _sentinel_target(url, parts)
    if mode == "sentinel":
        raise ConfigError(
            "REDIS_MODE=sentinel wants redis+sentinel://host:port[,host:port]/<service>[/<db>], "
            f"not {safe_url(url)}"
        )
    if scheme in CLUSTER_SCHEMES or mode == "cluster":
        if mode != "cluster":
            raise ConfigError(f"{safe_url(url)} is a cluster URL: set REDIS_MODE=cluster")
        if scheme not in CLUSTER_SCHEMES + ("redis", "rediss"):
            raise ConfigError(
                f"REDIS_MODE=cluster wants redis://host:port or redis+cluster://..., not {safe_url(url)}"
            )
        username, password, netloc = _split_userinfo(parts.netloc)
        return Target(
            "cluster",
            url,
            _hosts(netloc, 6379),
            username=username,
            password=password,
            tls=scheme.startswith("rediss"),
        )
    return Target("standalone", url)


def _sentinel_target(url: str, parts: SplitResult) -> Target:
    username, password, netloc = _split_userinfo(parts.netloc)
    path = [p for p in parts.path.split("/") if p]
    if not path:
        raise ConfigError(
            f"{safe_url(url)}: name the primary's service, e.g. redis+sentinel://h:26379/mymaster/0"
        )
    query = parse_qs(parts.query)
    return Target(
        "sentinel",
        url,
        _hosts(netloc, DEFAULT_SENTINEL_PORT),
        service=path[0],
        db=int(path[1]) if len(path) > 1 else 0,
        username=username,
        password=password,
        tls=parts.scheme.lower().startswith("rediss"),
        sentinel_password=next(iter(query.get("sentinel_password", [])), None),
    )


def queue_target(url: str) -> Target:
    """The Target of ``RQ_REDIS_URL``: standalone or Sentinel, never a cluster."""
    scheme = urlsplit(url).scheme.lower()
    if scheme in CLUSTER_SCHEMES:
        raise ConfigError(
            f"RQ_REDIS_URL={safe_url(url)} is a cluster: RQ needs a standalone Redis "
            "(or one managed by Sentinel: redis+sentinel://...), its keys cross hash slots"
        )
    return parse_target(url, "sentinel" if scheme in SENTINEL_SCHEMES else "standalone")


def check_roles(config: dict[str, Any]) -> None:
    """Raise ``ConfigError`` for a combination of settings that cannot work."""
    mode = config.get("REDIS_MODE") or "standalone"
    parse_target(config["REDIS_URL"], mode)
    rq_url = config.get("RQ_REDIS_URL")
    if mode == "cluster" and (not rq_url or rq_url == config["REDIS_URL"]):
        raise ConfigError(
            "REDIS_MODE=cluster needs RQ_REDIS_URL: the AI queue cannot live on a Redis "
            "Cluster (RQ's keys cross hash slots); point RQ_REDIS_URL at a standalone or "
            "Sentinel-managed Redis"
        )
    if rq_url:
        queue_target(rq_url)


def safe_url(url: str) -> str:
    """``url`` without its password (for messages)."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return parts._replace(netloc="***@" + parts.netloc.rpartition("@")[2]).geturl()
