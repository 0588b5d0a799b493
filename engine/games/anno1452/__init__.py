"""Anno 1452 (Gerhard E. Kodys, Piatnik 1999) for the Tabula engine.

Rules, actions, events, views and the dump format are documented in
``DESIGN.md`` beside this file.
"""

from .game import Anno1452

__all__ = ["Anno1452"]
