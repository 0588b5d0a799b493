"""A finishing move's record compression does not hold up the other requests
of a gevent worker (storage/offload.py): while zstd compresses, the event
loop goes on running other greenlets; without gevent it runs in the caller's
thread. Each case runs in a fresh interpreter, as gunicorn's gevent worker
does, patched before the service is imported."""

import json
import subprocess
import sys
from pathlib import Path

from service.storage import archive

ROOT = Path(__file__).resolve().parents[2]

# A record whose compression at level 19 takes long enough to count the
# event loop's turns during it (tens to hundreds of milliseconds here).
_PROBE = """
import json, random, sys, threading, time
PATCH = sys.argv[1] == "gevent"
if PATCH:
    from gevent import monkey
    monkey.patch_all()
    import gevent
from service.storage import archive

rng = random.Random(7)
actions = [[rng.randrange(4), {"type": "t%d" % rng.randrange(40), "n": rng.randrange(10**6)}] for _ in range(60000)]
record = archive.Record(doc={"id": "m", "game": "anno1503", "status": "finished"}, actions=actions)
archive.encode(archive.Record(doc={"id": "m", "game": "anno1503", "status": "finished"}))  # the dictionary digested

threads = []
compress = archive._compress
def recording(*args):
    threads.append(threading.get_ident())
    return compress(*args)
archive._compress = recording

turns = []
encoding = [True]
def ticker():
    while encoding[0]:
        turns.append(time.perf_counter())
        gevent.sleep(0.001)
if PATCH:
    spinner = gevent.spawn(ticker)
    gevent.sleep(0)  # the ticker's first turn
started = time.perf_counter()
raw = archive.encode(record)
took = time.perf_counter() - started
encoding[0] = False
decoded = archive.decode("m", raw)
print(json.dumps({
    "turns_during": sum(1 for t in turns if started < t < started + took),
    "took_s": took,
    "other_thread": threads[0] != threading.get_ident(),
    "same_record": decoded.actions == actions,
}))
"""


def probe(mode):
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, mode],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_under_gevent_the_loop_runs_while_the_record_compresses():
    result = probe("gevent")
    assert result["same_record"]
    assert result["other_thread"]
    # Held up, the loop would run no turn at all while encode() ran.
    assert result["turns_during"] >= 3, result


def test_without_gevent_it_compresses_in_the_callers_thread():
    result = probe("plain")
    assert result["same_record"]
    assert not result["other_thread"]


def test_records_compressed_by_concurrent_threads_read_back():
    """Each record gets its own compressor on the shared digested dictionary."""
    from concurrent.futures import ThreadPoolExecutor

    records = [
        archive.Record(
            doc={"id": f"m{i}", "game": "anno1452", "status": "finished"},
            actions=[[i % 2, {"n": j}] for j in range(2000)],
        )
        for i in range(8)
    ]
    with ThreadPoolExecutor(4) as pool:
        encoded = list(pool.map(archive.encode, records))
    for record, raw in zip(records, encoded, strict=True):
        assert archive.decode(record.doc["id"], raw) == record
