"""The engine in words: the complete rules of a game as plain English (:mod:`canasta.text.rulebook`)."""
