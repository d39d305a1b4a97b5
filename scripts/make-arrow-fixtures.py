"""Writes small Arrow IPC fixtures with maou's record schemas using pyarrow (as maou's Rust writer does:
IPC File + LZ4_FRAME, large_list / large_binary / large_string), plus variants that exercise the Stream format,
several record batches, List / FixedSizeList columns and ZSTD bodies.

Rows come from maou-test-vectors.json (real positions and legal-move labels), so the TypeScript specs can
recompute every expected value. Usage: python3 scripts/make-arrow-fixtures.py
"""
import datetime
import json
import pathlib

import numpy as np
import pyarrow as pa
import pyarrow.ipc as ipc

ROOT = pathlib.Path(__file__).resolve().parent.parent
VECTORS = ROOT / "packages/domain/src/shogi/testdata/maou-test-vectors.json"
OUT = ROOT / "packages/testkit/fixtures"


def lst(t, large=True):
    return pa.large_list(t) if large else pa.list_(t)


def stage_columns(positions, stage):
    """Column values (python lists) for a stage, recomputable from the vectors."""
    cols = {
        "id": list(range(len(positions))),
        "boardIdPositions": [p["boardIdPositions"] for p in positions],
        "piecesInHand": [p["piecesInHand"] for p in positions],
    }
    if stage == 1:
        cols["reachableSquares"] = [[[1 if (r * 9 + c + i) % 7 == 0 else 0 for c in range(9)] for r in range(9)] for i in range(len(positions))]
    elif stage == 2:
        cols["legalMovesLabel"] = [[1 if k in {m[2] for m in p["legal"]} else 0 for k in range(1496)] for p in positions]
    else:
        labels = []
        for p in positions:
            row = [0.0] * 1496
            first, last = p["legal"][0][2], p["legal"][-1][2]
            row[first] += 0.5
            row[last] += 0.5
            labels.append(row)
        cols["moveLabel"] = labels
        cols["resultValue"] = [[0.0, 0.5, 1.0][i % 3] for i in range(len(positions))]
    return cols


def stage_schema(stage, kind):
    """kind: 'large' (maou), 'list' (32-bit offsets) or 'fixed' (FixedSizeList)."""
    def nest(t, shape):
        for n in reversed(shape):
            t = pa.list_(t, n) if kind == "fixed" else lst(t, kind == "large")
        return t
    fields = [("id", pa.uint64()), ("boardIdPositions", nest(pa.uint8(), [9, 9])), ("piecesInHand", nest(pa.uint8(), [14]))]
    if stage == 1:
        fields.append(("reachableSquares", nest(pa.uint8(), [9, 9])))
    elif stage == 2:
        fields.append(("legalMovesLabel", nest(pa.uint8(), [1496])))
    else:
        fields += [("moveLabel", nest(pa.float32(), [1496])), ("resultValue", pa.float32())]
    return pa.schema(fields)


def hcpe_table(positions):
    n = len(positions)
    schema = pa.schema([
        ("hcp", pa.large_binary()), ("eval", pa.int16()), ("bestMove16", pa.int16()), ("gameResult", pa.int8()),
        ("id", pa.large_string()), ("partitioningKey", pa.date32()), ("ratings", pa.large_list(pa.uint16())),
        ("endgameStatus", pa.large_string()), ("moves", pa.int16()),
    ])
    data = {
        "hcp": [bytes.fromhex(p["hcp_hex"]) for p in positions],
        "eval": [i * 10 - 100 for i in range(n)],
        "bestMove16": [p["legal"][0][1] for p in positions],
        "gameResult": [i % 3 for i in range(n)],
        "id": [f"fixture.hcpe_{i}" for i in range(n)],
        "partitioningKey": [datetime.date(2024, 1, 1) + datetime.timedelta(days=i) for i in range(n)],
        "ratings": [[1500 + i, 1600 - i] for i in range(n)],
        "endgameStatus": ["%TORYO"] * n,
        "moves": [n] * n,
    }
    return pa.Table.from_pydict(data, schema=schema)


def write(table, name, fmt="file", compression="lz4", batch_rows=None):
    options = ipc.IpcWriteOptions(compression=compression)
    path = OUT / name
    with pa.OSFile(str(path), "wb") as sink:
        opener = ipc.new_file if fmt == "file" else ipc.new_stream
        with opener(sink, table.schema, options=options) as writer:
            for batch in table.to_batches(max_chunksize=batch_rows or table.num_rows):
                writer.write_batch(batch)
    print(f"{name}: {table.num_rows} rows, {path.stat().st_size} bytes")


