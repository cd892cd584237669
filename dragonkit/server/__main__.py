"""``python -m dragonkit.server``: Voilà for a class (:class:`~dragonkit.server.app.ClassroomVoila`)."""

from .app import main

main()
