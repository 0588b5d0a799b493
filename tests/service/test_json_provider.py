"""The orjson JSON provider keeps what Flask's stdlib provider could encode."""

import json

from service.http.json_provider import OrjsonProvider


def test_sort_keys_is_honoured_when_asked(app):
    provider = OrjsonProvider(app)
    assert provider.dumps({"b": 1, "a": 2}, sort_keys=True) == '{"a":2,"b":1}'
    assert provider.dumps({"b": 1, "a": 2}) == '{"b":1,"a":2}'


def test_values_orjson_refuses_fall_back_to_the_stdlib(app):
    provider = OrjsonProvider(app)
    huge = 2**70
    assert json.loads(provider.dumps({"n": huge})) == {"n": huge}


def test_response_is_json_with_a_trailing_newline(app):
    with app.app_context():
        response = app.json.response({"ok": True, "k": 1})
    assert response.mimetype == "application/json"
    assert response.get_data(as_text=True) == '{"ok":true,"k":1}\n'


def test_non_string_keys_are_still_encoded_as_before(app):
    provider = OrjsonProvider(app)
    assert provider.dumps({1: "a", "b": {2: 3}}) == '{"1":"a","b":{"2":3}}'
