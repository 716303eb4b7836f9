"""NNUE net files: load one for the engine, write one (the trainer's export).

The format is documented in docs/nnue.md; the C core (``_core.Net``) checks and reads it, and
this module writes it with the same CRC-32 (zlib's). A bad file is never skipped: loading
raises :class:`NetFileError` naming the file and the problem.
"""

from __future__ import annotations

import os
import struct
import zlib
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from royalchess import _core
from royalchess.variants import get_variant

__all__ = [
    "ACTIVATIONS",
    "FORMAT_VERSION",
    "MAGIC",
    "NetFileError",
    "NetWeights",
    "bucket",
    "bundled_net",
    "decode_net",
    "encode_net",
    "feature_count",
    "king_layout",
    "load_net",
    "max_pieces",
    "net_game",
    "read_net",
    "write_net",
]

MAGIC = b"RCNN"
FORMAT_VERSION = 3
"""The newest net format. A net is written in the oldest version that holds it: version 1
for one output bucket, 2 for several, 3 for king buckets (so earlier engines read every net
they can evaluate)."""
MAX_BUCKETS = 16
MAX_KING_BUCKETS = 32
KING_MIRROR = 0x80
"""In a king-square map entry: that perspective sees the board with its files mirrored."""
KING_LAYOUTS = ("mirror", "4", "8")
ACTIVATIONS = {"crelu": 0, "screlu": 1}
_HEADER = struct.Struct("<4s9I")
_HEADER_V2 = struct.Struct("<4s10I")
_HEADER_V3 = struct.Struct("<4s11I")


class NetFileError(ValueError):
    """A net file that is missing, unreadable, truncated, corrupted or for another game."""


def feature_count(variant: str) -> int:
    """The number of NNUE inputs of a game (768 for chess, 1600 for Royal Chess)."""
    return int(_core.nnue_inputs(get_variant(variant).core_id))


@dataclass(frozen=True)
class NetWeights:
    """A quantised net, as the file stores it.

    ``ft_w`` is ``inputs x hidden`` (row per feature), ``out_w`` is ``2 x hidden`` (the side
    to move's accumulator first). The centipawn value is
    ``(sum(act(acc) * out_w) [/ qa for screlu] + out_b) * scale / (qa * qb)``. With a
    ``king_map`` (see :func:`king_layout`), ``ft_w`` has ``king_buckets x inputs`` rows.
    """

    variant: str
    hidden: int
    activation: str
    qa: int
    qb: int
    scale: int
    ft_w: Sequence[int]
    ft_b: Sequence[int]
    out_w: Sequence[int]
    out_b: int | Sequence[int]
    buckets: int = 1
    king_buckets: int = 1
    king_map: Sequence[int] | None = None

    def biases(self) -> list[int]:
        """The output biases, one per bucket."""
        return [self.out_b] if isinstance(self.out_b, int) else list(self.out_b)


def max_pieces(variant: str) -> int:
    """The pieces of a game's start position (32 for chess, 40 for Royal Chess)."""
    return 40 if get_variant(variant).name == "royal" else 32


def bucket(variant: str, buckets: int, pieces: int) -> int:
    """The output bucket of a position with *pieces* pieces (Kings included): the counts
    from 2 to the start position's split evenly, the fewest pieces in bucket 0."""
    b = (pieces - 2) * buckets // (max_pieces(variant) - 1)
    return min(max(b, 0), buckets - 1)


def king_layout(variant: str, name: str) -> tuple[int, list[int]]:
    """(king buckets, king-square map) of a named layout for a game. The map has an entry
    per square, seen from the perspective's side (index ``rank * files + file``, rank 0 its
    own back rank): the input set of a King there, plus :data:`KING_MIRROR` on the right
    half of the board, so every layout sees its King on the left half (files a-d, a-e in
    Royal Chess). ``mirror``: one set; ``4``: back rank on the two outer files, back rank
    nearer the centre, second rank, the rest; ``8``: four bands of ranks (the back rank, the
    second, the third and fourth, the rest), each split into the two outer files and the
    inner ones."""
    if name not in KING_LAYOUTS:
        raise ValueError(f"unknown king layout {name!r}: one of {', '.join(KING_LAYOUTS)}")
    rules = get_variant(variant)
    files, ranks = rules.files, rules.ranks
    half = files // 2
    out = []
    for rank in range(ranks):
        for file in range(files):
            mirrored = file >= half
            f = files - 1 - file if mirrored else file
            inner = f >= 2
            if name == "mirror":
                b = 0
            elif name == "4":
                b = (0 + inner) if rank == 0 else 2 if rank == 1 else 3
            else:
                band = 0 if rank == 0 else 1 if rank == 1 else 2 if rank <= 3 else 3
                b = 2 * band + inner
            out.append(b | (KING_MIRROR if mirrored else 0))
    return 1 + max(v & ~KING_MIRROR for v in out), out


