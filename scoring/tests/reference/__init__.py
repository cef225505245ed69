"""Two independent scorers, for the differential test (test_reference.py).

Each was written by a separate author who read only ../shared/RULES.md,
../shared/HAND_RECORD.md and the Chinese seed texts, never this package: a
misreading of the rules would have to be made twice, the same way, to pass
unnoticed. They are kept as written (ruff skips this folder); they are slow
and need not be pretty, only independent. ``nanjing_ref.score`` covers
``nanjing`` and ``nanjing-classic``, ``worksite_ref.score`` ``jiangsu-worksite``;
both raise ValueError for records they refuse and NotImplementedError for the
few cases they leave out (quick entries among them). They were brought up to
issue 10's sharpened text the same way, from the documents alone (README.md
here lists what changed and the decisions taken); test_reference_scorers.py
checks them on worked hands.
"""
