export * from './record-schema';
export * from './hcpe-columns';
export * from './validate-columns';
