"""Writes of the activities app, one module per part (``services.tournaments``, …):
keyword-only, typed, atomic functions that check the role themselves."""
