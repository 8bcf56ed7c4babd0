"""The fixtures in data/ were made by the code of an older commit; its script is not a test."""

collect_ignore = ["data"]
