"""Print the OpenAPI document. Regenerate the committed copy with::

    .venv/bin/python -m service.openapi > openapi.yaml

``tests/service/test_openapi.py`` fails when the committed file differs.
"""

import sys

from service.http.app import create_app
from service.spec.document import spec_yaml


def main() -> int:
    # No Redis is contacted: building the app only creates lazy clients.
    sys.stdout.write(spec_yaml(create_app()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
