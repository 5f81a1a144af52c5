"""Computer players.  Each sees only its seat's view and the legal actions."""

from burraco.bots.base import Bot, make_bot
from burraco.bots.basic import BasicBot
from burraco.bots.random_bot import RandomBot

__all__ = ["BasicBot", "Bot", "RandomBot", "make_bot"]
