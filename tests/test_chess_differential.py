"""Differential proof against python-chess (the test-only oracle) over seeded random games.

Each game starts from the normal start or from a position of the perft EPD file and is played
by a seeded ``random.Random``. After every move both boards must agree on:

- the FEN (python-chess's ``fen(en_passant="fen")``: the en passant square after every double
  step, as classic FEN and the core write it);
- the set of legal moves (UCI strings; ours without duplicates) and the SAN of every one;
- ``is_check``, ``is_insufficient_material``, ``outcome()`` (termination and winner);
- in a subset of games (every shuffling game and every 8th other one)
  ``can_claim_threefold_repetition`` and ``can_claim_fifty_moves``.

The move we play is parsed from its SAN (or UCI) by our board, so parsing is checked too; in
every 8th game the whole game is then taken back with ``pop`` and every earlier FEN must
come back. Game styles: uniform random, *shuffle* (after a random opening, players mostly
undo their own last move, so threefold and fivefold repetitions happen) and *attack*
(prefers checks and captures, so checkmates happen). The default run plays 1,000 games and
requires every automatic termination (checkmate, stalemate, insufficient material,
75 moves, fivefold repetition) to have occurred; ``-m slow`` plays 5,000 more.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest
from _support import CHESS_START, FAST, epd_fens

from royalchess import Board

chess = pytest.importorskip("chess")

CHUNK = 50
DEFAULT_GAMES = 100 if FAST else 1000
SLOW_GAMES = 5000
DEFAULT_SEED = 20240601
SLOW_SEED = 77000001
MAX_PLIES = 3000

START_FENS = epd_fens()


def _style(index: int) -> str:
    return ("shuffle", "shuffle", "attack")[index % 10] if index % 10 < 3 else "random"


class Mismatch(AssertionError):
    pass


def _fail(what: str, game: dict, ref: chess.Board, detail: str) -> None:
    raise Mismatch(
        f"{what} differs in game {game['index']} (seed {game['seed']}, style {game['style']})\n"
        f"start FEN: {game['start']}\n"
        f"moves (UCI): {' '.join(m.uci() for m in ref.move_stack)}\n"
        f"FEN now (python-chess): {ref.fen(en_passant='fen')}\n{detail}"
    )


def _termination(outcome) -> tuple[str, bool | None] | None:
    return None if outcome is None else (outcome.termination.name, outcome.winner)


def _choose(
    rng: random.Random, ref: chess.Board, ucis: list[str], style: str, ply: int, opening: int
) -> str:
    if style == "shuffle" and ply >= opening and len(ref.move_stack) >= 2 and rng.random() < 0.9:
        own_last = ref.move_stack[-2]
        back = own_last.to_square, own_last.from_square
        undo = [u for u in ucis if (chess.parse_square(u[:2]), chess.parse_square(u[2:4])) == back]
        if undo:
            return undo[0]
        quiet = [
            u
            for u in ucis
            if not ref.is_capture(chess.Move.from_uci(u))
            and ref.piece_type_at(chess.parse_square(u[:2])) != chess.PAWN
        ]
        if quiet:
            return rng.choice(quiet)
    if style == "attack" and rng.random() < 0.7:
        moves = [chess.Move.from_uci(u) for u in ucis]
        checks = [m.uci() for m in moves if ref.gives_check(m)]
        if checks and rng.random() < 0.7:
            return rng.choice(checks)
        captures = [m.uci() for m in moves if ref.is_capture(m)]
        if captures:
            return rng.choice(captures)
    return rng.choice(ucis)


def play_game(index: int, base_seed: int) -> list[str]:
    """Play game *index* in lockstep on both boards; return its termination name, plus
    ``claim:threefold`` / ``claim:fifty`` if such a claim was possible at some ply."""
    seed = base_seed * 1_000_003 + index
    rng = random.Random(seed)
    style = _style(index)
    start = CHESS_START if rng.random() < 0.4 else rng.choice(START_FENS)
    game = {"index": index, "seed": seed, "style": style, "start": start}
    claims = style == "shuffle" or index % 8 == 0
    take_back = index % 8 == 1
    opening = rng.randrange(0, 80)
    ref = chess.Board(start)
    ours = Board(start)
    fens = []
    seen = set()
    for ply in range(MAX_PLIES):
        fen = ref.fen(en_passant="fen")
        if ours.fen() != fen:
            _fail("FEN", game, ref, f"ours: {ours.fen()}")
        fens.append(fen)
        ref_moves = {m.uci(): m for m in ref.legal_moves}
        our_moves = list(ours.legal_moves)
        our_ucis = [m.uci() for m in our_moves]
        if len(set(our_ucis)) != len(our_ucis):
            dup = [u for u, n in Counter(our_ucis).items() if n > 1]
            _fail("legal move list", game, ref, f"duplicates in ours: {dup}")
        if set(our_ucis) != set(ref_moves):
            _fail(
                "legal move set",
                game,
                ref,
                f"only ours: {sorted(set(our_ucis) - set(ref_moves))}\n"
                f"only python-chess: {sorted(set(ref_moves) - set(our_ucis))}",
            )
        our_sans = {m.uci(): ours.san(m) for m in our_moves}
        ref_sans = {u: ref.san(m) for u, m in ref_moves.items()}
        if our_sans != ref_sans:
            diff = {u: (our_sans[u], ref_sans[u]) for u in ref_sans if our_sans[u] != ref_sans[u]}
            _fail("SAN", game, ref, f"uci: (ours, python-chess): {diff}")
        king = ours.king(ours.turn)
        our_castles = {m.uci() for m in our_moves if m.from_square == king and ours.is_castling(m)}
        ref_castles = {u for u, m in ref_moves.items() if ref.is_castling(m)}
        if our_castles != ref_castles:
            _fail("is_castling", game, ref, f"ours: {our_castles}, python-chess: {ref_castles}")
        if ours.is_check() != ref.is_check():
            _fail("is_check", game, ref, f"ours: {ours.is_check()}")
        if ours.is_insufficient_material() != ref.is_insufficient_material():
            _fail("is_insufficient_material", game, ref, f"ours: {ours.is_insufficient_material()}")
        if claims:
            a, b = ours.can_claim_threefold_repetition(), ref.can_claim_threefold_repetition()
            if a != b:
                _fail("can_claim_threefold_repetition", game, ref, f"ours: {a}")
            if a:
                seen.add("claim:threefold")
            a, b = ours.can_claim_fifty_moves(), ref.can_claim_fifty_moves()
            if a != b:
                _fail("can_claim_fifty_moves", game, ref, f"ours: {a}")
            if a:
                seen.add("claim:fifty")
        ref_end, our_end = _termination(ref.outcome()), _termination(ours.outcome())
        if ref_end != our_end:
            _fail("outcome", game, ref, f"ours: {our_end}, python-chess: {ref_end}")
        if ref_end is not None:
            break
        uci = _choose(rng, ref, sorted(ref_moves), style, ply, opening)
        # Play it through our parsers: SAN on even plies, UCI on odd ones.
        played = ours.push_san(ref_sans[uci]) if ply % 2 == 0 else ours.push_uci(uci)
        if played.uci() != uci:
            _fail("parsed move", game, ref, f"pushed {uci}, ours parsed {played.uci()}")
        ref.push(ref_moves[uci])
    else:
        raise AssertionError(f"game {index} (seed {seed}) did not end in {MAX_PLIES} plies")
    if take_back:
        stack = ours.move_stack
        assert [m.uci() for m in stack] == [m.uci() for m in ref.move_stack]
        for expected in reversed(fens[:-1]):
            ours.pop()
            assert ours.fen() == expected, f"pop back in game {index} (seed {seed})"
        assert ours.move_stack == [] and ours.fen() == Board(start).fen()
    return [ref_end[0], *sorted(seen)]


@cache
def play_chunk(first: int, count: int, base_seed: int) -> tuple[tuple[str, int], ...]:
    results = Counter(tag for i in range(first, first + count) for tag in play_game(i, base_seed))
    return tuple(sorted(results.items()))


CHUNKS = [(first, min(CHUNK, DEFAULT_GAMES - first)) for first in range(0, DEFAULT_GAMES, CHUNK)]
SLOW_CHUNKS = [(first, min(CHUNK, SLOW_GAMES - first)) for first in range(0, SLOW_GAMES, CHUNK)]


@pytest.mark.parametrize("first,count", CHUNKS, ids=[f"games{f}-{f + n - 1}" for f, n in CHUNKS])
def test_random_games_match_python_chess(first: int, count: int) -> None:
    assert play_chunk(first, count, DEFAULT_SEED)


@pytest.mark.skipif(FAST, reason="the fast run plays too few games to see every ending")
def test_every_automatic_termination_occurred() -> None:
    seen: Counter[str] = Counter()
    for first, count in CHUNKS:
        seen.update(dict(play_chunk(first, count, DEFAULT_SEED)))
    ends = {
        "CHECKMATE",
        "STALEMATE",
        "INSUFFICIENT_MATERIAL",
        "SEVENTYFIVE_MOVES",
        "FIVEFOLD_REPETITION",
    }
    assert sum(n for tag, n in seen.items() if not tag.startswith("claim:")) == DEFAULT_GAMES
    assert DEFAULT_GAMES >= 1000
    wanted = ends | {"claim:threefold", "claim:fifty"}
    assert wanted <= set(seen), f"terminations and claims seen: {dict(seen)}"


@pytest.mark.slow
@pytest.mark.parametrize(
    "first,count", SLOW_CHUNKS, ids=[f"games{f}-{f + n - 1}" for f, n in SLOW_CHUNKS]
)
def test_many_more_random_games(first: int, count: int) -> None:
    assert play_chunk(first, count, SLOW_SEED)
