"""Writes python-random-vectors.json: what CPython's random.Random and pathlib print, for python-random.spec.ts.

Run with python3 from this folder: python3 python-random-vectors.py > python-random-vectors.json
"""
import json
import random
import sys
from pathlib import PurePosixPath

SEEDS = [0, 1, 42, 2**32 - 1, 2**32, 2**40 + 5, 123456789012345, -7]

out = {"python": sys.version.split()[0], "streams": [], "shuffles": [], "path_orders": [], "splits": []}
for seed in SEEDS:
    r = random.Random(seed)
    words = [r.getrandbits(32) for _ in range(8)]
    # skip far into the state, past several regenerations of the 624-word table
    for _ in range(2000):
        r.getrandbits(32)
    later = [r.getrandbits(32) for _ in range(4)]
    bits = [[k, r.getrandbits(k)] for k in (1, 5, 31, 32, 33, 53)]
    out["streams"].append({"seed": seed, "first": words, "after2008": later, "bits": bits})
for seed in (42, 7):
    for n in (1, 2, 3, 5, 10, 100, 1000):
        r = random.Random(seed)
        x = list(range(n))
        r.shuffle(x)
        out["shuffles"].append({"seed": seed, "n": n, "shuffled": x})

names = [
    "/d/a-b/x.feather", "/d/a/x.feather", "/d/a.b.feather", "/d/A.feather", "/d/a b/y.feather",
    "/d/\u00e9.feather", "/d/\U0001f600.feather", "/d/\uffff.feather", "/d/a/b/c.feather", "/d/a0.feather",
]
out["path_orders"].append({"paths": names, "sorted": [str(p) for p in sorted(PurePosixPath(n) for n in names)]})


def maou_split(paths, ratio):
    """maou's streaming split (src/maou/infra/console/utility.py): sorted paths, Random(42).shuffle, max(1, int(n*r))."""
    shuffled = [str(p) for p in sorted(PurePosixPath(p) for p in paths)]
    random.Random(42).shuffle(shuffled)
    n_val = max(1, int(len(shuffled) * ratio))
    n_train = len(shuffled) - n_val
    if n_train < 1:
        n_train = 1
        n_val = len(shuffled) - 1
    return shuffled[:n_train], shuffled[n_train:]


for n, ratio in ((2, 0.2), (3, 0.2), (5, 0.2), (10, 0.2), (10, 0.35), (37, 0.1), (4, 0.9), (3, 0.5)):
    paths = [f"/data/part-{i:03d}.feather" for i in range(n)]
    train, val = maou_split(paths, ratio)
    out["splits"].append({"paths": paths, "ratio": ratio, "train": train, "validation": val})
train, val = maou_split(names, 0.2)
out["splits"].append({"paths": names, "ratio": 0.2, "train": train, "validation": val})

json.dump(out, sys.stdout, indent=1, ensure_ascii=True)
sys.stdout.write("\n")
