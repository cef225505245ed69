"""Members, membership cards, visits, opening hours and fees (会员).

No models yet: they arrive with this app's own issues.
"""
