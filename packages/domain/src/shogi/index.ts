export * from './shogi-position';
export * from './sfen';
export * from './hcp';
export * from './features';
export * from './move16';
export * from './move-label';
export * from './result-value';
export * from './reachable-squares';
