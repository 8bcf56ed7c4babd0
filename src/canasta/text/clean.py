"""Text typed by people (names, chat lines): checked once, where it enters, in one sentence.

What is kept is valid Unicode on one line: runs of whitespace become one space, and nothing
that cannot be seen or that changes how the rest of the line reads is let through, since a
chat line or a name is shown to other people.  Refused:

- text that is not valid Unicode (a lone surrogate: no database can store it);
- control characters (NUL, ESC, DEL, ...): a terminal would obey them;
- characters that change the direction of the text around them (U+202E, U+2066, ...) or that
  are invisible (U+200B, U+2060, U+FEFF, ...): they make a line read as something else.

The zero-width joiner and non-joiner (U+200D, U+200C) and the tag characters of flag emoji stay:
emoji and some scripts need them.

>>> clean_text("  well\\tplayed  ", "chat text", 300)
'well played'
>>> clean_text("good\\u202egame", "chat text", 300)
Traceback (most recent call last):
...
canasta.text.clean.TextRefused: chat text may not hold U+202E (a character that turns the text's direction)
>>> clean_text("a\\ud800b", "a name", 24)
Traceback (most recent call last):
...
canasta.text.clean.TextRefused: a name is not valid Unicode (it holds a lone surrogate, U+D800)
"""

from __future__ import annotations

import unicodedata

from ..errors import CanastaError

KEPT_FORMAT = frozenset({"\u200c", "\u200d"} | {chr(c) for c in range(0xE0020, 0xE0080)})
"""Invisible format characters that stay: the joiners (emoji sequences, Indic and Arabic scripts) and the
tag characters of subdivision flags."""
DIRECTION = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Characters that turn or embed the direction of the text around them."""


class TextRefused(CanastaError):
    """Text that may not be shown to other people; the message says why in one sentence."""


def refusal(text: str, what: str) -> str | None:
    """Why ``text`` may not be kept (one sentence about ``what`` it is), or None."""
    for char in text:
        code = ord(char)
        category = unicodedata.category(char)
        if category == "Cs":
            return f"{what} is not valid Unicode (it holds a lone surrogate, U+{code:04X})"
        if category == "Cc":
            return f"{what} may not hold U+{code:04X} (a control character)"
        if char in DIRECTION:
            return f"{what} may not hold U+{code:04X} (a character that turns the text's direction)"
        if category == "Cf" and char not in KEPT_FORMAT:
            return f"{what} may not hold U+{code:04X} (an invisible character)"
    return None


def clean_text(value: object, what: str, most: int, least: int = 1) -> str:
    """``value`` on one line (whitespace folded), or :class:`TextRefused` naming ``what`` it is.

    ``least`` to ``most`` characters after folding; whitespace that is a control character
    (tab, newline) is folded, not refused."""
    if not isinstance(value, str):
        raise TextRefused(f"{what} must be text")
    folded = " ".join(value.split())
    why = refusal(folded, what)
    if why is not None:
        raise TextRefused(why)
    if not least <= len(folded) <= most:
        raise TextRefused(f"{what} must be {least} to {most} characters" if least else
                          f"{what} may hold at most {most} characters")
    return folded
