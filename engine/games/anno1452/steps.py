"""The two primitives every rule module drives the time table with: the
pending decision and the front of the step queue (flow.py runs the queue)."""


def decide(d, kind, seats, **extra) -> None:
    d["decision"] = {"kind": kind, "seats": list(seats), **extra}


def change_decision(d, **changes) -> None:
    """Replace the pending decision by a copy with ``changes``: a clone
    shares the decision with its origin (``state.clone_data``), so it is
    replaced, never changed in place."""
    d["decision"] = {**d["decision"], **changes}


def push_front(d, *steps) -> None:
    d["queue"][0:0] = [list(s) for s in steps]
