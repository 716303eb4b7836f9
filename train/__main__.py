"""python -m train: train an NNUE on datagen files and export it for the engine.

python -m train DATA.bin [DATA2.bin ...] -o royal.nnue [--variant royal] [--hidden 128]
    [--epochs 10] [--batch 4096] [--lr 1e-3] [--wdl 0.3] [--seed 1] [--device cpu]
    [--validation 0.1] [--threads 1] [--cache DIR] [--factorise] [--mirror] [--last]
    [--buckets 1] [--king-buckets mirror|4|8] [--init NET.nnue]

With --init the training starts from a net's weights (its shape: hidden size, buckets,
activation and king layout, are the net's), e.g. to go on training the shipped net on new
data at a lower learning rate.
"""

from __future__ import annotations

import argparse
import sys
import time

from royalchess.nnue import KING_LAYOUTS, NetFileError, NetWeights, king_layout, read_net, write_net
from train.data import load, split
from train.trainer import Config, pick_device, train


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m train", description=__doc__.split("\n")[0])
    ap.add_argument("data", nargs="+", help="datagen files (royalchess datagen)")
    ap.add_argument("-o", "--output", required=True, help="the net file to write")
    ap.add_argument("--variant", choices=["chess", "royal"], help="default: the data's")
    ap.add_argument(
        "--limit", type=int, help="use at most this many examples (counted after --mirror)"
    )
    ap.add_argument(
        "--cache",
        metavar="DIR",
        help="keep each file's extracted features in DIR (keyed by the file's size)",
    )
    ap.add_argument(
        "--validation",
        type=float,
        default=0.1,
        help="share of the games held out to report a validation loss (0.1)",
    )
    ap.add_argument(
        "--factorise",
        action="store_true",
        help="train with shared per-piece, per-rank and per-file weights (folded on export)",
    )
    ap.add_argument(
        "--mirror",
        action="store_true",
        help="chess: also train on each position without castling rights reflected left to right",
    )
    ap.add_argument(
        "--last",
        action="store_true",
        help="export the last epoch's net, not the one with the lowest validation loss",
    )
    ap.add_argument(
        "--king-buckets",
        choices=KING_LAYOUTS,
        help="input sets by the own King's square (docs/nnue.md); default: none",
    )
    ap.add_argument(
        "--init",
        metavar="NET",
        help="start from this net's weights (and shape), not at random",
    )
    cfg = Config()
    for name in ("hidden", "buckets"):
        ap.add_argument(f"--{name}", type=int, help=f"default: {getattr(cfg, name)} (or --init's)")
    for name in ("epochs", "batch"):
        ap.add_argument(f"--{name}", type=int, default=getattr(cfg, name))
    for name in ("lr", "wdl", "k", "decay"):
        ap.add_argument(f"--{name}", type=float, default=getattr(cfg, name))
    ap.add_argument("--seed", type=int, default=cfg.seed)
    ap.add_argument("--threads", type=int, default=cfg.threads, help="CPU threads (1)")
    ap.add_argument(
        "--activation",
        choices=["screlu", "crelu"],
        help=f"default: {cfg.activation} (or --init's)",
    )
    ap.add_argument("--device", help="cpu, cuda, ... (default: a GPU when present)")
    args = ap.parse_args(argv)
    init: NetWeights | None = None
    if args.init:
        try:
            init = read_net(args.init)
        except NetFileError as e:
            ap.error(str(e))
        shape = _shape(init)
        if shape["king_buckets"] == "custom":
            ap.error(f"--init {args.init}: its king-square map is none of {KING_LAYOUTS}")
        given = {"hidden": args.hidden, "buckets": args.buckets, "activation": args.activation}
        given["king_buckets"] = args.king_buckets
        for name, value in given.items():
            if value is not None and value != shape[name]:
                flag = name.replace("_", "-")
                ap.error(f"--{flag} {value}: the --init net has {shape[name]}")
            setattr(args, name, shape[name])
    cfg = Config(
        hidden=args.hidden if args.hidden is not None else cfg.hidden,
        activation=args.activation or cfg.activation,
        epochs=args.epochs,
        batch=args.batch,
        lr=args.lr,
        wdl=args.wdl,
        k=args.k,
        seed=args.seed,
        device=args.device,
        threads=args.threads,
        decay=args.decay,
        keep_best=not args.last,
        factorise=args.factorise,
        buckets=args.buckets if args.buckets is not None else cfg.buckets,
        king_layout=args.king_buckets,
        init=init,
    )
    start = time.monotonic()
    everything = load(args.data, args.variant, args.limit, args.cache, args.mirror)
    data, held = split(everything, args.validation, args.seed)
    total = len(everything)
    del everything  # the split copied it: training need not hold every example twice
    print(
        f"{total} {data.variant} positions read in {time.monotonic() - start:.1f} s"
        f" ({len(data)} to train, {len(held)} held out); training on "
        f"{pick_device(cfg.device)}, {cfg.threads} thread(s)",
        file=sys.stderr,
    )
    start = time.monotonic()

    def progress(epoch: int, loss: float, validation: float | None) -> None:
        shown = f", validation {validation:.6f}" if validation is not None else ""
        took = time.monotonic() - start
        print(
            f"epoch {epoch}: loss {loss:.6f}{shown} ({took:.0f} s, "
            f"{epoch * len(data) / took:.0f} positions/s)",
            file=sys.stderr,
        )

    if init is not None and init.variant != data.variant:
        ap.error(f"--init {args.init} is a {init.variant} net, the data is {data.variant}")
    done = train(data, cfg, progress, held if len(held) else None)
    write_net(args.output, done.model.export())
    # The trainer hands back the best epoch, not the last: say which, so a log that shows a
    # later epoch's validation going up is not read as that epoch's net.
    which = f"epoch {done.epoch}"
    if done.validation and not args.last:
        which += f" (lowest validation {done.validation[done.epoch - 1]:.6f})"
    losses = done.losses
    print(
        f"wrote {args.output}: {which} of {len(losses) - 1}; training loss "
        f"{losses[0]:.6f} -> {losses[-1]:.6f} in {time.monotonic() - start:.0f} s",
        file=sys.stderr,
    )
    return 0


def _shape(w: NetWeights) -> dict[str, object]:
    """A net's architecture, named as the command line's options."""
    layout = None
    if w.king_map is not None:
        named = [n for n in KING_LAYOUTS if king_layout(w.variant, n)[1] == list(w.king_map)]
        layout = named[0] if named else "custom"
    return {
        "hidden": w.hidden,
        "buckets": w.buckets,
        "activation": w.activation,
        "king_buckets": layout,
    }


if __name__ == "__main__":
    sys.exit(main())
