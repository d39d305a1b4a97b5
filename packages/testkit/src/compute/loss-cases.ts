/**
 * Logits and targets where a backend's loss kernels are checked against the engine's losses: logits from −40 to 40
 * (softplus and σ saturate at both ends; −40 underflows e^z in f32), 0 and ±1e-3 (σ's middle), and targets 0, 1 and
 * fractional ones (Stage 2's smoothed labels, Stage 3's value), each logit paired with each target.
 * @public
 */
export const LOSS_LOGITS: readonly number[] = [-40, -12, -3, -1, -1e-3, 0, 1e-3, 0.5, 2, 9, 25, 40];

/** @public */
export const LOSS_TARGETS: readonly number[] = [0, 1, 0.3, 0.85];

/**
 * Stage 1/2 loss settings to check: maou's BCE with pos_weight 1 and 2.5, and the asymmetric loss with and without
 * the probability clip (the clip branch and the p^γ− branch), γ+ 0 and 1.
 * @public
 */
export const MULTI_LABEL_CASES: readonly {
  readonly posWeight: number;
  readonly gammaPos: number;
  readonly gammaNeg: number;
  readonly clip: number;
}[] = [
  { posWeight: 1, gammaPos: 0, gammaNeg: 0, clip: 0 },
  { posWeight: 2.5, gammaPos: 0, gammaNeg: 0, clip: 0 },
  { posWeight: 1, gammaPos: 0, gammaNeg: 4, clip: 0.05 },
  { posWeight: 1, gammaPos: 1, gammaNeg: 2, clip: 0 },
];
