"""The two primitives every rule module drives the time table with: the
pending decision and the front of the step queue (flow.py runs the queue)."""


def decide(d, kind, seats, **extra) -> None:
    d["decision"] = {"kind": kind, "seats": list(seats), **extra}


def push_front(d, *steps) -> None:
    d["queue"][0:0] = [list(s) for s in steps]
