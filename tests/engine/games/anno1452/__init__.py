"""Tests of the Anno 1452 rules engine."""
