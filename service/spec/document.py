"""The OpenAPI document the app generates from its schemas, served at
/openapi.yaml and printed by ``python -m service.openapi``.
"""

from typing import Any

import yaml

from service.spec import owasp
from service.spec.components import EXAMPLES
from service.spec.games import add_game_schemas


def spec_dict(app: Any) -> dict[str, Any]:
    spec = app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    headers = spec.get("components", {}).get("headers", {})
    if "PAGINATION" in headers:
        # flask-smorest documents X-Pagination as an object, but on the wire
        # it is a JSON string (stack-notes §1, pitfall 4); its own
        # PaginationMetadata component is then referenced by nothing.
        headers["PAGINATION"] = {
            "description": "Pagination metadata, a JSON object serialized as a string: "
            "`total`, `total_pages`, `first_page`, `last_page`, `page`, "
            "`previous_page`, `next_page` (integers; absent when they do not apply).",
            "schema": {"type": "string"},
        }
        spec["components"]["schemas"].pop("PaginationMetadata", None)
    spec = add_game_schemas(spec)  # typed views and events per game (service/spec/games.py)
    _polish_for_generators(spec)
    owasp.apply(spec)  # what the OWASP API ruleset asks of every route (service/spec/owasp.py)
    return spec


def _polish_for_generators(spec: dict[str, Any]) -> None:
    """What linters and code generators expect of the whole document: a license
    and the examples of spec_components.EXAMPLES on their components (the
    security, responses and bounds every operation states: service/spec/owasp.py)."""
    # The project states no licence (no LICENSE file, none in pyproject.toml): all rights reserved.
    spec["info"]["license"] = {"name": "Proprietary", "identifier": "LicenseRef-Proprietary"}
    schemas = spec["components"]["schemas"]
    for name, examples in EXAMPLES.items():
        schemas[name]["examples"] = examples


def spec_yaml(app: Any) -> str:
    """The spec as YAML with stable key order (so the committed file can be diffed)."""
    return yaml.safe_dump(spec_dict(app), sort_keys=True, allow_unicode=True, width=100)
