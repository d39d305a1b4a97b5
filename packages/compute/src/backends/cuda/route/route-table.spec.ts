import { type RouteTiming, routeTable } from './route-table';

const t = (runner: RouteTiming['runner'], pass: RouteTiming['pass'], shape: number, ms: number): RouteTiming => ({
  runner,
  preset: 'lite',
  batch: 256,
  precision: 'tf32',
  pass,
  shape,
  layers: shape === 0 ? 1 : 2,
  ms,
});

describe("the route check's table", () => {
  it('sums each runner over the network (a shape times its layers), and shows — for a runner with a shape missing', () => {
    const timings = [
      ...(['forward', 'data grad', 'filter grad'] as const).flatMap((pass, i) => [
        t('koffi', pass, 0, 1 + i),
        t('koffi', pass, 1, 0.5),
        t('torch nhwc', pass, 0, 2),
        t('torch nhwc', pass, 1, 1),
      ]),
      t('torch nchw', 'forward', 0, 3),
    ];
    const table = routeTable(timings, new Map([['lite 256', 2]])).split('\n');
    // koffi: forward 1 + 2·0.5 = 2, data 2 + 1 = 3, filter 3 + 1 = 4, total 9; torch nhwc: 2 + 2·1 = 4 a pass, 12
    expect(table.slice(2)).toEqual([
      '| lite | 256 | tf32 | koffi | 2.00 | 3.00 | 4.00 | 9.00 | — |',
      '| lite | 256 | tf32 | torch nhwc | 4.00 | 4.00 | 4.00 | 12.00 | 0.75 |',
      '| lite | 256 | tf32 | torch nchw | — | — | — | — | — |',
    ]);
  });

  it('leaves out a precision nobody timed', () => {
    expect(routeTable([], new Map([['resnet 1024', 22]])).split('\n')).toHaveLength(2);
  });
});
