"""placeholder"""
from __future__ import annotations
import argparse
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", type=int, required=True)
def run(args: argparse.Namespace) -> int:
    return 0
