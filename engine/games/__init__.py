"""Bundled games; importing this package registers them.

One entry per game: its rules, and the paths of its AI package, board
renderer and environment encoders (``engine.registry.GameEntry``).
"""

from ..registry import register
from .anno1452 import Anno1452
from .anno1503 import Anno1503

register(
    Anno1503(),
    ai="engine.ai.anno1503",
    renderer="engine.render.anno1503:render",
    observation="tabula_env.obs_anno1503:encode",
)
register(
    Anno1452(),
    ai="engine.ai.anno1452",
    renderer="engine.render.anno1452:render",
    observation="tabula_env.obs_anno1452:encode",
    action_enumerators="tabula_env.actions_anno1452:ENUMERATORS",
)
