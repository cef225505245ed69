"""Pages of the play app (``/play/``): thin, the work is in services and selectors; one
module per concern (``urls.py`` names them)."""
