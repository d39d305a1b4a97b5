import { NETWORK_PRESETS, STAGE_STRIDES, STEM } from '@maou/bench-engine';
import { flatParameters } from '../../webgpu/planned/step-description';
import { convFlops, presetConvShapes } from './conv-layers';

describe("the route check's convolution shapes, read off the planned step", () => {
  it.each(['lite', 'resnet'] as const)('%s: one entry per conv weight of the engine, each layer once', (preset) => {
    const shapes = presetConvShapes(preset, 256);
    const convWeights = flatParameters(preset, 3, 0)
      .filter((p) => p.name.endsWith('.conv.weight'))
      .map((p) => p.name.replace(/\.conv\.weight$/, ''));
    expect(shapes.flatMap((s) => s.layers).sort()).toEqual(convWeights.sort());
    // each shape's filter size is the engine's parameter size for each of its layers
    const sizes = new Map(flatParameters(preset, 3, 0).map((p) => [p.name, p.size]));
    for (const s of shapes)
      for (const l of s.layers) expect(s.k * s.k * s.cin * s.cout).toBe(sizes.get(`${l}.conv.weight`));
    expect(new Set(shapes.map((s) => JSON.stringify({ ...s, layers: [] }))).size).toBe(shapes.length);
  });

  it("lite's first convolution is the stem's channels on the 9×9 board at the batch asked for; strides follow the stages", () => {
    const [first] = presetConvShapes('lite', 1024);
    const w = NETWORK_PRESETS.lite.widths[0]!;
    expect(first).toEqual({
      batch: 1024,
      h: 9,
      cin: STEM.embedding + STEM.hand,
      cout: w,
      k: 1,
      stride: 1,
      pad: 0,
      oh: 9,
      layers: ['layer1.0.1'],
    });
    const strided = presetConvShapes('resnet', 256).filter((s) => s.stride > 1);
    expect(strided.length).toBe(2 * STAGE_STRIDES.filter((x) => x > 1).length); // the 3×3 and the shortcut of each
    expect(strided.every((s) => s.oh === Math.ceil(s.h / s.stride))).toBe(true);
    expect(convFlops(first!)).toBe(2 * 1024 * 81 * w * (STEM.embedding + STEM.hand));
  });
});
