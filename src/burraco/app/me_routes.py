"""Leaving: ``DELETE /api/me`` deletes the account, ``GET /api/me/export`` gives its data."""

from __future__ import annotations

from fastapi import APIRouter

from burraco.accounts.service import Players


def router(players: Players) -> APIRouter:
    api = APIRouter()
    return api
