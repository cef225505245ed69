"""Writes of the activities app, one module per part (docs/activities.md)."""
