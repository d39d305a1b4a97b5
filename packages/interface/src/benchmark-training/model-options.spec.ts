import { backendChoice, parserDefaults, plannedSettings } from '@maou/bench-use-cases/testing';
import { givenSettings } from './given-settings';
import { toBenchmarkConfig } from './to-benchmark-config';
import type { RawBenchmarkTrainingOptions } from './raw-options';

const defaults = parserDefaults([backendChoice('wasm')], 1);
const check = (raw: RawBenchmarkTrainingOptions) => toBenchmarkConfig(raw, defaults);
const issuesOf = (raw: RawBenchmarkTrainingOptions): string[] => {
  const r = check(raw);
  return r.ok ? [] : r.error.map((i) => `${i.field}: ${i.message}`);
};

describe("maou HEAD's model flags", () => {
  it('given mlp-mixer or vit, then the preset reaches training; an unknown one names the choices', () => {
    for (const a of ['mlp-mixer', 'vit', 'MLP-Mixer'] as const) {
      const r = check({ modelArchitecture: a });
      expect(r.ok && r.value.config.training.preset).toBe(a.toLowerCase());
    }
    expect(issuesOf({ modelArchitecture: 'convnext' })).toEqual([
      "--model-architecture: unknown architecture 'convnext'; choose resnet, mlp-mixer, vit or lite",
    ]);
  });

  it('given --vit-* overrides with vit, then only those override maou defaults, and checkpointing is carried', () => {
    const r = check({
      modelArchitecture: 'vit',
      vitEmbedDim: 256,
      vitNumHeads: 4,
      vitDropout: 0,
      gradientCheckpointing: true,
    });
    expect(r.ok && r.value.config.training).toMatchObject({
      vit: { embedDim: 256, numHeads: 4, dropout: 0 },
      gradientCheckpointing: true,
      freezeBackbone: false,
      trainableLayers: null,
    });
    expect(r.ok && Object.keys(r.value.config.training.vit ?? {})).toEqual(['embedDim', 'numHeads', 'dropout']);
  });

  it('given --vit-* or --gradient-checkpointing without vit, then accepted with a note that they have no effect, as maou ignores them', () => {
    const resnet = check({ vitEmbedDim: 256, gradientCheckpointing: true });
    expect(resnet.ok && resnet.value.warnings).toContain(
      '--vit-embed-dim, --gradient-checkpointing have no effect with --model-architecture resnet: they shape the ViT only (maou accepts and ignores them too)',
    );
    // the network trained is maou's resnet: no ViT shape, nothing checkpointed
    expect(resnet.ok && resnet.value.config.training).toMatchObject({ preset: 'resnet', gradientCheckpointing: false });
    expect(resnet.ok && resnet.value.config.training.vit).toBeUndefined();
    const mixer = check({ modelArchitecture: 'mlp-mixer', vitDropout: 0.2 });
    expect(mixer.ok && mixer.value.warnings).toContain(
      '--vit-dropout has no effect with --model-architecture mlp-mixer: it shapes the ViT only (maou accepts and ignores it too)',
    );
    // a value outside its range is still refused: it is never a valid ViT
    expect(issuesOf({ vitNumHeads: 0 })).toEqual(['--vit-num-heads: must be an integer from 1 to 65,536, got 0']);
  });

  it("given bad ViT shapes, then maou's construction errors become usage errors naming the flags", () => {
    expect(issuesOf({ modelArchitecture: 'vit', vitEmbedDim: 100 })).toEqual([
      '--vit-embed-dim: embed_dim must be divisible by num_heads for multi-head attention: --vit-embed-dim 100, --vit-num-heads 8',
    ]);
    expect(issuesOf({ modelArchitecture: 'vit', vitNumHeads: 0, vitDropout: 1.5, vitMlpRatio: -1 })).toEqual([
      '--vit-num-heads: must be an integer from 1 to 65,536, got 0',
      '--vit-mlp-ratio: must be a finite number in (0, 1024], got -1',
      '--vit-dropout: dropout probability has to be between 0 and 1, got 1.5',
    ]);
    // torch builds Dropout(1), which drops everything: refused here before the run, not at its first batch
    expect(issuesOf({ modelArchitecture: 'vit', vitDropout: 1 })).toEqual([
      '--vit-dropout: must be in [0, 1), got 1: every activation would be dropped and the encoder could learn nothing',
    ]);
    expect(issuesOf({ modelArchitecture: 'vit', vitEmbedDim: 8, vitNumHeads: 2, vitMlpRatio: 0.1 })).toEqual([
      '--vit-mlp-ratio: int(--vit-embed-dim 8 × --vit-mlp-ratio 0.1) is 0: the MLP needs a hidden unit',
    ]);
  });

  it("given freezing flags, then maou's bound and message, both carried as given, --trainable-layers winning with a note", () => {
    expect(issuesOf({ trainableLayers: -1 })).toEqual([
      '--trainable-layers: trainable_layers must be non-negative, got -1',
    ]);
    const both = check({ freezeBackbone: true, trainableLayers: 2 });
    expect(both.ok && both.value.config.training).toMatchObject({ freezeBackbone: true, trainableLayers: 2 });
    expect(both.ok && both.value.warnings).toContain(
      '--freeze-backbone and --trainable-layers both given: using trainable_layers=2, as maou does',
    );
  });

  it("given --trainable-layers past the network's groups, then accepted as all of them, with a note as maou clamps it", () => {
    const noteOf = (raw: RawBenchmarkTrainingOptions) => {
      const r = check(raw);
      return r.ok ? r.value.warnings.filter((w) => w.startsWith('--trainable-layers')) : ['refused'];
    };
    expect(noteOf({ trainableLayers: 5 })).toEqual([
      '--trainable-layers 5 is more than the 4 freezable group(s) of resnet (its stages): all 4 train, as maou clamps it',
    ]);
    expect(noteOf({ modelArchitecture: 'mlp-mixer', trainableLayers: 17 })).toEqual([
      '--trainable-layers 17 is more than the 16 freezable group(s) of mlp-mixer (its mixer blocks): all 16 train, as maou clamps it',
    ]);
    expect(noteOf({ modelArchitecture: 'vit', vitNumLayers: 2, trainableLayers: 3 })).toEqual([
      '--trainable-layers 3 is more than the 2 freezable group(s) of vit (its encoder blocks, --vit-num-layers): all 2 train, as maou clamps it',
    ]);
    expect(noteOf({ trainableLayers: 4 })).toEqual([]);
    expect(noteOf({ modelArchitecture: 'vit', trainableLayers: 6 })).toEqual([]);
  });

  it('given --stage1/2-batch-size, then the stage it names trains with it (the resource plan decides it), the others note it, and bad values are refused', () => {
    const planned = (raw: RawBenchmarkTrainingOptions) =>
      toBenchmarkConfig(raw, { ...defaults, ...plannedSettings(givenSettings(raw)) });
    const s1 = planned({
      stage: 1,
      batchSize: 64,
      stage1BatchSize: 16,
      stage2BatchSize: 8,
    });
    expect(s1.ok && s1.value.config.loader.batchSize).toBe(16);
    expect(s1.ok && s1.value.warnings).toContain('--stage2-batch-size 8 applies to Stage 2; this run is Stage 1');
    const s3 = planned({ batchSize: 64, stage2BatchSize: 8 });
    expect(s3.ok && s3.value.config.loader.batchSize).toBe(64);
    expect(issuesOf({ stage1BatchSize: 0, stage2BatchSize: 2.5 })).toEqual([
      '--stage1-batch-size: stage1_batch_size must be positive (at most 65,536), got 0',
      '--stage2-batch-size: stage2_batch_size must be positive (at most 65,536), got 2.5',
    ]);
  });
});
