"""Monthly reports, xlsx and PDF; this app only reads other apps' selectors.

No models yet: they arrive with this app's own issues.
"""
