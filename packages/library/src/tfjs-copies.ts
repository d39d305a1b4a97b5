// Imported first by each entry of @maou/bench-app and of @maou/cli: our tfjs-core copies load before any other module
// of ours needs one, without tfjs's platform warning (docs/library.md). This package's manifest: from src/ under
// tests and from dist/.
import { join } from 'node:path';
import { loadTfjsCopies } from '@maou/bench-host';

loadTfjsCopies(join(__dirname, '..', 'package.json'));
