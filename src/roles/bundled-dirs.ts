import { fileURLToPath } from 'node:url';

// Both src/roles/*.ts and dist/roles/*.js sit two levels below the package root, so one
// relative URL finds the folders the package ships, from a checkout or from node_modules.
const packageRoot = new URL('../../', import.meta.url);

const dirOf = (name: string): string => fileURLToPath(new URL(name, packageRoot));

/** The package's own `agents/` folder (absolute path). */
export const BUNDLED_AGENTS_DIR = dirOf('agents');

/** The package's own `prompts/` folder (absolute path). */
export const BUNDLED_PROMPTS_DIR = dirOf('prompts');
