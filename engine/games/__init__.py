"""Bundled games; importing this package registers them."""

from ..registry import register
from .anno1452 import Anno1452
from .anno1503 import Anno1503

register(Anno1503())
register(Anno1452())
