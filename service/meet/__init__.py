"""Meeting an opponent: challenges and seeks ("Play now"), paired in waves.

challenges.py (invite accounts by name), seeks.py (wait in a rating pool),
waves.py (the workers' pairing rounds over pairing.py's grouping),
starting.py (the one match a challenge or a table becomes), rating.py (the
rating pairing reads). docs/matchmaking.md tells the design.
"""
