import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { presetConvShapes } from './conv-layers';

// The PyTorch side of the route check (scripts/cuda-route-torch.py), run as the route check runs it, without a GPU.
const script = path.resolve(__dirname, '../../../../../../scripts/cuda-route-torch.py');
const python = spawnSync('python3', ['--version']).status === 0;

const runTorchSide = (shapes: object, extra: string[] = []) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'maou-route-')), 'shapes.json');
  fs.writeFileSync(file, JSON.stringify(shapes));
  const r = spawnSync('python3', [script, '--shapes', file, '--dry-run', ...extra], { encoding: 'utf8' });
  return { ...r, file };
};

describe("the route check's PyTorch side, dry run (no GPU)", () => {
  const maybe = python ? it : it.skip;
  if (!python) it('is skipped', () => console.warn('route-torch specs skipped: no python3'));

  maybe("given the planned steps' shapes, then it plans every shape × precision × layout × pass", () => {
    const shapes = { 'lite 256': presetConvShapes('lite', 256), 'resnet 1024': presetConvShapes('resnet', 1024) };
    const r = runTorchSide(shapes, ['--precisions', 'fp32,fp16']);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(`cuda-route-torch: ${(21 + 22) * 2 * 2 * 3} timings planned`);
  });

  maybe(
    'given a shape without its stride or an unknown precision, then it refuses naming the file and what is wrong',
    () => {
      const [first] = presetConvShapes('lite', 4);
      const { stride: _stride, ...noStride } = first!;
      const r = runTorchSide({ 'lite 4': [first, noStride] });
      expect(r.status).toBe(1);
      expect(r.stderr.trim()).toBe(`${r.file}: lite 4 shape 1 lacks stride`);
      const p = runTorchSide({ 'lite 4': [first] }, ['--precisions', 'fp64']);
      expect(p.status).toBe(2);
      expect(p.stderr).toContain('unknown precision or layout: fp64');
    },
  );
});
