"""Board pictures: one SVG renderer per game, drawn from a viewer's view.

    >>> import engine
    >>> from engine.render import board_svg
    >>> game = engine.get_game("anno1503")
    >>> svg = board_svg(game.view(game.setup(2, {}, seed=1), None))
    >>> svg.startswith("<svg") and "data-space" in svg
    True

A renderer reads the *view* only (what ``game.view(state, viewer)`` gives),
so a picture is redacted exactly as the view is. The HTTP service serves it
at ``GET /v1/matches/{id}/board.svg`` and the web client inlines the same
document, so the board is drawn in one place.

Clickable things carry ``data-`` attributes named after the action
parameters that refer to them (see each renderer's docstring); a client
matches legal actions to them without knowing the board's geometry.
"""

from ..core import Seat, View
from ..errors import UnknownGameError
from ..registry import get_entry, resolve


def board_svg(view: View, viewer: Seat | None = None) -> str:
    """The SVG document of ``view`` as seen by ``viewer`` (a seat, or None for a
    spectator); the renderer is the one the game's registry entry names.
    Raises ``ValueError`` for a game without one."""
    try:
        path = get_entry(view["game"]).renderer
    except (KeyError, UnknownGameError):
        path = None
    if path is None:
        raise ValueError(f"no board renderer for game {view.get('game')!r}")
    svg: str = resolve(path)(view, viewer)
    return svg


__all__ = ["board_svg"]
