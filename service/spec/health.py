"""The bodies of /healthz and /readyz."""

import marshmallow as ma
from marshmallow import validate

from service.spec.schemas import describe


class ShardReplicasSchema(ma.Schema):
    node = ma.fields.String(
        required=True, metadata=describe("The primary (`host:port` on a cluster, else `primary`).")
    )
    replicas = ma.fields.Integer(required=True, metadata=describe("Its in-sync replicas now."))
    required_replicas = ma.fields.Integer(required=True, metadata=describe("`REDIS_WAIT_REPLICAS`."))
    status = ma.fields.String(
        required=True,
        validate=validate.OneOf(["ok", "degraded", "unreachable"]),
        metadata=describe(
            "`degraded`: fewer in-sync replicas than required, its moves are refused (503 "
            "`not_enough_replicas`); `unreachable`: it did not answer (a failover under way)."
        ),
    )


class HealthSchema(ma.Schema):
    status = ma.fields.String(
        required=True,
        validate=validate.OneOf(["ok", "degraded", "unavailable"]),
        metadata=describe(
            "`ok`; `degraded` (/readyz, 200): a storage shard has fewer in-sync replicas than "
            "`REDIS_WAIT_REPLICAS`, its moves are answered 503 `not_enough_replicas`; "
            "`unavailable` (503)."
        ),
    )
    checks = ma.fields.Dict()
    workers_alive = ma.fields.Integer(
        metadata=describe("/readyz: AI workers whose heartbeat is younger than `WORKER_SEEN_S`.")
    )
    shards = ma.fields.List(
        ma.fields.Nested(ShardReplicasSchema),
        metadata=describe("/readyz with `REDIS_WAIT_REPLICAS` > 0: each storage primary's replicas."),
    )
