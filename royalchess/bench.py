"""``royalchess bench``: a fixed set of positions searched to a fixed depth.

The total node count is the engine's *signature*: it changes with every change to what the
search does and never with a refactor or a faster machine. Each position is searched from a
cleared hash table with a 16 MB table, so the count does not depend on order or timing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from royalchess import _core
from royalchess.variants import get_variant

__all__ = ["BENCH_DEPTH", "BENCH_POSITIONS", "BenchResult", "run"]

BENCH_DEPTH = 11
"""Default depth of every bench search."""

BENCH_POSITIONS: tuple[tuple[str, str], ...] = (
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    ("chess", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1"),
    ("chess", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"),
    ("chess", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"),
    ("chess", "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"),
    ("chess", "rnbqkb1r/pp3ppp/4pn2/2pp4/2PP4/2N1PN2/PP3PPP/R1BQKB1R b KQkq - 0 5"),
    ("chess", "r1b2rk1/2q1bppp/p2p1n2/np2p3/3PP3/5N1P/PPBN1PP1/R1BQR1K1 w - - 1 13"),
    ("chess", "2rq1rk1/pb2bppp/1pn1pn2/2pp4/3P4/1P1BPN2/PBPN1PPP/2RQ1RK1 w - - 2 11"),
    ("chess", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"),
    ("chess", "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1"),
    ("chess", "8/5k2/8/8/8/8/1P3K2/8 w - - 0 1"),
    ("chess", "r3r1k1/pp3pbp/1qp3p1/2B5/2BP2b1/Q1n2N2/P4PPP/3R1K1R b - - 0 18"),
    ("royal", "rnbgqkwbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBGQKWBNR w KQkq - 0 1"),
    ("royal", "r2g1kw2r/pppp2pppp/1nb1q1b1n1/4pp4/4PP4/1NB1Q1B1N1/PPPP2PPPP/R2G1KW2R w KQkq - 0 1"),
    ("royal", "r4k3r/ppp1g1pppp/2n2w1n2/3pb5/2B2q4/10/PPPPPBPPPP/RN1G1KW2R w KQkq - 0 1"),
    ("royal", "5k4/pp5r1p/2R7/4G2g2/2W1w5/7r2/2R4PPP/5K4 w - - 0 1"),
    ("royal", "2r2k4/2g7/10/2r3N3/P4G1n1P/4B5/1R1W2R3/5K4 w - - 0 1"),
    ("royal", "rnb1qkwbnr/pp1ppppppp/10/10/3Q6/10/2p7/5K4 b - - 0 1"),
)
"""(variant, FEN) of every bench position."""


@dataclass(frozen=True, slots=True)
class BenchResult:
    """The outcome of a bench run."""

    nodes: int
    """Total nodes: the signature."""
    seconds: float

    @property
    def nps(self) -> int:
        """Nodes per second."""
        return round(self.nodes / self.seconds) if self.seconds > 0 else 0


def run(
    depth: int = BENCH_DEPTH,
    *,
    progress: Callable[[int, str, str, int], object] | None = None,
) -> BenchResult:
    """Search every bench position to *depth*; *progress* gets (index, variant, fen, nodes)
    after each one."""
    search = _core.Search(16)
    total, elapsed = 0, 0.0
    for index, (variant, fen) in enumerate(BENCH_POSITIONS):
        search.clear()
        start = time.perf_counter()
        result = search.go(fen, get_variant(variant).core_id, depth=depth)
        elapsed += time.perf_counter() - start
        nodes = result["nodes"]
        assert isinstance(nodes, int)
        total += nodes
        if progress is not None:
            progress(index, variant, fen, nodes)
    return BenchResult(total, elapsed)
