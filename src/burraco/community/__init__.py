"""What is built from tables and accounts: finished matches into history and ratings
(``results``), the daily duplicate (``daily``, ``service``), rematches (``rematch``).  It
registers on the table server's hooks; the table server imports nothing of it."""
