"""Pages of the cash book (``/books/``): thin views over forms, services and selectors."""
