"""What an operation needs: configuration, the match store, the AI queue.

Built once per process (the Flask app, or the RQ worker) from the config.
"""

import redis
from redis.backoff import ExponentialBackoff
from redis.retry import Retry
from rq import Queue
from rq.serializers import JSONSerializer

from .state_cache import EngineStateCache
from .storage import Store

# Loaded engine states kept per process (one per match, least recently used
# evicted): a loaded state is a few kilobytes, so a few megabytes at most.
ENGINE_STATE_CACHE_SIZE = 512


def redis_client(url, socket_timeout):
    """A client that fails fast when Redis is down (-> 503), not after minutes."""
    return redis.Redis.from_url(
        url,
        socket_timeout=socket_timeout,
        socket_connect_timeout=min(socket_timeout, 2.0),
        retry=Retry(ExponentialBackoff(cap=0.2, base=0.02), 2),
        health_check_interval=30,
    )


class Services:
    """Process-wide handles; cheap to share between threads (redis-py pools)."""

    def __init__(self, config):
        self.config = config
        self.redis = redis_client(config["REDIS_URL"], config["REDIS_SOCKET_TIMEOUT_S"])
        # RQ needs its own client: no decode_responses and its own timeouts.
        self.rq_redis = redis.Redis.from_url(config["RQ_REDIS_URL"], socket_connect_timeout=2.0)
        self.store = Store(self.redis, config["IDEMPOTENCY_TTL_S"])
        self.queue = Queue(config["AI_QUEUE"], connection=self.rq_redis, serializer=JSONSerializer)
        self.states = EngineStateCache(ENGINE_STATE_CACHE_SIZE)

    def close(self):
        self.redis.close()
        self.rq_redis.close()
