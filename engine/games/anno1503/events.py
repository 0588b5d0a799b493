"""The one event builder of Anno 1503's rules (base and expansion)."""


def event(events, kind, seat, /, **data):
    events.append({"type": kind, "seat": seat, "data": data})
