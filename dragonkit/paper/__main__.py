"""``python -m dragonkit.paper``: the same as ``dragonkit paper`` (:mod:`dragonkit.paper.build`)."""

import argparse
import sys

from .arguments import add_arguments
from .build import run

parser = argparse.ArgumentParser(prog="python -m dragonkit.paper", description="print the kit's paper to PDF")
add_arguments(parser)
sys.exit(run(parser.parse_args()))
