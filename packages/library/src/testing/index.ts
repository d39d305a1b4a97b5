// The test doubles of the ports (fake clock, memory logger, recording progress, …), for a service's own tests.
import '../tfjs-copies'; // first: our tfjs-core copies load before any other module of ours needs one
export * from '@maou/bench-use-cases/testing';
