"""Matches played in worker processes; tasks and results cross as JSON text.

Only strings go through the executor's queues: a task is encoded as JSON by
the parent and decoded by the worker, and a result comes back the same way,
so no game object (state, player) is ever pickled between processes.
"""

import json
from concurrent.futures import ProcessPoolExecutor, as_completed

from . import matches


def _play_json(task_json):
    """Runs in a worker: a task's JSON in, its result's JSON out."""
    return json.dumps(matches.result_to_json(matches.play_one(json.loads(task_json))))


class MatchPool:
    """``jobs`` worker processes; ``play_many(todo)`` yields ``(index in todo,
    result)`` in the order the matches finish."""

    def __init__(self, jobs):
        self.executor = ProcessPoolExecutor(max_workers=jobs)

    def play_many(self, todo):
        futures = {self.executor.submit(_play_json, json.dumps(t)): i for i, t in enumerate(todo)}
        for future in as_completed(futures):
            yield futures[future], matches.result_from_json(json.loads(future.result()))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.executor.shutdown(cancel_futures=True)
