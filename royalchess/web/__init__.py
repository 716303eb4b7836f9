"""The web app: a local server with the board page and a JSON API (``royalchess serve``).

>>> from royalchess.web import create_app
>>> app = create_app(":memory:")
"""

from royalchess.web.app import create_app

__all__ = ["create_app"]
