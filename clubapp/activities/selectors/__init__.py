"""Reads of the activities app, one module per part (``selectors.tournaments``, …)."""
