// Imported first by the replica worker: its tfjs-core copies (compute's and engine's, nested apart by npm where the
// host has its own tfjs-core) load before any other module needs one, without tfjs's platform warning. This
// package's manifest: from src/ under tests and from dist/.
import { join } from 'node:path';
import { loadTfjsCopies } from '@maou/bench-host';

loadTfjsCopies(join(__dirname, '..', '..', '..', '..', 'package.json'));
