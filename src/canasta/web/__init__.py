"""The browser game: an ASGI server (FastAPI, uvicorn) with websockets, and its storage.

Needs the ``web`` extra: ``pip install 'canasta[web]'``.  Start it with ``canasta serve``;
the protocol is in docs/protocol.md.
"""
