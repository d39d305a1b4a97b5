import { objectStoreSource } from '@maou/bench-infra';
import { HttpFolderStore } from './http-folder-store';

/**
 * A bucket-style store as a new one would be written: its kind, help line and selecting flag, and how to connect
 * its store; the shared --input-* flags, listing, sampling, downloads, cache and retries come from the factory.
 */
export const httpFolderSource = objectStoreSource({
  kind: 'http-folder',
  help: 'a folder served over loopback HTTP (test plug-in)',
  label: 'the HTTP folder',
  flag: { name: 'input-http-folder', describe: 'read from a folder served over HTTP' },
  connect: (_sdk, target) => new HttpFolderStore(target.endpoint, target.bucket),
});
