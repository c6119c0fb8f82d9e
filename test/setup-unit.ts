// The unit project's setup: the run's temp root, and no compile (its tests import src/ alone).
export { tempRoot as default } from './setup.js';
