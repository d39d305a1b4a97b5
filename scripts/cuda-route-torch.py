#!/usr/bin/env python3
"""PyTorch's side of the CUDA route check (scripts/cuda-route-check.ts): the same convolution shapes, passes and
precisions through torch.backends.cudnn, timed with CUDA events, one JSON line per timing on stdout.

  python3 cuda-route-torch.py --shapes shapes.json [--precisions fp32,tf32,fp16] [--layouts nhwc,nchw]
                              [--runs 10] [--warmup 3] [--dry-run]

shapes.json: {"<preset> <batch>": [{"batch", "h", "cin", "cout", "k", "stride", "pad", "oh", "layers": [...]}, ...]}.
fp32 is TF32 off (torch.backends.cudnn.allow_tf32 = False), tf32 PyTorch's convolution default, fp16 what autocast
runs a convolution in. cudnn.benchmark picks each algorithm by timing them, as the Node side's cudnnFind does.
The data and filter gradients are aten.convolution_backward, what autograd calls. --dry-run checks the shapes file
and, where torch imports, runs each call once on the CPU at batch 1; it needs no GPU.
"""
import argparse
import json
import statistics
import sys

PASSES = ("forward", "data grad", "filter grad")


def parse():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--shapes", required=True)
    p.add_argument("--precisions", default="fp32,tf32,fp16")
    p.add_argument("--layouts", default="nhwc,nchw")
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--dry-run", action="store_true")
    a = p.parse_args()
    a.precisions = a.precisions.split(",")
    a.layouts = a.layouts.split(",")
    bad = [x for x in a.precisions if x not in ("fp32", "tf32", "fp16")] + [
        x for x in a.layouts if x not in ("nhwc", "nchw")
    ]
    if bad:
        p.error(f"unknown precision or layout: {', '.join(bad)}")
    return a


def load_shapes(path):
    with open(path) as f:
        shapes = json.load(f)
    keys = ("batch", "h", "cin", "cout", "k", "stride", "pad", "oh", "layers")
    for group, items in shapes.items():
        for i, s in enumerate(items):
            missing = [k for k in keys if k not in s]
            if missing:
                sys.exit(f"{path}: {group} shape {i} lacks {', '.join(missing)}")
    return shapes


def passes(torch, s, dtype, layout, device, batch):
    fmt = torch.channels_last if layout == "nhwc" else torch.contiguous_format
    x = torch.full((batch, s["cin"], s["h"], s["h"]), 0.01, dtype=dtype, device=device).to(memory_format=fmt)
    w = torch.full((s["cout"], s["cin"], s["k"], s["k"]), 0.01, dtype=dtype, device=device).to(memory_format=fmt)
    dy = torch.full((batch, s["cout"], s["oh"], s["oh"]), 0.01, dtype=dtype, device=device).to(memory_format=fmt)
    stride, pad = [s["stride"]] * 2, [s["pad"]] * 2
    back = torch.ops.aten.convolution_backward
    return {
        "forward": lambda: torch.nn.functional.conv2d(x, w, None, stride, pad),
        "data grad": lambda: back(dy, x, w, None, stride, pad, [1, 1], False, [0, 0], 1, [True, False, False]),
        "filter grad": lambda: back(dy, x, w, None, stride, pad, [1, 1], False, [0, 0], 1, [False, True, False]),
    }


def dry_run(args, shapes):
    rows = sum(len(v) for v in shapes.values()) * len(args.precisions) * len(args.layouts) * len(PASSES)
    print(f"cuda-route-torch: {rows} timings planned", file=sys.stderr)
    try:
        import torch
    except ImportError as e:
        print(f"cuda-route-torch: dry run without torch ({e}): the calls were not exercised", file=sys.stderr)
        return
    for items in shapes.values():
        for s in items:
            for layout in args.layouts:
                for f in passes(torch, s, torch.float32, layout, "cpu", 1).values():
                    f()
    print("cuda-route-torch: every call ran once on the CPU at batch 1", file=sys.stderr)


def main():
    args = parse()
    shapes = load_shapes(args.shapes)
    if args.dry_run:
        return dry_run(args, shapes)
    import torch

    if not torch.cuda.is_available():
        sys.exit("cuda-route-torch: torch sees no CUDA device")
    torch.backends.cudnn.benchmark = True
    print(
        json.dumps({"torch": torch.__version__, "cudnn": torch.backends.cudnn.version(), "cuda": torch.version.cuda}),
        flush=True,
    )
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for group, items in shapes.items():
        preset, batch = group.split(" ")
        for precision in args.precisions:
            torch.backends.cudnn.allow_tf32 = precision == "tf32"
            dtype = torch.float16 if precision == "fp16" else torch.float32
            for layout in args.layouts:
                for i, s in enumerate(items):
                    for name, f in passes(torch, s, dtype, layout, "cuda", s["batch"]).items():
                        for _ in range(args.warmup):
                            f()
                        times = []
                        for _ in range(args.runs):
                            start.record()
                            f()
                            end.record()
                            end.synchronize()
                            times.append(start.elapsed_time(end))
                        row = {"runner": f"torch {layout}", "preset": preset, "batch": int(batch)}
                        row.update(precision=precision, ms=statistics.median(times), layers=len(s["layers"]))
                        row.update({"pass": name, "shape": i})
                        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
