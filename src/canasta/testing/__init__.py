"""Checks of the engine itself: the scenario runner, the soak (every invariant at every step) and the bench."""
