"""Browser tests: the web page in Debian's Chromium, driven by Playwright, against a real server."""
