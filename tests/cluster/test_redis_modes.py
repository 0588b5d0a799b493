"""REDIS_MODE and the URL forms of service/storage/redis_modes.py (no servers)."""

import re

import pytest

from service.runtime.config import load_config
from service.storage.targets import ConfigError, parse_target, queue_target

# Left out by `make test-fast` (-m "not slow"): starts a Redis Cluster or Sentinel.
pytestmark = pytest.mark.slow


def test_sentinel_url_names_sentinels_service_db_and_passwords():
    target = parse_target(
        "redis+sentinel://:s3cret@h1:26379,h2:26380,h3/tabula/2?sentinel_password=x", "sentinel"
    )
    assert target.hosts == (("h1", 26379), ("h2", 26380), ("h3", 26379))
    assert (target.service, target.db, target.password, target.sentinel_password) == (
        "tabula",
        2,
        "s3cret",
        "x",
    )


def test_cluster_url_lists_start_up_nodes_in_either_form():
    assert parse_target("redis+cluster://a:7000,b:7001", "cluster").hosts == (("a", 7000), ("b", 7001))
    assert parse_target("redis://a:7000/0", "cluster").hosts == (("a", 7000),)


@pytest.mark.parametrize(
    ("url", "mode", "says"),
    [
        ("redis://h:6379/0", "sentinel", "redis+sentinel://"),
        ("redis+sentinel://h:26379/svc", "standalone", "REDIS_MODE=sentinel"),
        ("redis+cluster://h:7000", "standalone", "REDIS_MODE=cluster"),
        ("redis+sentinel://h:26379", "sentinel", "name the primary's service"),
        ("redis://h:6379/0", "clustered", "expected one of"),
    ],
)
def test_a_url_that_does_not_fit_its_mode_is_explained(url, mode, says):
    with pytest.raises(ConfigError, match=re.escape(says)):
        parse_target(url, mode)


def test_the_queue_is_standalone_or_sentinel_never_a_cluster():
    assert queue_target("redis://q:6379/0").mode == "standalone"
    assert queue_target("redis+sentinel://s:26379/q").mode == "sentinel"
    with pytest.raises(ConfigError, match="RQ needs a standalone Redis"):
        queue_target("redis+cluster://c:7000")


def test_load_config_refuses_a_cluster_without_a_queue_url(monkeypatch):
    for name in ("REDIS_MODE", "RQ_REDIS_URL", "REDIS_URL"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(ConfigError, match="needs RQ_REDIS_URL"):
        load_config({"REDIS_URL": "redis://c:7000", "REDIS_MODE": "cluster"})
    with pytest.raises(ConfigError, match="needs RQ_REDIS_URL"):
        load_config(
            {"REDIS_URL": "redis://c:7000", "REDIS_MODE": "cluster", "RQ_REDIS_URL": "redis://c:7000"}
        )
    config = load_config(
        {"REDIS_URL": "redis://c:7000", "REDIS_MODE": "cluster", "RQ_REDIS_URL": "redis://q:1/0"}
    )
    assert config["RQ_REDIS_URL"] == "redis://q:1/0"
    # Standalone keeps its default: the queue on REDIS_URL.
    assert load_config({"REDIS_URL": "redis://s:1/0"})["RQ_REDIS_URL"] == "redis://s:1/0"
