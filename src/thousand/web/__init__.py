"""The web table: the page that ``thousand serve`` serves at ``/``, and the lobby API it uses.

``static/`` holds the page itself (HTML, CSS and JavaScript modules, no build step); the Python
modules here add to the server what only the page needs.
"""
