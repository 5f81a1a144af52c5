"""Matches between bots: running hands, and (later) statistics over many."""
