import { type ConvPass, type RoutePrecision } from './cudnn-timer';

/** Who ran a timing: cuDNN called from Node through koffi, or PyTorch (`torch.backends.cudnn`) in a layout. @public */
export type RouteRunner = 'koffi' | 'torch nhwc' | 'torch nchw';

/** One timed pass of one convolution shape, as the route check's JSON lines hold it. @public */
export interface RouteTiming {
  readonly runner: RouteRunner;
  readonly preset: string;
  readonly batch: number;
  readonly precision: RoutePrecision;
  readonly pass: ConvPass;
  /** the shape's index in its preset's list at that batch */
  readonly shape: number;
  /** how many layers of the network have the shape */
  readonly layers: number;
  readonly ms: number;
}

export const ROUTE_RUNNERS: readonly RouteRunner[] = ['koffi', 'torch nhwc', 'torch nchw'];
const PASSES: readonly ConvPass[] = ['forward', 'data grad', 'filter grad'];

/**
 * The route check's table: per preset, batch and precision, each runner's convolution time over the whole network
 * (every shape's median × the layers that have it, the three passes summed and apart), and koffi's time over each
 * PyTorch layout's. A runner with a shape missing (a failed or skipped row) shows `—`, never a partial sum.
 * @public
 */
export function routeTable(timings: readonly RouteTiming[], shapesPer: ReadonlyMap<string, number>): string {
  const head = [
    '| preset | batch | precision | runner | forward ms | data grad ms | filter grad ms | total ms | koffi ÷ this |',
    '| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  const rows: string[] = [];
  for (const [key, shapes] of shapesPer) {
    const [preset, batch] = key.split(' ');
    for (const precision of ['fp32', 'tf32', 'fp16'] as const) {
      const of = (runner: RouteRunner, pass: ConvPass): number | null => {
        const hits = timings.filter(
          (t) =>
            t.runner === runner &&
            t.preset === preset &&
            t.batch === Number(batch) &&
            t.precision === precision &&
            t.pass === pass,
        );
        if (new Set(hits.map((t) => t.shape)).size !== shapes) return null;
        return hits.reduce((s, t) => s + t.ms * t.layers, 0);
      };
      const totals = new Map<RouteRunner, number | null>();
      for (const runner of ROUTE_RUNNERS) {
        const parts = PASSES.map((p) => of(runner, p));
        totals.set(runner, parts.includes(null) ? null : parts.reduce((s, v) => s! + v!, 0));
      }
      if ([...totals.values()].every((t) => t === null)) continue;
      for (const runner of ROUTE_RUNNERS) {
        const parts = PASSES.map((p) => of(runner, p));
        const total = totals.get(runner) ?? null;
        const koffi = totals.get('koffi') ?? null;
        const ratio = total !== null && koffi !== null && runner !== 'koffi' ? (koffi / total).toFixed(2) : '—';
        const cell = (v: number | null) => (v === null ? '—' : v.toFixed(2));
        rows.push(
          `| ${preset} | ${batch} | ${precision} | ${runner} | ${parts.map(cell).join(' | ')} | ${cell(total)} | ${ratio} |`,
        );
      }
    }
  }
  return [...head, ...rows].join('\n');
}
