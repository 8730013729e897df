// The scratch app's vitest config: every environment's test file under tests/.
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { include: ['tests/*.spec.ts', 'tests/*.spec.tsx'], testTimeout: 30_000 } });
