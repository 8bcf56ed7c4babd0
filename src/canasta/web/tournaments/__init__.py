"""Duplicate tournaments on the server (issue 31; docs/tournament.md, "On the server").

A tournament's tables are ordinary served tables whose match is a :class:`.boards.BoardMatch`: hand
``i`` is board ``i``, dealt from :meth:`~canasta.bots.tournament.Tournament.deck` with the board's
dealer and side totals.  :mod:`.store` keeps tournaments in storage, :mod:`.service` creates them and
builds what each requester may see, :mod:`.routes` is the HTTP API and the page.  This package imports
nothing of :mod:`..served` at import time, so :mod:`..served` can use :mod:`.boards`.
"""
