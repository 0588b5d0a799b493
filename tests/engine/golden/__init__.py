"""Golden playthroughs: seeded matches whose actions and per-step state
digests are committed, so that any change of the rules' behaviour shows.

Renew on purpose, after a deliberate rules change::

    .venv/bin/python -m tests.engine.golden            # what changed, nothing written
    .venv/bin/python -m tests.engine.golden --renew    # write the new records
"""
