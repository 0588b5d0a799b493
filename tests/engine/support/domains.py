"""Action parameter domains, read from ``game.describe_actions()`` only.

The engine checks shapes with ``engine.params``; these helpers re-derive the
same rules from the published descriptions (the ones the HTTP schemas are
built from), so a listed action that the description would reject, or a
description that does not match what ``apply`` accepts, shows up as a
failure instead of agreeing with itself.
"""

import itertools


class UnknownDomainKind(AssertionError):
    """A domain ``kind`` these helpers do not know: teach them, do not skip."""


def value_fits(domain, value):
    """True when ``value`` lies in the described ``domain``."""
    if domain.get("optional") and value is None:
        return True
    kind = domain["kind"]
    if kind == "enum":
        return type(value) is str and value in domain["values"]
    if kind == "int":
        return type(value) is int and domain["min"] <= value <= domain["max"]
    if kind == "square":
        return (
            type(value) is list
            and len(value) == 2
            and all(type(v) is int for v in value)
            and 0 <= value[0] < domain["rows"]
            and 0 <= value[1] < domain["cols"]
        )
    raise UnknownDomainKind(f"no checker for domain kind {kind!r}")


def action_problem(action, described):
    """Why ``action`` does not fit ``describe_actions()``, or None."""
    if type(action) is not dict or type(action.get("type")) is not str:
        return f"not an action object with a string type: {action!r}"
    entry = described.get(action["type"])
    if entry is None:
        return f"type {action['type']!r} is not described"
    params = entry["params"]
    extra = set(action) - {"type"} - set(params)
    if extra:
        return f"{action!r} has undescribed fields {sorted(extra)}"
    for name, domain in params.items():
        if name not in action:
            if not domain.get("optional"):
                return f"{action!r} lacks required field {name!r}"
        elif not value_fits(domain, action[name]):
            return f"{action!r}: {name}={action[name]!r} is outside {domain}"
    return None


def domain_values(domain):
    """Every value of ``domain`` (optional ones: also left out, as ``ABSENT``)."""
    kind = domain["kind"]
    if kind == "enum":
        values = list(domain["values"])
    elif kind == "int":
        values = list(range(domain["min"], domain["max"] + 1))
    elif kind == "square":
        values = [[r, c] for r in range(domain["rows"]) for c in range(domain["cols"])]
    else:
        raise UnknownDomainKind(f"cannot enumerate domain kind {kind!r}")
    if domain.get("optional"):
        values.append(ABSENT)
    return values


ABSENT = object()  # marks "parameter left out" in ``domain_values``


def iter_well_formed(described, action_type):
    """Every action of ``action_type`` that fits its described domains."""
    params = described[action_type]["params"]
    names = sorted(params)
    for combo in itertools.product(*(domain_values(params[n]) for n in names)):
        action = {"type": action_type}
        for name, value in zip(names, combo):
            if value is not ABSENT:
                action[name] = value
        yield action


def random_well_formed(described, action_type, rng):
    """One action of ``action_type`` fitting its domains, a value drawn per parameter.

    ``iter_well_formed`` is a product of the domains, which is billions of
    actions for a type with many parameters (Anno 1452's ``offer``); a
    probe needs a few random ones, so each parameter is drawn on its own.
    """
    params = described[action_type]["params"]
    action = {"type": action_type}
    for name in sorted(params):
        value = _draw(params[name], rng)
        if value is not ABSENT:
            action[name] = value
    return action


def _draw(domain, rng):
    if domain.get("optional") and rng.random() < 0.25:
        return ABSENT
    kind = domain["kind"]
    if kind == "enum":
        return rng.choice(domain["values"])
    if kind == "int":
        return rng.randint(domain["min"], domain["max"])
    if kind == "square":
        return [rng.randrange(domain["rows"]), rng.randrange(domain["cols"])]
    raise UnknownDomainKind(f"cannot draw from domain kind {kind!r}")


def out_of_domain_values(domain):
    """Values just outside ``domain``: wrong JSON type, off by one, etc."""
    kind = domain["kind"]
    wrong_type = [True, 1.5, {"x": 1}]
    if kind == "enum":
        return wrong_type + ["", "no_such_value", 0, [domain["values"][0]]]
    if kind == "int":
        return wrong_type + [domain["min"] - 1, domain["max"] + 1, str(domain["min"])]
    if kind == "square":
        rows, cols = domain["rows"], domain["cols"]
        return wrong_type + [[0], [0, 0, 0], [rows, 0], [0, cols], [-1, 0], ["0", "0"], "0,0"]
    raise UnknownDomainKind(f"no malformed values for domain kind {kind!r}")


def malformed_actions(described, base):
    """Malformed variants of the well-formed action ``base``.

    Each must be refused with ``InvalidActionError`` whoever the seat.
    """
    params = described[base["type"]]["params"]
    out = [
        None,
        base["type"],
        [base],
        {},
        {"type": None},
        {"type": "no_such_action"},
        dict(base, type=base["type"].upper()),
        dict(base, unexpected_field=1),
    ]
    for name, domain in params.items():
        if not domain.get("optional"):
            out.append({k: v for k, v in base.items() if k != name})
        for bad in out_of_domain_values(domain):
            out.append(dict(base, **{name: bad}))
    return out
