"""The garbage collector of a serving process, once its app is loaded.

A gunicorn worker holds some 130,000 long-lived objects after loading the
app (Flask, flask-smorest's OpenAPI document, the marshmallow schemas, the
engines' tables). CPython's cyclic collector scans them all at every full
collection: under the move benchmark that was a 30-50 ms pause every few
hundred requests and about 115 µs of CPU per move (a sixth of it), for
nothing, since a request's objects are freed by reference counting.

``settle()`` is called once the process has loaded what it keeps
(deploy/gunicorn.conf.py's ``post_worker_init``, the RQ workers' start):
it collects the start-up garbage, moves every object left to the permanent
generation (``gc.freeze``: never scanned again) and raises the youngest
generation's threshold, so the collector runs when enough container objects
outlive their request to matter (a leak of cycles is still collected, a
little later) rather than every 700 allocations. Measured with
``bench.http_bench`` (issue 45, docs/operations.md): the collector's CPU
went from about 115 µs per move to under 1.
"""

import gc

# Objects allocated minus freed before a young collection (CPython's
# default is 700); the older generations keep their defaults.
YOUNG_THRESHOLD = 10_000


def settle(young_threshold: int = YOUNG_THRESHOLD) -> None:
    """Collect once, freeze what survives, raise the young threshold."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(young_threshold, middle, old)
