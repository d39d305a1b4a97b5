// The binary runs as a user runs it: pnpm's scripts (`pnpm test`) set NODE_PATH to pnpm's hoisted store, which lets
// a package load what it never declared; every child of an e2e test starts without it.
delete process.env.NODE_PATH;
