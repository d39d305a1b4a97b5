import { sourceOptions } from '@maou/bench-interface';
import { shippedPlugIns } from './plug-ins';
import { SHIPPED_SOURCE_FLAGS } from './source-options';

describe('SHIPPED_SOURCE_FLAGS (the type of the datasources’ options)', () => {
  it('names every flag the shipped datasources declare, with its type, and no other', () => {
    const declared = Object.entries(sourceOptions(shippedPlugIns().sources.choices())).map(([flag, spec]) => [
      flag,
      { type: spec.type, ...(spec.array ? { array: true } : {}) },
    ]);
    expect(Object.fromEntries(declared)).toEqual(SHIPPED_SOURCE_FLAGS);
  });
});
