"""Every bound the spec declares on an input is one the server enforces.

Walks the generated spec: every parameter (path, query, header) and every
field of a valid request body (following ``$ref`` and the ``oneOf`` variant
the body is) that states ``maxLength``, ``maximum``, ``minimum``,
``maxItems``, ``minLength`` or ``minItems`` is sent one past it, all else
valid, and must be refused with a status the operation declares: 422 `validation_error` (a body, query or
header; 400 allowed where the contract says so), 404 `not_found` for a path
segment (a longer one matches no route, as an unknown id). Inputs the
server accepts past a declared bound would be bounds only on paper (the
OWASP ruleset makes the spec declare them: tests/service/test_spectral.py).
"""

import copy
import re

import pytest
import yaml

from service.spec.document import spec_yaml

from .conftest import fresh_app

APP_KEY = "bounds-app-key"
HOOK = {"url": "https://93.184.216.34/hook", "events": ["your_turn"], "secret": "s" * 16}


def _bodies():
    """A valid body per operation (the one whose fields are pushed past their bounds)."""
    return {
        "createMatch": {
            "game": "anno1503",
            "seed": 1,
            "turn_timeout_s": 300,
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "ai", "level": "easy", "name": "Al"}],
        },
        "joinMatch": {"name": "Bo", "seat": 1},
        "postAction": {"action": {"type": "move_ship", "ship": 0, "to": [2, 5]}, "version": 0},
        "createAccount": {"name": "boundsbot", "kind": "bot"},
        "createToken": {"label": "x", "scopes": ["match:read"], "expires_in_s": 3600},
        "putWebhook": dict(HOOK),
        "putAppAccount": {"name": "appuser", "kind": "bot", "label": "x", "scopes": ["match:read"]},
        "createChallenge": {
            "game": "anno1452",
            "turn_timeout_s": 300,
            "expires_in_s": 60,
            "seats": [{"kind": "account", "name": "boundsfoe"}],
        },
        "createSeek": {"pool": "anno1452-basic", "counts": [2], "rating_min": 0, "rating_max": 50},
    }


@pytest.fixture(scope="module")
def stack(redis_server):
    with fresh_app(redis_server.url, TABULA_APP_KEYS=f"bounds={APP_KEY}") as app:
        client = app.test_client()
        account = client.post("/v1/accounts", json={"name": "bounder", "kind": "bot"}).get_json()["token"]
        auth = {"Authorization": f"Bearer {account}"}
        created = client.post(
            "/v1/matches",
            json={"game": "anno1503", "seats": [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}]},
            headers=auth,
        ).get_json()
        client.put("/v1/account/webhook", json=HOOK, headers=auth)
        token_id = client.get("/v1/account/tokens", headers=auth).get_json()[0]["id"]
        values = {"match_id": created["match"]["id"], "name": "bounder", "game_id": "anno1503"}
        values.update({"id": token_id, "external_id": "ext-1", "pool": "anno1452-basic"})
        # A challenge and a seek of the account, for their routes' path ids.
        client.post("/v1/accounts", json={"name": "boundsfoe", "kind": "bot"})
        challenge = client.post("/v1/challenges", json=_bodies()["createChallenge"], headers=auth).get_json()
        seek = client.post("/v1/seeks", json={"pool": "anno1503-base"}, headers=auth).get_json()
        values.update({"challenge_id": challenge["id"], "seek_id": seek["id"]})
        yield client, auth, values, yaml.safe_load(spec_yaml(app))


def _resolve(spec, schema):
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def _variant(spec, schema, value):
    """The schema ``value`` is: through ``$ref``, and the ``oneOf``/``anyOf``
    branch whose ``const`` properties it matches."""
    schema = _resolve(spec, schema)
    for key in ("oneOf", "anyOf"):
        if key not in schema:
            continue
        for branch in schema[key]:
            branch = _variant(spec, branch, value)
            kinds = branch.get("type")
            if isinstance(value, dict) and (kinds == "object" or "properties" in branch):
                props = branch.get("properties", {})
                if (
                    all("const" not in props.get(k, {}) or props[k]["const"] == v for k, v in value.items())
                    and value.keys() <= props.keys()
                ):
                    return {**schema, **branch, key: None}
            elif not isinstance(value, dict) and kinds not in ("object", "null"):
                return {**schema, **branch, key: None} if "maximum" not in schema else schema
    return schema


