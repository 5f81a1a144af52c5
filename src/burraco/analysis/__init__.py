"""Post-game analysis: the strongest level's judgement of a seat's decisions (``burraco
analyze``)."""

from burraco.analysis.review import Analysis, Decision, Settings, analyze

__all__ = ["Analysis", "Decision", "Settings", "analyze"]
