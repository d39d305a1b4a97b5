import { CUDNN_API, DRIVER_API, parseDeclarations } from './native-api';

describe("the route check's C declarations", () => {
  it('every driver and cuDNN declaration parses as koffi reads it (a GPU machine is the first to call them)', () => {
    expect(parseDeclarations()).toBe(Object.keys(DRIVER_API).length + Object.keys(CUDNN_API).length);
  });
});
