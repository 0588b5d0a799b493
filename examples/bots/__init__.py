"""Bots: ``starter`` is the one to copy."""
