"""The OpenAPI document the app generates from its schemas.

Regenerate the committed copy with::

    .venv/bin/python -m service.openapi > openapi.yaml

``tests/service/test_openapi.py`` fails when the committed file differs.
"""

import sys

import yaml


def spec_dict(app):
    spec = app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    headers = spec.get("components", {}).get("headers", {})
    if "PAGINATION" in headers:
        # flask-smorest documents X-Pagination as an object, but on the wire
        # it is a JSON string (stack-notes §1, pitfall 4).
        headers["PAGINATION"] = {
            "description": "Pagination metadata: a JSON object (see PaginationMetadata) "
                           "serialized as a string.",
            "schema": {"type": "string"},
        }
    return spec


def spec_yaml(app):
    """The spec as YAML with stable key order (so the committed file can be diffed)."""
    return yaml.safe_dump(spec_dict(app), sort_keys=True, allow_unicode=True, width=100)


def main():
    from . import create_app  # noqa: PLC0415

    # No Redis is contacted: building the app only creates lazy clients.
    sys.stdout.write(spec_yaml(create_app()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
