"""Thin flask-smorest views: parse, call one operation, return."""