# maou PieceId -> cshogi/Apery piece type (spec 1.2); planes follow Apery types.
APERY_TYPE = [0, 1, 2, 3, 4, 7, 5, 6, 8, 9, 10, 11, 12, 13, 14]
HAND_PLANES = [18, 4, 4, 4, 4, 2, 2]


def legacy_records(positions):
    """LEGACY 104-plane preprocessing records (spec 2.5 / 4.3) and their bit-packed form."""
    standard = np.dtype([("id", "<u8"), ("features", "u1", (104, 9, 9)), ("moveLabel", "<f2", (1496,)),
                         ("resultValue", "<f2"), ("legalMoveMask", "u1", (1496,))])
    packed = np.dtype([("id", "<u8"), ("features_packed", "u1", (1053,)), ("moveLabel", "<f2", (1496,)),
                       ("resultValue", "<f2"), ("legalMoveMask_packed", "u1", (187,))])
    cols = stage_columns(positions, 3)
    a = np.zeros(len(positions), dtype=standard)
    for i, p in enumerate(positions):
        planes = np.zeros((104, 81), dtype=np.uint8)
        for r, row in enumerate(p["boardIdPositions"]):
            for c, pid in enumerate(row):
                if pid:
                    plane = APERY_TYPE[pid] - 1 if pid <= 14 else 14 + APERY_TYPE[pid - 14] - 1
                    planes[plane, c * 9 + r] = 1
        plane = 28
        for side in (0, 1):
            for kind, n in enumerate(HAND_PLANES):
                planes[plane:plane + p["piecesInHand"][side * 7 + kind]] = 1
                plane += n
        a[i]["id"] = i
        a[i]["features"] = planes.reshape(104, 9, 9)
        a[i]["moveLabel"] = np.array(cols["moveLabel"][i], dtype=np.float16)
        a[i]["resultValue"] = cols["resultValue"][i]
        a[i]["legalMoveMask"] = [1 if k in {m[2] for m in p["legal"]} else 0 for k in range(1496)]
    b = np.zeros(len(positions), dtype=packed)
    b["id"] = a["id"]
    b["features_packed"] = np.packbits(a["features"].reshape(len(a), -1), axis=1)
    b["moveLabel"] = a["moveLabel"]
    b["resultValue"] = a["resultValue"]
    b["legalMoveMask_packed"] = np.packbits(a["legalMoveMask"], axis=1)
    return a, b


def write_polars(out):
    """maou's cloud path writes with Polars write_ipc(compression="lz4"): binary_view/string_view columns and
    Polars' own LZ4 frames (which lz4js mis-decodes, spec D11). Skipped when Polars is not installed."""
    try:
        import polars as pl
    except ImportError:
        print("polars not installed: Polars fixtures left as they are")
        return
    for name in ("stage3", "hcpe"):
        table = ipc.open_file(str(out / f"{name}.lz4.feather")).read_all()
        pl.from_arrow(table).write_ipc(str(out / f"{name}.polars.lz4.feather"), compression="lz4")
        print(f"{name}.polars.lz4.feather: Polars {pl.__version__}")


def main():
    positions = json.loads(VECTORS.read_text())["positions"]
    OUT.mkdir(parents=True, exist_ok=True)
    write(hcpe_table(positions), "hcpe.lz4.feather")
    for stage in (1, 2, 3):
        table = pa.Table.from_pydict(stage_columns(positions, stage), schema=stage_schema(stage, "large"))
        write(table, f"stage{stage}.lz4.feather")
    table3 = pa.Table.from_pydict(stage_columns(positions, 3), schema=stage_schema(3, "list"))
    write(table3, "stage3.list.multibatch.lz4.arrows", fmt="stream", batch_rows=12)
    table2 = pa.Table.from_pydict(stage_columns(positions, 2), schema=stage_schema(2, "fixed"))
    write(table2, "stage2.fixedsize.multibatch.zstd.feather", compression="zstd", batch_rows=10)
    write_polars(OUT)
    # Legacy shards are headerless raw dumps (ndarray.tofile), as maou wrote them (spec 3.3).
    standard, packed = legacy_records(positions[:8])
    standard.tofile(OUT / "legacy-standard.npy")
    packed.tofile(OUT / "legacy-packed.npy")
    print(f"legacy-standard.npy: {standard.itemsize} B/record; legacy-packed.npy: {packed.itemsize} B/record")


if __name__ == "__main__":
    main()
