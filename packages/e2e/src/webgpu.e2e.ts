import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMaou } from './run-maou';
import { lavapipeEnv } from './webgpu-lavapipe';

const lavapipe = lavapipeEnv();
const runs = lavapipe.env !== null || lavapipe.required;
if (!runs) console.warn(`webgpu e2e skipped: ${lavapipe.reason}`);

const dir = mkdtempSync(join(tmpdir(), 'maou-e2e-webgpu-'));
const plain = { MAOU_BENCH_CACHE: join(dir, 'cache'), FORCE_COLOR: '0', NO_COLOR: '1' };

describe('maou utility benchmark-training --gpu webgpu (built binary)', () => {
  it('--mixed-precision is refused with exit 2 on a backend other than webgpu, before any data is touched', () => {
    const r = runMaou(['utility', 'benchmark-training', '--gpu', 'wasm', '--mixed-precision'], plain);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--mixed-precision: needs --gpu webgpu .*got --gpu wasm/);
  });

  // One f32 run of the fewest steps that give a profile (one warm-up, one profiled), on the planned-step spec's lite
  // Stage 3 case at its batch of 3, so Mesa's shader cache serves the shaders both compile: a cold cache costs
  // lavapipe minutes. The f16 step's numerics are checked in mixed-precision.spec.ts, its refusal above.
  (runs ? it : it.skip)(
    'on lavapipe: --enable-profiling gives per-kernel GPU times of the planned step in every phase',
    () => {
      if (!lavapipe.env) throw new Error(`lavapipe is set up but unusable: ${lavapipe.reason}`);
      const json = join(dir, 'report.json');
      const r = runMaou(
        [
          'utility',
          'benchmark-training',
          '--gpu',
          'webgpu',
          '--model-architecture',
          'lite',
          '--sample-positions',
          '64',
          '--batch-size',
          '3',
          '--warmup-batches',
          '1',
          '--max-batches',
          '2',
          '--enable-profiling',
          '--trace-path',
          join(dir, 'trace.json'),
          '--output-json',
          json,
          '--log-level',
          'silent',
        ],
        { ...plain, ...lavapipe.env },
        // with a cold shader cache: over 600 s on 2 shared cores at load 6 (warm: 11.6 s)
        900_000,
      );
      if (r.code !== 0) console.error(r.stderr);
      expect(r.code).toBe(0);
      const report = JSON.parse(readFileSync(json, 'utf8')) as {
        environment: { backend: string; backend_step: Record<string, unknown> };
        profile: {
          by_kernel: { kernel: string; calls: number; total_ms: number }[];
          by_phase: Record<string, unknown[]>;
        };
        config: Record<string, unknown>;
      };
      expect(report.environment.backend).toBe('webgpu');
      expect(report.config['training.mixedPrecision']).toBe(false);
      // GPU timestamps of the planned step's own kernels (labels from the plan), in every phase
      const kernels = report.profile.by_kernel.map((k) => k.kernel);
      expect(kernels).toEqual(expect.arrayContaining(['stage 3 loss', 'adamw update']));
      expect(kernels).not.toContain('loss scale');
      expect(kernels.some((k) => / conv$/.test(k))).toBe(true);
      expect(report.profile.by_kernel.every((k) => k.total_ms >= 0 && k.calls >= 1)).toBe(true);
      expect(Object.keys(report.profile.by_phase).sort()).toEqual(['backward', 'forward', 'loss', 'optimizer']);
      expect(report.environment.backend_step).toMatchObject({ precision: 'f32' });
      expect(r.stdout).toMatch(/Top kernels/);
    },
    900_000,
  );
});
