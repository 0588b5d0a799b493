"""Must NOT type-check: each line marked ``# expect-error`` is a mistake the
spec has to catch (tests/client/test_generated_clients.py checks that mypy
reports an error on exactly those lines)."""

from tabula_api.models import (
    Anno1452DiscardAction,
    Anno1503BuyAction,
    Anno1503Commodity,
    PostAction,
    Seat,
    SeatKind,
)

typo = Anno1503BuyAction(type_="buy", comodity=Anno1503Commodity.SPICE)  # expect-error
wrong_type = Anno1503BuyAction(type_="sell", commodity=Anno1503Commodity.SPICE)  # expect-error
other_game = Anno1452DiscardAction(type_="discard", card="spice")  # expect-error
as_dict = PostAction(action={"type": "buy", "commodity": "spice"})  # expect-error
level: str = Seat(seat=0, kind=SeatKind.AI, name=None, level=None, resigned=False).level  # expect-error
