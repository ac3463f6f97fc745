"""The web page that ``thousand serve`` serves at ``/``: ``static/`` holds it (HTML, CSS and
JavaScript modules, no build step) and nothing else. The routes that serve it and the web API
it uses are the server's (:mod:`thousand.server.routes`)."""
