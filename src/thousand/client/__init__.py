"""The terminal client: a Textual app that plays at a server's table over its protocol.

It knows the protocol (docs/protocol.md), not the rules: everything it shows comes from the
views the server sends, and its moves are the legal actions those views list.
"""
