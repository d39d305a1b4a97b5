// The test doubles of the ports (fake clock, memory logger, recording progress, …), for a service's own tests.
export * from '@maou/bench-use-cases/testing';
