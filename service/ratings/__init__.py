"""Ratings (docs/ratings.md): the rating pools of the games, OpenSkill
ratings per account and pool, their history, and the leaderboards.

Layered between ``play | live`` (which may import it) and ``accounts``
(which it may import, with everything below).
"""
