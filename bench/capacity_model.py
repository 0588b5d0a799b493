"""The capacity model of docs/operations.md: the figures that
``bench.capacity_figures`` measured, applied to a load (``--matches``
concurrent matches, ``--moves-per-s`` moves per second, the AI's share and
level mix), give the cores, nodes, Redis shards and memory it needs."""

import statistics


def model(figures, args):
    """Nodes of each kind for ``args.matches`` concurrent matches and
    ``args.moves_per_s`` moves/s (human and AI), from the measured figures."""
    moves = figures["moves"]
    mix = {"random": 0.0, "easy": args.mix_easy, "medium": args.mix_medium, "hard": args.mix_hard}
    ai_ms = ai_cpu_ms_by_level(figures)
    # A typical match: as long as the medium AI's matches (median), unless told.
    length = args.match_length or statistics.median(
        a for batch in figures["ai"] if batch["level"] == "medium" for a in batch["lengths"]
    )
    ai_rate = args.moves_per_s * args.ai_share
    human_rate = args.moves_per_s - ai_rate
    mean_ai_ms = sum(mix[level] * ai_ms[level] for level in mix) / sum(mix.values())
    usable = args.cores_per_node * args.target_utilization
    api_cores = human_rate * moves["api_cpu_ms"] / 1000
    worker_cores = ai_rate * mean_ai_ms / 1000
    queue_ops = ai_rate * figures["queue_commands_per_decision"]
    return {
        "assumptions": assumptions(args, mix),
        "ai_cpu_ms_by_level": {k: round(v, 2) for k, v in ai_ms.items()},
        "api_cores": round(api_cores, 2),
        "api_nodes": _nodes(api_cores, usable),
        "worker_cores": round(worker_cores, 2),
        "worker_nodes": _nodes(worker_cores, usable),
        **redis_model(figures, args, length),
        "queue_commands_per_s": round(queue_ops),
    }


def redis_model(figures, args, length):
    """The data Redis: its cores, traffic and memory, and the shards they need."""
    moves = figures["moves"]
    # Every move (human or AI) is one commit on the data Redis; a Redis
    # shard's main thread is one core.
    redis_core_s = args.moves_per_s * moves["redis_cpu_ms"] / 1000
    fit = figures["memory"]["fit"]
    active_bytes = fit[0] + fit[1] * length / 2  # half-way through on average
    finished_bytes = fit[0] + fit[1] * length
    finished_per_s = args.moves_per_s / length
    shards_cpu = redis_core_s / args.target_utilization
    return {
        "redis_cores": round(redis_core_s, 3),
        "redis_net_mb_s": round(args.moves_per_s * (moves["bytes_in"] + moves["bytes_out"]) / 1e6, 2),
        "redis_commands_per_s": round(args.moves_per_s * moves["commands"]),
        "match_length": length,
        "active_match_bytes": round(active_bytes),
        "finished_match_bytes": round(finished_bytes),
        "finished_per_s": round(finished_per_s, 2),
        "active_gb": round(args.matches * active_bytes / 1e9, 2),
        "redis_shards_for_cpu": round(shards_cpu, 3),
        "by_retention_days": {
            str(days): retention(days, args, finished_per_s, active_bytes, finished_bytes, shards_cpu)
            for days in (0, 1, 7, 30)
        },
        # With the archive: hot keys for FINISHED_MATCH_TTL_S, then only the record.
        "record_bytes": figures["memory"].get("record_median", 0),
        "by_archive_days": {
            str(days): archived(days, args, finished_per_s, active_bytes, finished_bytes, figures, shards_cpu)
            for days in (30, 365)
        },
    }


def archived(days, args, finished_per_s, active_bytes, finished_bytes, figures, shards_cpu):
    """Records kept ``days`` days (ARCHIVE_TTL_S), hot keys ``--hot-ttl-s``: memory, shards."""
    kept = finished_per_s * days * 86400
    record = figures["memory"].get("record_median", 0)
    memory = args.matches * active_bytes + finished_per_s * args.hot_ttl_s * finished_bytes + kept * record
    return {
        "records_kept": round(kept),
        "memory_gb": round(memory / 1e9, 1),
        "shards": _nodes(max(shards_cpu, memory / (args.shard_memory_gb * 1e9)), 1),
    }


def retention(days, args, finished_per_s, active_bytes, finished_bytes, shards_cpu):
    """Finished matches kept ``days`` days: how many, their memory, the shards."""
    retained = finished_per_s * days * 86400
    memory = args.matches * active_bytes + retained * finished_bytes
    return {
        "finished_kept": round(retained),
        "memory_gb": round(memory / 1e9, 1),
        "shards": _nodes(max(shards_cpu, memory / (args.shard_memory_gb * 1e9)), 1),
    }


def ai_cpu_ms_by_level(figures):
    """Worker CPU ms per decision by level, the batches' mean; ``hard``: its
    search, plus the job around it (measured for medium)."""
    ai_cpu = {b["level"]: [] for b in figures["ai"]}
    for batch in figures["ai"]:
        ai_cpu[batch["level"]].append(batch["worker_cpu_ms"])
    ai_ms = {level: statistics.fmean(v) for level, v in ai_cpu.items()}
    ai_ms["hard"] = figures["hard"]["cpu_ms_mean"] + ai_ms["medium"]
    return ai_ms


def assumptions(args, mix):
    return {
        "matches": args.matches,
        "moves_per_s": args.moves_per_s,
        "ai_share": args.ai_share,
        "ai_level_mix": mix,
        "match_length": args.match_length or "measured (medium)",
        "cores_per_node": args.cores_per_node,
        "target_utilization": args.target_utilization,
        "shard_memory_gb": args.shard_memory_gb,
    }


def _nodes(cores, usable):
    return max(1, int(-(-cores // usable)))
