import { constF, constI, dispatch, elementwise, UNIFORM_SLOT } from './wgsl';

describe('dispatch: layer constants become uniform fields', () => {
  const bindings = [
    { name: 'x', buffer: 'x' },
    { name: 'y', buffer: 'y', write: true },
  ];

  it('moves each module-scope constant into `u`, in order, and rewrites every use of it', () => {
    const code = [
      constI('C', 12),
      constF('EPS', 1e-5),
      'fn main() {',
      '  const LOCAL: i32 = 3;',
      '  let CX = 1; let v = vec2<f32>(0.0).x;',
      '  y[0] = x[C] * EPS + f32(CX + LOCAL) + v;',
      '}',
    ].join('\n');
    const d = dispatch('k', bindings, code, [1, 1, 1]);
    expect(d.uniforms).toEqual([
      { name: 'C', type: 'i32', value: 12 },
      { name: 'EPS', type: 'f32', value: 1e-5 },
    ]);
    expect(d.code).toContain('struct Shape { C: i32, EPS: f32 }');
    expect(d.code).toContain('@group(0) @binding(2) var<uniform> u: Shape;');
    // a longer identifier (CX), a member (.x) and a function-scope constant are left alone
    expect(d.code).toContain('  y[0] = x[u.C] * u.EPS + f32(CX + LOCAL) + v;');
    expect(d.code).toContain('  const LOCAL: i32 = 3;');
    expect(d.code).not.toMatch(/^const /m);
  });

  it('gives two layers of one kind the same shader and only different values', () => {
    const a = elementwise('a', bindings, 100, constI('OFF', 7), '    y[i] = x[OFF + i];');
    const b = elementwise('b', bindings, 900, constI('OFF', 30), '    y[i] = x[OFF + i];');
    expect(a.code).toBe(b.code);
    expect(a.uniforms.map((u) => u.value)).toEqual([7, 100]);
    expect(b.uniforms.map((u) => u.value)).toEqual([30, 900]);
  });

  it('leaves a kernel without constants unbound and refuses more fields than one slot holds', () => {
    expect(dispatch('k', bindings, 'fn main() {}', [1, 1, 1]).uniforms).toEqual([]);
    const many = Array.from({ length: UNIFORM_SLOT / 4 + 1 }, (_, i) => constI(`K${i}`, i)).join('\n');
    expect(() => dispatch('wide', bindings, many, [1, 1, 1])).toThrow(/wide: 65 uniforms exceed one slot/);
  });
});
