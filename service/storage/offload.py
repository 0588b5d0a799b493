"""C calls that release the GIL, kept off the gevent event loop.

Under the gevent worker every request of a process shares one thread: a
call that computes for tens of milliseconds (zstd at level 19 on a long
match's archive record) holds up every other request of that process for as
long, though it releases the GIL. ``off_the_loop`` runs such a call in the
gevent hub's thread pool, so the event loop goes on serving the others (on
another core when there is one) while the calling request waits for its
result. Without gevent (the gthread worker, the RQ workers, tests) it just
calls it: those threads already run side by side.

Only for calls that release the GIL: Python code in a pool thread would
compete with the event loop's thread for the GIL instead.
"""

import importlib
from collections.abc import Callable
from typing import Any, TypeVar

from service.storage.transport import threads_are_greenlets

Result = TypeVar("Result")


def off_the_loop(call: Callable[..., Result], *args: Any) -> Result:
    """``call(*args)``, in gevent's thread pool when gevent drives this process."""
    if not threads_are_greenlets():
        return call(*args)
    gevent = importlib.import_module("gevent")  # already imported: it patched threading
    result: Result = gevent.get_hub().threadpool.apply(call, args)
    return result
