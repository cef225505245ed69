"""The room's cash book in yuan: income 收 and expenses 支, purchase plans, day closing.

No models yet: they arrive with this app's own issues.
"""
