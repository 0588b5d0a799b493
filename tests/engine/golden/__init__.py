"""Golden playthroughs: seeded matches whose actions and per-step state
digests are committed, so that any change of the rules' behaviour shows;
the states themselves are kept compactly beside each record
(``<name>.states.gz``, see ``states``), so a change is shown as the diff of
the recorded and the new state at the first step that differs.

Renew on purpose, after a deliberate rules change::

    .venv/bin/python -m tests.engine.golden            # what changed, nothing written
    .venv/bin/python -m tests.engine.golden --renew    # write the new records
    .venv/bin/python -m tests.engine.golden --write-states  # only the states files
"""
