import { pyarrowOrFail, runPythonJson } from '@maou/bench-testkit/arrow';
import { NPY_LAYOUTS } from './npy-layouts';

const needNumpy = pyarrowOrFail();

describe('NPY_LAYOUTS', () => {
  it("given each layout's fields in offset order, then numpy packs them at the same offsets into records of the same size", () => {
    needNumpy();
    const dtypes = NPY_LAYOUTS.map((l) =>
      Object.entries(l.fields)
        .sort(([, a], [, b]) => a - b)
        .map(([name]) => [name, `<${l.types[name]![0]}`, l.types[name]![1]]),
    );
    const numpy = runPythonJson<{ itemsize: number; fields: Record<string, number> }[]>(
      [
        'import sys, json, numpy as np',
        'dts = [np.dtype([(n, t) if c == 1 else (n, t, (c,)) for n, t, c in fields]) for fields in json.loads(sys.argv[1])]',
        "print(json.dumps([{'itemsize': d.itemsize, 'fields': {n: d.fields[n][1] for n in d.names}} for d in dts]))",
      ].join('\n'),
      [JSON.stringify(dtypes)],
    );
    expect(NPY_LAYOUTS.map((l) => ({ itemsize: l.itemsize, fields: l.fields }))).toEqual(numpy);
    // the record sizes of maou's spec (§2.4, §2.5, §2.7, §2.8)
    expect(NPY_LAYOUTS.map((l) => [l.name, l.itemsize])).toEqual([
      ['preprocessing', 3097],
      ['legacy-standard', 12922],
      ['legacy-packed', 4242],
      ['stage1', 184],
      ['stage2', 1599],
    ]);
  });
});