def _past(schema, value, lower_lengths=True):
    """``[(what, value one past the bound)]`` of ``schema``'s declared bounds
    (``minLength`` too unless ``lower_lengths`` is false: an empty path
    segment is another route)."""
    out = []
    if lower_lengths and schema.get("minLength", 0) > 0:
        out.append((f"minLength {schema['minLength']}", "a" * (schema["minLength"] - 1)))
    if schema.get("minItems", 0) > 0 and isinstance(value, list):
        out.append((f"minItems {schema['minItems']}", value[: schema["minItems"] - 1]))
    if "maxLength" in schema:
        out.append((f"maxLength {schema['maxLength']}", "a" * (schema["maxLength"] + 1)))
    if "maximum" in schema:
        out.append((f"maximum {schema['maximum']}", schema["maximum"] + 1))
    if "minimum" in schema:
        out.append((f"minimum {schema['minimum']}", schema["minimum"] - 1))
    if "maxItems" in schema and isinstance(value, list) and value:
        out.append(
            (f"maxItems {schema['maxItems']}", value + [value[0]] * (schema["maxItems"] + 1 - len(value)))
        )
    return out


def _body_cases(spec, schema, value, where=()):
    """``[(json path, what, new value)]`` for every bounded field of ``value``."""
    schema = _variant(spec, schema, value)
    cases = [(where, what, new) for what, new in _past(schema, value)] if where else []
    if isinstance(value, dict):
        for key, sub in value.items():
            prop = schema.get("properties", {}).get(key)
            if prop is not None:
                cases.extend(_body_cases(spec, prop, sub, (*where, key)))
    elif isinstance(value, list) and value and "items" in schema:
        cases.extend(_body_cases(spec, schema["items"], value[0], (*where, 0)))
    return cases


def _with(body, path, new):
    body = copy.deepcopy(body)
    target = body
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return body


def _operations(spec):
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in ("get", "post", "put", "delete"):
                parameters = [*item.get("parameters", []), *operation.get("parameters", [])]
                yield path, method, operation, parameters


def _send(client, method, path, values, auth, query=None, headers=None, body=None):
    url = re.sub(r"{(\w+)}", lambda m: str(values[m.group(1)]), path)
    return client.open(
        url, method=method.upper(), query_string=query, headers={**auth, **(headers or {})}, json=body
    )


def test_every_declared_input_bound_is_enforced(stack):
    client, auth, values, spec = stack
    bodies = _bodies()
    checked, wrong = [], []
    for path, method, operation, parameters in _operations(spec):
        op_id = operation["operationId"]
        op_auth = {"Authorization": f"Bearer {APP_KEY}"} if op_id == "putAppAccount" else auth
        body = bodies.get(op_id)
        for parameter in parameters:
            schema = _resolve(spec, parameter["schema"])
            for what, past in _past(schema, None, parameter["in"] != "path"):
                where, name = parameter["in"], parameter["name"]
                kwargs = {"query": {name: past}} if where == "query" else {}
                kwargs.update({"headers": {name: str(past)}} if where == "header" else {})
                case_values = {**values, name: past} if where == "path" else values
                answer = _send(client, method, path, case_values, op_auth, body=body, **kwargs)
                expected = {"404"} if where == "path" else {"400", "422"}
                checked.append((op_id, f"{where} {name}", what, answer.status_code))
                if str(answer.status_code) not in expected & set(operation["responses"]):
                    wrong.append(checked[-1])
        if body is not None:
            media = operation["requestBody"]["content"]["application/json"]["schema"]
            for where, what, past in _body_cases(spec, media, body):
                answer = _send(client, method, path, values, op_auth, body=_with(body, where, past))
                checked.append((op_id, "body " + ".".join(map(str, where)), what, answer.status_code))
                if str(answer.status_code) not in {"400", "422"} & set(operation["responses"]):
                    wrong.append(checked[-1])
    print(f"{len(checked)} bounds sent one past: {len(wrong)} not refused as declared")
    for case in checked:
        print("  ", *case)
    assert len(checked) > 40
    assert {op for op, *_ in checked} >= set(bodies), "a body was not walked"
    assert not wrong, wrong
