"""Table sessions, hands and the points ledger (花); scoring goes through scoring/.

No models yet: they arrive with this app's own issues.
"""