def encode_net(w: NetWeights) -> bytes:
    """The bytes of a net file for *w* (header, payload, CRC-32): format version 1 for one
    output bucket, version 2 (the bucket count in the header) for more, version 3 (the king
    bucket count and the king-square map) for a net with a ``king_map``."""
    inputs = feature_count(w.variant)
    h, nb, biases = w.hidden, w.buckets, w.biases()
    kb, kmap = w.king_buckets, w.king_map
    if not 1 <= nb <= MAX_BUCKETS:
        raise ValueError(f"a net has 1 to {MAX_BUCKETS} output buckets, not {nb}")
    if not 1 <= kb <= MAX_KING_BUCKETS:
        raise ValueError(f"a net has 1 to {MAX_KING_BUCKETS} king buckets, not {kb}")
    squares = get_variant(w.variant).files * get_variant(w.variant).ranks
    if kmap is None and kb != 1:
        raise ValueError("a net with king buckets needs a king-square map")
    if kmap is not None and (
        len(kmap) != squares or any(not 0 <= (v & ~KING_MIRROR) < kb for v in kmap)
    ):
        raise ValueError(f"the king-square map needs {squares} entries, each below {kb}")
    if (
        len(w.ft_w) != kb * inputs * h
        or len(w.ft_b) != h
        or len(w.out_w) != 2 * h * nb
        or len(biases) != nb
    ):
        raise ValueError("weight arrays do not match the architecture")
    payload = array("h", w.ft_w)
    payload.extend(w.ft_b)
    payload.extend(w.out_w)
    body = payload.tobytes() if array("h", [1]).tobytes() == b"\1\0" else _swapped(payload)
    body += struct.pack(f"<{nb}i", *biases)
    fields = (
        get_variant(w.variant).core_id,
        inputs,
        h,
        ACTIVATIONS[w.activation],
        w.qa,
        w.qb,
        w.scale,
    )
    if kmap is not None:
        header = _HEADER_V3.pack(MAGIC, 3, *fields, nb, kb, len(body)) + bytes(kmap)
    elif nb == 1:
        header = _HEADER.pack(MAGIC, 1, *fields, len(body))
    else:
        header = _HEADER_V2.pack(MAGIC, 2, *fields, nb, len(body))
    data = header + body
    return data + struct.pack("<I", zlib.crc32(data))


def _swapped(a: array[int]) -> bytes:
    b = array("h", a)
    b.byteswap()
    return b.tobytes()


def write_net(path: str | os.PathLike[str], w: NetWeights) -> None:
    """Write *w* as a net file."""
    Path(path).write_bytes(encode_net(w))


def _read(path: str | os.PathLike[str]) -> bytes:
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise NetFileError(f"{path}: net file not found") from None
    except OSError as e:
        raise NetFileError(f"{path}: cannot read the net file ({e.strerror})") from None


def decode_net(data: bytes) -> NetWeights:
    """The weights of a net file's bytes (the inverse of :func:`encode_net`); the core checks
    the file first, so a bad one raises :class:`NetFileError` naming the problem."""
    known = len(data) >= 16 and data[:4] == MAGIC
    version, game = struct.unpack_from("<2I", data, 4) if known else (0, 0)
    # a file of no known game is checked as a chess net: the core names what is wrong
    variant = next((n for n in ("chess", "royal") if get_variant(n).core_id == game), "chess")
    try:
        _core.Net(data, get_variant(variant).core_id)
    except ValueError as e:
        raise NetFileError(str(e)) from None
    kmap: list[int] | None = None
    if version == 1:
        fields = _HEADER.unpack_from(data)
        nb, kb, start = 1, 1, _HEADER.size
    elif version == 2:
        fields = _HEADER_V2.unpack_from(data)
        nb, kb, start = fields[9], 1, _HEADER_V2.size
    else:
        fields = _HEADER_V3.unpack_from(data)
        nb, kb = fields[9], fields[10]
        squares = get_variant(variant).files * get_variant(variant).ranks
        kmap = list(data[_HEADER_V3.size : _HEADER_V3.size + squares])
        start = _HEADER_V3.size + squares
    inputs, h, act, qa, qb, scale = fields[3:9]
    n = kb * inputs * h + h + 2 * h * nb
    payload = array("h")
    payload.frombytes(data[start : start + 2 * n])
    if array("h", [1]).tobytes() != b"\1\0":
        payload.byteswap()
    biases = list(struct.unpack_from(f"<{nb}i", data, start + 2 * n))
    ft_end = kb * inputs * h
    return NetWeights(
        variant=variant,
        hidden=h,
        activation=next(k for k, v in ACTIVATIONS.items() if v == act),
        qa=qa,
        qb=qb,
        scale=scale,
        ft_w=payload[:ft_end].tolist(),
        ft_b=payload[ft_end : ft_end + h].tolist(),
        out_w=payload[ft_end + h :].tolist(),
        out_b=biases[0] if nb == 1 else biases,
        buckets=nb,
        king_buckets=kb,
        king_map=kmap,
    )


def read_net(path: str | os.PathLike[str]) -> NetWeights:
    """The weights of a net file (to start training from it, or to inspect it);
    :class:`NetFileError` names the file and what is wrong with it."""
    data = _read(path)
    try:
        return decode_net(data)
    except NetFileError as e:
        raise NetFileError(f"{path}: {e}") from None


def net_game(path: str | os.PathLike[str]) -> str:
    """The game a net file is for (``chess`` or ``royal``), as its header says; a file whose
    header does not say raises :class:`NetFileError` naming the problem."""
    data = _read(path)
    if len(data) >= 12 and data[:4] == MAGIC:
        game = struct.unpack_from("<I", data, 8)[0]
        for name in ("chess", "royal"):
            if get_variant(name).core_id == game:
                return name
    load_net(path, "chess")  # raises with the file's problem
    return "chess"


def load_net(path: str | os.PathLike[str], variant: str) -> _core.Net:
    """Load and check a net file for a game; :class:`NetFileError` names what is wrong."""
    core_id = get_variant(variant).core_id
    data = _read(path)
    try:
        return _core.Net(data, core_id)
    except ValueError as e:
        raise NetFileError(f"{path}: {e}") from None


def bundled_net(variant: str) -> Path | None:
    """The net shipped with the package for a game (``royalchess/nets/<game>.nnue``), if any."""
    path = resources.files("royalchess") / "nets" / f"{get_variant(variant).name}.nnue"
    return Path(str(path)) if path.is_file() else None
