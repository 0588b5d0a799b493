"""Tabula's games as PettingZoo (AEC) and Gymnasium environments.

    >>> import tabula_env
    >>> env = tabula_env.aec_env("anno1503-base-2p")          # one agent per seat
    >>> solo = tabula_env.single_agent_env("anno1503-base-2p", opponent="easy")

``VARIANTS`` lists the variant names. Each variant has a fixed action index
space (``tabula_env.codec``): an agent's index decodes to the action JSON
that ``POST /v1/matches/{id}/actions`` takes. Install with the ``env`` extra
(``pip install -e '.[env]'``); see docs/guides/train-an-agent.md.
"""

from engine.native import package_path

# The compiled modules (engine/native.py's COMPILED) first while their build is fresh.
__path__ = package_path(__name__, __path__)

from .aec import TabulaAECEnv
from .codec import ActionCodec, codec_for
from .single import TabulaSingleAgentEnv
from .variants import VARIANTS, Variant, get_variant


def aec_env(variant, **kwargs):
    """A ``TabulaAECEnv`` for ``variant`` (a name from ``VARIANTS``)."""
    return TabulaAECEnv(variant, **kwargs)


def single_agent_env(variant, **kwargs):
    """A ``TabulaSingleAgentEnv`` for ``variant`` (a name from ``VARIANTS``)."""
    return TabulaSingleAgentEnv(variant, **kwargs)


__all__ = [
    "VARIANTS",
    "ActionCodec",
    "TabulaAECEnv",
    "TabulaSingleAgentEnv",
    "Variant",
    "aec_env",
    "codec_for",
    "get_variant",
    "single_agent_env",
]
