"""The full-screen terminal table (``canasta play``, ``canasta replay``), built on Textual.

Only :mod:`canasta.tui.app`, :mod:`canasta.tui.widgets` and :mod:`canasta.tui.replay_app`
import Textual; the layout (:mod:`~canasta.tui.table`, :mod:`~canasta.tui.scoresheet`),
the match at one screen (:mod:`~canasta.tui.session`), replays and the command line are
plain Python.
"""
