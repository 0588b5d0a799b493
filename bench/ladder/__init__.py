"""The AI ladder: how strong the AI levels are and what their decisions cost.

One command, ``python -m bench.ladder``, with subcommands:

- ``run``: tournaments between the levels, win rates with 95% Wilson
  intervals, decision times (``run``); ``--record FILE`` keeps finished
  matches so a stopped run goes on where it stopped (``record``);
- ``slow``: replays one pairing and lists a level's slow decisions (``slow``);
- ``cost``: times a level's heaviest decisions here and at another git
  revision (``cost``).

Matches are played in worker processes; tasks and results cross between
processes as JSON text (``pool``), never as pickled game objects.
"""
