"""``python -m service.worker``: the RQ worker process (service/worker/runner.py)."""

import sys

from service.worker.runner import main

sys.exit(main())
