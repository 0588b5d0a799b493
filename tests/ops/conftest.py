"""Fixtures of tests/ops: ``launch`` (stack.py) for test_launcher.py and test_chaos.py."""

from .stack import launch

# Re-exported for pytest, which finds fixtures in conftest modules.
__all__ = ["launch"]
