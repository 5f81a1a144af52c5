"""The composition root: ``asgi.create_app`` builds the hub (``server.assembly``), attaches
the community and the club, and mounts every part's routes and pages; ``cli`` is
``burraco serve``; ``workers`` runs it as several processes."""
